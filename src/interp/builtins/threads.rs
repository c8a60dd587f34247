//! `torch.set_num_threads` and friends: how many threads CPU kernels share.
//! tsh's kernels run on its kernel threads (see `crate::threads`); the count
//! can change at any time, as PyTorch's can (up to 256, and only as many as
//! the system lets tsh start: a warning says when it stopped short).

use std::sync::atomic::{AtomicUsize, Ordering};

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

/// The inter-op count PyTorch reports back; tsh runs one op at a time.
static INTEROP: AtomicUsize = AtomicUsize::new(0);

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "set_num_threads",
        "set_num_threads(int)",
        "How many threads CPU kernels use from now on.",
        "torch.set_num_threads(torch.get_num_threads())",
        set_num_threads
    ),
    row!(
        Function,
        "get_num_threads",
        "get_num_threads()",
        "How many threads CPU kernels use.",
        "torch.get_num_threads() >= 1",
        get_num_threads
    ),
    row!(
        Function,
        "set_num_interop_threads",
        "set_num_interop_threads(int)",
        "Accepted for PyTorch scripts: tsh runs one op at a time, each on the kernel threads.",
        "torch.set_num_interop_threads(1); torch.get_num_interop_threads()",
        set_num_interop_threads
    ),
    row!(
        Function,
        "get_num_interop_threads",
        "get_num_interop_threads()",
        "The count given to set_num_interop_threads (else the kernel threads').",
        "torch.get_num_interop_threads() >= 1",
        get_num_interop_threads
    ),
];

fn positive(mut a: Args, what: &str) -> Result<usize> {
    let n = a.int("int")?;
    a.finish()?;
    if n <= 0 {
        return Err(value_err(format!(
            "{what}: number of threads must be positive, got {n}"
        )));
    }
    Ok(n as usize)
}

fn set_num_threads(it: &mut Interp, a: Args) -> Result<Value> {
    let n = positive(a, "set_num_threads")?;
    let got = crate::threads::set(n);
    if got != n {
        it.warn(&format!(
            "set_num_threads({n}): tsh could start {got} kernel threads; loops use {got}"
        ));
    }
    Ok(Value::None)
}

fn get_num_threads(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(crate::threads::planned() as i64))
}

fn set_num_interop_threads(_: &mut Interp, a: Args) -> Result<Value> {
    let n = positive(a, "set_num_interop_threads")?;
    INTEROP.store(n, Ordering::Relaxed);
    Ok(Value::None)
}

fn get_num_interop_threads(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(match INTEROP.load(Ordering::Relaxed) {
        0 => crate::threads::planned(),
        n => n,
    } as i64))
}
