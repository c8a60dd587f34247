//! Source text → AST: the pest grammar in `grammar/tsh.pest`, bracket-aware line
//! joining, Python's indented blocks turned into braces, and the Pratt table of
//! Python's operator precedence.

pub mod ast;
mod exprs;
mod fstring;
pub(crate) mod indent;
pub mod lines;
mod parser;

pub use parser::{ends_with_decorator, parse_program, python_block_open};
