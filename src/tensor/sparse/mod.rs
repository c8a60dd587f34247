//! Sparse tensors: PyTorch's COO layout (an index per stored element, possibly
//! repeated) and the compressed layouts CSR, CSC, BSR and BSC (rows or columns
//! compressed into offsets, of single elements or of dense blocks). A sparse
//! tensor is its size and a few dense tensors (indices and values); every
//! operation here is a composite of dense tensor ops, so it runs on every device.
//!
//! Compressed tensors have exactly two sparse dims (PyTorch's batch dims are not
//! supported); trailing dense dims are, in every layout.

mod compressed;
mod coo;
mod ops;

pub use ops::{Summed, add, mm, sparse_mask, sum};

use crate::error::{Result, shape_err, value_err};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Device, Tensor};

/// How a sparse tensor stores its elements (PyTorch's `torch.layout`, less strided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SparseLayout {
    Coo,
    Csr,
    Csc,
    Bsr,
    Bsc,
}

impl SparseLayout {
    pub const ALL: [SparseLayout; 5] = [
        SparseLayout::Coo,
        SparseLayout::Csr,
        SparseLayout::Csc,
        SparseLayout::Bsr,
        SparseLayout::Bsc,
    ];

    /// PyTorch's name, after `torch.`: `sparse_coo`, `sparse_csr`...
    pub fn name(self) -> &'static str {
        match self {
            SparseLayout::Coo => "sparse_coo",
            SparseLayout::Csr => "sparse_csr",
            SparseLayout::Csc => "sparse_csc",
            SparseLayout::Bsr => "sparse_bsr",
            SparseLayout::Bsc => "sparse_bsc",
        }
    }

    pub fn from_name(name: &str) -> Option<SparseLayout> {
        Self::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Values are dense blocks (BSR, BSC) rather than single elements.
    pub fn blocked(self) -> bool {
        matches!(self, SparseLayout::Bsr | SparseLayout::Bsc)
    }

    /// Rows are compressed (CSR, BSR); columns are for CSC and BSC.
    pub fn compresses_rows(self) -> bool {
        matches!(self, SparseLayout::Csr | SparseLayout::Bsr)
    }

    /// The names of the compressed and the plain indices, as PyTorch's
    /// accessors and printout call them.
    pub fn index_names(self) -> (&'static str, &'static str) {
        if self.compresses_rows() {
            ("crow_indices", "col_indices")
        } else {
            ("ccol_indices", "row_indices")
        }
    }
}

/// A sparse tensor: its layout, its (dense) size and the dense tensors that
/// hold its elements.
#[derive(Clone)]
pub struct SparseTensor {
    layout: SparseLayout,
    size: Vec<usize>,
    /// COO: the indices, int64 `[sparse_dim, nnz]`. Compressed layouts: the
    /// compressed indices, `[rows + 1]` (CSR), `[cols + 1]` (CSC), or per block.
    indices: Tensor,
    /// Compressed layouts: the plain indices `[nnz]` (columns for CSR/BSR, rows
    /// for CSC/BSC). None for COO.
    plain: Option<Tensor>,
    /// `[nnz, *dense]`; blocked layouts `[nnz, block_rows, block_cols, *dense]`.
    values: Tensor,
    /// COO only: the indices are sorted and unique.
    coalesced: bool,
}

impl SparseTensor {
    pub fn layout(&self) -> SparseLayout {
        self.layout
    }
    pub fn size(&self) -> &[usize] {
        &self.size
    }
    pub fn ndim(&self) -> usize {
        self.size.len()
    }
    pub fn dtype(&self) -> DType {
        self.values.dtype()
    }
    pub fn device(&self) -> Device {
        self.values.device()
    }
    /// Stored elements (blocks, for BSR and BSC).
    pub fn nnz(&self) -> usize {
        self.values.shape().first().copied().unwrap_or(0)
    }
    pub fn sparse_dim(&self) -> usize {
        match self.layout {
            SparseLayout::Coo => self.indices.shape()[0],
            _ => 2,
        }
    }
    pub fn dense_dim(&self) -> usize {
        self.ndim() - self.sparse_dim()
    }
    pub fn is_coalesced(&self) -> bool {
        self.coalesced
    }
    /// The values as stored (`_values()`; `values()` of a compressed tensor).
    pub fn values(&self) -> &Tensor {
        &self.values
    }
    /// COO: the indices as stored (`_indices()`); compressed: the compressed indices.
    pub fn raw_indices(&self) -> &Tensor {
        &self.indices
    }
    /// Compressed layouts: the plain indices.
    pub fn plain_indices(&self) -> Option<&Tensor> {
        self.plain.as_ref()
    }
    /// The block shape of BSR and BSC tensors.
    pub fn blocksize(&self) -> Option<(usize, usize)> {
        self.layout
            .blocked()
            .then(|| (self.values.shape()[1], self.values.shape()[2]))
    }

    /// COO's `indices()`: only a coalesced tensor's indices mean one element each.
    pub fn indices(&self) -> Result<Tensor> {
        if self.layout != SparseLayout::Coo {
            return Err(layout_err("indices", self.layout));
        }
        if !self.coalesced {
            return Err(value_err(
                "Cannot get indices on an uncoalesced tensor, please call .coalesce() first",
            ));
        }
        Ok(self.indices.clone())
    }

    /// COO's `values()` (coalesced only, as `indices()`); the values of any
    /// compressed tensor.
    pub fn checked_values(&self) -> Result<Tensor> {
        if self.layout == SparseLayout::Coo && !self.coalesced {
            return Err(value_err(
                "Cannot get values on an uncoalesced tensor, please call .coalesce() first",
            ));
        }
        Ok(self.values.clone())
    }

    /// `crow_indices()` and the other accessors of compressed layouts, by name.
    pub fn compressed_part(&self, name: &str) -> Result<Tensor> {
        let (compressed, plain) = self.layout.index_names();
        match &self.plain {
            Some(p) if name == plain => Ok(p.clone()),
            Some(_) if name == compressed => Ok(self.indices.clone()),
            _ => Err(value_err(format!(
                "{name} expected sparse {} layout but got {}",
                if name.starts_with("cr") || name.starts_with("col") {
                    "row or block row compressed"
                } else {
                    "column or block column compressed"
                },
                layout_text(self.layout)
            ))),
        }
    }

    /// The same tensor with its indices and values moved to `device`.
    pub fn to_device(&self, device: Device) -> Result<SparseTensor> {
        self.map_parts(|t| t.to_device(device), |v| v.to_device(device))
    }

    /// A copy with indices and values of its own.
    pub fn deep_clone(&self) -> Result<SparseTensor> {
        self.map_parts(Tensor::deep_clone, Tensor::deep_clone)
    }

    /// The same pattern with values of another dtype.
    pub fn to_dtype(&self, dtype: DType) -> Result<SparseTensor> {
        self.map_parts(|t| Ok(t.clone()), |v| v.to_dtype(dtype))
    }

    /// The same pattern with values `f(values)` (which must keep their shape):
    /// scaling, negation, dtype conversion.
    pub fn with_values(&self, values: Tensor) -> Result<SparseTensor> {
        if values.shape() != self.values.shape() {
            return Err(shape_err(format!(
                "new values of shape {} for a sparse tensor whose values are {}",
                fmt_shape(values.shape()),
                fmt_shape(self.values.shape())
            )));
        }
        Ok(SparseTensor {
            values,
            ..self.clone()
        })
    }

    /// `sparse_coo_tensor(..., is_coalesced=True)`: the caller vouches that the
    /// indices are sorted and unique.
    pub fn assume_coalesced(&self, on: bool) -> SparseTensor {
        SparseTensor {
            coalesced: on && self.layout == SparseLayout::Coo,
            ..self.clone()
        }
    }

    fn map_parts(
        &self,
        index: impl Fn(&Tensor) -> Result<Tensor>,
        value: impl Fn(&Tensor) -> Result<Tensor>,
    ) -> Result<SparseTensor> {
        Ok(SparseTensor {
            indices: index(&self.indices)?,
            plain: self.plain.as_ref().map(&index).transpose()?,
            values: value(&self.values)?,
            ..self.clone()
        })
    }

    /// The dense tensor it stands for (repeated COO indices add up).
    pub fn to_dense(&self) -> Result<Tensor> {
        match self.layout {
            SparseLayout::Coo => coo::to_dense(self),
            _ => coo::to_dense(&compressed::to_coo(self)?),
        }
    }

    /// `to_sparse()` / `to_sparse_coo()` of a sparse tensor: COO as it is, a
    /// compressed one as coalesced COO.
    pub fn to_coo(&self) -> Result<SparseTensor> {
        match self.layout {
            SparseLayout::Coo => Ok(self.clone()),
            _ => compressed::to_coo(self),
        }
    }

    /// Convert to another layout (`to_sparse_csr()`, `to_sparse_bsc((2, 2))`...);
    /// `dense_dim`, when given, must be the tensor's own.
    pub fn to_layout(
        &self,
        layout: SparseLayout,
        blocksize: Option<(usize, usize)>,
        dense_dim: Option<usize>,
    ) -> Result<SparseTensor> {
        if let Some(d) = dense_dim.filter(|&d| d != self.dense_dim()) {
            return Err(value_err(format!(
                "to_{}: the dense_dim argument ({d}) must be the tensor's dense dims ({}), or None",
                layout.name(),
                self.dense_dim()
            )));
        }
        let same_blocks = blocksize.is_none() || blocksize == self.blocksize();
        if layout == self.layout && same_blocks {
            return Ok(self.clone());
        }
        match layout {
            SparseLayout::Coo => self.to_coo(),
            _ => compressed::from_coo(&self.to_coo()?, layout, blocksize),
        }
    }
}

/// `dense.to_sparse(sparse_dim)`, `to_sparse_csr(dense_dim)`, `to_sparse_bsr(blocksize,
/// dense_dim)` and the others: the elements that are not zero (or, with dense
/// dims, the sparse positions whose dense slice is not all zero).
pub fn from_dense(
    t: &Tensor,
    layout: SparseLayout,
    blocksize: Option<(usize, usize)>,
    dense_dim: Option<usize>,
) -> Result<SparseTensor> {
    let dense_dim = dense_dim.unwrap_or(0);
    if dense_dim > t.ndim() {
        return Err(value_err(format!(
            "dense_dim ({dense_dim}) must be at most the tensor's dims ({})",
            t.ndim()
        )));
    }
    let coo = coo::from_dense(t, t.ndim() - dense_dim)?;
    match layout {
        SparseLayout::Coo => Ok(coo),
        _ => compressed::from_coo(&coo, layout, blocksize),
    }
}

/// `torch.sparse_coo_tensor(indices, values, size)`: the size inferred from the
/// largest indices and the values' shape when it is not given.
pub fn coo_tensor(
    indices: &Tensor,
    values: &Tensor,
    size: Option<&[usize]>,
) -> Result<SparseTensor> {
    coo::new(indices, values, size)
}

/// `torch.sparse_compressed_tensor(compressed, plain, values, size, layout=...)`
/// and its per-layout forms.
pub fn compressed_tensor(
    layout: SparseLayout,
    compressed_indices: &Tensor,
    plain_indices: &Tensor,
    values: &Tensor,
    size: Option<&[usize]>,
) -> Result<SparseTensor> {
    compressed::new(layout, compressed_indices, plain_indices, values, size)
}

/// `torch.narrow_copy` of a COO tensor: the elements whose index along `dim`
/// lies in `start..start + length`, or the values narrowed along a dense dim.
pub fn narrow_copy(s: &SparseTensor, dim: i64, start: i64, length: i64) -> Result<SparseTensor> {
    coo::narrow_copy(s, dim, start, length)
}

/// `coalesce()`: the indices sorted, each once, the values of repeated ones added.
pub fn coalesce(s: &SparseTensor) -> Result<SparseTensor> {
    coo::coalesce(s)
}

/// How PyTorch's messages name a layout: `Sparse`, `SparseCsr`...
fn layout_text(l: SparseLayout) -> &'static str {
    match l {
        SparseLayout::Coo => "Sparse",
        SparseLayout::Csr => "SparseCsr",
        SparseLayout::Csc => "SparseCsc",
        SparseLayout::Bsr => "SparseBsr",
        SparseLayout::Bsc => "SparseBsc",
    }
}

/// An op that this layout does not have.
pub fn layout_err(what: &str, l: SparseLayout) -> crate::error::Error {
    crate::error::type_err(format!(
        "{what} is not supported for tensors of layout torch.{}",
        l.name()
    ))
}
