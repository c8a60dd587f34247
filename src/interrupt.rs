//! Ctrl-C during evaluation. A SIGINT handler sets a flag; the interpreter polls
//! it between statements, loop iterations and calls, and long kernels poll it
//! between blocks, so a long loop or a long op returns to the prompt with every
//! variable intact. At the prompt rustyline reads Ctrl-C as a key instead.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::error::{Error, ErrorKind, Result};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Presses not yet answered: a way out if something never polls.
static UNANSWERED: AtomicUsize = AtomicUsize::new(0);
/// After this many unanswered presses the process exits (status 130).
const FORCE_QUIT_PRESSES: usize = 3;

pub fn request() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

pub fn clear() {
    INTERRUPTED.store(false, Ordering::SeqCst);
    UNANSWERED.store(0, Ordering::SeqCst);
}

/// Is an interrupt waiting? (Kernels ask this between blocks and stop early; the
/// caller then turns it into an error with `check`.)
pub fn pending() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

pub fn check() -> Result<()> {
    // A plain load first: this runs after every call, and is almost always false.
    if INTERRUPTED.load(Ordering::Relaxed) && INTERRUPTED.swap(false, Ordering::SeqCst) {
        UNANSWERED.store(0, Ordering::SeqCst);
        return Err(Error::new(ErrorKind::Interrupt, "interrupted (Ctrl-C)")
            .hint("every variable keeps the value it had when the statement was stopped"));
    }
    Ok(())
}

extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe work here: atomics, write(2) and _exit(2).
    INTERRUPTED.store(true, Ordering::SeqCst);
    let n = UNANSWERED.fetch_add(1, Ordering::SeqCst) + 1;
    if n >= FORCE_QUIT_PRESSES {
        let msg = b"\ntsh: interrupted three times without an answer; quitting\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe; msg outlives the call.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::_exit(130);
        }
    }
}

/// Install the SIGINT handler (the REPL does; scripts keep the default, which
/// stops them).
pub fn install_handler() {
    on_signal(on_sigint);
}

extern "C" fn request_only(_: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// SIGINT only interrupts the running statement, without the REPL's "three
/// presses quit" rule (the Jupyter kernel: a cell that does not poll must not
/// cost the session).
pub fn install_request_only_handler() {
    on_signal(request_only);
}

fn on_signal(handler: extern "C" fn(libc::c_int)) {
    // SAFETY: sigaction with a handler that only touches atomics and calls
    // async-signal-safe functions; the struct is fully initialised by zeroed().
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = handler as *const () as usize;
        sa.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}
