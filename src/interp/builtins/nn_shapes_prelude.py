

# Layers that change a tensor's spatial shape, as PyTorch defines them, over
# F.conv2d and tensor ops: Conv1d, adaptive pooling, Upsample/interpolate,
# channel dropout.


def _single(v):
    return v[0] if isinstance(v, (tuple, list)) else v


def _one(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    # A 1-d convolution is a 2-d one over a height of 1.
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    pad = padding if isinstance(padding, str) else (0, _single(padding))
    out = F.conv2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, _single(stride)), pad, (1, _single(dilation)), groups)
    out = out.squeeze(2)
    out = out if batched else out.squeeze(0)
    return torch._grad_fn_name(out, "ConvolutionBackward0")


class Conv1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(_one, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         device, dtype)

    def forward(self, input):
        return conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


def _adaptive_ranges(size_in, size_out):
    # PyTorch's start = floor(i·in/out), end = ceil((i+1)·in/out).
    return [((i * size_in) // size_out, -((-(i + 1) * size_in) // size_out)) for i in range(size_out)]


def _adaptive_1d(input, dim, size_out, reduce):
    size_in = input.shape[dim]
    if size_out is None or size_out == size_in:
        return input
    cells = [reduce(input.narrow(dim, a, b - a), dim) for a, b in _adaptive_ranges(size_in, size_out)]
    return torch.cat(cells, dim)


def _pool_mean(x, dim):
    return x.mean(dim, keepdim=True)


def _pool_max(x, dim):
    return x.amax(dim, keepdim=True)


def _adaptive_sizes(input, output_size):
    # (oh, ow), None standing for the input's own size, as PyTorch reads it.
    oh, ow = output_size if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    return (input.shape[-2] if oh is None else oh, input.shape[-1] if ow is None else ow)


def _whole_window(input, oh, ow):
    # Where the output divides the input, each cell's window is the same
    # (input / output) with no overlap: adaptive pooling is plain pooling with
    # kernel = stride, one pass, not a narrow and a reduction per cell.
    h, w = input.shape[-2], input.shape[-1]
    if oh > 0 and ow > 0 and h % oh == 0 and w % ow == 0:
        return (h // oh, w // ow)
    return None


def adaptive_avg_pool1d(input, output_size):
    # As PyTorch: the 2-d pooling over a height of 1.
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size))).squeeze(-2)


def adaptive_avg_pool2d(input, output_size):
    oh, ow = _adaptive_sizes(input, output_size)
    if oh == 1 and ow == 1:
        return input.mean((-2, -1), keepdim=True)
    return torch._adaptive_avg_pool2d(input, (oh, ow))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, _single(output_size)), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    oh, ow = _adaptive_sizes(input, output_size)
    k = _whole_window(input, oh, ow)
    if k is not None and (oh > 1 or ow > 1):
        # max_pool2d scans each window as ATen's adaptive kernel does (the
        # last NaN wins, else the first maximum), so values and indices agree.
        out = F.max_pool2d(input, k, return_indices=True)
    else:
        # One window over each plane (which max_pool2d would walk tap by
        # tap), or windows of differing sizes: cell by cell.
        out = _adaptive_max_cells(input, oh, ow)
    values = torch._grad_fn_name(out[0], "AdaptiveMaxPool2DBackward0")
    return (values, out[1]) if return_indices else values


def _adaptive_max_cells(input, oh, ow):
    # Each window's first maximum and its flat position in the input's plane
    # (max's index: the gradient goes to that one element, as in ATen, where
    # amax would share it among ties).
    h, w = input.shape[-2], input.shape[-1]
    vals, idxs = [], []
    for a, b in _adaptive_ranges(h, oh):
        for c, d in _adaptive_ranges(w, ow):
            v, i = input[..., a:b, c:d].flatten(-2).max(-1)
            vals.append(v)
            idxs.append((a + i // (d - c)) * w + c + i % (d - c))
    shape = tuple(input.shape[:-2]) + (oh, ow)
    return torch.stack(vals, -1).reshape(shape), torch.stack(idxs, -1).reshape(shape)


class _AdaptivePool(nn.Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    def forward(self, input):
        return adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePool):
    def forward(self, input):
        return adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    def forward(self, input):
        return adaptive_max_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(_AdaptivePool):
    def forward(self, input):
        return adaptive_max_pool2d(input, self.output_size)


def _linear_along(x, dim, size_out, align_corners, scale):
    size_in = x.shape[dim]
    out = torch.arange(size_out, dtype=torch.float64)
    if align_corners:
        src = out * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    else:
        src = ((out + 0.5) * scale - 0.5).clamp(min=0)
    i0 = src.floor().long().clamp(max=size_in - 1)
    i1 = (i0 + 1).clamp(max=size_in - 1)
    w1 = (src - i0).to(x.dtype)
    shape = [1] * x.dim()
    shape[dim] = size_out
    w1 = w1.reshape(shape)
    return x.index_select(dim, i0) * (1 - w1) + x.index_select(dim, i1) * w1


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    dims = input.dim() - 2
    sizes_in = [input.shape[2 + d] for d in range(dims)]
    if size is not None:
        sizes_out = list(size) if isinstance(size, (tuple, list)) else [size] * dims
        scales = [sizes_in[d] / sizes_out[d] for d in range(dims)]
    else:
        factors = list(scale_factor) if isinstance(scale_factor, (tuple, list)) else [scale_factor] * dims
        sizes_out = [int(math.floor(sizes_in[d] * factors[d])) for d in range(dims)]
        scales = [1.0 / factors[d] for d in range(dims)]
    out = input
    for d in reversed(range(dims)):
        dim = 2 + d
        if mode == "nearest":
            idx = (torch.arange(sizes_out[d], dtype=torch.float64) * scales[d]).floor().long().clamp(max=sizes_in[d] - 1)
            out = out.index_select(dim, idx)
        elif mode in ("linear", "bilinear", "trilinear"):
            out = _linear_along(out, dim, sizes_out[d], align_corners, scales[d])
        else:
            raise NotImplementedError(f"tsh's interpolate has modes nearest, linear and bilinear, not {mode}")
    return out


class Upsample(nn.Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) else scale_factor
        self.mode = mode
        self.align_corners = align_corners

    def forward(self, input):
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


def _feature_dropout(input, p, training, batched_dim):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    lead = 2 if input.dim() == batched_dim else 1
    shape = tuple(input.shape[:lead]) + (1,) * (input.dim() - lead)
    if p == 1:
        return input * torch.zeros(shape, dtype=input.dtype, device=input.device)
    noise = torch.bernoulli(torch.full(shape, 1 - p, dtype=input.dtype, device=input.device)) / (1 - p)
    return input * noise


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, 4)


class _ChannelDropout(nn.Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_ChannelDropout):
    def forward(self, input):
        return dropout1d(input, self.p, self.training)


class Dropout2d(_ChannelDropout):
    def forward(self, input):
        return dropout2d(input, self.p, self.training)


class Unfold(nn.Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, stride={self.stride}"


class Fold(nn.Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
