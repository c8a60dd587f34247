//! What a dtype can hold and how dtypes combine: torch.finfo, torch.iinfo,
//! promote_types, result_type, can_cast.

use std::rc::Rc;

use super::Builtin;
use crate::error::{Error, Result, type_err};
use crate::interp::value::{NamedTuple, Value};
use crate::op;
use crate::tensor::{DType, Tensor, promote};

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "finfo(ScalarType? type=None) -> Any",
        "The limits of a floating dtype: eps, max, min, tiny, resolution, bits.",
        "torch.finfo(torch.float16).eps",
        |type_: Option<DType>| finfo(type_.unwrap_or_else(crate::tensor::dtype::default_float))
    ),
    op!(
        Function,
        "iinfo(ScalarType type) -> Any",
        "The limits of an integer dtype: min, max, bits.",
        "torch.iinfo(torch.int8).max",
        |type_: DType| iinfo(type_)
    ),
    op!(
        Function,
        "promote_types(ScalarType type1, ScalarType type2) -> ScalarType",
        "The dtype an op on these two dtypes computes in.",
        "promote_types(torch.int32, torch.float16)",
        |type1: DType, type2: DType| Ok::<_, Error>(promote::promote_types(type1, type2))
    ),
    op!(
        Function,
        "result_type(Tensor tensor, Tensor other) -> ScalarType",
        "The dtype of an op on these operands (Python numbers count as weak scalars).",
        "result_type(tensor([1, 2]), 1.0)",
        |tensor: Tensor, other: Tensor| Ok::<_, Error>(promote::result_type(&[
            tensor.operand(),
            other.operand()
        ]))
    ),
    op!(
        Function,
        "can_cast(ScalarType from_, ScalarType to) -> bool",
        "Whether PyTorch's casting rules allow from_ to become to in place.",
        "can_cast(torch.double, torch.float)",
        |from_: DType, to: DType| Ok::<_, Error>(promote::can_cast(from_, to))
    ),
];

fn info(name: &'static str, fields: Vec<(&'static str, Value)>) -> Value {
    Value::Named(Rc::new(NamedTuple { name, fields }))
}

fn finfo(d: DType) -> Result<Value> {
    let (bits, eps, max, tiny, resolution) = match d {
        DType::F32 => (
            32,
            f32::EPSILON as f64,
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            1e-6,
        ),
        DType::F64 => (64, f64::EPSILON, f64::MAX, f64::MIN_POSITIVE, 1e-15),
        DType::F16 => (16, 0.0009765625, 65504.0, 6.103515625e-05, 1e-3),
        DType::BF16 => (
            16,
            0.0078125,
            3.3895313892515355e38,
            f32::MIN_POSITIVE as f64,
            1e-2,
        ),
        other => {
            return Err(type_err(format!(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle '{}'",
                "torch.finfo"
            ))
            .hint(format!("{other} is not a floating dtype")));
        }
    };
    Ok(info(
        "finfo",
        vec![
            ("resolution", Value::Float(resolution)),
            ("min", Value::Float(-max)),
            ("max", Value::Float(max)),
            ("eps", Value::Float(eps)),
            ("smallest_normal", Value::Float(tiny)),
            ("tiny", Value::Float(tiny)),
            ("dtype", Value::str(d.name())),
            ("bits", Value::Int(bits)),
        ],
    ))
}

fn iinfo(d: DType) -> Result<Value> {
    let (bits, min, max): (i64, i64, i64) = match d {
        DType::U8 => (8, 0, 255),
        DType::I8 => (8, -128, 127),
        DType::I16 => (16, i16::MIN as i64, i16::MAX as i64),
        DType::I32 => (32, i32::MIN as i64, i32::MAX as i64),
        DType::I64 => (64, i64::MIN, i64::MAX),
        _ => {
            return Err(type_err(
                "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.finfo'",
            ));
        }
    };
    Ok(info(
        "iinfo",
        vec![
            ("min", Value::Int(min)),
            ("max", Value::Int(max)),
            ("dtype", Value::str(d.name())),
            ("bits", Value::Int(bits)),
        ],
    ))
}

/// C's `%g`: six significant digits, fixed or scientific by the exponent.
pub fn g6(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let sci = format!("{x:.5e}");
    let exp: i32 = sci
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (-4..6).contains(&exp) {
        trim(format!("{x:.*}", (5 - exp).max(0) as usize))
    } else {
        let (m, _) = sci.split_once('e').unwrap_or((&sci, ""));
        format!(
            "{}e{}{:02}",
            trim(m.to_string()),
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}
