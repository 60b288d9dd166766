import torch

from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.cost.ex02_flops import matmul_flops, x
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
print("heads  h * d_head  parameters    matmul FLOPs")
with torch.no_grad():
    for h in heads_sweep:
        mha = MultiHeadAttention(d_model, num_heads=h, d_head=64)
        params = sum(p.numel() for p in mha.parameters())
        flops = matmul_flops(mha, x)  # the same 1024 tokens as above
        print(f"{h:>5}  {h * 64:>10}  {params:>10,}  {flops:>14,}")
# --8<-- [end:page]
