

# The rest of PyTorch's activations, padding layers, shuffles, distances and
# alpha dropout, as PyTorch defines them (torch/nn/modules/activation.py,
# padding.py, pixelshuffle.py, distance.py), over tensor ops.


def _inplace_suffix(inplace):
    return ", inplace=True" if inplace else ""


def _in_place_if(inplace, input, out):
    # inplace=True: the result written into the input, which is returned.
    return input.copy_(out) if inplace else out


def relu(input, inplace=False):
    return input.relu_() if inplace else torch.relu(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _in_place_if(inplace, input, input.clamp(min_val, max_val))


def relu6(input, inplace=False):
    return _in_place_if(inplace, input, input.clamp(0.0, 6.0))


def hardshrink(input, lambd=0.5):
    return torch.where(input.abs() > lambd, input, torch.zeros_like(input))


def softshrink(input, lambd=0.5):
    # The middle is input·0, as ATen writes it: -0.0 for negatives.
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, input * 0))


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (1 + input.abs())


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return F.softmax(-input, dim=dim, dtype=dtype)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    return _in_place_if(inplace, input, _SELU_SCALE * F.elu(input, _SELU_ALPHA))


def celu(input, alpha=1.0, inplace=False):
    # ATen's elu with input_scale 1/alpha: x where x > 0, else
    # alpha (exp(x (1/alpha)) - 1); with alpha 1, elu itself (one pass).
    if alpha == 1.0:
        return _in_place_if(inplace, input, F.elu(input))
    return _in_place_if(inplace, input, torch.where(input > 0, input, F.elu(input * (1.0 / alpha), alpha)))


def mish(input, inplace=False):
    return _in_place_if(inplace, input, input * F.softplus(input).tanh())


def glu(input, dim=-1):
    if input.shape[dim] % 2 != 0:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def threshold(input, threshold, value, inplace=False):
    return _in_place_if(inplace, input, torch.where(input > threshold, input, torch.full_like(input, value)))


def prelu(input, weight):
    # One slope per channel (dim 1), or one for all.
    if weight.numel() > 1 and input.dim() >= 2:
        weight = weight.reshape((weight.numel(),) + (1,) * (input.dim() - 2))
    out = torch.where(input >= 0, input, weight * input)
    return torch._grad_fn_name(out, "PreluKernelBackward0")


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if not training:
        return F.leaky_relu(input, (lower + upper) / 2)
    slope = torch.empty_like(input).uniform_(lower, upper)
    return torch.where(input >= 0, input, input * slope)


class Hardtanh(nn.Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_suffix(self.inplace)


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Hardsigmoid(nn.Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Hardsigmoid):
    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Hardshrink(nn.Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return softshrink(input, self.lambd)


class Tanhshrink(nn.Module):
    def forward(self, input):
        return tanhshrink(input)


class Softsign(nn.Module):
    def forward(self, input):
        return softsign(input)


class Mish(Hardsigmoid):
    def forward(self, input):
        return mish(input, self.inplace)


class Softmin(nn.Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return softmin(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(nn.Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, dim=-3)


class SELU(nn.Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return selu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class CELU(nn.Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace_suffix(self.inplace)


class GLU(nn.Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Threshold(nn.Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + _inplace_suffix(self.inplace)


class PReLU(nn.Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = nn.Parameter(torch.full((num_parameters,), init, device=device, dtype=dtype))

    def forward(self, input):
        return prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class RReLU(nn.Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return rrelu(input, self.lower, self.upper, self.training)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + _inplace_suffix(self.inplace)


# Padding layers: PyTorch's padding.py, each a mode of F.pad.


def _ntuple_pad(padding, n):
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * n)


class _PadNd(nn.Module):
    _mode = "constant"

    def __init__(self, padding, n):
        super().__init__()
        self.padding = _ntuple_pad(padding, n)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value, n):
        super().__init__(padding, n)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value, 1)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value, 2)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value, 3)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding, 1)


class ReflectionPad2d(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding, 2)


class ReflectionPad3d(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding, 3)


class ReplicationPad1d(_PadNd):
    _mode = "replicate"

    def __init__(self, padding):
        super().__init__(padding, 1)


class ReplicationPad2d(_PadNd):
    _mode = "replicate"

    def __init__(self, padding):
        super().__init__(padding, 2)


class ReplicationPad3d(_PadNd):
    _mode = "replicate"

    def __init__(self, padding):
        super().__init__(padding, 3)


class CircularPad1d(_PadNd):
    _mode = "circular"

    def __init__(self, padding):
        super().__init__(padding, 1)


class CircularPad2d(_PadNd):
    _mode = "circular"

    def __init__(self, padding):
        super().__init__(padding, 2)


class CircularPad3d(_PadNd):
    _mode = "circular"

    def __init__(self, padding):
        super().__init__(padding, 3)


# Pixel and channel shuffles: reshapes and permutes.


def pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    lead = tuple(input.shape[:-3])
    c, h, w = input.shape[-3], input.shape[-2], input.shape[-1]
    if c % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    n = len(lead)
    x = input.reshape(lead + (c // (r * r), r, r, h, w))
    x = x.permute(tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return x.reshape(lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    lead = tuple(input.shape[:-3])
    c, h, w = input.shape[-3], input.shape[-2], input.shape[-1]
    n = len(lead)
    x = input.reshape(lead + (c, h // r, r, w // r, r))
    x = x.permute(tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return x.reshape(lead + (c * r * r, h // r, w // r))


def channel_shuffle(input, groups):
    shape = tuple(input.shape)
    c = shape[1]
    x = input.reshape((shape[0], groups, c // groups) + shape[2:])
    return x.transpose(1, 2).reshape(shape)


# ATen's own kernel behind channel_shuffle: the same shuffle.
def native_channel_shuffle(input, groups):
    return channel_shuffle(input, groups)


class PixelShuffle(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(nn.Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


# Distances and the bilinear layer.


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return torch.linalg.vector_norm(x1 - x2 + eps, p, -1, keepdim)


class PairwiseDistance(nn.Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(nn.Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


def bilinear(input1, input2, weight, bias=None):
    # y_k = x1ᵀ W_k x2 + b_k, over any leading dims.
    t = torch.matmul(input1.unsqueeze(-2).unsqueeze(-3), weight).squeeze(-2)
    out = (t * input2.unsqueeze(-2)).sum(-1)
    return out + bias if bias is not None else out


class Bilinear(nn.Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty((out_features, in1_features, in2_features), device=device, dtype=dtype))
        self.bias = nn.Parameter(torch.empty(out_features, device=device, dtype=dtype)) if bias else None
        bound = 1 / math.sqrt(in1_features)
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return f"in1_features={self.in1_features}, in2_features={self.in2_features}, out_features={self.out_features}, bias={self.bias is not None}"


# Alpha dropout keeps SELU's mean and variance: dropped units go to SELU's
# negative saturation, then an affine map restores the moments.


def _alpha_dropout(input, p, training, feature):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0
    alpha = 1.7580993408473766
    shape = tuple(input.shape)
    if feature:
        shape = shape[:2] + (1,) * (len(shape) - 2)
    keep = torch.bernoulli(torch.full(shape, 1 - p, dtype=input.dtype, device=input.device))
    a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = (keep - 1) * (alpha * a) + alpha * a * p
    return input * (keep * a) + b


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _alpha_dropout(input, p, training, False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _alpha_dropout(input, p, training, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, 5)


class AlphaDropout(_ChannelDropout):
    def forward(self, input):
        return alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_ChannelDropout):
    def forward(self, input):
        return feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(_ChannelDropout):
    def forward(self, input):
        return dropout3d(input, self.p, self.training)
