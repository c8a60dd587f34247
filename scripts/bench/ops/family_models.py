"""Model layers no other family covers, one line per op (`OP <name> <median ms>`):
recurrent (GRU, RNN), attention (scaled_dot_product_attention, nn.MultiheadAttention,
nn.TransformerEncoderLayer), batched products (bmm, baddbmm, einsum), transposed and
strided convolutions, GroupNorm/InstanceNorm, GELU/SiLU MLP blocks; forward and
forward+backward. Runs unchanged under tsh and python3; compare.py --script <this
file> runs both."""
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_num_threads(2)
def bench(name, step, budget=0.3):
    for _ in range(2):
        step()
    times = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            step()
            n += 1
            el = time.perf_counter() - t0
            if el >= budget / 5:
                break
        times.append(el / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.4f}")
def fwd_bwd(module, x):
    def step():
        module.zero_grad()
        out = module(x)
        if isinstance(out, tuple):
            out = out[0]
        out.sum().backward()
    return step
torch.manual_seed(0)
x_seq = torch.randn(50, 32, 128)
gru = nn.GRU(128, 128)
bench("gru_fwd", lambda: gru(x_seq))
bench("gru_fwd_bwd", fwd_bwd(gru, x_seq))
rnn = nn.RNN(128, 128)
bench("rnn_fwd_bwd", fwd_bwd(rnn, x_seq))
q = torch.randn(32, 8, 128, 64)
k = torch.randn(32, 8, 128, 64)
v = torch.randn(32, 8, 128, 64)
bench("sdpa", lambda: F.scaled_dot_product_attention(q, k, v))
bench("sdpa_causal", lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
x_tok = torch.randn(32, 128, 256)
mha = nn.MultiheadAttention(256, 8, batch_first=True)
bench("mha_fwd", lambda: mha(x_tok, x_tok, x_tok))
def mha_step():
    mha.zero_grad()
    mha(x_tok, x_tok, x_tok)[0].sum().backward()
bench("mha_fwd_bwd", mha_step)
enc = nn.TransformerEncoderLayer(256, 8, dim_feedforward=1024, batch_first=True, dropout=0.0)
bench("encoder_layer_fwd", lambda: enc(x_tok))
bench("encoder_layer_fwd_bwd", fwd_bwd(enc, x_tok))
a3 = torch.randn(64, 128, 128)
b3 = torch.randn(64, 128, 128)
bench("bmm_64x128", lambda: torch.bmm(a3, b3))
bench("baddbmm_64x128", lambda: torch.baddbmm(a3, a3, b3))
bench("einsum_bij_bjk", lambda: torch.einsum("bij,bjk->bik", a3, b3))
x_img = torch.randn(32, 64, 32, 32)
bench("conv_64_64_3x3", lambda: F.conv2d(x_img, torch.randn(64, 64, 3, 3), padding=1))
w_s2 = torch.randn(128, 64, 3, 3)
bench("conv_stride2", lambda: F.conv2d(x_img, w_s2, stride=2, padding=1))
w_t = torch.randn(64, 32, 4, 4)
bench("conv_transpose2d", lambda: F.conv_transpose2d(x_img, w_t, stride=2, padding=1))
convn = nn.Conv2d(64, 64, 3, padding=1)
bench("conv_64_fwd_bwd", fwd_bwd(convn, x_img))
gn = nn.GroupNorm(8, 64)
bench("group_norm_fwd_bwd", fwd_bwd(gn, x_img))
inn = nn.InstanceNorm2d(64, affine=True)
bench("instance_norm_fwd_bwd", fwd_bwd(inn, x_img))
x_mlp = torch.randn(256, 512)
mlp = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512))
bench("gelu_mlp_fwd_bwd", fwd_bwd(mlp, x_mlp))
smlp = nn.Sequential(nn.Linear(512, 2048), nn.SiLU(), nn.Linear(2048, 512))
bench("silu_mlp_fwd_bwd", fwd_bwd(smlp, x_mlp))
x_c1 = torch.randn(32, 64, 1000)
c1 = nn.Conv1d(64, 64, 5, padding=2)
bench("conv1d_fwd_bwd", fwd_bwd(c1, x_c1))
up = torch.randn(32, 64, 32, 32)
bench("interpolate_nearest2x", lambda: F.interpolate(up, scale_factor=2, mode="nearest"))
bench("interpolate_bilinear2x", lambda: F.interpolate(up, scale_factor=2, mode="bilinear", align_corners=False))
bench("dropout_train", lambda: F.dropout(x_img, 0.5, training=True))
