//! The op vocabulary: every element-wise, reduction and scan op declared once, as
//! a row. The backends implement the rows' kernels; the tensor layer checks
//! dtypes by the rows' rules; autograd takes their derivatives; the interpreter
//! makes builtins and methods of them.

pub mod binary;
pub mod fastmath;
pub mod fastmath_derived;
pub mod fastmath_erf;
pub mod igamma;
pub mod math;
pub mod program;
pub mod reduce;
pub mod special;
pub mod unary;

pub use binary::{BINARY_ROWS, BinaryFn, BinaryOp, BinaryRow, BinaryRule, BinaryVisitor};
pub use reduce::{ReduceOp, ScanOp, TernaryOp};
pub use unary::{DtypeRule, PredicateOp, UNARY_ROWS, UnaryFn, UnaryOp, UnaryRow, UnaryVisitor};
