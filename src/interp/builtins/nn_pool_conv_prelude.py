

# 1-d and 3-d pooling, Lp pooling, unpooling, 3-d and transposed convolution,
# and instance/RMS/local-response norms, as PyTorch defines them: each over
# the 2-d kernels (F.conv2d, F.max_pool2d, F.avg_pool2d) and tensor ops.


def _triple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v, v)


def _batched(input, spatial):
    # PyTorch accepts an unbatched (C, *spatial) input; pools see (1, C, *spatial).
    if input.dim() == spatial + 1:
        return input.unsqueeze(0), True
    return input, False


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    k = _single(kernel_size)
    s = k if stride is None or _one(stride) == () else _single(stride)
    out = F.avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding)), ceil_mode, count_include_pad)
    return out.squeeze(-2)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    k = _single(kernel_size)
    s = k if stride is None or _one(stride) == () else _single(stride)
    out = F.max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding)), (1, _single(dilation)),
                       ceil_mode=ceil_mode, return_indices=return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def _pool3d(input, pool2d, kernel_size, stride, padding, extra):
    # Pool (H, W) with D folded into the channels, then pool D with (H·W)
    # folded into the width: both max and mean separate this way.
    x, unbatched = _batched(input, 3)
    k = _triple(kernel_size)
    s = k if stride is None or _one(stride) == () else _triple(stride)
    p = _triple(padding)
    n, c, d, h, w = x.shape
    y = pool2d(x.reshape(n, c * d, h, w), k[1:], s[1:], p[1:], extra(1))
    h2, w2 = y.shape[-2], y.shape[-1]
    y = pool2d(y.reshape(n, c, d, h2 * w2), (k[0], 1), (s[0], 1), (p[0], 0), extra(0))
    y = y.reshape(n, c, y.shape[2], h2, w2)
    return y.squeeze(0) if unbatched else y


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    dil = _triple(dilation)
    if return_indices:
        return _max_pool3d_with_indices(input, kernel_size, stride, padding, dil, ceil_mode)

    def pool(x, k, s, p, dl):
        return F.max_pool2d(x, k, s, p, dl, ceil_mode=ceil_mode)

    return _pool3d(input, pool, kernel_size, stride, padding, lambda i: dil[1:] if i else (dil[0], 1))


def _max_pool3d_with_indices(input, kernel_size, stride, padding, dil, ceil_mode):
    # The separable max of _pool3d, keeping where each maximum came from:
    # (H, W) first, each depth slice's flat h*W+w, then the depth holding the
    # largest of those. Both stages keep the first of equal values, so the
    # winner is the first in (d, h, w) order, as PyTorch's kernel scans.
    x, unbatched = _batched(input, 3)
    k = _triple(kernel_size)
    s = k if stride is None or _one(stride) == () else _triple(stride)
    p = _triple(padding)
    n, c, d, h, w = x.shape
    y, plane = F.max_pool2d(x.reshape(n, c * d, h, w), k[1:], s[1:], p[1:], dil[1:], ceil_mode=ceil_mode,
                            return_indices=True)
    h2, w2 = y.shape[-2], y.shape[-1]
    y, along = F.max_pool2d(y.reshape(n, c, d, h2 * w2), (k[0], 1), (s[0], 1), (p[0], 0), (dil[0], 1),
                            ceil_mode=ceil_mode, return_indices=True)
    depth = along // (h2 * w2)
    inner = plane.reshape(n, c, d, h2 * w2).gather(2, depth)
    index = depth * (h * w) + inner
    d2 = y.shape[2]
    y = y.reshape(n, c, d2, h2, w2)
    index = index.reshape(n, c, d2, h2, w2)
    if unbatched:
        return y.squeeze(0), index.squeeze(0)
    return y, index


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if divisor_override is not None:
        raise NotImplementedError("tsh's avg_pool3d has no divisor_override yet")

    def pool(x, k, s, p, _):
        return F.avg_pool2d(x, k, s, p, ceil_mode, count_include_pad)

    return _pool3d(input, pool, kernel_size, stride, padding, lambda i: None)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, avg, window):
    out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (torch.sign(out) * F.relu(out.abs())).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, avg_pool1d, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kh, kw = _pair(kernel_size)
    return _lp_pool(input, norm_type, (kh, kw), stride if stride is not None else (kh, kw), ceil_mode,
                    F.avg_pool2d, kh * kw)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kh, kw = _triple(kernel_size)
    return _lp_pool(input, norm_type, (kd, kh, kw), stride, ceil_mode, avg_pool3d, kd * kh * kw)


def _adaptive_3d(input, output_size, reduce):
    od, oh, ow = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 3
    x = _adaptive_1d(input, -1, ow, reduce)
    x = _adaptive_1d(x, -2, oh, reduce)
    return _adaptive_1d(x, -3, od, reduce)


def adaptive_avg_pool3d(input, output_size):
    return _adaptive_3d(input, output_size, _pool_mean)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    return _adaptive_3d(input, output_size, _pool_max)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, n):
    ks = _one(kernel_size) * n if not isinstance(kernel_size, (tuple, list)) else tuple(kernel_size)
    st = ks if stride is None else (_one(stride) * n if not isinstance(stride, (tuple, list)) else tuple(stride))
    pd = _one(padding) * n if not isinstance(padding, (tuple, list)) else tuple(padding)
    spatial = tuple(input.shape[-n:])
    if output_size is not None:
        size = tuple(output_size)[-n:]
    else:
        size = tuple((spatial[i] - 1) * st[i] - 2 * pd[i] + ks[i] for i in range(n))
    lead = tuple(input.shape[:-n])
    total = 1
    for v in size:
        total *= v
    flat = torch.zeros(lead + (total,), dtype=input.dtype, device=input.device)
    flat = flat.scatter(-1, indices.flatten(-n), input.flatten(-n))
    return flat.reshape(lead + size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


class _PoolNd(nn.Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_PoolNd):
    def forward(self, input):
        return max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                          self.return_indices)


class MaxPool3d(_PoolNd):
    def forward(self, input):
        return max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                          self.return_indices)


class AvgPool1d(nn.Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _one(kernel_size)
        self.stride = _one(stride if stride is not None else kernel_size)
        self.padding = _one(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(nn.Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                          self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _LPPool(nn.Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, ceil_mode={self.ceil_mode}"


class LPPool1d(_LPPool):
    def forward(self, input):
        return lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPool):
    def forward(self, input):
        return lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPool):
    def forward(self, input):
        return lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class AdaptiveAvgPool3d(_AdaptivePool):
    def forward(self, input):
        return adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptivePool):
    def forward(self, input):
        return adaptive_max_pool3d(input, self.output_size)


class _MaxUnpool(nn.Module):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, input, indices, output_size=None):
        return _max_unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size, self._n)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    _n = 1


class MaxUnpool2d(_MaxUnpool):
    _n = 2


class MaxUnpool3d(_MaxUnpool):
    _n = 3


# Fractional max pooling (Graham, 2014): each plane's windows start at
# pseudo-random offsets drawn from `_random_samples` (one uniform per spatial
# dim and plane, torch.rand when not given), as ATen's generate_intervals
# places them; the maxima are gathered as tensor ops, so autograd and every
# device follow.


def _fractional_starts(sample, size_in, size_out, k):
    # ATen: alpha = (in - k) / (out - 1) in the input's dtype; start i is
    # int((i + u) * alpha) - int(u * alpha), the last one in - k.
    if size_out > 1:
        alpha = torch.tensor(float(size_in - k), dtype=sample.dtype, device=sample.device) / (size_out - 1)
        i = torch.arange(size_out - 1, dtype=sample.dtype, device=sample.device)
        u = sample.unsqueeze(-1)
        starts = ((i + u) * alpha).trunc() - (u * alpha).trunc()
        last = torch.full(starts.shape[:-1] + (1,), size_in - k, dtype=sample.dtype, device=sample.device)
        return torch.cat([starts, last], -1).long()
    return torch.full(sample.shape + (1,), size_in - k, dtype=torch.int64, device=sample.device)


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, nd):
    name = "fractional_max_pool%dd" % nd
    if output_size is None and output_ratio is None:
        raise ValueError(name + " requires specifying either an output_size or an output_ratio")
    x, unbatched = _batched(input, nd)
    k = _ntuple(kernel_size, nd)
    spatial = list(x.shape[2:])
    if output_size is None:
        ratio = _ntuple(output_ratio, nd)
        output_size = [int(spatial[i] * ratio[i]) for i in range(nd)]
    out = _ntuple(output_size, nd)
    for i in range(nd):
        if out[i] + k[i] - 1 > spatial[i]:
            raise RuntimeError(name + "(): pool size " + str(k[i]) + " too large relative to input size "
                               + str(spatial[i]) + " and output size " + str(out[i]))
    n, c = x.shape[0], x.shape[1]
    if _random_samples is None:
        _random_samples = torch.rand(n, c, nd, dtype=x.dtype, device=x.device)
    # The samples are ordered (W, H) in 2-d and (T, H, W) in 3-d.
    order = [1, 0] if nd == 2 else [0, 1, 2]
    flat = None
    for d in range(nd):
        starts = _fractional_starts(_random_samples[:, :, order[d]], spatial[d], out[d], k[d])
        pos = starts.unsqueeze(-1) + torch.arange(k[d], device=x.device)
        # Broadcast this dim's (out, k) positions against the others'.
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + d] = out[d]
        shape[2 + nd + d] = k[d]
        pos = pos.reshape(shape)
        stride = 1
        for e in spatial[d + 1:]:
            stride *= e
        flat = pos * stride if flat is None else flat + pos * stride
    full = [n, c] + list(out) + list(k)
    flat = flat.expand(full).reshape(n, c, -1, _prod(k))
    windows = x.reshape(n, c, -1).gather(2, flat.reshape(n, c, -1)).reshape(flat.shape)
    y, which = windows.max(-1)
    index = flat.gather(-1, which.unsqueeze(-1)).squeeze(-1)
    y = y.reshape([n, c] + list(out))
    index = index.reshape([n, c] + list(out))
    y = torch._grad_fn_name(y, "FractionalMaxPool%dDBackward0" % nd)
    if unbatched:
        y, index = y.squeeze(0), index.squeeze(0)
    return (y, index) if return_indices else y


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=True, _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True, _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=True, _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True, _random_samples)


class _FractionalMaxPoolNd(nn.Module):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = "FractionalMaxPool%dd" % self._nd
        self.kernel_size = _ntuple(kernel_size, self._nd)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, self._nd) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, self._nd) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(name + " requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None:
            for r in self.output_ratio:
                if not (0 < r < 1):
                    raise ValueError("output_ratio must be between 0 and 1 (got " + str(output_ratio) + ")")

    def forward(self, input):
        return _fractional_max_pool(input, self.kernel_size, self.output_size, self.output_ratio,
                                    self.return_indices, self._random_samples, self._nd)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _nd = 3
