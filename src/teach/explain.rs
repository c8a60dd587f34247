//! The pictures behind `:explain` and `:why`: broadcasting with both shapes
//! right-aligned, matmul's inner dimensions, the promotion rule that chose a
//! dtype, and a tensor's layout.

use crate::error::OperandInfo;
use crate::tensor::DType;
use crate::tensor::Tensor;
use crate::tensor::promote::{Operand, result_type};
use crate::tensor::shape::fmt_shape;

/// Broadcasting drawn: each shape right-aligned, stretched dims shown `1→n`
/// (or `·→n` for a dim the shorter shape lacks), the result, and a caret under
/// the first clashing dim.
pub fn broadcast(labels: &[&str], shapes: &[&[usize]]) -> String {
    let n = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    // Result per column, or the column that clashes.
    let mut result = vec![1usize; n];
    let mut clash = None;
    for (col, r) in result.iter_mut().enumerate() {
        for s in shapes {
            let Some(d) = dim_at(s, n, col) else { continue };
            if d != 1 {
                if *r != 1 && *r != d {
                    clash.get_or_insert(col);
                }
                *r = (*r).max(d);
            }
        }
    }
    let cell = |s: &[usize], col: usize| -> String {
        match dim_at(s, n, col) {
            Some(d) if clash == Some(col) => d.to_string(),
            Some(1) if result[col] != 1 => format!("1→{}", result[col]),
            Some(d) => d.to_string(),
            None if clash.is_none() => format!("·→{}", result[col]),
            None => "·".to_string(),
        }
    };
    let mut rows: Vec<(String, Vec<String>, String)> = shapes
        .iter()
        .zip(labels)
        .map(|(s, l)| {
            (
                l.to_string(),
                (0..n).map(|c| cell(s, c)).collect(),
                fmt_shape(s),
            )
        })
        .collect();
    if clash.is_none() {
        rows.push((
            "result".into(),
            result.iter().map(|d| d.to_string()).collect(),
            fmt_shape(&result),
        ));
    }
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            rows.iter()
                .map(|r| r.1[c].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let label_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let mut out = String::from("broadcasting (shapes aligned on the right):\n");
    let mut caret_col = 0;
    for (label, cells, shape) in &rows {
        let mut line = format!("  {label:<label_w$}  [");
        for (c, (text, w)) in cells.iter().zip(&widths).enumerate() {
            if c > 0 {
                line.push_str(", ");
            }
            if clash == Some(c) {
                caret_col = line.chars().count() + w - 1;
            }
            line.push_str(&format!("{text:>w$}"));
        }
        line.push_str(&format!("]   {shape}\n"));
        out.push_str(&line);
    }
    match clash {
        Some(c) => {
            let sizes: Vec<String> = shapes
                .iter()
                .filter_map(|s| dim_at(s, n, c))
                .map(|d| d.to_string())
                .collect();
            out.push_str(&format!(
                "  {}^ dim {}: {} — sizes differ and none is 1, so they cannot be stretched to match\n",
                " ".repeat(caret_col),
                c as isize - n as isize,
                sizes.join(" vs ")
            ));
        }
        None => {
            let stretched: Vec<String> = shapes
                .iter()
                .zip(labels)
                .filter_map(|(s, l)| {
                    let dims: Vec<String> = (0..n)
                        .filter(|&c| dim_at(s, n, c) != Some(result[c]))
                        .map(|c| (c as isize - n as isize).to_string())
                        .collect();
                    (!dims.is_empty()).then(|| format!("{l} along dim {}", dims.join(", ")))
                })
                .collect();
            if stretched.is_empty() {
                out.push_str("  same shapes: nothing is stretched\n");
            } else {
                out.push_str(&format!(
                    "  stretched (repeated without copying): {}\n",
                    stretched.join("; ")
                ));
            }
            let biggest = shapes.iter().map(|s| s.iter().product::<usize>()).max();
            let n_out: usize = result.iter().product();
            if biggest.is_some_and(|b| n_out > b) && shapes.len() > 1 {
                out.push_str(&format!(
                    "  note: the result has {n_out} elements, more than any operand — intended?\n"
                ));
            }
        }
    }
    out
}

/// Size of `s` at column `col` of `n` right-aligned columns.
fn dim_at(s: &[usize], n: usize, col: usize) -> Option<usize> {
    (col + s.len()).checked_sub(n).map(|i| s[i])
}

/// `a @ b` drawn: the inner dimensions that must agree, batch dims, result.
pub fn matmul(labels: [&str; 2], a: &[usize], b: &[usize]) -> String {
    let mut out = String::from("matrix product:\n");
    let w = labels[0].len().max(labels[1].len());
    out.push_str(&format!("  {:<w$}  {}\n", labels[0], fmt_shape(a)));
    out.push_str(&format!("  {:<w$}  {}\n", labels[1], fmt_shape(b)));
    if a.is_empty() || b.is_empty() {
        out.push_str(
            "  both operands need at least one dimension (a 0-d tensor is a scalar: use *)\n",
        );
        return out;
    }
    let ka = a[a.len() - 1];
    let kb = if b.len() == 1 { b[0] } else { b[b.len() - 2] };
    let which_b = if b.len() == 1 {
        "its only dim"
    } else {
        "its second-to-last dim"
    };
    if ka != kb {
        out.push_str(&format!(
            "  ✗ inner dimensions differ: {} has {ka} columns (last dim), {} has {kb} rows ({which_b})\n",
            labels[0], labels[1]
        ));
        if b.len() >= 2 && b[b.len() - 1] == ka {
            out.push_str(&format!(
                "  try: {} @ {}.T multiplies [.., {ka}] by [{ka}, ..]\n",
                labels[0], labels[1]
            ));
        } else if a.len() >= 2 && a[a.len() - 2] == kb {
            out.push_str(&format!(
                "  try: {}.T @ {} multiplies [.., {kb}] by [{kb}, ..]\n",
                labels[0], labels[1]
            ));
        }
        return out;
    }
    out.push_str(&format!(
        "  ✓ inner dimensions agree: {ka} = {kb} (summed over)\n"
    ));
    let m: Vec<usize> = if a.len() >= 2 {
        vec![a[a.len() - 2]]
    } else {
        vec![]
    };
    let n: Vec<usize> = if b.len() >= 2 {
        vec![b[b.len() - 1]]
    } else {
        vec![]
    };
    let ba = &a[..a.len().saturating_sub(2)];
    let bb = &b[..b.len().saturating_sub(2)];
    match crate::tensor::shape::broadcast_shapes(ba, bb) {
        Ok(batch) => {
            if !batch.is_empty() {
                out.push_str(&format!(
                    "  batch dims {} and {} broadcast to {}\n",
                    fmt_shape(ba),
                    fmt_shape(bb),
                    fmt_shape(&batch)
                ));
            }
            let mut r = batch;
            r.extend(m);
            r.extend(n);
            out.push_str(&format!("  result {}\n", fmt_shape(&r)));
        }
        Err(_) => out.push_str(&format!(
            "  ✗ batch dims {} and {} cannot be broadcast\n",
            fmt_shape(ba),
            fmt_shape(bb)
        )),
    }
    out
}

fn category(d: DType) -> &'static str {
    if d.is_float() {
        "float"
    } else if d == DType::Bool {
        "bool"
    } else {
        "integer"
    }
}

fn kind_of(o: &OperandInfo) -> String {
    if o.scalar {
        format!(
            "a Python {}",
            match category(o.dtype) {
                "float" => "float",
                "bool" => "bool",
                _ => "int",
            }
        )
    } else if o.shape.is_empty() {
        format!("a 0-d {} tensor", o.dtype)
    } else {
        let article = if o.dtype.name().starts_with('i') {
            "an"
        } else {
            "a"
        };
        format!("{article} {} tensor", o.dtype)
    }
}

/// The dtype an op over these operands returns, and the promotion rule that chose it.
pub fn dtype_rule(operands: &[OperandInfo], true_division: bool) -> String {
    let ops: Vec<Operand> = operands
        .iter()
        .map(|o| {
            if o.scalar {
                Operand::Scalar(o.dtype)
            } else {
                Operand::Tensor {
                    dtype: o.dtype,
                    zero_dim: o.shape.is_empty(),
                }
            }
        })
        .collect();
    let promoted = result_type(&ops);
    let mut out = format!(
        "dtype: {} → {promoted}\n",
        operands
            .iter()
            .map(kind_of)
            .collect::<Vec<_>>()
            .join(" with ")
    );
    let dims: Vec<&OperandInfo> = operands
        .iter()
        .filter(|o| !o.scalar && !o.shape.is_empty())
        .collect();
    let lower: Vec<&OperandInfo> = operands
        .iter()
        .filter(|o| o.scalar || o.shape.is_empty())
        .collect();
    let rule = if operands.iter().all(|o| o.dtype == promoted) {
        "  rule: the operands agree, so nothing is promoted".to_string()
    } else if !dims.is_empty() && !lower.is_empty() && dims.iter().all(|d| d.dtype == promoted) {
        "  rule: Python scalars and 0-d tensors do not widen a sized tensor of the same or a higher category (bool < integer < float); the tensor's dtype stays".to_string()
    } else if !dims.is_empty() && !lower.is_empty() {
        if lower.iter().any(|o| o.scalar && o.dtype.is_float())
            && dims.iter().all(|d| !d.dtype.is_float())
        {
            format!(
                "  rule: a Python float is of a higher category than the tensor, so the result takes the default float dtype ({promoted})"
            )
        } else {
            "  rule: the scalar or 0-d tensor is of a higher category (bool < integer < float), so its dtype wins".to_string()
        }
    } else if operands
        .iter()
        .map(|o| category(o.dtype))
        .collect::<std::collections::HashSet<_>>()
        .len()
        > 1
    {
        format!(
            "  rule: different categories (bool < integer < float): the higher one wins → {promoted}"
        )
    } else {
        format!("  rule: same category: the wider type holds both → {promoted}")
    };
    out.push_str(&rule);
    out.push('\n');
    if true_division && !promoted.is_float() {
        out.push_str(&format!(
            "  then: true division `/` of {promoted} values gives the default float dtype → float32 (use // for floor division)\n"
        ));
    }
    out
}

/// Shape, strides, offset, contiguity, and which named tensors share the storage:
/// `this_is` names the tensor itself, `shared` other tensors on its storage.
pub fn layout(t: &Tensor, this_is: &[String], shared: &[String]) -> String {
    let strides: Vec<String> = t.strides().iter().map(|s| s.to_string()).collect();
    let mut out = format!(
        "layout:\n  shape       {}\n  strides     ({})   elements to step in storage for +1 along each dim\n  offset      {}\n",
        fmt_shape(t.shape()),
        strides.join(", "),
        t.offset()
    );
    let why = if t.is_contiguous() {
        "yes (row-major, no gaps)".to_string()
    } else if t.strides().windows(2).any(|w| w[0] < w[1]) {
        "no: dims are permuted (a transpose); .contiguous() copies into row-major order".to_string()
    } else {
        "no: it skips elements (a step slice or expand); .contiguous() copies".to_string()
    };
    out.push_str(&format!("  contiguous  {why}\n"));
    out.push_str(&format!(
        "  storage     {} elements of {} ({} bytes each)\n",
        t.storage_len(),
        t.dtype(),
        t.dtype().size(),
    ));
    if !this_is.is_empty() {
        out.push_str(&format!("  name        {}\n", this_is.join(", ")));
    }
    if !shared.is_empty() {
        let how = if t.is_view() {
            "a view: it shares the storage of"
        } else {
            "its storage is shared by the views"
        };
        out.push_str(&format!(
            "  sharing     {how} {} — a write to one shows in the other\n",
            shared.join(", ")
        ));
    }
    out
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn broadcast_marks_stretched_and_clashing_dims() {
            let ok = broadcast(&["a", "b"], &[&[3, 1], &[3]]);
            assert!(ok.contains("  a       [  3, 1→3]   [3, 1]\n"), "{ok}");
            assert!(ok.contains("  b       [·→3,   3]   [3]\n"), "{ok}");
            assert!(ok.contains("  result  [  3,   3]   [3, 3]\n"), "{ok}");
            assert!(ok.contains("more than any operand"), "{ok}");
            let bad = broadcast(&["x", "y"], &[&[3, 2], &[3]]);
            assert!(bad.contains("^ dim -1: 2 vs 3"), "{bad}");
            assert!(!bad.contains("result"), "{bad}");
        }

        fn matmul_names_the_inner_dims() {
            let bad = matmul(["a", "b"], &[2, 3], &[2, 3]);
            assert!(
                bad.contains("a has 3 columns") && bad.contains("b has 2 rows"),
                "{bad}"
            );
            assert!(bad.contains("try: a @ b.T"), "{bad}");
            let ok = matmul(["a", "b"], &[5, 2, 3], &[3, 4]);
            assert!(ok.contains("result [5, 2, 4]"), "{ok}");
        }

        fn dtype_rules() {
            let t = |d, shape: Vec<usize>| OperandInfo {
                span: None,
                shape,
                dtype: d,
                device: crate::tensor::Device::Cpu,
                scalar: false,
            };
            let s = |d| OperandInfo {
                scalar: true,
                ..t(d, vec![])
            };
            let r = dtype_rule(&[t(DType::I64, vec![2]), s(DType::F64)], false);
            assert!(
                r.starts_with("dtype: an int64 tensor with a Python float → float32"),
                "{r}"
            );
            let r = dtype_rule(&[t(DType::F16, vec![2]), s(DType::I64)], false);
            assert!(r.contains("→ float16") && r.contains("do not widen"), "{r}");
            let r = dtype_rule(&[t(DType::I32, vec![2]), t(DType::F16, vec![2])], false);
            assert!(r.contains("higher one wins → float16"), "{r}");
            let r = dtype_rule(&[t(DType::I64, vec![2]), t(DType::I64, vec![2])], true);
            assert!(r.contains("true division"), "{r}");
        }
    }
}
