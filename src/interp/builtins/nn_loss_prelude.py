

# The margin, embedding and likelihood losses of torch/nn/modules/loss.py,
# written as ATen's Loss.cpp computes them, over tensor ops.


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    eps = 1e-12
    dim = input1.dim() - 1
    prod = (input1 * input2).sum(dim)
    mag = ((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)
    cos = prod / mag.sqrt()
    zeros = torch.zeros_like(cos)
    pos = torch.where(target == 1, 1 - cos, zeros)
    neg = torch.where(target == -1, (cos - margin).clamp(min=0), zeros)
    return _reduced(pos + neg, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    zeros = torch.zeros_like(input)
    below = torch.where(target != 1, (margin - input).clamp(min=0), zeros)
    self_part = torch.where(target != -1, input, zeros)
    return _reduced(below + self_part, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    return _reduced((-target * (input1 - input2) + margin).clamp(min=0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduced(torch.log1p(torch.exp(-target * input)), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(dim=input.dim() - 1) / input.shape[-1]
    return _reduced(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduced((margin + d_pos - d_neg).clamp(min=0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, dist(positive, negative))
    return _reduced((margin + d_pos - d_neg).clamp(min=0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        # Stirling's term, where it is defined (target > 1).
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + torch.where(target > 1, stirling, torch.zeros_like(stirling))
    return _reduced(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if isinstance(var, (int, float)):
        var = torch.full_like(input, var)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if (var < 0).any():
        raise ValueError("var has negative entry/entries")
    var = var.clamp(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    single = input.dim() == 1
    x = input.unsqueeze(0) if single else input
    y = target.reshape(-1)
    classes = x.shape[1]
    picked = x.gather(1, y.unsqueeze(1))
    m = (margin - picked + x).clamp(min=0)
    if p == 2:
        m = m * m
    if weight is not None:
        m = m * weight[y].unsqueeze(1)
    others = 1 - F.one_hot(y, classes).to(x.dtype)
    loss = (m * others).sum(1) / classes
    if single and reduction == "none":
        loss = loss.squeeze(0)
    return _reduced(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    single = input.dim() == 1
    x = input.unsqueeze(0) if single else input
    y = target.unsqueeze(0) if single else target
    classes = x.shape[1]
    rows = []
    for i, labels in enumerate(y.tolist()):
        # The targets are the labels before the first -1.
        chosen = []
        for j in labels:
            if j < 0:
                break
            chosen.append(j)
        is_target = torch.zeros(classes, dtype=torch.bool, device=x.device)
        total = x[i].sum() * 0
        for j in chosen:
            is_target[j] = True
        for j in chosen:
            hinge = (1 - (x[i, j] - x[i])).clamp(min=0)
            total = total + torch.where(is_target, torch.zeros_like(hinge), hinge).sum()
        rows.append(total / classes)
    loss = torch.stack(rows)
    if single and reduction == "none":
        loss = loss.squeeze(0)
    return _reduced(loss, reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.register_buffer("weight", weight)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return cosine_embedding_loss(input1, input2, target, self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.margin = margin

    def forward(self, input, target):
        return hinge_embedding_loss(input, target, self.margin, reduction=self.reduction)


class MarginRankingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return margin_ranking_loss(input1, input2, target, self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)

    def forward(self, input, target):
        return soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, reduction)

    def forward(self, input, target):
        return multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)

    def forward(self, input, target):
        return multilabel_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                 reduction=self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return triplet_margin_loss(anchor, positive, negative, self.margin, self.p, self.eps, self.swap,
                                   reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(reduction=reduction)
        self.distance_function = distance_function
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                 margin=self.margin, swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(reduction=reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return poisson_nll_loss(log_input, target, self.log_input, self.full, eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction=reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)


# Connectionist temporal classification (Graves et al., 2006), as ATen's
# ctc_loss computes it: the forward variables alpha over the blank-extended
# target, in log space, one time step at a time (every batch element and
# target position at once). ATen's -inf is a large finite negative here, so
# that unreachable states give zero gradients instead of NaN through autograd.
_CTC_NEG = -1e30


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.dim() == 1 else targets
    T, n, C = log_probs.shape
    ilen = [int(v) for v in torch.as_tensor(input_lengths).reshape(-1).tolist()]
    tlen = [int(v) for v in torch.as_tensor(target_lengths).reshape(-1).tolist()]
    if len(ilen) != n or len(tlen) != n:
        raise RuntimeError("input_lengths and target_lengths must have size batch_size (" + str(n) + ")")
    dev = log_probs.device
    if targets.dim() == 1:
        # Concatenated targets: cut them into the padded (N, S) form.
        rows, at = [], 0
        width = max(tlen) if tlen else 0
        for L in tlen:
            row = targets[at:at + L].long()
            rows.append(torch.cat([row, torch.full((width - L,), blank, dtype=torch.int64, device=row.device)]))
            at += L
        targets = torch.stack(rows) if rows else torch.zeros(n, 0, dtype=torch.int64)
    targets = targets.long().to(dev)
    for b in range(n):
        if ilen[b] > T:
            raise RuntimeError("Expected input_lengths to have value at most " + str(T) + ", but got value "
                               + str(ilen[b]) + " (while checking arguments for ctc_loss_cpu)")
        if tlen[b] > targets.shape[1]:
            raise RuntimeError("Expected tensor to have size at least " + str(tlen[b]) + " at dimension 1, but got size "
                               + str(targets.shape[1]) + " for argument #2 'targets' (while checking arguments for ctc_loss_cpu)")
    S = 2 * (max(tlen) if tlen else 0) + 1
    ext = torch.full((n, S), blank, dtype=torch.int64, device=dev)
    if S > 1:
        ext[:, 1::2] = targets[:, : (S - 1) // 2]
    # A label may be reached from two back unless it repeats the one there.
    skip = torch.zeros(n, S, dtype=torch.bool, device=dev)
    if S > 2:
        skip[:, 2:] = ext[:, 2:] != ext[:, :-2]
    neg = torch.full((n, S), _CTC_NEG, dtype=log_probs.dtype, device=dev)
    lp0 = log_probs[0].gather(1, ext)
    start = torch.zeros(n, S, dtype=torch.bool, device=dev)
    start[:, 0] = True
    if S > 1:
        start[:, 1] = torch.tensor([L > 0 for L in tlen], device=dev)
    alpha = torch.where(start, lp0, neg)
    alphas = [alpha]
    pad1 = torch.full((n, 1), _CTC_NEG, dtype=log_probs.dtype, device=dev)
    pad2 = torch.full((n, 2), _CTC_NEG, dtype=log_probs.dtype, device=dev)
    for t in range(1, T):
        la1 = alpha
        la2 = torch.cat([pad1, alpha[:, :-1]], 1)
        la3 = torch.where(skip, torch.cat([pad2, alpha[:, :-2]], 1)[:, :S], neg)
        lamax = torch.maximum(torch.maximum(la1, la2), la3)
        total = (la1 - lamax).exp() + (la2 - lamax).exp() + (la3 - lamax).exp()
        alpha = total.log() + lamax + log_probs[t].gather(1, ext)
        alpha = torch.where(alpha <= _CTC_NEG / 2, neg, alpha)
        alphas.append(alpha)
    last = torch.stack(alphas)  # (T, N, S)
    nll = []
    for b in range(n):
        a = last[ilen[b] - 1, b] if ilen[b] > 0 else neg[b]
        L = tlen[b]
        if L == 0:
            ll = a[0]
        else:
            l1, l2 = a[2 * L], a[2 * L - 1]
            m = torch.maximum(l1, l2)
            ll = ((l1 - m).exp() + (l2 - m).exp()).log() + m
        nll.append(torch.where(ll <= _CTC_NEG / 2, torch.full_like(ll, float("inf")), -ll))
    # ATen's backward returns exp(lp) - occupancy: the gradient the logits get
    # through log_softmax (where the exp(lp) term cancels), not the one of
    # -log p(target) alone. An exact zero with gradient exp(lp) adds it.
    mask = (torch.arange(T, device=dev).unsqueeze(1) < torch.tensor(ilen, device=dev)).unsqueeze(-1)
    finite = mask & log_probs.isfinite()
    zero = torch.where(finite, log_probs - log_probs.detach(), torch.zeros_like(log_probs))
    loss = torch.stack(nll) + (log_probs.detach().exp() * zero).sum((0, 2))
    loss = torch._grad_fn_name(loss, "CtcLossBackward0")
    if zero_infinity:
        loss = torch.where(loss == float("inf"), torch.zeros_like(loss), loss)
    if reduction == "none":
        return loss.squeeze(0) if unbatched else loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        lengths = torch.tensor(tlen, dtype=loss.dtype, device=dev).clamp_min(1)
        return (loss / lengths).mean()
    raise ValueError(reduction + " is not a valid value for reduction")


class CTCLoss(nn.Module):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)


# Cross-entropy of a linear layer's logits (PyTorch 2.15). PyTorch's optional
# chunked path (`options`) only saves memory; the loss is the reference
# computation below.
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError("expected input with dimensionality 1 or 2, got " + str(input.dim()))
    if linear_weight.dim() < 2:
        raise RuntimeError("expected linear_weight with dimensionality at least 2, got " + str(linear_weight.dim()))
    batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), got "
                           + str(input.shape[-1]) + " and " + str(linear_weight.shape[-1]) + ", respectively")
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes,) + out_features:
        raise RuntimeError("expected linear_bias shape " + str((num_classes,) + out_features) + ", got "
                           + str(tuple(linear_bias.shape)))
    if len(out_features) > 0 and len(batches) == 0:
        raise RuntimeError("K-dimensional loss defined by linear_weight shape " + str(tuple(linear_weight.shape))
                           + " requires batched input, (N, " + str(in_features) + "), got unbatched input with shape "
                           + str(tuple(input.shape)))
    logits_shape = batches + (num_classes,) + out_features
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    rows = _prod((num_classes,) + out_features)
    logits = F.linear(input, linear_weight.reshape(rows, in_features),
                      None if linear_bias is None else linear_bias.reshape(rows))
    return F.cross_entropy(logits.reshape(logits_shape), target, weight=weight, reduction=reduction,
                           ignore_index=ignore_index, label_smoothing=label_smoothing)


class LinearCrossEntropyLoss(_WeightedLoss):
    def __init__(self, in_features, num_classes, *, out_features=(), bias=False, device=None, dtype=None,
                 reduction="mean", weight=None, ignore_index=None, label_smoothing=0.0, options=None):
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError("expected weight shape to be " + str((num_classes,)) + ", got " + str(tuple(weight.shape)))
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError("expected label_smoothing to be in range [0, 1], got " + str(label_smoothing))
        super().__init__(weight=weight, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = tuple(out_features)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.linear = nn.Linear(in_features, _prod((num_classes,) + self.out_features), bias=bias, device=device,
                                dtype=dtype)
        self.options = options

    def forward(self, input, target):
        w = self.linear.weight.reshape((self.num_classes,) + self.out_features + (self.linear.in_features,))
        b = None if self.linear.bias is None else self.linear.bias.reshape((self.num_classes,) + self.out_features)
        return linear_cross_entropy(input, w, target, linear_bias=b, weight=self.weight, reduction=self.reduction,
                                    ignore_index=self.ignore_index, label_smoothing=self.label_smoothing,
                                    options=self.options)

    def extra_repr(self):
        return ("in_features=" + str(self.linear.in_features) + ", num_classes=" + str(self.num_classes)
                + ", out_features=" + str(self.out_features) + ", bias=" + str(self.linear.bias is not None)
                + ", reduction=" + self.reduction + ", ignore_index=" + str(self.ignore_index)
                + ", label_smoothing=" + str(self.label_smoothing) + ", options=" + str(self.options))
