# Attention and the Transformer: MultiheadAttention (masks, kdim/vdim, batch_first),
# F.scaled_dot_product_attention, encoder/decoder layers and stacks, nn.Transformer,
# with PyTorch's seeded weights; and copy.deepcopy, which clones the layers.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mha = nn.MultiheadAttention(4, 2)
print(mha)
print([n for n, _ in mha.named_parameters()])
q = torch.randn(3, 2, 4)
k = torch.randn(5, 2, 4)
out, w = mha(q, k, k)
print(out, w)
mask = torch.tensor([[False, False, True, False, True]] * 2)
out, w = mha(q, k, k, key_padding_mask=mask, average_attn_weights=False)
print(out.shape, w[0, 1])
m2 = nn.MultiheadAttention(4, 1, batch_first=True, kdim=3, vdim=2, bias=False)
print(m2(torch.randn(2, 3, 4), torch.randn(2, 5, 3), torch.randn(2, 5, 2))[0])
print(F.scaled_dot_product_attention(q, q, q, is_causal=True))
print(F.scaled_dot_product_attention(q.transpose(0, 1), k.transpose(0, 1), k.transpose(0, 1), attn_mask=torch.rand(3, 5) > 0.3))
enc = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)
print(enc)
print(enc(q))
model = nn.TransformerEncoder(enc, num_layers=2, enable_nested_tensor=False)
print(model(q, mask=nn.Transformer.generate_square_subsequent_mask(3)))
dec = nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0, batch_first=True, norm_first=True)
print(dec(torch.randn(2, 3, 4), torch.randn(2, 5, 4)))
t = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0, batch_first=True)
print(t(torch.randn(2, 4, 8), torch.randn(2, 3, 8)))
print(sum(p.numel() for p in t.parameters()))
import copy
lin = nn.Linear(2, 2)
seq = nn.Sequential(lin, nn.ReLU(), lin)
twin = copy.deepcopy(seq)
print(twin[0] is twin[2], twin[0] is lin, twin[0].weight.equal(lin.weight), type(twin[0].weight))
with torch.no_grad():
    twin[0].weight.zero_()
print(lin.weight.abs().sum() > 0, twin[2].weight.abs().sum())
best = copy.deepcopy(lin.state_dict())
print(list(best.keys()), copy.copy([1, [2]]), copy.deepcopy({"a": (1, [torch.ones(1)])}))
