//! torch.einsum: operands contracted two at a time as batched matrix products
//! (labels shared and kept -> batch, shared and summed -> the inner dim), so the
//! work and memory are those of the matmuls, and gradients flow through them.
//! An ellipsis stands for broadcast dims; a label repeated within one operand
//! takes that operand's diagonal first.

use crate::error::{Result, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::op::ReduceOp;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{permute, reshape};

/// A tensor with a label per dim.
struct Labeled {
    t: Tensor,
    labels: Vec<char>,
}

/// One operand's subscripts: letters, and where its ellipsis stands (if any).
struct Spec {
    letters: Vec<char>,
    ellipsis: Option<usize>,
}

/// The label of the ellipsis dim `j` places from the right: private-use chars,
/// so they never meet a letter, and they align across operands as dims broadcast.
fn ellipsis_label(j: usize) -> char {
    char::from_u32(0xE000 + j as u32).unwrap_or('\u{E000}')
}

fn parse_spec(s: &str, equation: &str, what: &str) -> Result<Spec> {
    let mut letters = vec![];
    let mut ellipsis = None;
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("...") {
            if ellipsis.is_some() {
                return Err(value_err(format!(
                    "einsum(): found '.' for {what} that is not part of any ellipsis"
                )));
            }
            ellipsis = Some(letters.len());
            rest = r;
        } else if c.is_ascii_alphabetic() {
            letters.push(c);
            rest = &rest[1..];
        } else if c == '.' {
            return Err(value_err(format!(
                "einsum(): found '.' for {what} that is not part of any ellipsis"
            )));
        } else {
            return Err(value_err(format!(
                "einsum(): invalid subscript given in the equation string '{equation}'"
            )));
        }
    }
    Ok(Spec { letters, ellipsis })
}

/// The labels of an operand of `ndim` dims, its ellipsis spelled out.
fn labels_of(spec: &Spec, ndim: usize, index: usize) -> Result<Vec<char>> {
    let n = spec.letters.len();
    match spec.ellipsis {
        None if n != ndim => Err(shape_err(format!(
            "einsum(): the number of subscripts in the equation ({n}) does not match the number of dimensions ({ndim}) for operand {index} and no ellipsis was given"
        ))),
        None => Ok(spec.letters.clone()),
        Some(_) if n > ndim => Err(shape_err(format!(
            "einsum(): the number of subscripts in the equation ({n}) is more than the number of dimensions ({ndim}) for operand {index}"
        ))),
        Some(at) => {
            let e = ndim - n;
            let mut labels = spec.letters[..at].to_vec();
            labels.extend((0..e).rev().map(ellipsis_label));
            labels.extend(&spec.letters[at..]);
            Ok(labels)
        }
    }
}

/// Take the diagonal for each label an operand repeats, checking the sizes agree.
fn diagonals(mut x: Labeled, index: usize) -> Result<Labeled> {
    while let Some((i, j)) = (0..x.labels.len()).find_map(|j| {
        x.labels[..j]
            .iter()
            .position(|c| *c == x.labels[j])
            .map(|i| (i, j))
    }) {
        let (a, b) = (x.t.shape()[i], x.t.shape()[j]);
        if a != b {
            return Err(shape_err(format!(
                "einsum(): subscript {} is repeated for operand {index} but the sizes don't match, {b} != {a}",
                x.labels[i]
            )));
        }
        let c = x.labels[i];
        x.t = crate::tensor::ops::select::diagonal(&x.t, 0, i as i64, j as i64)?;
        x.labels.remove(j);
        x.labels.remove(i);
        x.labels.push(c);
    }
    Ok(x)
}

/// The dims an ellipsis covers broadcast across operands (PyTorch's message).
fn check_ellipsis_broadcast(items: &[Labeled], broadcast_dims: usize) -> Result<()> {
    let mut seen: Vec<(char, usize)> = vec![];
    for (index, x) in items.iter().enumerate() {
        for (&c, &n) in x.labels.iter().zip(x.t.shape()) {
            if c < ellipsis_label(0) {
                continue;
            }
            // PyTorch counts the dim among all broadcast dims, from the left.
            let k = broadcast_dims - 1 - (c as usize - ellipsis_label(0) as usize);
            match seen.iter_mut().find(|(l, _)| *l == c) {
                Some((_, m)) if *m != n && *m != 1 && n != 1 => {
                    return Err(shape_err(format!(
                        "einsum(): dimension {k} covered by ellipsis in operand {index}has size {n} which does not broadcast with previously seen ellipsis with size {m} for the respective dimension"
                    )));
                }
                Some((_, m)) => *m = (*m).max(n),
                None => seen.push((c, n)),
            }
        }
    }
    Ok(())
}

/// torch.einsum(equation, *operands).
pub fn einsum(equation: &str, operands: Vec<Tensor>) -> Result<Tensor> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, out) = match eq.split_once("->") {
        Some((l, o)) => (l.to_string(), Some(o.to_string())),
        None => (eq.clone(), None),
    };
    let specs = lhs
        .split(',')
        .enumerate()
        .map(|(i, s)| parse_spec(s, equation, &format!("operand {i}")))
        .collect::<Result<Vec<Spec>>>()?;
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
    let mut items = vec![];
    let mut broadcast_dims = 0;
    for (index, (t, spec)) in operands.into_iter().zip(&specs).enumerate() {
        let labels = labels_of(spec, t.ndim(), index)?;
        if spec.ellipsis.is_some() {
            broadcast_dims = broadcast_dims.max(t.ndim() - spec.letters.len());
        }
        items.push(diagonals(Labeled { t, labels }, index)?);
    }
    check_ellipsis_broadcast(&items, broadcast_dims)?;
    let ellipsis: Vec<char> = (0..broadcast_dims).rev().map(ellipsis_label).collect();
    let out = match out {
        Some(o) => {
            let spec = parse_spec(&o, equation, "output")?;
            let mut labels = spec.letters.clone();
            if let Some(at) = spec.ellipsis {
                labels.splice(at..at, ellipsis.iter().copied());
            }
            if let Some(c) = (1..labels.len())
                .find_map(|i| labels[..i].contains(&labels[i]).then_some(labels[i]))
            {
                return Err(value_err(format!(
                    "einsum(): output subscript {c} appears more than once in the output"
                )));
            }
            labels
        }
        // Without `->`: the broadcast dims, then the letters used once, sorted.
        None => {
            let letters: Vec<char> = specs
                .iter()
                .flat_map(|s| s.letters.iter().copied())
                .collect();
            let mut once: Vec<char> = letters
                .iter()
                .copied()
                .filter(|c| letters.iter().filter(|l| *l == c).count() == 1)
                .collect();
            once.sort_unstable();
            [ellipsis, once].concat()
        }
    };
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
