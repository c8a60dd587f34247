//! Which tensors are parameters (made by `nn.Parameter`): a module's
//! `parameters()` lists those among its attributes, and they print as
//! "Parameter containing:". Held weakly: a freed parameter's address, reused
//! by a new tensor, does not make that tensor a parameter.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::tensor::Tensor;
use crate::tensor::core::WeakTensor;

thread_local! {
    static PARAMETERS: RefCell<HashMap<usize, WeakTensor>> = RefCell::new(HashMap::new());
    /// Parameters a `module.to(...)` replaced by converted copies.
    static REPLACED: RefCell<HashMap<usize, WeakTensor>> = RefCell::new(HashMap::new());
}

/// `old` was replaced in its module by a moved or cast copy (tsh converts a
/// module's parameters into new tensors where PyTorch swaps their data).
pub fn mark_replaced(old: &Tensor) {
    REPLACED.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() > 4096 {
            r.retain(|_, w| w.alive());
        }
        r.insert(old.identity(), old.downgrade());
    });
}

/// Was this parameter replaced by `module.to(...)` (so an optimizer holding it
/// no longer trains the module)?
pub fn was_replaced(t: &Tensor) -> bool {
    REPLACED.with(|r| r.borrow().get(&t.identity()).is_some_and(|w| w.is(t)))
}

pub fn mark(t: &Tensor) {
    PARAMETERS.with(|p| {
        let mut p = p.borrow_mut();
        // Forget the parameters that are gone, now and then.
        if p.len() > 4096 {
            p.retain(|_, w| w.alive());
        }
        p.insert(t.identity(), t.downgrade());
    });
}

pub fn is_parameter(t: &Tensor) -> bool {
    PARAMETERS.with(|p| p.borrow().get(&t.identity()).is_some_and(|w| w.is(t)))
}
