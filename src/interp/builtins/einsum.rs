//! `torch.einsum`'s binding: an equation and operands, or PyTorch's sublist form
//! (`einsum(a, [0, 1], b, [1, 2], [0, 2])`), turned into an equation for the
//! tensor layer's einsum.

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[row!(
    Function,
    "einsum",
    "einsum(equation, *operands)",
    "Sum of products over the labels an equation names: 'ij,jk->ik' is a matrix product.",
    "einsum('ij,jk->ik', ones(2, 3), ones(3, 4)).shape",
    einsum
)];

fn einsum(_: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.value("equation")?;
    if !matches!(first, Value::Str(_)) {
        let mut items = vec![first];
        items.extend(a.rest().into_iter().map(|(v, _)| v));
        a.finish()?;
        let (equation, operands) = sublists(items)?;
        return crate::tensor::ops::einsum::einsum(&equation, operands).map(Value::Tensor);
    }
    let equation = match first {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    };
    let mut operands = vec![];
    for (v, s) in a.rest() {
        match v {
            Value::List(_) | Value::Tuple(_) => {
                for item in v.iter_items()? {
                    operands.push(crate::interp::convert::to_tensor_arg(
                        &item, "einsum", "operands",
                    )?);
                }
            }
            other => operands.push(
                crate::interp::convert::to_tensor_arg(&other, "einsum", "operands")
                    .map_err(|e| e.at(s))?,
            ),
        }
    }
    a.finish()?;
    crate::tensor::ops::einsum::einsum(&equation, operands).map(Value::Tensor)
}

/// The sublist form: operand, its subscripts as ints (0..52 name a..z, A..Z) or
/// `...`, and so on, then optionally the output's subscripts.
fn sublists(items: Vec<Value>) -> Result<(String, Vec<Tensor>)> {
    let mut operands = vec![];
    let mut specs = vec![];
    let mut it = items.into_iter().peekable();
    let mut output = None;
    while let Some(v) = it.next() {
        match it.next() {
            Some(sub) => {
                operands.push(crate::interp::convert::to_tensor_arg(
                    &v, "einsum", "operands",
                )?);
                specs.push(subscripts(&sub)?);
            }
            None => output = Some(subscripts(&v)?),
        }
    }
    let mut equation = specs.join(",");
    if let Some(o) = output {
        equation = format!("{equation}->{o}");
    }
    Ok((equation, operands))
}

fn subscripts(v: &Value) -> Result<String> {
    let mut s = String::new();
    for item in v.iter_items()? {
        match item {
            Value::Ellipsis => s.push_str("..."),
            Value::Int(i) if (0..26).contains(&i) => s.push((b'a' + i as u8) as char),
            Value::Int(i) if (26..52).contains(&i) => s.push((b'A' + (i - 26) as u8) as char),
            Value::Int(i) => {
                return Err(value_err(format!(
                    "einsum(): expected subscript to be within the range [0, 52) but got {i}"
                )));
            }
            other => {
                return Err(crate::error::type_err(format!(
                    "einsum(): expected a subscript list of ints and Ellipsis, got {}",
                    other.type_name()
                )));
            }
        }
    }
    Ok(s)
}
