# torch.flip as one copy, F.pad's constant mode as a fill and an interior
# copy, cat reading column slices in place, roll, and float16 casts: on
# contiguous, strided, broadcast and empty inputs.
import torch
import torch.nn.functional as F

a = torch.arange(24.).reshape(2, 3, 4)
print(a.flip(0), a.flip(2), a.flip(0, 1, 2), a.flip(-1, 0))
print(a.transpose(0, 2).flip(1), a[:, ::2, 1:3].flip(-1), a.flip([]))
print(torch.tensor(3.).flip([]), torch.zeros(0, 3).flip(0).shape, torch.zeros(2, 0).flip(1))
print(torch.arange(12).reshape(3, 4).flip(1), torch.tensor([True, False, False]).flip(0))
print(torch.arange(5.).expand(2, 5).flip(1), torch.arange(3.).flip(0).half())
print(torch.flip(torch.arange(2000).reshape(2, 1000), [1])[:, :3], torch.fliplr(a[0]), torch.flipud(a[0]))
big = torch.arange(64 * 3 * 16 * 16.).reshape(64, 3, 16, 16)
print(big.flip(3)[5, 1, 2, :5], big.flip(2, 3).sum(), torch.equal(big.flip(3).flip(3), big))
try:
    a.flip(0, 0)
except RuntimeError as e:
    print("RuntimeError")

x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x.flip(1)
print(y.grad_fn.name())
(y * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)

b = torch.arange(20).reshape(4, 5)
print(torch.cat(b.chunk(3, dim=1), dim=1), torch.cat(b.split(2, dim=1)[::-1], dim=1))
print(torch.cat([b[:, 1:3], b[:, :1], b.t()[:4, :2]], dim=1))
print(torch.cat([b[:, :2].expand(4, 2), torch.zeros(4, 0, dtype=torch.long), b[1:2].expand(4, 5)], 1))
print(torch.cat([b[::2, 1:], b[1::2, 1:]], 0), torch.cat([b[:, 3:], b[:, :3].float()], 1))
c = torch.arange(60.).reshape(3, 4, 5)
print(torch.cat([c[:, 1:3], c[:, :1]], 1), torch.cat([c[:, :, 1:3], c[:, :, :1]], 2).sum((0, 1)))
print(torch.cat([c.permute(1, 0, 2), c.permute(1, 0, 2)[:, :, 1:]], 2).shape)
w = torch.arange(3000.).reshape(3, 1000)
print(torch.cat([w[:, 997:], w[:, :997]], 1)[:, :5], torch.cat([w[:, 3:], w[:, :3]], 1)[:, -5:])
print(torch.roll(b, 2, 1), torch.roll(b, -1, 0), torch.roll(b, (1, 3), (0, 1)), torch.roll(b, 7))
print(torch.roll(w, 3, 1)[:, :5], torch.roll(w, -998, 1)[:, :4])

x4 = torch.arange(2 * 3 * 4 * 5.).reshape(2, 3, 4, 5)
print(F.pad(x4, (1, 2)).shape, F.pad(x4, (1, 1, 2, 0)).sum(), F.pad(x4, (1, 1, 1, 1), value=-1.5)[0, 0])
print(F.pad(x4, (-1, 2, 0, -2))[1, 2], F.pad(x4, (0, 0)).shape, F.pad(x4, (0, 0, 0, 0, 1, 0))[0, 0])
print(F.pad(torch.arange(6).reshape(2, 3), (2, 1), value=7), F.pad(torch.tensor([True, False]), (1, 1)))
print(F.pad(x4.transpose(2, 3), (1, 1))[1, 1], F.pad(torch.zeros(2, 0), (1, 1)), F.pad(x4, (0, 0, 0, 0, 0, 0, 1, 1)).shape)
print(F.pad(torch.arange(6.).reshape(2, 3), (1, 1, 1, 1), mode="constant", value=float("inf")))
xp = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
zp = F.pad(xp, (1, 2, -1, 1))
print(zp, zp.grad_fn.name())
(zp * torch.arange(zp.numel(), dtype=torch.float).reshape(zp.shape)).sum().backward()
print(xp.grad)
for mode in ["reflect", "replicate", "circular"]:
    for shape, pad in [((2, 3, 4, 5), (1, 1)), ((3, 4, 5), (1, 2, 1, 0)), ((3, 4), (1, 1)), ((4,), (1, 1)), ((1, 2, 3, 4), (1, 1, 1, 1, 1, 1))]:
        try:
            print(mode, shape, F.pad(torch.arange(float(torch.tensor(shape).prod())).reshape(shape), pad, mode=mode).shape)
        except NotImplementedError as e:
            print(mode, shape, "NotImplementedError:", str(e).splitlines()[0])
        except RuntimeError as e:
            print(mode, shape, "RuntimeError")

z = torch.zeros(6, 5, 40, 40)
src = torch.arange(6 * 5 * 38 * 38.).reshape(6, 5, 38, 38)
z[:, :, 1:39, 1:39] = src
print(z.sum(), z[:, :, 0].sum(), z[3, 2, 1:3, :4], torch.equal(z[:, :, 1:39, 1:39], src))
m = torch.zeros(300, 400)
m[:, 7] = torch.arange(300.)
m[::2, 100:300:3] = torch.ones(150, 67) * 2
print(m.sum(), m[:4, 5:9], m[:, 100:103].sum(0))
q = torch.zeros(1000, 1000, dtype=torch.int64)
q.t()[:, :500] = torch.arange(500 * 1000).reshape(1000, 500)
print(q.sum(), q[:3, :3], q[998:, 997:])

h = torch.tensor([1e-8, 65504., 70000., -0., float("nan"), float("inf"), 1 / 3, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -25, -2.5, 1000.1])
print(h.half(), h.half().float(), h[::2].half(), h.reshape(3, 4).t().half())
hh = (torch.arange(3000.) / 7 - 200).half()
print(hh[-9:], hh.float()[-9:].tolist(), hh.float().sum(), torch.equal(hh.float().half(), hh))
try:
    F.pad(torch.zeros(2, 3), (2 ** 62, 2 ** 62))
except Exception:
    print("refused")
