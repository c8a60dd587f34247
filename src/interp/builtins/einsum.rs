//! `torch.einsum`: operands contracted two at a time as batched matrix products
//! (labels shared and kept → batch, shared and summed → the inner dim), so the
//! work and memory are those of the matmuls, and gradients flow through them.

use super::Builtin;
use crate::error::{Result, shape_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::op::ReduceOp;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{permute, reshape};

pub const ROWS: &[Builtin] = &[row!(
    Function,
    "einsum",
    "einsum(equation, *operands)",
    "Sum of products over the labels an equation names: 'ij,jk->ik' is a matrix product.",
    "einsum('ij,jk->ik', ones(2, 3), ones(3, 4)).shape",
    einsum
)];

/// A tensor with a label per dim.
struct Labeled {
    t: Tensor,
    labels: Vec<char>,
}

fn einsum(_: &mut Interp, mut a: Args) -> Result<Value> {
    let equation = a.string("equation")?;
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
    contract(&equation, operands).map(Value::Tensor)
}

fn contract(equation: &str, operands: Vec<Tensor>) -> Result<Tensor> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    if eq.contains("...") {
        return Err(value_err(
            "einsum: '...' (ellipsis) is not supported by tsh yet",
        ));
    }
    let (lhs, out) = match eq.split_once("->") {
        Some((l, o)) => (l.to_string(), Some(o.chars().collect::<Vec<char>>())),
        None => (eq.clone(), None),
    };
    let specs: Vec<Vec<char>> = lhs.split(',').map(|s| s.chars().collect()).collect();
    if specs.len() != operands.len() {
        let which = if specs.len() > operands.len() {
            "fewer"
        } else {
            "more"
        };
        return Err(value_err(format!(
            "einsum(): {which} operands were provided than specified in the equation"
        )));
    }
    // Without `->`, the output is the labels used once, in alphabetical order.
    let out = out.unwrap_or_else(|| {
        let mut once: Vec<char> = lhs
            .chars()
            .filter(|c| c.is_alphabetic() && lhs.matches(*c).count() == 1)
            .collect();
        once.sort_unstable();
        once
    });
    let mut items = vec![];
    for (t, labels) in operands.into_iter().zip(specs) {
        if labels.iter().any(|c| !c.is_ascii_alphabetic()) {
            return Err(value_err(format!(
                "einsum(): invalid subscript given in the equation string '{equation}'"
            )));
        }
        if labels.len() != t.ndim() {
            return Err(shape_err(format!(
                "einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) for operand",
                labels.len(),
                t.ndim()
            )));
        }
        if (1..labels.len()).any(|i| labels[..i].contains(&labels[i])) {
            return Err(value_err(
                "einsum(): a label repeated within one operand (a diagonal) is not supported by tsh yet",
            ));
        }
        items.push(Labeled { t, labels });
    }
    let mut acc = items.remove(0);
    while !items.is_empty() {
        let next = items.remove(0);
        // Labels still needed: the output's and the remaining operands'.
        let mut keep: Vec<char> = out.clone();
        for it in &items {
            keep.extend(&it.labels);
        }
        acc = pair(acc, next, &keep)?;
    }
    let acc = sum_out(acc, &out)?;
    order(acc, &out)
}

/// Sum away the labels `keep` does not name.
fn sum_out(x: Labeled, keep: &[char]) -> Result<Labeled> {
    let dims: Vec<i64> = (0..x.labels.len())
        .filter(|&i| !keep.contains(&x.labels[i]))
        .map(|i| i as i64)
        .collect();
    if dims.is_empty() {
        return Ok(x);
    }
    let t = reduce(&x.t, ReduceOp::Sum, Some(&dims), false)?;
    let labels = x.labels.into_iter().filter(|c| keep.contains(c)).collect();
    Ok(Labeled { t, labels })
}

/// Permute to the output's label order.
fn order(x: Labeled, out: &[char]) -> Result<Tensor> {
    let mut perm = vec![];
    for c in out {
        let i = x
            .labels
            .iter()
            .position(|l| l == c)
            .ok_or_else(|| value_err(format!("einsum(): output subscript {c} does not appear in the equation for any input operand")))?;
        perm.push(i as i64);
    }
    permute(&x.t, &perm)
}

fn size_of(x: &Labeled, c: char) -> usize {
    let i = x.labels.iter().position(|l| *l == c).unwrap_or(0);
    x.t.shape()[i]
}

/// Contract two operands as one batched matmul.
fn pair(a: Labeled, b: Labeled, keep: &[char]) -> Result<Labeled> {
    let a = sum_out(a, &[keep, &b.labels].concat())?;
    let b = sum_out(b, &[keep, &a.labels].concat())?;
    let batch: Vec<char> = a
        .labels
        .iter()
        .copied()
        .filter(|c| b.labels.contains(c) && keep.contains(c))
        .collect();
    let inner: Vec<char> = a
        .labels
        .iter()
        .copied()
        .filter(|c| b.labels.contains(c) && !keep.contains(c))
        .collect();
    let left: Vec<char> = a
        .labels
        .iter()
        .copied()
        .filter(|c| !b.labels.contains(c))
        .collect();
    let right: Vec<char> = b
        .labels
        .iter()
        .copied()
        .filter(|c| !a.labels.contains(c))
        .collect();
    for c in batch.iter().chain(&inner) {
        let (x, y) = (size_of(&a, *c), size_of(&b, *c));
        if x != y && x != 1 && y != 1 {
            return Err(shape_err(format!(
                "einsum(): operands do not broadcast with remapped shapes (original->remapped): subscript {c} has size {x} for one operand and {y} for another"
            )));
        }
    }
    let prod = |x: &Labeled, cs: &[char]| -> usize { cs.iter().map(|c| size_of(x, *c)).product() };
    let arrange = |x: &Labeled, groups: [&[char]; 3], sizes: [usize; 3]| -> Result<Tensor> {
        let perm: Vec<i64> = groups
            .iter()
            .flat_map(|g| g.iter())
            .map(|c| x.labels.iter().position(|l| l == c).unwrap_or(0) as i64)
            .collect();
        let t = permute(&x.t, &perm)?;
        reshape(&t, &sizes.map(|s| s as i64))
    };
    let nb = prod(&a, &batch).max(prod(&b, &batch));
    let nk = prod(&a, &inner).max(prod(&b, &inner));
    // Batch and inner labels of size 1 on one side broadcast by expanding first.
    let a_t = expand_to(&a, &b, &batch, &inner)?;
    let b_t = expand_to(&b, &a, &batch, &inner)?;
    let am = arrange(
        &Labeled {
            t: a_t,
            labels: a.labels.clone(),
        },
        [&batch, &left, &inner],
        [nb, prod(&a, &left), nk],
    )?;
    let bm = arrange(
        &Labeled {
            t: b_t,
            labels: b.labels.clone(),
        },
        [&batch, &inner, &right],
        [nb, nk, prod(&b, &right)],
    )?;
    let product = crate::tensor::ops::matmul::matmul(&am, &bm)?;
    let mut shape: Vec<i64> = batch
        .iter()
        .map(|c| size_of(&a, *c).max(size_of(&b, *c)) as i64)
        .collect();
    shape.extend(left.iter().map(|c| size_of(&a, *c) as i64));
    shape.extend(right.iter().map(|c| size_of(&b, *c) as i64));
    let t = reshape(&product, &shape)?;
    let labels = [batch, left, right].concat();
    Ok(Labeled { t, labels })
}

/// `x` with its shared labels of size 1 expanded to the other operand's size.
fn expand_to(x: &Labeled, other: &Labeled, batch: &[char], inner: &[char]) -> Result<Tensor> {
    let sizes: Vec<i64> = x
        .labels
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mine = x.t.shape()[i];
            if mine == 1 && (batch.contains(c) || inner.contains(c)) {
                size_of(other, *c) as i64
            } else {
                mine as i64
            }
        })
        .collect();
    crate::tensor::ops::view::expand(&x.t, &sizes)
}
