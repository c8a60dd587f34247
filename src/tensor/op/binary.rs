//! Binary element-wise ops and operators, one row each: the operator symbol and
//! builtin name, PyTorch's grad_fn name, the dtype rule, the scalar function per
//! kind of element, and the derivative in tensor ops. The parser's operators map
//! to these rows by symbol.

use super::fastmath::{exp_f32, expm1_f32, log1p_f32};
use super::fastmath_derived::{atan2_f32, hypot_f32};
use super::math::{
    div_floor_f32, div_floor_f64, fmod_f32, int_pow, logaddexp, logaddexp_f32, nan_max_f32,
    nan_max_f64, nan_min_f32, nan_min_f64, nextafter, nextafter_f32, py_floordiv_int, py_fmod,
    py_fmod_f32, py_mod_int, shl_int, shr_int, xlogy, xlogy_f32,
};
use crate::error::Result;
use crate::tensor::Tensor;

/// How the operands' dtypes decide the compute dtype, as PyTorch decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryRule {
    /// PyTorch's promotion (bool takes part).
    Promote,
    /// Promotion, but a bool operand is refused (`-` on bools).
    NoBoolOperand,
    /// Promotion, but a bool result is refused (`//`, `%` and `**` of bools).
    NoBoolResult,
    /// Promotion, then integers and bool become the default float (`/`, atan2).
    ToFloat,
    /// Bool and integers (`& | ^`).
    Integral,
    /// Integers only (`<< >>`).
    IntegerOnly,
    /// Floating point operands only (hypot, logaddexp).
    FloatOnly,
}

/// The scalar functions of an op; comparisons fill the `cmp_` ones.
pub trait BinaryFn: 'static {
    fn f32(x: f32, y: f32) -> f32;
    fn f64(x: f64, y: f64) -> f64;
    fn i64(x: i64, y: i64) -> i64;
    fn cmp_f32(x: f32, y: f32) -> bool;
    fn cmp_f64(x: f64, y: f64) -> bool;
    fn cmp_i64(x: i64, y: i64) -> bool;
}

pub trait BinaryVisitor {
    type Out;
    fn visit<F: BinaryFn>(self) -> Self::Out;
}

/// Gradients for (a, b) from the operands, the output and the incoming gradient,
/// for the operands that need one.
pub type BinaryDerivative = fn(
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    g: &Tensor,
    need: [bool; 2],
) -> Result<[Option<Tensor>; 2]>;

pub struct BinaryRow {
    pub op: BinaryOp,
    /// The operator as written (`+`), or the function name for those without one.
    pub symbol: &'static str,
    pub name: &'static str,
    pub grad_fn: &'static str,
    pub rule: BinaryRule,
    /// Comparisons and logical ops answer in bool.
    pub compare: bool,
    pub derivative: Option<BinaryDerivative>,
    pub help: &'static str,
    pub example: &'static str,
}

macro_rules! binary_ops {
    ($(
        $Var:ident $symbol:literal $name:literal $grad:literal $rule:ident
        $kind:ident [$($body:tt)*] d $deriv:expr, $help:literal, $example:literal;
    )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BinaryOp { $($Var),* }

        pub mod f {
            $(pub struct $Var;)*
        }

        $(binary_ops!(@impl $Var $kind $($body)*);)*

        impl BinaryOp {
            pub fn visit<V: BinaryVisitor>(self, v: V) -> V::Out {
                match self { $(BinaryOp::$Var => v.visit::<f::$Var>(),)* }
            }
        }

        pub const BINARY_ROWS: &[BinaryRow] = &[$(BinaryRow {
            op: BinaryOp::$Var,
            symbol: $symbol,
            name: $name,
            grad_fn: $grad,
            rule: BinaryRule::$rule,
            compare: binary_ops!(@is_cmp $kind),
            derivative: $deriv,
            help: $help,
            example: $example,
        },)*];
    };
    (@is_cmp arith) => { false };
    (@is_cmp compare) => { true };
    (@impl $Var:ident arith
        f32 |$a:ident, $b:ident| $f32:expr, f64 |$c:ident, $d:ident| $f64:expr,
        i64 |$e:ident, $g:ident| $int:expr) => {
        impl BinaryFn for f::$Var {
            #[inline(always)]
            #[allow(unused_variables)]
            fn f32($a: f32, $b: f32) -> f32 { $f32 }
            #[inline(always)]
            #[allow(unused_variables)]
            fn f64($c: f64, $d: f64) -> f64 { $f64 }
            #[inline(always)]
            #[allow(unused_variables)]
            fn i64($e: i64, $g: i64) -> i64 { $int }
            fn cmp_f32(_: f32, _: f32) -> bool { false }
            fn cmp_f64(_: f64, _: f64) -> bool { false }
            fn cmp_i64(_: i64, _: i64) -> bool { false }
        }
    };
    // A comparison is written once, for every element kind; `z` is that kind's zero.
    (@impl $Var:ident compare |$a:ident, $b:ident, $z:ident| $e:expr) => {
        impl BinaryFn for f::$Var {
            fn f32(x: f32, _: f32) -> f32 { x }
            fn f64(x: f64, _: f64) -> f64 { x }
            fn i64(x: i64, _: i64) -> i64 { x }
            #[inline(always)]
            #[allow(unused_variables)]
            fn cmp_f32($a: f32, $b: f32) -> bool { let $z = 0.0f32; $e }
            #[inline(always)]
            #[allow(unused_variables)]
            fn cmp_f64($a: f64, $b: f64) -> bool { let $z = 0.0f64; $e }
            #[inline(always)]
            #[allow(unused_variables)]
            fn cmp_i64($a: i64, $b: i64) -> bool { let $z = 0i64; $e }
        }
    };
}

binary_ops! {
    Add "+" "add" "AddBackward0" Promote arith [
        f32 |x, y| x + y, f64 |x, y| x + y, i64 |x, y| x.wrapping_add(y)
    ] d Some(grads::add), "Element-wise sum (the `+` operator).", "add(tensor([1, 2]), tensor([10, 20]))";
    Sub "-" "sub" "SubBackward0" NoBoolOperand arith [
        f32 |x, y| x - y, f64 |x, y| x - y, i64 |x, y| x.wrapping_sub(y)
    ] d Some(grads::sub), "Element-wise difference (the `-` operator).", "sub(tensor([5, 7]), tensor([1, 2]))";
    Mul "*" "mul" "MulBackward0" Promote arith [
        f32 |x, y| x * y, f64 |x, y| x * y, i64 |x, y| x.wrapping_mul(y)
    ] d Some(grads::mul), "Element-wise product (the `*` operator).", "mul(tensor([1, 2]), tensor([3, 4]))";
    Div "/" "div" "DivBackward0" ToFloat arith [
        f32 |x, y| x / y, f64 |x, y| x / y, i64 |x, y| py_floordiv_int(x, y)
    ] d Some(grads::div), "True division (the `/` operator): integers give floats.", "div(tensor([1, 2]), tensor([2, 4]))";
    FloorDiv "//" "floor_divide" "" NoBoolResult arith [
        f32 |x, y| div_floor_f32(x, y), f64 |x, y| div_floor_f64(x, y), i64 |x, y| py_floordiv_int(x, y)
    ] d None, "Division rounded down (the `//` operator).", "floor_divide(tensor([7, -7]), tensor([2, 2]))";
    Rem "%" "remainder" "RemainderBackward1" NoBoolResult arith [
        f32 |x, y| py_fmod_f32(x, y), f64 |x, y| py_fmod(x, y), i64 |x, y| py_mod_int(x, y)
    ] d Some(grads::rem), "Python's modulo: the result has the divisor's sign (the `%` operator).", "remainder(tensor([7, -7]), tensor([3, 3]))";
    Pow "**" "pow" "PowBackward1" NoBoolResult arith [
        f32 |x, y| x.powf(y), f64 |x, y| x.powf(y), i64 |x, y| int_pow(x, y)
    ] d Some(grads::pow), "x raised to y (the `**` operator).", "pow(tensor([2, 3]), 2)";
    Maximum "maximum" "maximum" "MaximumBackward0" Promote arith [
        f32 |x, y| nan_max_f32(x, y), f64 |x, y| nan_max_f64(x, y), i64 |x, y| x.max(y)
    ] d Some(grads::maximum), "Element-wise maximum (NaN wins).", "maximum(tensor([1, 5]), tensor([3, 2]))";
    Minimum "minimum" "minimum" "MinimumBackward0" Promote arith [
        f32 |x, y| nan_min_f32(x, y), f64 |x, y| nan_min_f64(x, y), i64 |x, y| x.min(y)
    ] d Some(grads::minimum), "Element-wise minimum (NaN wins).", "minimum(tensor([1, 5]), tensor([3, 2]))";
    Atan2 "atan2" "atan2" "Atan2Backward0" ToFloat arith [
        f32 |x, y| atan2_f32(x, y), f64 |x, y| x.atan2(y), i64 |x, y| x
    ] d Some(grads::atan2), "The angle of (other, input) in radians.", "atan2(tensor([1., 1.]), tensor([1., -1.]))";
    Fmod "fmod" "fmod" "FmodBackward1" NoBoolResult arith [
        f32 |x, y| fmod_f32(x, y), f64 |x, y| x % y, i64 |x, y| x.wrapping_rem(y)
    ] d Some(grads::fmod), "C's remainder: the result has the dividend's sign (% has the divisor's).", "fmod(tensor([7., -7.]), tensor([3., 3.]))";
    Hypot "hypot" "hypot" "HypotBackward0" FloatOnly arith [
        f32 |x, y| hypot_f32(x, y), f64 |x, y| x.hypot(y), i64 |x, y| x
    ] d Some(grads::hypot), "sqrt(x² + y²) without overflow.", "hypot(tensor([3., 5.]), tensor([4., 12.]))";
    LogAddExp "logaddexp" "logaddexp" "LogaddexpBackward0" FloatOnly arith [
        f32 |x, y| logaddexp_f32(x, y), f64 |x, y| logaddexp(x, y), i64 |x, y| x
    ] d Some(grads::logaddexp), "log(exp(x) + exp(y)), computed without overflow.", "logaddexp(tensor([0., 100.]), tensor([0., 100.]))";
    Copysign "copysign" "copysign" "CopysignBackward0" ToFloat arith [
        f32 |x, y| x.copysign(y), f64 |x, y| x.copysign(y), i64 |x, y| x
    ] d Some(grads::copysign), "x's magnitude with y's sign.", "copysign(tensor([1., 2.]), tensor([-1., 0.]))";
    Xlogy "xlogy" "xlogy" "XlogyBackward0" ToFloat arith [
        f32 |x, y| xlogy_f32(x, y), f64 |x, y| xlogy(x, y), i64 |x, y| x
    ] d Some(grads::xlogy), "x * log(y), and 0 where x is 0 (entropy terms).", "xlogy(tensor([0., 2.]), tensor([0., 3.]))";
    NextAfter "nextafter" "nextafter" "" FloatOnly arith [
        f32 |x, y| nextafter_f32(x, y), f64 |x, y| nextafter(x, y), i64 |x, y| x
    ] d None, "The next float after input towards other (input itself where they are equal).", "nextafter(tensor([1., 2.]), tensor([2., 1.])) - tensor([1., 2.])";
    LeakyRelu "leaky_relu" "leaky_relu" "LeakyReluBackward0" FloatOnly arith [
        f32 |x, y| if x > 0.0 { x } else { x * y }, f64 |x, y| if x > 0.0 { x } else { x * y }, i64 |x, y| x
    ] d Some(grads::leaky_relu), "x where x > 0, else x times the slope (F.leaky_relu's one pass).", "F.leaky_relu(tensor([-2., 3.]), 0.1)";
    Elu "elu" "elu" "EluBackward0" FloatOnly arith [
        f32 |x, y| if x > 0.0 { x } else { expm1_f32(x) * y },
        f64 |x, y| if x > 0.0 { x } else { x.exp_m1() * y }, i64 |x, y| x
    ] d Some(grads::elu), "x where x > 0, else alpha (exp(x) - 1) (F.elu's one pass).", "F.elu(tensor([-1., 2.]), 0.5)";
    Softplus "softplus" "softplus" "SoftplusBackward0" FloatOnly arith [
        f32 |x, y| if x > y { x } else { log1p_f32(exp_f32(x)) },
        f64 |x, y| if x > y { x } else { x.exp().ln_1p() }, i64 |x, y| x
    ] d Some(grads::softplus), "log(1 + exp(x)), and x itself above the threshold (F.softplus's one pass for beta = 1).", "F.softplus(tensor([-1., 0., 30.]))";
    BitAnd "&" "bitwise_and" "" Integral arith [
        f32 |x, y| x, f64 |x, y| x, i64 |x, y| x & y
    ] d None, "Bitwise AND of integers, logical AND of bools (the `&` operator).", "bitwise_and(tensor([12]), tensor([10]))";
    BitOr "|" "bitwise_or" "" Integral arith [
        f32 |x, y| x, f64 |x, y| x, i64 |x, y| x | y
    ] d None, "Bitwise OR of integers, logical OR of bools (the `|` operator).", "bitwise_or(tensor([12]), tensor([10]))";
    BitXor "^" "bitwise_xor" "" Integral arith [
        f32 |x, y| x, f64 |x, y| x, i64 |x, y| x ^ y
    ] d None, "Bitwise XOR of integers, logical XOR of bools (the `^` operator).", "bitwise_xor(tensor([12]), tensor([10]))";
    Shl "<<" "bitwise_left_shift" "" IntegerOnly arith [
        f32 |x, y| x, f64 |x, y| x, i64 |x, y| shl_int(x, y)
    ] d None, "Shift left (the `<<` operator).", "bitwise_left_shift(tensor([1, 3]), 2)";
    Shr ">>" "bitwise_right_shift" "" IntegerOnly arith [
        f32 |x, y| x, f64 |x, y| x, i64 |x, y| shr_int(x, y)
    ] d None, "Arithmetic shift right (the `>>` operator).", "bitwise_right_shift(tensor([8, -8]), 2)";
    Eq "==" "eq" "" Promote compare [|x, y, z| x == y]
        d None, "Element-wise equality (the `==` operator).", "eq(tensor([1, 2]), tensor([1, 3]))";
    Ne "!=" "ne" "" Promote compare [|x, y, z| x != y]
        d None, "Element-wise inequality (the `!=` operator).", "ne(tensor([1, 2]), tensor([1, 3]))";
    Lt "<" "lt" "" Promote compare [|x, y, z| x < y]
        d None, "Element-wise less than (the `<` operator).", "lt(tensor([1, 2]), tensor([2, 2]))";
    Le "<=" "le" "" Promote compare [|x, y, z| x <= y]
        d None, "Element-wise less or equal (the `<=` operator).", "le(tensor([1, 2]), tensor([2, 2]))";
    Gt ">" "gt" "" Promote compare [|x, y, z| x > y]
        d None, "Element-wise greater than (the `>` operator).", "gt(tensor([1, 2]), tensor([2, 1]))";
    Ge ">=" "ge" "" Promote compare [|x, y, z| x >= y]
        d None, "Element-wise greater or equal (the `>=` operator).", "ge(tensor([1, 2]), tensor([2, 1]))";
    LogicalAnd "logical_and" "logical_and" "" Promote compare [|x, y, z| x != z && y != z]
        d None, "Both non-zero, as bool.", "logical_and(tensor([1, 0, 2]), tensor([1, 1, 0]))";
    LogicalOr "logical_or" "logical_or" "" Promote compare [|x, y, z| x != z || y != z]
        d None, "Either non-zero, as bool.", "logical_or(tensor([1, 0, 0]), tensor([0, 0, 3]))";
    LogicalXor "logical_xor" "logical_xor" "" Promote compare [|x, y, z| (x != z) != (y != z)]
        d None, "Exactly one non-zero, as bool.", "logical_xor(tensor([1, 0, 2]), tensor([1, 1, 0]))";
}

/// Other names PyTorch gives the same ops.
pub const BINARY_ALIASES: &[(&str, BinaryOp)] = &[
    ("multiply", BinaryOp::Mul),
    ("subtract", BinaryOp::Sub),
    ("divide", BinaryOp::Div),
    ("true_divide", BinaryOp::Div),
    ("greater", BinaryOp::Gt),
    ("less", BinaryOp::Lt),
    ("greater_equal", BinaryOp::Ge),
    ("less_equal", BinaryOp::Le),
    ("not_equal", BinaryOp::Ne),
    ("arctan2", BinaryOp::Atan2),
];

impl BinaryOp {
    pub fn row(self) -> &'static BinaryRow {
        &BINARY_ROWS[self as usize]
    }
    pub fn symbol(self) -> &'static str {
        self.row().symbol
    }
    pub fn is_comparison(self) -> bool {
        self.row().compare
    }
    pub fn from_symbol(symbol: &str) -> Option<BinaryOp> {
        BINARY_ROWS
            .iter()
            .find(|r| r.symbol == symbol)
            .map(|r| r.op)
    }
    pub fn from_name(name: &str) -> Option<BinaryOp> {
        BINARY_ROWS
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.op)
            .or_else(|| {
                BINARY_ALIASES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, op)| *op)
            })
    }
    /// Does the derivative read the op's output? (PyTorch's node then keeps it.)
    pub fn derivative_reads_output(self) -> bool {
        matches!(self, BinaryOp::Pow | BinaryOp::Hypot | BinaryOp::Copysign)
    }
    /// PyTorch's grad_fn name: a Python number on one side picks another
    /// overload (`1 - x` is RsubBackward1, `2 / x` MulBackward0, `2 ** x` PowBackward2).
    pub fn grad_fn(self, a_number: bool, b_number: bool) -> &'static str {
        match self {
            BinaryOp::Sub if a_number => "RsubBackward1",
            BinaryOp::Div if a_number => "MulBackward0",
            BinaryOp::Pow if b_number => "PowBackward0",
            BinaryOp::Pow if a_number => "PowBackward2",
            BinaryOp::Rem if b_number => "RemainderBackward0",
            BinaryOp::Fmod if b_number => "FmodBackward0",
            BinaryOp::Copysign if b_number => "CopysignBackward1",
            BinaryOp::Xlogy if a_number => "XlogyBackward1",
            _ => self.row().grad_fn,
        }
    }
}

/// The derivatives, in tensor ops (the engine sums broadcast gradients back).
mod grads {
    use crate::error::Result;
    use crate::tensor::Tensor;
    use crate::tensor::op::{BinaryOp, UnaryOp};
    use crate::tensor::ops::arith as t;

    type Grads = Result<[Option<Tensor>; 2]>;

    pub fn add(_: &Tensor, _: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        Ok([Some(g.clone()), Some(g.clone())])
    }

    pub fn sub(_: &Tensor, _: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        Ok([Some(g.clone()), need[1].then(|| t::neg(g)).transpose()?])
    }

    pub fn mul(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        Ok([
            need[0].then(|| t::mul(g, b)).transpose()?,
            need[1].then(|| t::mul(g, a)).transpose()?,
        ])
    }

    pub fn div(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let ga = t::div(g, b)?;
        let gb = if need[1] {
            Some(t::neg(&t::mul(&ga, &t::div(a, b)?)?)?)
        } else {
            None
        };
        Ok([Some(ga), gb])
    }

    pub fn rem(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let gb = if need[1] {
            let q = t::bin(BinaryOp::FloorDiv, a, b)?;
            Some(t::neg(&t::mul(g, &q)?)?)
        } else {
            None
        };
        Ok([Some(g.clone()), gb])
    }

    /// d(a**b)/da = b a^(b-1); d/db = a^b ln a (0 where a = 0 and b >= 0, as PyTorch).
    pub fn pow(a: &Tensor, b: &Tensor, out: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let ga = if need[0] {
            let bm1 = t::sub(b, &t::num(1.0))?;
            let d = t::mul(b, &t::bin(BinaryOp::Pow, a, &bm1)?)?;
            // b = 0 gives 0 * a^-1, which is nan at a = 0; PyTorch masks it to 0.
            let d = t::where_(&t::cmp(BinaryOp::Eq, b, &t::num(0.0))?, &t::num(0.0), &d)?;
            Some(t::mul(g, &d)?)
        } else {
            None
        };
        let gb = if need[1] {
            let d = t::mul(out, &t::un(UnaryOp::Log, a)?)?;
            let at_zero = t::bin(
                BinaryOp::LogicalAnd,
                &t::cmp(BinaryOp::Eq, a, &t::num(0.0))?,
                &t::cmp(BinaryOp::Ge, b, &t::num(0.0))?,
            )?;
            Some(t::mul(g, &t::where_(&at_zero, &t::num(0.0), &d)?)?)
        } else {
            None
        };
        Ok([ga, gb])
    }

    /// Ties share the gradient evenly and the loser gets none, as PyTorch's
    /// maximum/minimum (a NaN operand passes the gradient to both).
    fn extremum(a: &Tensor, b: &Tensor, g: &Tensor, a_loses: BinaryOp) -> Grads {
        let zero = t::num(0.0);
        let shared = t::where_(&t::cmp(BinaryOp::Eq, a, b)?, &t::scale(g, 0.5)?, g)?;
        let ga = t::where_(&t::cmp(a_loses, a, b)?, &zero, &shared)?;
        let gb = t::where_(&t::cmp(a_loses, b, a)?, &zero, &shared)?;
        Ok([Some(ga), Some(gb)])
    }

    pub fn maximum(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        extremum(a, b, g, BinaryOp::Lt)
    }

    pub fn minimum(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        extremum(a, b, g, BinaryOp::Gt)
    }

    /// d/da = 1; d/db = -trunc(a / b).
    pub fn fmod(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let gb = if need[1] {
            let q = t::un(UnaryOp::Trunc, &t::div(a, b)?)?;
            Some(t::neg(&t::mul(g, &q)?)?)
        } else {
            None
        };
        Ok([Some(g.clone()), gb])
    }

    pub fn hypot(a: &Tensor, b: &Tensor, out: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let part = |x: &Tensor| t::mul(g, &t::div(x, out)?);
        Ok([
            need[0].then(|| part(a)).transpose()?,
            need[1].then(|| part(b)).transpose()?,
        ])
    }

    /// d/da = 1 / (1 + exp(b - a)), and the same with a and b swapped.
    pub fn logaddexp(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let part = |x: &Tensor, y: &Tensor| {
            let e = t::un(UnaryOp::Exp, &t::sub(y, x)?)?;
            t::div(g, &t::add(&e, &t::num(1.0))?)
        };
        Ok([
            need[0].then(|| part(a, b)).transpose()?,
            need[1].then(|| part(b, a)).transpose()?,
        ])
    }

    /// d/da = out / a (0 where a = 0); the sign operand gets a zero gradient.
    pub fn copysign(a: &Tensor, _: &Tensor, out: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let ratio = t::div(out, a)?;
        let ratio = t::where_(
            &t::cmp(BinaryOp::Eq, a, &t::num(0.0))?,
            &t::num(0.0),
            &ratio,
        )?;
        Ok([
            Some(t::mul(g, &ratio)?),
            need[1].then(|| t::zeros_like(g)).transpose()?,
        ])
    }

    /// d/da = xlogy(a != 0, b); d/db = a / b.
    pub fn xlogy(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, need: [bool; 2]) -> Grads {
        let ga = if need[0] {
            let nonzero = t::mask(&t::cmp(BinaryOp::Ne, a, &t::num(0.0))?, g)?;
            Some(t::mul(g, &t::bin(BinaryOp::Xlogy, &nonzero, b)?)?)
        } else {
            None
        };
        let gb = need[1].then(|| t::mul(g, &t::div(a, b)?)).transpose()?;
        Ok([ga, gb])
    }

    /// g where a > 0, else g times the slope (which is a number: no
    /// gradient); one node, as PyTorch's, when the backward is recorded.
    pub fn leaky_relu(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        let positive = t::cmp(BinaryOp::Gt, a, &t::num(0.0))?;
        let ga = crate::autograd::composite::composite("LeakyReluBackwardBackward0", &[g], |x| {
            t::where_(&positive, &x[0], &t::mul(&x[0], b)?)
        })?;
        Ok([Some(ga), None])
    }

    /// g where a > 0, else g · α · e^a, in ATen's elu_backward's order (α a
    /// number: no gradient). Written in tensor ops, so that it is itself
    /// differentiable.
    pub fn elu(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        let below = t::cmp(BinaryOp::Le, a, &t::num(0.0))?;
        let ga = crate::autograd::composite::composite("EluBackwardBackward0", &[g, a], |x| {
            // The exponential sees only the inputs below zero: e^x of a large
            // x is inf, and inf · 0 in a second derivative would be NaN.
            let safe = t::where_(&below, &x[1], &t::num(0.0))?;
            let curve = t::mul(&t::mul(&x[0], b)?, &t::un(UnaryOp::Exp, &safe)?)?;
            t::where_(&below, &curve, &x[0])
        })?;
        Ok([Some(ga), None])
    }

    /// softplus's gradient, PyTorch's softplus_backward (below).
    pub fn softplus(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        Ok([Some(softplus_backward(g, a, b)?), None])
    }

    /// g where x is above the threshold, else g z / (z + 1) with z = exp(x),
    /// rounded as ATen's kernel rounds it; one node, whose own gradients are
    /// PyTorch's: softplus_backward of gg for g, and gg g σ(x)(1 - σ(x)) for
    /// x (differentiating g z / (z + 1) instead cancels where σ is near 1).
    fn softplus_backward(g: &Tensor, x: &Tensor, threshold: &Tensor) -> Result<Tensor> {
        let linear = t::cmp(BinaryOp::Gt, x, threshold)?;
        let out = crate::autograd::no_grad(|| {
            // The exponential never sees the linear branch's inputs (exp of a
            // large x is inf, and inf / inf is NaN).
            let z = t::un(UnaryOp::Exp, &t::where_(&linear, &t::num(0.0), x)?)?;
            let soft = t::div(&t::mul(g, &z)?, &t::add(&z, &t::num(1.0))?)?;
            t::where_(&linear, g, &soft)
        })?;
        let (g0, x0, threshold) = (g.clone(), x.clone(), threshold.clone());
        Ok(crate::autograd::record(
            out,
            "SoftplusBackwardBackward0",
            &[g, x],
            false,
            move || {
                crate::autograd::rules::rule(move |gg| {
                    let for_g = softplus_backward(gg, &x0, &threshold)?;
                    let s = t::un(UnaryOp::Sigmoid, &x0)?;
                    let curve = t::mul(&s, &t::sub(&t::num(1.0), &s)?)?;
                    let for_x = t::mul(&t::mul(gg, &g0)?, &curve)?;
                    let for_x = t::where_(&linear, &t::num(0.0), &for_x)?;
                    Ok(vec![Some(for_g), Some(for_x)])
                })
            },
        ))
    }

    pub fn atan2(a: &Tensor, b: &Tensor, _: &Tensor, g: &Tensor, _: [bool; 2]) -> Grads {
        let r2 = t::add(&t::mul(a, a)?, &t::mul(b, b)?)?;
        Ok([
            Some(t::mul(g, &t::div(b, &r2)?)?),
            Some(t::neg(&t::mul(g, &t::div(a, &r2)?)?)?),
        ])
    }
}
