//! Binary element-wise kernels. Both operands arrive in the compute dtype with
//! layouts already broadcast to the result shape. Floats compute in f64 and round
//! once (exact for + - * / on f32); integers compute in wrapping i64 and truncate
//! to their width, which is how PyTorch's fixed-width arithmetic wraps.

use super::map::zip_map;
use crate::tensor::layout::Layout;
use crate::tensor::storage::{Element, Storage};
use crate::with_storage;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Rem,
    Pow,
    Maximum,
    Minimum,
    Atan2,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor
        )
    }
}

/// Python's modulo: the result takes the divisor's sign.
#[inline(always)]
pub fn py_fmod(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}

#[inline(always)]
pub fn py_floordiv_int(a: i64, b: i64) -> i64 {
    // wrapping_*: i64::MIN // -1 wraps as in PyTorch instead of panicking.
    let q = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q.wrapping_sub(1)
    } else {
        q
    }
}

#[inline(always)]
pub fn py_mod_int(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r.wrapping_add(b)
    } else {
        r
    }
}

/// Integer power by squaring, wrapping like PyTorch's integer `pow`.
#[inline(always)]
pub fn int_pow(mut base: i64, mut exp: i64) -> i64 {
    if exp < 0 {
        // Only reachable for bases ±1 (others are rejected before the kernel).
        return match base {
            1 => 1,
            -1 => {
                if exp % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    let mut acc: i64 = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    acc
}

fn float_kernel<T: Element>(op: BinaryOp, a: &[T], la: &Layout, b: &[T], lb: &Layout) -> Storage {
    use BinaryOp::*;
    macro_rules! num {
        (|$x:ident, $y:ident| $e:expr) => {
            T::wrap(zip_map(a, la, b, lb, |p: T, q: T| {
                let ($x, $y) = (p.to_f64(), q.to_f64());
                T::from_f64($e)
            }))
        };
    }
    macro_rules! cmp {
        (|$x:ident, $y:ident| $e:expr) => {
            bool::wrap(zip_map(a, la, b, lb, |p: T, q: T| {
                let ($x, $y) = (p.to_f64(), q.to_f64());
                $e
            }))
        };
    }
    match op {
        Add => num!(|x, y| x + y),
        Sub => num!(|x, y| x - y),
        Mul => num!(|x, y| x * y),
        Div => num!(|x, y| x / y),
        FloorDiv => num!(|x, y| (x / y).floor()),
        Rem => num!(|x, y| py_fmod(x, y)),
        Pow => num!(|x, y| x.powf(y)),
        // maximum/minimum propagate NaN, as PyTorch's do.
        Maximum => num!(|x, y| if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            x.max(y)
        }),
        Minimum => num!(|x, y| if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            x.min(y)
        }),
        Atan2 => num!(|x, y| x.atan2(y)),
        BitAnd | BitOr | BitXor | Shl | Shr => {
            // Unreachable from input: tensor::ops::elementwise refuses bitwise ops on
            // float dtypes with a dtype error before dispatching here.
            unreachable!("bitwise ops are refused for floats before the kernel")
        }
        Eq => cmp!(|x, y| x == y),
        Ne => cmp!(|x, y| x != y),
        Lt => cmp!(|x, y| x < y),
        Le => cmp!(|x, y| x <= y),
        Gt => cmp!(|x, y| x > y),
        Ge => cmp!(|x, y| x >= y),
        LogicalAnd => cmp!(|x, y| x != 0.0 && y != 0.0),
        LogicalOr => cmp!(|x, y| x != 0.0 || y != 0.0),
        LogicalXor => cmp!(|x, y| (x != 0.0) != (y != 0.0)),
    }
}

fn int_kernel<T: Element>(op: BinaryOp, a: &[T], la: &Layout, b: &[T], lb: &Layout) -> Storage {
    use BinaryOp::*;
    macro_rules! num {
        (|$x:ident, $y:ident| $e:expr) => {
            T::wrap(zip_map(a, la, b, lb, |p: T, q: T| {
                let ($x, $y) = (p.to_i64(), q.to_i64());
                T::from_i64($e)
            }))
        };
    }
    macro_rules! cmp {
        (|$x:ident, $y:ident| $e:expr) => {
            bool::wrap(zip_map(a, la, b, lb, |p: T, q: T| {
                let ($x, $y) = (p.to_i64(), q.to_i64());
                $e
            }))
        };
    }
    match op {
        Add => num!(|x, y| x.wrapping_add(y)),
        Sub => num!(|x, y| x.wrapping_sub(y)),
        Mul => num!(|x, y| x.wrapping_mul(y)),
        // Divisors were checked for zero before the kernel.
        Div | FloorDiv => num!(|x, y| py_floordiv_int(x, y)),
        Rem => num!(|x, y| py_mod_int(x, y)),
        Pow => num!(|x, y| int_pow(x, y)),
        Maximum => num!(|x, y| x.max(y)),
        Minimum => num!(|x, y| x.min(y)),
        // Unreachable from input: atan2 promotes integer operands to float first.
        Atan2 => unreachable!("atan2 runs on floats"),
        BitAnd => num!(|x, y| x & y),
        BitOr => num!(|x, y| x | y),
        BitXor => num!(|x, y| x ^ y),
        Shl => num!(|x, y| if (0..64).contains(&y) {
            x.wrapping_shl(y as u32)
        } else {
            0
        }),
        Shr => num!(|x, y| if (0..64).contains(&y) {
            x >> y
        } else if x < 0 {
            -1
        } else {
            0
        }),
        Eq => cmp!(|x, y| x == y),
        Ne => cmp!(|x, y| x != y),
        Lt => cmp!(|x, y| x < y),
        Le => cmp!(|x, y| x <= y),
        Gt => cmp!(|x, y| x > y),
        Ge => cmp!(|x, y| x >= y),
        LogicalAnd => cmp!(|x, y| x != 0 && y != 0),
        LogicalOr => cmp!(|x, y| x != 0 || y != 0),
        LogicalXor => cmp!(|x, y| (x != 0) != (y != 0)),
    }
}

fn typed<T: Element>(op: BinaryOp, a: &[T], la: &Layout, b: &Storage, lb: &Layout) -> Storage {
    // Unreachable from input: the caller casts both operands to the promoted dtype.
    let b = T::slice(b).expect("binary operands share the compute dtype");
    if T::DTYPE.is_float() {
        float_kernel(op, a, la, b, lb)
    } else {
        int_kernel(op, a, la, b, lb)
    }
}

/// `op` over two storages of one dtype; comparisons return bool storage.
pub fn binary(op: BinaryOp, a: &Storage, la: &Layout, b: &Storage, lb: &Layout) -> Storage {
    with_storage!(a, v => typed(op, v, la, b, lb))
}

/// Does any element (seen through `l`) equal zero? (Integer division guards.)
pub fn any_zero(s: &Storage, l: &Layout) -> bool {
    with_storage!(s, v => l.offsets().any(|o| v[o].to_f64() == 0.0))
}
