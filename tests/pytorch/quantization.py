# Quantization: quantized tensors (quint8, qint8, qint32; per tensor and per
# channel), their accessors and printing, dynamic quantization's choice of
# scale and zero point, quantized max pooling and batch norm, and fake
# quantization with its straight-through gradient.
import warnings
warnings.filterwarnings("ignore")
import torch

x = torch.tensor([-1.0, 0.0, 0.25, 1.0, 2.0, 30.0])
q = torch.quantize_per_tensor(x, 0.1, 10, torch.quint8)
print(q)
print(q.int_repr().cpu(), q.dequantize().cpu(), torch.dequantize(q).cpu())
print(q.dtype, q.shape, q.size(), q.size(0), q.dim(), q.ndim, q.numel())
print(q.is_quantized, x.is_quantized, q.qscheme(), q.q_scale(), q.q_zero_point())
print(q.qscheme() == torch.per_tensor_affine, q.dtype == torch.quint8, q.dtype == torch.qint8)
print(torch.quint8, torch.qint8, torch.qint32, torch.per_channel_affine)
print(torch.quint8.is_floating_point, torch.qint8.itemsize, torch.qint32.itemsize)
print(type(q) is torch.Tensor, isinstance(q, torch.Tensor), q.requires_grad)

# Halves round to even; values past the range clamp; float32 arithmetic.
ties = torch.tensor([0.05, 0.15, 0.25, 0.35, -0.05, -0.15, -0.25, 12.7, 12.8, -12.9, 1e10, -1e10])
for dt in [torch.quint8, torch.qint8, torch.qint32]:
    print(torch.quantize_per_tensor(ties, 0.1, 3, dt).int_repr().cpu())
print(torch.quantize_per_tensor(torch.tensor([0.3, 0.7, 1.1]), 1 / 3, 0, torch.qint8).int_repr().cpu())
print(torch.quantize_per_tensor(torch.tensor([float('inf'), -float('inf')]), 0.5, 0, torch.qint8).int_repr().cpu())

# Scale and zero point as tensors: a float32 scale is read as its double value.
print(torch.quantize_per_tensor(x, torch.tensor(0.1), torch.tensor(10), torch.quint8))
print(torch.quantize_per_tensor(x, torch.tensor(0.1, dtype=torch.float64), torch.tensor(10), torch.quint8).q_scale())
print(torch.quantize_per_tensor([torch.tensor([-1.0, 0.0]), torch.tensor([-2.0, 2.0])],
      torch.tensor([0.1, 0.2]), torch.tensor([10, 20]), torch.quint8))
print(torch.dequantize([q, q[:2]]))

# Printing: 0-d, empty, wrapped suffixes, summarised bodies.
print(torch.quantize_per_tensor(torch.tensor(1.26), 0.1, 0, torch.qint8))
print(torch.quantize_per_tensor(torch.tensor([]), 0.1, 0, torch.qint8))
print(torch.quantize_per_tensor(torch.tensor([1.0, 2.0]), 123456.789, 0, torch.qint32))
print(torch.quantize_per_tensor(torch.tensor([1.0, 2.0]), 1e-5, 0, torch.qint32))
print(torch.quantize_per_tensor(torch.arange(2000.).reshape(40, 50) / 100, 0.1, 0, torch.qint32))
print(torch.quantize_per_tensor(torch.arange(12.).reshape(2, 2, 3), 0.5, -3, torch.qint8))

# Indexing picks integers and keeps the scale.
m = torch.quantize_per_tensor(torch.tensor([[-1.0, 0.0, 0.25], [1.0, 2.0, 30.0]]), 0.1, 10, torch.quint8)
print(m[0])
print(m[1, 1:])
print(m[:, 0].int_repr().cpu(), m[-1].q_scale())
print(m.dequantize().cpu() * 2)

# Per channel: float64 scales, int64 zero points, and the axis.
xc = torch.tensor([[-1.0, 0.0], [1.0, 2.0]])
p = torch.quantize_per_channel(xc, torch.tensor([0.1, 0.01]), torch.tensor([10, 0]), 0, torch.quint8)
print(p)
print(p.int_repr().cpu(), p.dequantize().cpu())
print(p.q_per_channel_scales().cpu(), p.q_per_channel_zero_points().cpu(), p.q_per_channel_axis(), p.qscheme())
p1 = torch.quantize_per_channel(xc, torch.tensor([0.1, 0.01]), torch.tensor([10, 0], dtype=torch.int32), 1, torch.qint8)
print(p1)
print(p1.int_repr().cpu(), p1.dequantize().cpu().tolist())
r = torch.quantize_per_channel(torch.arange(24.).reshape(2, 3, 4) / 7, torch.tensor([0.3, 0.07, 0.011]), torch.tensor([-1, 0, 5]), 1, torch.qint32)
print(r.int_repr().cpu())
print(r.dequantize().cpu().tolist()[1][2])

# Dynamic quantization: the scale spans [min(x, 0), max(x, 0)].
for v in [[-1.0, 0.0, 1.0, 2.0], [3.0, 5.0], [-3.0, -5.0], [0.0, 0.0], [1e-6, 2e-6], [-1e-6, 2e-6], [-0.7, 0.2, 11.3]]:
    for dt in [torch.quint8, torch.qint8]:
        for reduce_range in [False, True]:
            d = torch.quantize_per_tensor_dynamic(torch.tensor(v), dt, reduce_range)
            print(dt, reduce_range, d.q_scale(), d.q_zero_point(), d.int_repr().cpu().tolist())
print(torch.quantize_per_tensor_dynamic(torch.tensor([-1.0, 0.0, 1.0, 2.0]), torch.float16, False))

# Quantized max pooling keeps the scale; the windows run on the integers.
torch.manual_seed(0)
qi = torch.quantize_per_tensor(torch.rand(2, 2, 3, 4), 0.1, 3, torch.quint8)
print(torch.quantized_max_pool2d(qi, [2, 2]))
print(torch.quantized_max_pool2d(qi, 2, [1, 1], [1, 1]).int_repr().cpu())
print(torch.quantized_max_pool2d(qi, [2, 2], [1, 2], [1, 0], [1, 1], True).int_repr().cpu())
print(torch.quantized_max_pool2d(qi[0], [3, 2], [2, 1]).int_repr().cpu())
print(torch.quantized_max_pool1d(qi[0], [2]).int_repr().cpu())
print(torch.quantized_max_pool1d(qi[0, 0], [3], [1], [1]))
s8 = torch.quantize_per_tensor(torch.randn(1, 2, 4), 0.05, -2, torch.qint8)
print(torch.quantized_max_pool1d(s8, [2], [], 0, [2]).int_repr().cpu())

# Quantized batch norm (evaluation mode), requantized with the output scale.
qx = torch.quantize_per_tensor(torch.rand(2, 2, 2, 2), 1.5, 3, torch.quint8)
print(torch.quantized_batch_norm(qx, torch.ones(2), torch.zeros(2), torch.rand(2), torch.rand(2), 0.00001, 0.2, 2))
qb = torch.quantize_per_tensor(torch.randn(2, 3, 4) * 2, 0.05, 0, torch.qint8)
w, b, mu, var = torch.rand(3) + 0.5, torch.randn(3), torch.randn(3) * 0.1, torch.rand(3) + 0.5
print(torch.quantized_batch_norm(qb, w, b, mu, var, 1e-5, 0.03, -5).int_repr().cpu())
q2 = torch.quantize_per_tensor(torch.randn(4, 3), 0.02, 128, torch.quint8)
print(torch.quantized_batch_norm(q2, w, b, mu, var, 1e-3, 0.01, 100).int_repr().cpu())
q5 = torch.quantize_per_tensor(torch.randn(1, 3, 2, 2, 2), 0.1, 0, torch.qint32)
print(torch.quantized_batch_norm(q5, w, b, mu, var, 1e-5, 0.1, 7).int_repr().cpu().flatten())

# Fake quantization: the values of quantize-then-dequantize, in the input's dtype.
torch.manual_seed(0)
xf = torch.randn(2, 2, 2)
print(torch.fake_quantize_per_tensor_affine(xf, 0.1, 0, 0, 255))
print(torch.fake_quantize_per_tensor_affine(xf, torch.tensor(0.1), torch.tensor(0), 0, 255))
scales = (torch.randn(2) + 1) * 0.05
print(torch.fake_quantize_per_channel_affine(xf, scales, torch.zeros(2).to(torch.int32), 1, 0, 255))
print(torch.fake_quantize_per_channel_affine(xf, scales, torch.tensor([3, -2], dtype=torch.int32), 2, -128, 127))
x64 = torch.tensor([0.33, 1.26, 0.15, 0.25, 0.35, -7.0], dtype=torch.float64)
print(torch.fake_quantize_per_tensor_affine(x64, 0.1, 0, -50, 50).tolist())
print(torch.fake_quantize_per_channel_affine(x64[None], torch.tensor([0.1]), torch.tensor([0], dtype=torch.int32), 0, -50, 50).tolist())
print(torch.fake_quantize_per_tensor_affine(torch.tensor([0.33, 1.26]).half(), 0.1, 0, 0, 255))
edge = torch.tensor([float('nan'), float('inf'), -float('inf'), 1e30, -1e30, 1e12])
print(torch.fake_quantize_per_tensor_affine(edge, 0.1, 3, 0, 255))
print(torch.fake_quantize_per_channel_affine(edge[None], torch.tensor([0.1]), torch.tensor([3], dtype=torch.int32), 0, 0, 255))
print(torch.fake_quantize_per_tensor_affine(torch.tensor([1.0, 2.0]), torch.tensor(0.1), torch.tensor(300), 0, 255))

# The gradient passes straight through where the rounded value is in range.
g = torch.tensor([-1.0, 0.04, 0.05, 0.15, 0.25, 12.0, 25.49, 25.5, 26.0], requires_grad=True)
y = torch.fake_quantize_per_tensor_affine(g, 0.1, 0, 0, 255)
print(y)
y.backward(torch.arange(9.))
print(g.grad)
g.grad = None
y = torch.fake_quantize_per_tensor_affine(g, torch.tensor(0.1), torch.tensor(0), 0, 255)
print(y.grad_fn.name())
y.sum().backward()
print(g.grad)
g.grad = None
y = torch.fake_quantize_per_channel_affine(g.reshape(3, 3), torch.tensor([0.1, 0.2, 0.3]), torch.tensor([0, 1, 2], dtype=torch.int32), 0, -2, 100)
print(y)
(y * y).sum().backward()
print(g.grad)

# PyTorch's errors, word for word.
def show(f):
    try:
        print(f())
    except Exception as e:
        print(str(e))
show(lambda: torch.quantize_per_tensor(xc, 0.1, 300, torch.quint8))
show(lambda: torch.quantize_per_tensor(xc, 0.1, -1, torch.quint8))
show(lambda: torch.quantize_per_tensor(xc.double(), 0.1, 0, torch.qint8))
show(lambda: torch.quantize_per_tensor(xc, 0.1, 0, torch.float32))
show(lambda: torch.quantize_per_channel(xc, torch.tensor([0.1]), torch.tensor([0]), 0, torch.qint8))
show(lambda: torch.quantize_per_channel(xc, torch.tensor([0.1, 0.2]), torch.tensor([0, 0]), 2, torch.qint8))
show(lambda: torch.quantize_per_channel(xc, torch.tensor([0.1, 0.2]), torch.tensor([0, 300]), 0, torch.quint8))
show(lambda: torch.quantize_per_channel(xc.double(), torch.tensor([0.1, 0.2]), torch.tensor([0, 1]), 0, torch.quint8))
show(lambda: torch.quantize_per_tensor_dynamic(xc, torch.qint32, False))
show(lambda: torch.quantized_max_pool2d(qi[0, 0], [2, 2]))
show(lambda: torch.quantized_max_pool1d(qi[0, 0, 0], [2]))
show(lambda: torch.quantized_batch_norm(qx, torch.ones(3), torch.zeros(3), torch.rand(3), torch.rand(3), 1e-5, 0.2, 2))
show(lambda: torch.quantized_batch_norm(qx, None, None, torch.rand(2), torch.rand(2), 1e-5, 0.2, 2))
show(lambda: torch.fake_quantize_per_tensor_affine(xf, 0.1, 0, 5, 2))
show(lambda: torch.fake_quantize_per_tensor_affine(xf, 0.1, 300, 0, 255))
show(lambda: torch.fake_quantize_per_channel_affine(xf, scales, torch.tensor([0, 300], dtype=torch.int32), 1, 0, 255))
show(lambda: torch.fake_quantize_per_channel_affine(xf, scales, torch.tensor([0, 0]), 1, 0, 255))
show(lambda: torch.fake_quantize_per_channel_affine(xf, scales.double(), torch.tensor([0, 0], dtype=torch.int32), 1, 0, 255))
show(lambda: torch.fake_quantize_per_channel_affine(xf, torch.tensor([0.1]), torch.tensor([0], dtype=torch.int32), 1, 0, 255))
show(lambda: torch.fake_quantize_per_tensor_affine(torch.tensor([1, 2]), 0.1, 0, 0, 255))
