# Sparse tensors: COO and the compressed layouts (CSR, CSC, BSR, BSC), made
# from their parts or from dense tensors, converted, printed and used.
import torch

torch.manual_seed(0)

# COO from indices and values; uncoalesced until coalesce() sums repeats.
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
v = torch.tensor([3.0, 4.0, 5.0])
s = torch.sparse_coo_tensor(i, v, (2, 3), check_invariants=False)
print(s)
print(s.is_coalesced(), s._nnz(), s.sparse_dim(), s.dense_dim(), s.dim())
print(s.layout, s.is_sparse, s.is_sparse_csr, s.shape, s.size(), s.size(1), s.dtype)
print(torch.is_tensor(s), s.numel(), type(s), torch.strided, torch.ones(2).layout == torch.strided)
print(s._indices())
print(s._values())
c = s.coalesce()
print(c)
print(c.is_coalesced(), c.indices(), c.values())
print(s.to_dense())
print(torch.sparse_coo_tensor(i, v, check_invariants=False))
print(torch.sparse_coo_tensor(i, v, (2, 3), dtype=torch.float64, check_invariants=False))
print(torch.sparse_coo_tensor(torch.tensor([[1, 1], [0, 2]]), torch.tensor([9, 10]), size=(3, 3), check_invariants=False).to_dense())

# Empty ones print their parts' shapes.
e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (2, 3), check_invariants=False)
print(e)
print(torch.zeros(3, 4).to_sparse_csr())

# Dense to sparse, with dense dims.
x = torch.arange(24.0).reshape(2, 3, 4)
x[0, 1] = 0
print(x.to_sparse(1))
print(x.to_sparse(2)._nnz(), x.to_sparse().is_coalesced())
print(x.to_sparse(2).to_dense().equal(x))
print(torch.arange(16).reshape(2, 2, 2, 2).to_sparse(2))
print(torch.tensor(5.0).to_sparse())
print(torch.tensor([True, False, True]).to_sparse())
print(torch.eye(3, dtype=torch.int32).to_sparse_coo())

# narrow_copy on a sparse dim and on a dense dim.
t = torch.arange(16).reshape(2, 2, 2, 2).to_sparse(2)
print(torch.narrow_copy(t, 0, 0, 1))
print(torch.narrow_copy(t, 1, 1, 1))
print(torch.narrow_copy(t, 3, 1, 1))
print(torch.narrow_copy(torch.tensor([[1, 2, 3], [4, 5, 6]]), 1, 1, 2))

# The compressed layouts from their parts.
print(torch.sparse_csr_tensor(torch.tensor([0, 2, 4]), torch.tensor([0, 1, 0, 1]), torch.tensor([1, 2, 3, 4]), dtype=torch.double, check_invariants=False))
print(torch.sparse_csc_tensor(torch.tensor([0, 2, 4]), torch.tensor([0, 1, 0, 1]), torch.tensor([1, 2, 3, 4]), dtype=torch.double, check_invariants=False))
blocks = torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
print(torch.sparse_bsr_tensor(torch.tensor([0, 1, 2]), torch.tensor([0, 1]), blocks, dtype=torch.double, check_invariants=False))
print(torch.sparse_bsc_tensor(torch.tensor([0, 1, 2]), torch.tensor([0, 1]), blocks, check_invariants=False))
print(torch.sparse_compressed_tensor(torch.tensor([0, 2, 4]), torch.tensor([0, 1, 0, 1]), torch.tensor([1.0, 2.0, 3.0, 4.0]), layout=torch.sparse_csr, check_invariants=False))
print(torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([1, 0]), torch.tensor([5, 6]), size=(2, 3), check_invariants=False).to_dense())

# Dense to compressed, with dense dims and blocks.
csr = torch.eye(5, 5).to_sparse_csr()
print(csr.crow_indices(), csr.col_indices())
d4 = torch.zeros(3, 3, 1, 1)
d4[0, 0] = d4[1, 2] = d4[2, 1] = 1
print(d4.to_sparse_csr(dense_dim=2))
print(d4.to_sparse_csc(dense_dim=2))
d3 = torch.zeros(4, 3, 1)
d3[0:2, 0] = d3[0:2, 2] = d3[2:4, 1] = 1
print(d3.to_sparse_bsr((2, 1), 1))
print(d3.to_sparse_bsc((2, 1), 1))
print(torch.eye(4).to_sparse(layout=torch.sparse_bsr, blocksize=(2, 2)))

# Sparse to sparse.
dense = torch.randn(10, 10)
sparse = dense.to_sparse_csr()
print(sparse._nnz(), sparse.to_sparse_bsc((5, 5)).row_indices(), sparse.to_sparse_bsr((5, 5)).col_indices())
m = torch.tensor([[0, 1.5], [2, 0]], dtype=torch.float64)
print(m.to_sparse_csr().to_sparse())
print(m.to_sparse().to_sparse_csc())
print(m.to_sparse_csc().to_dense())
print(m.to_sparse_bsr((1, 2)).to_dense())
print(m.to_sparse_csr().layout, m.to_sparse_csc().is_sparse_csr, m.layout)

# sparse_mask keeps the mask's pattern.
nse = 5
dims = (5, 5, 2, 2)
I = torch.cat([torch.randint(0, dims[0], size=(nse,)), torch.randint(0, dims[1], size=(nse,))], 0).reshape(2, nse)
V = torch.randn(nse, dims[2], dims[3])
S = torch.sparse_coo_tensor(I, V, dims, check_invariants=False).coalesce()
D = torch.randn(dims)
print(D.sparse_mask(S))
a = torch.arange(6.0).reshape(2, 3)
print(a.sparse_mask(s), a.sparse_mask(s.to_sparse_csr()))

# Arithmetic.
ones = torch.ones(3, 2)
print(torch.sparse.mm(s, ones), s @ ones, torch.mm(s, ones), s @ torch.ones(3))
print(s.to_sparse_csr() @ ones)
print(s * 2, (s * 2).is_coalesced())
print(0.5 * c, c / 2, -c)
print(s + s, c + c, (c + c).is_coalesced())
print(c - c)
print(a + s)
print(m.to_sparse_csr() + m.to_sparse_csr())
print(torch.sparse.sum(s), torch.sparse.sum(s, 0), torch.sparse.sum(s, (0, 1)))
print(s.sum(), s.sum(1))
print(s.to(torch.float64), s.double().dtype)
print(s.to_dense().to_sparse().is_coalesced(), s.to_dense().is_sparse)

# Large ones print summarized parts; every layout stands for the same matrix.
torch.manual_seed(0)
print(torch.randn(50, 50).to_sparse_csr())
print(torch.eye(40, dtype=torch.float64).to_sparse_coo())
i = torch.randint(0, 10, (2, 30))
r = torch.sparse_coo_tensor(i, torch.randn(30), (10, 10), check_invariants=False)
print(r.coalesce())
w = torch.randn(10, 7)
print(torch.allclose(r @ w, r.to_dense() @ w, atol=1e-5), torch.allclose(r.to_sparse_csc() @ w, r.to_dense() @ w, atol=1e-5))
print(r.to_sparse_bsr((5, 2)).values().shape, r.to_sparse_bsc((2, 5)).ccol_indices())
print(torch.allclose(r.to_sparse_bsr((5, 2)).to_dense(), r.to_dense()), torch.allclose(r.to_sparse_bsc((2, 5)).to_dense(), r.to_dense()))
print(torch.allclose(torch.sparse.sum(r, 1).to_dense(), r.to_dense().sum(1), atol=1e-5))
