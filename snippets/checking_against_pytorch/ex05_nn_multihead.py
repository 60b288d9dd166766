import torch

from snippets.checking_against_pytorch.ex01_loop_equals_module import mha
from snippets.multi_head_attention.ex01_loop_of_heads import causal_mask

# isort: split
# --8<-- [start:page]
from torch import nn


@torch.no_grad()
def to_torch_mha(mha):
    """An nn.MultiheadAttention holding our module's weights."""
    d_model = mha.W_o.weight.shape[0]
    torch_mha = nn.MultiheadAttention(
        d_model, mha.num_heads, bias=False, batch_first=True
    )
    stacked = [mha.W_q.weight, mha.W_k.weight, mha.W_v.weight]
    torch_mha.in_proj_weight.copy_(torch.cat(stacked))  # (3 * 24, 24)
    torch_mha.out_proj.weight.copy_(mha.W_o.weight)  # (24, 24)
    return torch_mha


torch_mha = to_torch_mha(mha)
mask = causal_mask(10)  # (t, t): True = "may not attend", as in ours
print(torch_mha.in_proj_weight.shape)  # W_q, W_k, W_v stacked
# --8<-- [end:page]
