import torch
torch.manual_seed(0)
a = torch.randn(2, 3, 4); b = torch.randn(2, 4, 5); m = torch.randn(3, 3)
print(torch.einsum('...ij,...jk->...ik', a, b).shape)
print(torch.einsum('ii', m))
print(torch.einsum('ii->i', m))
print(torch.einsum('bij,bjk', a, b).shape)
print(torch.einsum('...ij->...ji', a).shape)
print(torch.einsum('i...->...', a).shape)
print(torch.einsum(a, [0, 1, 2], b, [0, 2, 3], [0, 1, 3]).shape)
print(torch.einsum(a, [..., 1, 2], b, [..., 2, 3], [..., 1, 3]).shape)
print(torch.einsum('iij->ij', torch.arange(18.).reshape(3,3,2)))
x = torch.randn(5); y = torch.randn(4)
print(torch.einsum('i,j->ij', x, y).shape)
A = torch.randn(3, 5, 4); l = torch.randn(2, 5); r = torch.randn(2, 4)
print(torch.einsum('bn,anm,bm->ba', l, A, r).shape)
print(torch.einsum('...', torch.tensor(3.)))
for eq in ['ij->ii', 'i.j', 'iij']:
    try:
        torch.einsum(eq, torch.ones(2,3))
    except RuntimeError as e:
        print(str(e)[:60])
try:
    torch.einsum('i...j,j...->i...', torch.ones(2, 1, 3, 4), torch.ones(4, 5))
except RuntimeError as e:
    print(str(e)[:50])
w = torch.randn(3, 3, requires_grad=True)
torch.einsum('ii', w).backward()
print(w.grad)
print(torch.tensor([[1, 5, 3], [4, 2, 6]]).median(dim=1), torch.tensor([3., 1., 2.]).kthvalue(2))
