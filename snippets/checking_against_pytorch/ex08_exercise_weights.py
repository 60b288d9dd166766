import torch

from snippets.checking_against_pytorch.ex01_loop_equals_module import (
    max_diff,
    mha,
    x,
)
from snippets.checking_against_pytorch.ex05_nn_multihead import (
    mask,
    torch_mha,
)

# --8<-- [start:page]
_, torch_weights = torch_mha(
    x, x, x, attn_mask=mask, average_attn_weights=False
)  # (b, h, t, t): one map per head
q = mha.split(mha.W_q(x))  # (b, h, t, d_head)
k = mha.split(mha.W_k(x))  # (b, h, t, d_head)
scores = q @ k.transpose(-2, -1) / mha.d_head**0.5  # (b, h, t, t)
scores = scores.masked_fill(mask, float("-inf"))
our_weights = torch.softmax(scores, dim=-1)  # (b, h, t, t)
print(torch_weights.shape)
print(max_diff(torch_weights, our_weights) < 1e-5)
# --8<-- [end:page]
