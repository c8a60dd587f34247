//! Python's numbers (int, float, bool) as the interpreter's arithmetic sees
//! them: a value of two words, which functions return in registers.
//!
//! A scalar loop's arithmetic used to travel as `Value` (32 bytes) inside
//! `Result` (over 100), built field by field on the stack and then copied
//! whole; the processor stalls on each such copy (a wide load over narrower
//! stores is not forwarded), and those stalls were most of a loop's time.

use crate::error::{Error, value_err};
use crate::syntax::ast::{BinOp, CmpOp};

use super::value::Value;

/// A Python int, float or bool: its kind and 64 bits. Two integers, so that
/// `Option<Num>` comes back in two registers (an enum of i64, f64 and bool
/// would come back through memory, and be copied whole again).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num {
    kind: Kind,
    bits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Int,
    Float,
    Bool,
}

impl Num {
    pub fn int(i: i64) -> Num {
        Num {
            kind: Kind::Int,
            bits: i as u64,
        }
    }

    pub fn float(f: f64) -> Num {
        Num {
            kind: Kind::Float,
            bits: f.to_bits(),
        }
    }

    pub fn bool(b: bool) -> Num {
        Num {
            kind: Kind::Bool,
            bits: b as u64,
        }
    }

    pub fn of(v: &Value) -> Option<Num> {
        match v {
            Value::Int(i) => Some(Num::int(*i)),
            Value::Float(f) => Some(Num::float(*f)),
            Value::Bool(b) => Some(Num::bool(*b)),
            _ => None,
        }
    }

    pub fn value(self) -> Value {
        match self.kind {
            Kind::Int => Value::Int(self.bits as i64),
            Kind::Float => Value::Float(f64::from_bits(self.bits)),
            Kind::Bool => Value::Bool(self.bits != 0),
        }
    }

    /// An int or bool as Python's int; None for a float.
    fn as_int(self) -> Option<i64> {
        match self.kind {
            Kind::Float => None,
            Kind::Int | Kind::Bool => Some(self.bits as i64),
        }
    }

    fn as_f64(self) -> f64 {
        match self.kind {
            Kind::Float => f64::from_bits(self.bits),
            Kind::Int | Kind::Bool => self.bits as i64 as f64,
        }
    }

    fn as_bool(self) -> Option<bool> {
        (self.kind == Kind::Bool).then_some(self.bits != 0)
    }

    /// Python's truth of a number.
    pub fn truth(self) -> bool {
        match self.kind {
            Kind::Float => f64::from_bits(self.bits) != 0.0,
            Kind::Int | Kind::Bool => self.bits != 0,
        }
    }

    /// `-x`: None where an int overflows.
    pub fn neg(self) -> Option<Num> {
        match self.kind {
            Kind::Float => Some(Num::float(-self.as_f64())),
            Kind::Int | Kind::Bool => (self.bits as i64).checked_neg().map(Num::int),
        }
    }
}

/// Why arithmetic on numbers failed: small enough that `Result<Num, Fault>`
/// is small. `error` words it as Python does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    Overflow,
    DivisionByZero,
    IntFloorDivisionByZero,
    IntModuloByZero,
    ZeroToNegativePower,
    ShiftCount,
    NegativeShift,
    IntMatMul,
    FloatDivisionByZero,
    FloatFloorDivisionByZero,
    FloatZeroToNegativePower,
    FloatUnsupported,
}

impl Fault {
    /// The error, for `op` (the one that failed).
    pub fn error(self, op: BinOp) -> Error {
        match self {
            Fault::Overflow => overflow(),
            Fault::DivisionByZero => value_err("division by zero"),
            Fault::IntFloorDivisionByZero => value_err("integer division or modulo by zero"),
            Fault::IntModuloByZero => value_err("integer modulo by zero"),
            Fault::ZeroToNegativePower => value_err("0 cannot be raised to a negative power"),
            Fault::ShiftCount => value_err("shift count out of range"),
            Fault::NegativeShift => value_err("negative shift count"),
            Fault::IntMatMul => crate::error::type_err("`@` needs tensors, not ints"),
            Fault::FloatDivisionByZero => value_err("float division by zero")
                .hint("tensors divide by zero to inf/nan; plain numbers do not"),
            Fault::FloatFloorDivisionByZero => value_err("float floor division by zero"),
            Fault::FloatZeroToNegativePower => {
                value_err("0.0 cannot be raised to a negative power")
            }
            Fault::FloatUnsupported => crate::error::type_err(format!(
                "unsupported operand types for {}: float",
                op.symbol()
            )),
        }
    }
}

pub fn overflow() -> Error {
    value_err("integer overflow: tsh integers are 64-bit")
        .hint("use a float (e.g. 2.0 ** 70) for larger numbers")
}

/// `a op b` on Python's numbers: bool with bool stays bool for `&`, `|` and
/// `^`; ints (and bools) give ints, but `/` a float; a float on either side
/// gives a float.
#[inline]
pub fn binary(op: BinOp, a: Num, b: Num) -> Result<Num, Fault> {
    if let (Some(x), Some(y)) = (a.as_bool(), b.as_bool()) {
        match op {
            BinOp::BitAnd => return Ok(Num::bool(x & y)),
            BinOp::BitOr => return Ok(Num::bool(x | y)),
            BinOp::BitXor => return Ok(Num::bool(x ^ y)),
            _ => {}
        }
    }
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => int_binary(op, x, y),
        _ => float_binary(op, a.as_f64(), b.as_f64()).map(Num::float),
    }
}

#[inline]
fn int_binary(op: BinOp, a: i64, b: i64) -> Result<Num, Fault> {
    use crate::tensor::op::math::{py_floordiv_int, py_mod_int};
    Ok(Num::int(match op {
        BinOp::Add => a.checked_add(b).ok_or(Fault::Overflow)?,
        BinOp::Sub => a.checked_sub(b).ok_or(Fault::Overflow)?,
        BinOp::Mul => a.checked_mul(b).ok_or(Fault::Overflow)?,
        BinOp::Div => {
            if b == 0 {
                return Err(Fault::DivisionByZero);
            }
            return Ok(Num::float(a as f64 / b as f64));
        }
        BinOp::FloorDiv => {
            if b == 0 {
                return Err(Fault::IntFloorDivisionByZero);
            }
            if a == i64::MIN && b == -1 {
                return Err(Fault::Overflow);
            }
            py_floordiv_int(a, b)
        }
        BinOp::Mod => {
            if b == 0 {
                return Err(Fault::IntModuloByZero);
            }
            if b == -1 { 0 } else { py_mod_int(a, b) }
        }
        BinOp::Pow => {
            if b < 0 {
                if a == 0 {
                    return Err(Fault::ZeroToNegativePower);
                }
                return Ok(Num::float((a as f64).powf(b as f64)));
            }
            let e = u32::try_from(b).map_err(|_| Fault::Overflow)?;
            a.checked_pow(e).ok_or(Fault::Overflow)?
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::LShift => {
            if !(0..64).contains(&b) {
                return Err(Fault::ShiftCount);
            }
            let r = a.checked_shl(b as u32).ok_or(Fault::Overflow)?;
            if (r >> b) != a {
                return Err(Fault::Overflow);
            }
            r
        }
        BinOp::RShift => {
            if b < 0 {
                return Err(Fault::NegativeShift);
            }
            if b >= 64 {
                if a < 0 { -1 } else { 0 }
            } else {
                a >> b
            }
        }
        BinOp::MatMul => return Err(Fault::IntMatMul),
    }))
}

fn float_binary(op: BinOp, a: f64, b: f64) -> Result<f64, Fault> {
    Ok(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => {
            if b == 0.0 {
                return Err(Fault::FloatDivisionByZero);
            }
            a / b
        }
        BinOp::FloorDiv => {
            if b == 0.0 {
                return Err(Fault::FloatFloorDivisionByZero);
            }
            crate::tensor::op::math::div_floor_f64(a, b)
        }
        BinOp::Mod => {
            if b == 0.0 {
                return Err(Fault::FloatDivisionByZero);
            }
            crate::tensor::op::math::py_fmod(a, b)
        }
        BinOp::Pow => {
            if a == 0.0 && b < 0.0 {
                return Err(Fault::FloatZeroToNegativePower);
            }
            a.powf(b)
        }
        _ => return Err(Fault::FloatUnsupported),
    })
}

/// The order of two numbers; None where either is NaN. An int and a bool
/// compare as ints, anything with a float as floats.
pub fn order(a: Num, b: Num) -> Option<std::cmp::Ordering> {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64().partial_cmp(&b.as_f64()),
    }
}

/// `a op b` for the comparisons of numbers, as Python's: every order with a
/// NaN is false. None for `in` and `is`, which are not comparisons of values.
pub fn compare(op: CmpOp, a: Num, b: Num) -> Option<bool> {
    use std::cmp::Ordering::*;
    let order = order(a, b);
    Some(match op {
        CmpOp::Eq => order == Some(Equal),
        CmpOp::Ne => order != Some(Equal),
        CmpOp::Lt => order == Some(Less),
        CmpOp::Le => matches!(order, Some(Less | Equal)),
        CmpOp::Gt => order == Some(Greater),
        CmpOp::Ge => matches!(order, Some(Greater | Equal)),
        CmpOp::In | CmpOp::NotIn | CmpOp::Is | CmpOp::IsNot => return None,
    })
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn results_are_two_words() {
            // What the module is for: these come back in registers.
            assert_eq!(std::mem::size_of::<Option<Num>>(), 16);
        }

        fn arithmetic_follows_python() {
            let (int, float, bool) = (Num::int, Num::float, Num::bool);
            assert_eq!(binary(BinOp::Div, int(7), int(2)), Ok(float(3.5)));
            assert_eq!(binary(BinOp::FloorDiv, int(-7), int(2)), Ok(int(-4)));
            assert_eq!(binary(BinOp::Mod, int(-7), int(2)), Ok(int(1)));
            assert_eq!(binary(BinOp::Add, bool(true), bool(true)), Ok(int(2)));
            assert_eq!(
                binary(BinOp::BitXor, bool(true), bool(true)),
                Ok(bool(false))
            );
            assert_eq!(binary(BinOp::Mul, int(3), float(0.5)), Ok(float(1.5)));
            assert_eq!(binary(BinOp::Pow, int(2), int(-1)), Ok(float(0.5)));
            assert_eq!(
                binary(BinOp::Add, int(i64::MAX), int(1)),
                Err(Fault::Overflow)
            );
            assert_eq!(
                binary(BinOp::Mod, float(1.0), int(0)),
                Err(Fault::FloatDivisionByZero)
            );
            assert_eq!(
                binary(BinOp::LShift, int(1), int(64)),
                Err(Fault::ShiftCount)
            );
        }

        fn comparisons_follow_python() {
            let (int, float, bool) = (Num::int, Num::float, Num::bool);
            assert_eq!(compare(CmpOp::Eq, int(1), float(1.0)), Some(true));
            assert_eq!(compare(CmpOp::Lt, bool(true), int(2)), Some(true));
            assert_eq!(
                compare(CmpOp::Ge, int(i64::MAX), int(i64::MAX - 1)),
                Some(true)
            );
            assert_eq!(
                compare(CmpOp::Ne, float(f64::NAN), float(f64::NAN)),
                Some(true)
            );
            assert_eq!(compare(CmpOp::Lt, float(f64::NAN), int(1)), Some(false));
            assert_eq!(
                compare(CmpOp::Ge, float(f64::NAN), float(f64::NAN)),
                Some(false)
            );
            assert_eq!(
                compare(CmpOp::Eq, float(f64::NAN), float(f64::NAN)),
                Some(false)
            );
            assert_eq!(compare(CmpOp::Is, int(1), int(1)), None);
        }
    }
}
