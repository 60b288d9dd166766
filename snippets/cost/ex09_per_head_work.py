import torch
from torch.utils.flop_counter import FlopCounterMode

from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.cost.ex02_flops import T
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
print("heads  d_head  FLOPs per q, k, v number  FLOPs per score")
with torch.no_grad():
    for h in heads_sweep:
        mha = MultiHeadAttention(d_model, num_heads=h)
        d_head = mha.d_head
        q, k, v = torch.randn(3, 1, 1, T, d_head)  # each (1, 1, t, d_head)
        with FlopCounterMode(display=False) as counter:
            mha.attend(q, k, v)  # Q K^T and weights @ V: 4 T^2 d_head FLOPs
        flops = counter.get_total_flops()
        per_number = flops / (3 * T * d_head)  # the numbers the head takes in
        per_score = flops / T**2  # the head computes T^2 scores
        print(
            f"{h:>5}  {d_head:>6}  {per_number:>24,.0f}  {per_score:>15,.0f}"
        )
# --8<-- [end:page]
