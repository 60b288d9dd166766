import torch

from snippets.checking_against_pytorch.ex03_sdpa_module import (
    SDPAMultiHeadAttention,
)
from snippets.cost.ex01_parameters import d_model
from snippets.cost.ex02_flops import T, formula, matmul_flops, x

# --8<-- [start:page]
fused = SDPAMultiHeadAttention(d_model, d_model, num_heads=12)
with torch.no_grad():
    fused_flops = matmul_flops(fused, x)
projections_only = 2 * 4 * T * d_model**2  # W_q, W_k, W_v, W_o only
print(f"{fused_flops:,}")
print(fused_flops == formula, fused_flops == projections_only)
# --8<-- [end:page]
