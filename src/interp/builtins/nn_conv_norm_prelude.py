

# 3-d and transposed (1-d over the 2-d one in Rust, 3-d) convolutions over F.conv2d, and the instance, RMS and
# local-response norms, as PyTorch defines them (torch/nn/modules/conv.py,
# instancenorm.py, normalization.py).


def _same_pads(dilation, kernel):
    # PyTorch's padding="same": the total d·(k-1), the extra one on the right.
    pads = []
    for d, k in zip(dilation, kernel):
        total = d * (k - 1)
        pads.append((total // 2, total - total // 2))
    return pads


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    # A sum over the kernel's depth of 2-d convolutions, each over the depth
    # slices that kernel plane meets (folded into the batch).
    x, unbatched = _batched(input, 3)
    s, d = _triple(stride), _triple(dilation)
    kd, kh, kw = weight.shape[2], weight.shape[3], weight.shape[4]
    if isinstance(padding, str):
        if padding == "same":
            (d0, d1), (h0, h1), (w0, w1) = _same_pads(d, (kd, kh, kw))
            x = F.pad(x, (w0, w1, h0, h1, d0, d1))
        p = (0, 0, 0)
    else:
        p = _triple(padding)
        if p[0]:
            x = F.pad(x, (0, 0, 0, 0, p[0], p[0]))
    n, c, depth, h, w = x.shape
    dout = (depth - d[0] * (kd - 1) - 1) // s[0] + 1
    if dout <= 0:
        raise RuntimeError(f"Calculated padded input size per channel: ({depth} x {h} x {w}). Kernel size: ({d[0] * (kd - 1) + 1} x {kh} x {kw}). Kernel size can't be greater than actual input size")
    out = None
    for i in range(kd):
        start = i * d[0]
        xs = x[:, :, start:start + (dout - 1) * s[0] + 1:s[0]]
        xs = xs.transpose(1, 2).reshape(n * dout, c, h, w)
        y = F.conv2d(xs, weight[:, :, i], None, s[1:], p[1:], d[1:], groups)
        out = y if out is None else out + y
    out = out.reshape(n, dout, out.shape[1], out.shape[2], out.shape[3]).transpose(1, 2)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    out = out.squeeze(0) if unbatched else out
    return torch._grad_fn_name(out, "ConvolutionBackward0")


def _dilate(x, dim, stride):
    # stride-1 zeros between neighbours along dim.
    if stride == 1:
        return x
    size = x.shape[dim]
    parts = [x.unsqueeze(dim + 1)] + [torch.zeros_like(x).unsqueeze(dim + 1)] * (stride - 1)
    shape = list(x.shape)
    shape[dim] = size * stride
    return torch.cat(parts, dim + 1).reshape(shape).narrow(dim, 0, (size - 1) * stride + 1)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    # conv_transpose2d's construction in three dims: the input spread out by
    # the stride and padded by d·(k-1)-p, the kernel flipped and its in/out
    # channels swapped within each group, then a stride-1 conv3d.
    x, unbatched = _batched(input, 3)
    s, p, op, d = _triple(stride), _triple(padding), _triple(output_padding), _triple(dilation)
    cin, cout_g, kd, kh, kw = weight.shape
    w = weight.reshape(groups, cin // groups, cout_g, kd, kh, kw).transpose(1, 2)
    w = w.reshape(groups * cout_g, cin // groups, kd, kh, kw).flip((-3, -2, -1))
    x = _dilate(_dilate(_dilate(x, 2, s[0]), 3, s[1]), 4, s[2])
    pd = d[0] * (kd - 1) - p[0]
    ph = d[1] * (kh - 1) - p[1]
    pw = d[2] * (kw - 1) - p[2]
    x = F.pad(x, (pw, pw + op[2], ph, ph + op[1], pd, pd + op[0]))
    out = conv3d(x, w, bias, 1, 0, d, groups)
    out = out.squeeze(0) if unbatched else out
    return torch._grad_fn_name(out, "ConvolutionBackward0")


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    out = conv_transpose2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, _single(stride)), (0, _single(padding)),
                           (0, _single(output_padding)), groups, (1, _single(dilation)))
    out = out.squeeze(2)
    out = out if batched else out.squeeze(0)
    return torch._grad_fn_name(out, "ConvolutionBackward0")


class Conv3d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(_triple, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         device, dtype)

    def forward(self, input):
        return conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(_ConvNd):
    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        n = len(self.kernel_size)
        want = tuple(output_size)[-n:]
        spatial = tuple(input.shape[-n:])
        pads = []
        for i in range(n):
            least = (spatial[i] - 1) * self.stride[i] - 2 * self.padding[i] + self.dilation[i] * (self.kernel_size[i] - 1) + 1
            if want[i] < least or want[i] >= least + self.stride[i]:
                raise ValueError(f"requested an output size of {list(want)}, but valid sizes range from {least} to {least + self.stride[i] - 1}")
            pads.append(want[i] - least)
        return tuple(pads)


class ConvTranspose1d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(_one, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         device, dtype, True, output_padding)

    def forward(self, input, output_size=None):
        op = self._output_padding(input, output_size)
        return conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(_pair, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         device, dtype, True, output_padding)

    def forward(self, input, output_size=None):
        op = self._output_padding(input, output_size)
        return conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                self.dilation)


class ConvTranspose3d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(_triple, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         device, dtype, True, output_padding)

    def forward(self, input, output_size=None):
        op = self._output_padding(input, output_size)
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                self.dilation)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    dims = tuple(range(2, input.dim()))
    shape = (1, -1) + (1,) * len(dims)
    if use_input_stats:
        mean = input.mean(dims, keepdim=True)
        var = input.var(dims, unbiased=False, keepdim=True)
        if running_mean is not None:
            with torch.no_grad():
                running_mean.mul_(1 - momentum).add_(momentum * mean.mean(0).flatten())
                running_var.mul_(1 - momentum).add_(momentum * input.var(dims, unbiased=True).mean(0))
    else:
        mean = running_mean.reshape(shape)
        var = running_var.reshape(shape)
    out = (input - mean) / torch.sqrt(var + eps)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


class _InstanceNorm(_NormBase):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, bias, device, dtype)

    def forward(self, input):
        unbatched = input.dim() == self._no_batch_dim
        x = input.unsqueeze(0) if unbatched else input
        use_input_stats = self.training or not self.track_running_stats
        out = instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias, use_input_stats,
                            self.momentum, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    _no_batch_dim = 4


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


def rms_norm(input, normalized_shape, weight=None, eps=None):
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    dims = tuple(range(-len(normalized_shape), 0))
    out = input * torch.rsqrt(input.pow(2).mean(dims, keepdim=True) + eps)
    return out * weight if weight is not None else out


class RMSNorm(nn.Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = nn.Parameter(torch.ones(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.weight = None

    def forward(self, x):
        return rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    # Each channel divided by the mean square of its `size` neighbours.
    channels = input.shape[1]
    sq = input * input
    lead = list(sq.shape)
    lead[1] = size // 2
    tail = list(sq.shape)
    tail[1] = (size - 1) // 2
    padded = torch.cat([sq.new_zeros(lead), sq, sq.new_zeros(tail)], 1)
    window = padded.narrow(1, 0, channels)
    for i in range(1, size):
        window = window + padded.narrow(1, i, channels)
    div = (window / size * alpha + k).pow(beta)
    return input / div


class LocalResponseNorm(nn.Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
