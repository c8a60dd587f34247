//! `torch.backends.cudnn.benchmark = True` and the other switches training
//! scripts set before they start. tsh keeps what is set and reads it back; none
//! changes what tsh computes: it has no cuDNN (convolutions are its own
//! kernels) and never uses TF32, so results are those of the defaults.

use std::cell::RefCell;

use crate::error::{Result, type_err};
use crate::interp::value::Value;

/// (module, flag, PyTorch's default).
const FLAGS: &[(&str, &str, bool)] = &[
    ("torch.backends.cudnn", "benchmark", false),
    ("torch.backends.cudnn", "deterministic", false),
    ("torch.backends.cudnn", "enabled", true),
    ("torch.backends.cudnn", "allow_tf32", true),
    ("torch.backends.cuda.matmul", "allow_tf32", false),
    (
        "torch.backends.cuda.matmul",
        "allow_fp16_reduced_precision_reduction",
        true,
    ),
    (
        "torch.backends.cuda.matmul",
        "allow_bf16_reduced_precision_reduction",
        true,
    ),
];

thread_local! {
    static SET: RefCell<Vec<(&'static str, &'static str, bool)>> = const { RefCell::new(Vec::new()) };
}

/// The submodules that hold flags, under their parent.
pub fn submodule(module: &str, name: &str) -> Option<&'static str> {
    Some(match (module, name) {
        ("torch.backends", "cudnn") => "torch.backends.cudnn",
        ("torch.backends", "cuda") => "torch.backends.cuda",
        ("torch.backends.cuda", "matmul") => "torch.backends.cuda.matmul",
        _ => return None,
    })
}

fn flag(module: &str, name: &str) -> Option<(&'static str, &'static str, bool)> {
    FLAGS
        .iter()
        .copied()
        .find(|(m, n, _)| *m == module && *n == name)
}

/// `torch.backends.cudnn.benchmark`: what was set, else PyTorch's default.
pub fn get(module: &str, name: &str) -> Option<Value> {
    let (m, n, default) = flag(module, name)?;
    let set = SET.with(|s| {
        s.borrow()
            .iter()
            .find(|(sm, sn, _)| *sm == m && *sn == n)
            .map(|f| f.2)
    });
    Some(Value::Bool(set.unwrap_or(default)))
}

/// `torch.backends.cudnn.benchmark = True`. None: not a flag of that module.
pub fn set(module: &str, name: &str, v: &Value) -> Option<Result<()>> {
    let (m, n, _) = flag(module, name)?;
    let on = match v {
        Value::Bool(b) => *b,
        other => {
            return Some(Err(type_err(format!(
                "{module}.{name} must be a bool, not {}",
                other.a_type_name()
            ))));
        }
    };
    SET.with(|s| {
        let mut s = s.borrow_mut();
        s.retain(|(sm, sn, _)| !(*sm == m && *sn == n));
        s.push((m, n, on));
    });
    Some(Ok(()))
}
