

# More of what a training loop meets, as PyTorch defines it: the robust and
# KL losses, gradient clipping, ParameterList and LazyLinear.


def _reduced(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    diff = (input - target).abs()
    loss = torch.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta) if beta > 0 else diff
    return torch._grad_fn_name(_reduced(loss, reduction), "SmoothL1LossBackward0")


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    diff = (input - target).abs()
    loss = torch.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta))
    return torch._grad_fn_name(_reduced(loss, reduction), "HuberLossBackward0")


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.shape[0] if input.dim() > 0 else loss.sum()
    return _reduced(loss, reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(reduction=reduction)
        self.beta = beta

    def forward(self, input, target):
        return smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(reduction=reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


def _grads(parameters):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    grads = _grads(parameters)
    if len(grads) == 0:
        return torch.tensor(0.0)
    norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
    total_norm = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if error_if_nonfinite and not torch.isfinite(total_norm):
        raise RuntimeError(f"The total norm of order {float(norm_type)} for gradients from `parameters` is non-finite, so it cannot be clipped.")
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    for g in _grads(parameters):
        g.clamp_(min=-clip_value, max=clip_value)


class ParameterList(nn.Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            for v in values:
                self.append(v)

    def append(self, value):
        if not isinstance(value, nn.Parameter):
            value = nn.Parameter(value)
        setattr(self, str(self._size), value)
        self._size += 1
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def __len__(self):
        return self._size

    def __getitem__(self, idx):
        return getattr(self, str(idx % self._size))

    def __iter__(self):
        for i in range(self._size):
            yield getattr(self, str(i))

    def __repr__(self):
        lines = []
        for i in range(self._size):
            p = getattr(self, str(i))
            size = "x".join(str(s) for s in p.shape)
            where = "" if p.device.type == "cpu" else f" ({p.device})"
            lines.append(f"    ({i}): Parameter containing: [{p.dtype} of size {size}{where}]")
        return "ParameterList(\n" + "\n".join(lines) + "\n)"


class LazyLinear(nn.Module):
    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = 0
        self.out_features = out_features
        self.has_bias = bias
        self.weight = None
        self.bias = None

    def forward(self, input):
        if self.weight is None:
            # PyTorch's first call: the input fixes in_features, then Linear's
            # reset_parameters draws the weights.
            self.in_features = input.shape[-1]
            self.weight = nn.Parameter(torch.empty((self.out_features, self.in_features), dtype=input.dtype, device=input.device))
            init.kaiming_uniform_(self.weight, a=math.sqrt(5))
            if self.has_bias:
                self.bias = nn.Parameter(torch.empty(self.out_features, dtype=input.dtype, device=input.device))
                bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
                init.uniform_(self.bias, -bound, bound)
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.has_bias}"

    def __repr__(self):
        # PyTorch turns a LazyLinear into a Linear on its first call.
        name = "LazyLinear" if self.weight is None else "Linear"
        return f"{name}({self.extra_repr()})"
