//! Source text → AST: the pest grammar in `grammar/tsh.pest`, bracket-aware line
//! joining, and the Pratt table of Python's operator precedence.

pub mod ast;
pub mod lines;
mod parser;

pub use parser::parse_program;
