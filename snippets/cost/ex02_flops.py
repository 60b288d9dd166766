from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# isort: split
# --8<-- [start:page]
import torch
from torch.utils.flop_counter import FlopCounterMode


def matmul_flops(module, x):
    """FLOPs of the matrix products in one forward pass."""
    with FlopCounterMode(display=False) as counter:
        module(x)
    return counter.get_total_flops()


T = 1024  # tokens
torch.manual_seed(0)
x = torch.randn(1, T, d_model)  # (b, t, d_model): one sequence
macs = 4 * T * d_model**2 + 2 * T**2 * d_model  # multiply-adds
formula = 2 * macs  # FlopCounterMode counts 2 FLOPs per multiply-add

print("heads  matmul FLOPs    = formula")
with torch.no_grad():
    for h in heads_sweep:
        flops = matmul_flops(MultiHeadAttention(d_model, num_heads=h), x)
        print(f"{h:>5}  {flops:,}  {flops == formula}")
# --8<-- [end:page]
