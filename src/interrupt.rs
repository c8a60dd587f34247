//! Ctrl-C during evaluation: a flag the signal handler sets and the interpreter
//! polls between statements, so a long loop returns to the prompt intact.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, ErrorKind, Result};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn request() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

pub fn clear() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

pub fn check() -> Result<()> {
    if INTERRUPTED.swap(false, Ordering::SeqCst) {
        return Err(Error::new(ErrorKind::Interrupt, "interrupted (Ctrl-C)"));
    }
    Ok(())
}
