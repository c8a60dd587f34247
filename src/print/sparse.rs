//! Sparse tensors as PyTorch's `_str_intern` prints them: the parts (indices,
//! values) as nested tensor bodies under their names, then the size, nnz,
//! dtype (when not a default) and layout suffixes.

use super::tensor::{PrintOptions, add_suffixes, device_suffix, tensor_str};
use crate::tensor::Tensor;
use crate::tensor::dtype::{DType, default_float};
use crate::tensor::sparse::{SparseLayout, SparseTensor};

const PREFIX: &str = "tensor(";

/// The repr of a sparse tensor.
pub fn format_sparse(s: &SparseTensor, opts: &PrintOptions) -> String {
    let indent = PREFIX.len();
    let mut suffixes: Vec<String> = device_suffix(s.device()).into_iter().collect();
    suffixes.push(format!("size={}", py_tuple(s.size())));
    suffixes.push(format!("nnz={}", s.nnz()));
    if !has_default_dtype(s.dtype()) {
        suffixes.push(format!("dtype=torch.{}", s.dtype().name()));
    }
    let parts: Vec<(&str, &Tensor)> = match s.plain_indices() {
        None => vec![("indices", s.raw_indices()), ("values", s.values())],
        Some(plain) => {
            let (compressed_name, plain_name) = s.layout().index_names();
            vec![
                (compressed_name, s.raw_indices()),
                (plain_name, plain),
                ("values", s.values()),
            ]
        }
    };
    let body = parts
        .iter()
        .map(|(name, t)| part(name, t, indent, opts))
        .collect::<Vec<_>>()
        .join(&format!(",\n{}", " ".repeat(indent)));
    suffixes.push(format!("layout=torch.{}", s.layout().name()));
    add_suffixes(
        format!("{PREFIX}{body}"),
        &suffixes,
        indent,
        opts.linewidth,
        s.layout() == SparseLayout::Coo,
    )
}

/// `name=tensor(body)`, with the part's shape after an empty body.
fn part(name: &str, t: &Tensor, indent: usize, opts: &PrintOptions) -> String {
    let prefix = format!("{name}=tensor(");
    let mut text = tensor_str(t, opts, indent + prefix.len());
    if t.numel() == 0 {
        text.push_str(&format!(", size={}", py_tuple(t.shape())));
    }
    format!("{prefix}{text})")
}

/// The dtypes PyTorch leaves out of a tensor's text.
fn has_default_dtype(d: DType) -> bool {
    d == default_float()
        || d == default_float().to_complex()
        || matches!(d, DType::I64 | DType::Bool)
}

/// Python's `str(tuple(shape))`: `(2, 3)`, `(3,)`, `()`.
fn py_tuple(shape: &[usize]) -> String {
    let items: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}
