# --8<-- [start:page]
from torch import nn


def qkv_projections(d_model, d_head):  # one head's W_q, W_k, W_v
    return nn.ModuleList(
        nn.Linear(d_model, d_head, bias=False) for _ in range(3)
    )


two_narrow_heads = nn.ModuleList(qkv_projections(3, 2) for _ in range(2))
one_wide_head = qkv_projections(3, 4)

params_two = sum(p.numel() for p in two_narrow_heads.parameters())
params_one = sum(p.numel() for p in one_wide_head.parameters())
print("two heads of width 2:", params_two)
print("one head of width 4: ", params_one)
# --8<-- [end:page]
