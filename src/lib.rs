//! tsh, the tensor shell: a PyTorch-like array language with an eager CPU tensor
//! engine and PyTorch-faithful printing.

pub mod autograd;
pub mod backend;
pub mod error;
pub mod interp;
pub mod interrupt;
pub mod io;
pub mod memory;
pub mod mt19937;
pub mod nn;
pub mod print;
pub mod repl;
pub mod script;
pub mod syntax;
pub mod teach;
pub mod tensor;
pub mod threads;
#[doc(hidden)]
pub mod unit_tests;
pub mod warnings;

/// Large freed buffers are reused instead of returned to the system (memory.rs).
#[global_allocator]
static ALLOCATOR: memory::CachingAlloc = memory::CachingAlloc;
