//! Sparse tensors: the constructors (`torch.sparse_coo_tensor`, the compressed
//! ones), the conversions of dense tensors (`to_sparse`, `to_sparse_csr`...),
//! `sparse_mask` and `torch.sparse`. The methods of a sparse tensor are
//! sparse_methods.rs; the math is tensor/sparse.

use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::bind::{Bad, FromArg, IntoValue};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::sparse::{self as sp, SparseLayout, SparseTensor};
use crate::tensor::{DType, Device, Tensor};

/// A tensor argument that may be dense or sparse.
pub enum AnyTensor {
    Dense(Tensor),
    Sparse(Rc<SparseTensor>),
}

impl FromArg for AnyTensor {
    const TY: &'static str = "Tensor";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Sparse(s) => Ok(AnyTensor::Sparse(s.clone())),
            v => Tensor::from_arg(v).map(AnyTensor::Dense),
        }
    }
}

impl FromArg for Rc<SparseTensor> {
    const TY: &'static str = "Tensor";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Sparse(s) => Ok(s.clone()),
            Value::Tensor(_) => Err(Bad::Err(
                type_err("expected a sparse tensor, but got a dense (torch.strided) one")
                    .hint("make one with .to_sparse()"),
            )),
            _ => Err(Bad::Type),
        }
    }
}

impl IntoValue for SparseTensor {
    fn into_value(self) -> Value {
        Value::Sparse(Rc::new(self))
    }
}

impl IntoValue for AnyTensor {
    fn into_value(self) -> Value {
        match self {
            AnyTensor::Dense(t) => Value::Tensor(t),
            AnyTensor::Sparse(s) => Value::Sparse(s),
        }
    }
}

/// A `layout=` argument: `torch.sparse_csr` and the others.
pub fn layout_arg(v: &Value) -> Result<Option<SparseLayout>> {
    match v {
        Value::None | Value::Layout("strided") => Ok(None),
        Value::Layout(name) => Ok(SparseLayout::from_name(name)),
        other => Err(type_err(format!(
            "layout must be a torch.layout such as torch.sparse_csr, not {}",
            other.a_type_name()
        ))),
    }
}

/// `blocksize=(r, c)`.
fn blocksize_arg(b: Option<Vec<i64>>) -> Result<Option<(usize, usize)>> {
    match b.as_deref() {
        None => Ok(None),
        Some(&[r, c]) if r > 0 && c > 0 => Ok(Some((r as usize, c as usize))),
        Some(other) => Err(value_err(format!(
            "blocksize must be a tuple of two positive ints, not {other:?}"
        ))),
    }
}

fn dim_arg(d: Option<i64>) -> Result<Option<usize>> {
    match d {
        Some(d) if d < 0 => Err(value_err(format!("dense_dim must be >= 0, not {d}"))),
        d => Ok(d.map(|d| d as usize)),
    }
}

fn size_arg(size: Option<Vec<i64>>) -> Result<Option<Vec<usize>>> {
    size.map(|s| {
        s.iter()
            .map(|&n| {
                usize::try_from(n).map_err(|_| {
                    value_err(format!("a sparse tensor's size cannot be negative: {n}"))
                })
            })
            .collect()
    })
    .transpose()
}

/// What every constructor does last: the values' dtype, the device, and no
/// gradients (tsh's sparse tensors do not take part in autograd).
fn finish(
    s: SparseTensor,
    dtype: Option<DType>,
    device: Option<Device>,
    requires_grad: bool,
) -> Result<SparseTensor> {
    if requires_grad {
        return Err(
            value_err("sparse tensors do not take gradients in tsh (requires_grad=True)")
                .hint("make the tensor dense with .to_dense() to differentiate through it"),
        );
    }
    let s = match dtype {
        Some(d) => s.to_dtype(d)?,
        None => s,
    };
    match device {
        Some(d) => s.to_device(d),
        None => Ok(s),
    }
}

/// A dense tensor's (or a sparse one's) conversion to `layout`.
fn convert(
    input: AnyTensor,
    layout: SparseLayout,
    blocksize: Option<Vec<i64>>,
    dense_dim: Option<i64>,
) -> Result<SparseTensor> {
    let (blocksize, dense_dim) = (blocksize_arg(blocksize)?, dim_arg(dense_dim)?);
    match input {
        AnyTensor::Dense(t) => sp::from_dense(&t, layout, blocksize, dense_dim),
        AnyTensor::Sparse(s) => s.to_layout(layout, blocksize, dense_dim),
    }
}

/// `t.to_sparse(sparse_dim)` or `t.to_sparse(layout=..., blocksize=..., dense_dim=...)`.
fn to_sparse(
    input: AnyTensor,
    sparse_dim: Option<i64>,
    layout: Value,
    blocksize: Option<Vec<i64>>,
    dense_dim: Option<i64>,
) -> Result<SparseTensor> {
    if matches!(layout, Value::Layout("strided")) {
        return Err(
            value_err("to_sparse(layout=torch.strided): the layout must be a sparse one")
                .hint("to make a sparse tensor dense use .to_dense()"),
        );
    }
    let layout = layout_arg(&layout)?.unwrap_or(SparseLayout::Coo);
    let Some(sd) = sparse_dim else {
        return convert(input, layout, blocksize, dense_dim);
    };
    if layout != SparseLayout::Coo || dense_dim.is_some() {
        return Err(value_err(
            "to_sparse(sparse_dim) makes COO: give either sparse_dim or layout/dense_dim",
        ));
    }
    match input {
        AnyTensor::Dense(t) => {
            if sd < 0 || sd as usize > t.ndim() {
                return Err(value_err(format!(
                    "sparse_dim ({sd}) must be in 0..={} for a {}-d tensor",
                    t.ndim(),
                    t.ndim()
                )));
            }
            sp::from_dense(&t, layout, None, Some(t.ndim() - sd as usize))
        }
        AnyTensor::Sparse(s)
            if s.layout() == SparseLayout::Coo && s.sparse_dim() == sd as usize =>
        {
            Ok((*s).clone())
        }
        AnyTensor::Sparse(s) => Err(value_err(format!(
            "to_sparse({sd}): this torch.{} tensor has {} sparse dims, and tsh does not change a sparse tensor's sparse dims",
            s.layout().name(),
            s.sparse_dim()
        ))
        .hint("go through .to_dense() to choose other sparse dims")),
    }
}

/// The row of one compressed layout's constructor (its schema names the indices).
macro_rules! compressed_row {
    ($sig:literal, $help:literal, $example:literal, $layout:ident, $c:ident, $p:ident) => {
        op!(
            Function,
            $sig,
            $help,
            $example,
            |$c: Tensor,
             $p: Tensor,
             values: Tensor,
             size: Option<Vec<i64>>,
             dtype: Option<DType>,
             device: Option<Device>,
             requires_grad: bool,
             _check_invariants: Option<bool>| compressed(
                SparseLayout::$layout,
                &$c,
                &$p,
                &values,
                size,
                (dtype, device, requires_grad)
            )
        )
    };
}

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "sparse_coo_tensor(Tensor indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None, bool? is_coalesced=None) -> Tensor",
        "A sparse COO tensor: values[k] at the position in column k of indices (sparse_dim x nnz); the size is inferred when not given.",
        "sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3))",
        |indices: Tensor,
         values: Tensor,
         size: Option<Vec<i64>>,
         dtype: Option<DType>,
         device: Option<Device>,
         requires_grad: bool,
         _check_invariants: Option<bool>,
         is_coalesced: Option<bool>| {
            let s = sp::coo_tensor(&indices, &values, size_arg(size)?.as_deref())?;
            let s = match is_coalesced {
                Some(on) => s.assume_coalesced(on),
                None => s,
            };
            finish(s, dtype, device, requires_grad)
        }
    ),
    op!(
        Function,
        "sparse_compressed_tensor(Tensor compressed_indices, Tensor plain_indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None) -> Tensor",
        "A compressed sparse tensor of the given layout (torch.sparse_csr, _csc, _bsr or _bsc) from its compressed and plain indices.",
        "sparse_compressed_tensor(tensor([0, 2, 4]), tensor([0, 1, 0, 1]), tensor([1., 2., 3., 4.]), layout=torch.sparse_csr)",
        |compressed_indices: Tensor,
         plain_indices: Tensor,
         values: Tensor,
         size: Option<Vec<i64>>,
         dtype: Option<DType>,
         layout: Value,
         device: Option<Device>,
         requires_grad: bool,
         _check_invariants: Option<bool>| {
            let layout = match layout_arg(&layout)? {
                Some(l) if l != SparseLayout::Coo => l,
                _ => {
                    return Err(value_err(
                        "sparse_compressed_tensor needs layout= one of torch.sparse_csr, torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc",
                    ));
                }
            };
            compressed(
                layout,
                &compressed_indices,
                &plain_indices,
                &values,
                size,
                (dtype, device, requires_grad),
            )
        }
    ),
    compressed_row!(
        "sparse_csr_tensor(Tensor crow_indices, Tensor col_indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None) -> Tensor",
        "A CSR tensor: the columns and values of row i at crow_indices[i]:crow_indices[i+1].",
        "sparse_csr_tensor(tensor([0, 2, 4]), tensor([0, 1, 0, 1]), tensor([1., 2., 3., 4.]))",
        Csr,
        crow_indices,
        col_indices
    ),
    compressed_row!(
        "sparse_csc_tensor(Tensor ccol_indices, Tensor row_indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None) -> Tensor",
        "A CSC tensor: the rows and values of column j at ccol_indices[j]:ccol_indices[j+1].",
        "sparse_csc_tensor(tensor([0, 2, 4]), tensor([0, 1, 0, 1]), tensor([1., 2., 3., 4.]))",
        Csc,
        ccol_indices,
        row_indices
    ),
    compressed_row!(
        "sparse_bsr_tensor(Tensor crow_indices, Tensor col_indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None) -> Tensor",
        "A BSR tensor: CSR over dense blocks (values are nnz x block rows x block cols).",
        "sparse_bsr_tensor(tensor([0, 1, 2]), tensor([0, 1]), tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]]))",
        Bsr,
        crow_indices,
        col_indices
    ),
    compressed_row!(
        "sparse_bsc_tensor(Tensor ccol_indices, Tensor row_indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool? check_invariants=None) -> Tensor",
        "A BSC tensor: CSC over dense blocks (values are nnz x block rows x block cols).",
        "sparse_bsc_tensor(tensor([0, 1, 2]), tensor([0, 1]), tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]]))",
        Bsc,
        ccol_indices,
        row_indices
    ),
    op!(
        Method,
        "to_sparse(Tensor self, int? sparse_dim=None, *, Layout? layout=None, int[2]? blocksize=None, int? dense_dim=None) -> Tensor",
        "A sparse copy: COO over the first sparse_dim dims (all by default), or the given layout.",
        "torch.tensor([[0, 1], [2, 0]]).to_sparse()",
        |self_: AnyTensor,
         sparse_dim: Option<i64>,
         layout: Value,
         blocksize: Option<Vec<i64>>,
         dense_dim: Option<i64>| to_sparse(self_, sparse_dim, layout, blocksize, dense_dim)
    ),
    op!(
        Method,
        "to_sparse_coo(Tensor self) -> Tensor",
        "A sparse COO copy (the same as to_sparse()).",
        "torch.tensor([[0, 1], [2, 0]]).to_sparse_coo()",
        |self_: AnyTensor| convert(self_, SparseLayout::Coo, None, None)
    ),
    op!(
        Method,
        "to_sparse_csr(Tensor self, int? dense_dim=None) -> Tensor",
        "A CSR copy (the last dense_dim dims kept dense in the values).",
        "torch.eye(3).to_sparse_csr()",
        |self_: AnyTensor, dense_dim: Option<i64>| convert(
            self_,
            SparseLayout::Csr,
            None,
            dense_dim
        )
    ),
    op!(
        Method,
        "to_sparse_csc(Tensor self, int? dense_dim=None) -> Tensor",
        "A CSC copy (the last dense_dim dims kept dense in the values).",
        "torch.eye(3).to_sparse_csc()",
        |self_: AnyTensor, dense_dim: Option<i64>| convert(
            self_,
            SparseLayout::Csc,
            None,
            dense_dim
        )
    ),
    op!(
        Method,
        "to_sparse_bsr(Tensor self, int[2] blocksize, int? dense_dim=None) -> Tensor",
        "A BSR copy: the blocks of blocksize holding a non-zero, stored by block row.",
        "torch.eye(4).to_sparse_bsr((2, 2))",
        |self_: AnyTensor, blocksize: Vec<i64>, dense_dim: Option<i64>| convert(
            self_,
            SparseLayout::Bsr,
            Some(blocksize),
            dense_dim
        )
    ),
    op!(
        Method,
        "to_sparse_bsc(Tensor self, int[2] blocksize, int? dense_dim=None) -> Tensor",
        "A BSC copy: the blocks of blocksize holding a non-zero, stored by block column.",
        "torch.eye(4).to_sparse_bsc((2, 2))",
        |self_: AnyTensor, blocksize: Vec<i64>, dense_dim: Option<i64>| convert(
            self_,
            SparseLayout::Bsc,
            Some(blocksize),
            dense_dim
        )
    ),
    op!(
        Method,
        "to_dense(Tensor self, ScalarType? dtype=None, *, bool? masked_grad=None) -> Tensor",
        "The dense tensor a sparse one stands for (a dense tensor itself).",
        "torch.tensor([[0, 1], [2, 0]]).to_sparse().to_dense()",
        |self_: AnyTensor, dtype: Option<DType>, _masked_grad: Option<bool>| {
            let t = match self_ {
                AnyTensor::Dense(t) => t,
                AnyTensor::Sparse(s) => s.to_dense()?,
            };
            match dtype {
                Some(d) => t.to_dtype(d),
                None => Ok(t),
            }
        }
    ),
    op!(
        Method,
        "sparse_mask(Tensor self, Tensor mask) -> Tensor",
        "The elements of this dense tensor where the sparse mask stores one, as a sparse tensor of the mask's layout.",
        "torch.arange(4.).reshape(2, 2).sparse_mask(torch.eye(2).to_sparse())",
        |self_: Tensor, mask: Rc<SparseTensor>| sp::sparse_mask(&self_, &mask)
    ),
    op!(
        Module,
        "sparse.mm(Tensor mat1, Tensor mat2) -> Tensor",
        "A sparse matrix times a dense matrix (or vector), dense.",
        "torch.sparse.mm(torch.eye(2).to_sparse(), torch.ones(2, 3))",
        |mat1: Rc<SparseTensor>, mat2: Tensor| sp::mm(&mat1, &mat2)
    ),
    op!(
        Module,
        "sparse.sum(Tensor input, int[1]? dim=None, *, ScalarType? dtype=None) -> Tensor",
        "The sum of a sparse tensor's elements: dense over every sparse dim, else sparse.",
        "torch.sparse.sum(torch.eye(3).to_sparse(), 1)",
        |input: Rc<SparseTensor>, dim: Option<Vec<i64>>, dtype: Option<DType>| {
            let input = match dtype {
                Some(d) => Rc::new(input.to_dtype(d)?),
                None => input,
            };
            summed(&input, dim.as_deref())
        }
    ),
];

/// `torch.sparse.sum` and `s.sum()` as a value.
pub fn summed(s: &SparseTensor, dims: Option<&[i64]>) -> Result<Value> {
    Ok(match sp::sum(s, dims)? {
        sp::Summed::Dense(t) => Value::Tensor(t),
        sp::Summed::Sparse(s) => Value::Sparse(Rc::new(s)),
    })
}

/// The shared body of the compressed constructors.
fn compressed(
    layout: SparseLayout,
    compressed_indices: &Tensor,
    plain_indices: &Tensor,
    values: &Tensor,
    size: Option<Vec<i64>>,
    (dtype, device, requires_grad): (Option<DType>, Option<Device>, bool),
) -> Result<SparseTensor> {
    let size = size_arg(size)?;
    let s = sp::compressed_tensor(
        layout,
        compressed_indices,
        plain_indices,
        values,
        size.as_deref(),
    )?;
    finish(s, dtype, device, requires_grad)
}
