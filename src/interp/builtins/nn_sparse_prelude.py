

# Bags of embeddings and the Gumbel-softmax, as torch/nn/modules/sparse.py and
# F.gumbel_softmax define them (EmbeddingBag is what PyTorch's text
# classification tutorial trains).


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    gumbels = -torch.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    # Straight through: the one-hot forward, the soft gradient.
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='{mode}'). Please open a feature request on GitHub.")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences.")
        bags, length = input.shape
        starts = [i * length for i in range(bags)]
        flat = input.reshape(-1)
        weights = per_sample_weights.reshape(-1) if per_sample_weights is not None else None
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        starts = offsets.tolist()
        if include_last_offset:
            starts = starts[:-1]
        flat = input
        weights = per_sample_weights
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    total = flat.shape[0]
    ends = starts[1:] + [total]
    rows = F.embedding(flat, weight)
    if weights is not None:
        rows = rows * weights.unsqueeze(1)
    keep = torch.ones(total, dtype=torch.bool, device=weight.device) if padding_idx is None else flat != padding_idx
    rows = rows * keep.unsqueeze(1).to(rows.dtype)
    out = []
    for a, b in zip(starts, ends):
        if b <= a:
            out.append(torch.zeros(weight.shape[1], dtype=weight.dtype, device=weight.device))
            continue
        bag = rows[a:b]
        if mode == "sum":
            out.append(bag.sum(0))
        elif mode == "mean":
            count = keep[a:b].sum().clamp(min=1)
            out.append(bag.sum(0) / count)
        else:
            out.append(bag.amax(0))
    if not out:
        return torch.zeros(0, weight.shape[1], dtype=weight.dtype, device=weight.device)
    return torch._grad_fn_name(torch.stack(out), "EmbeddingBagBackward0")


class EmbeddingBag(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        _embedding_table(self, num_embeddings, embedding_dim, padding_idx, _weight, True, device, dtype)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def forward(self, input, offsets=None, per_sample_weights=None):
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                             self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s
