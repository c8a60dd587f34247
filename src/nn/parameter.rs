//! Which tensors are parameters (made by `nn.Parameter`): a module's
//! `parameters()` lists those among its attributes, and they print as
//! "Parameter containing:". Held weakly: a freed parameter's address, reused
//! by a new tensor, does not make that tensor a parameter.

use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

use crate::tensor::Tensor;
use crate::tensor::core::WeakTensor;

/// A set of tensors by identity, held weakly.
type Registry = RefCell<HashMap<usize, WeakTensor>>;

thread_local! {
    static PARAMETERS: Registry = RefCell::new(HashMap::new());
    /// Parameters a `module.to(...)` replaced by converted copies.
    static REPLACED: Registry = RefCell::new(HashMap::new());
}

fn insert(set: &'static LocalKey<Registry>, t: &Tensor) {
    set.with(|s| {
        let mut s = s.borrow_mut();
        // Forget the tensors that are gone, now and then.
        if s.len() > 4096 {
            s.retain(|_, w| w.alive());
        }
        s.insert(t.identity(), t.downgrade());
    });
}

fn contains(set: &'static LocalKey<Registry>, t: &Tensor) -> bool {
    set.with(|s| s.borrow().get(&t.identity()).is_some_and(|w| w.is(t)))
}

pub fn mark(t: &Tensor) {
    insert(&PARAMETERS, t);
}

pub fn is_parameter(t: &Tensor) -> bool {
    contains(&PARAMETERS, t)
}

/// `old` was replaced in its module by a moved or cast copy (tsh converts a
/// module's parameters into new tensors where PyTorch swaps their data).
pub fn mark_replaced(old: &Tensor) {
    insert(&REPLACED, old);
}

/// Was this parameter replaced by `module.to(...)` (so an optimizer holding it
/// no longer trains the module)?
pub fn was_replaced(t: &Tensor) -> bool {
    contains(&REPLACED, t)
}
