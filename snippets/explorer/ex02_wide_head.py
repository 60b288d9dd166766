import torch

from snippets.attention_inputs import inputs
from snippets.explorer.ex01_two_heads import weights1, weights2
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2

# --8<-- [start:page]
d1, d2 = W_key.shape[-1], W_k2.shape[-1]  # 2 and 1: the two heads' widths
# One head with both heads' columns; each query part is divided by the
# square root of its own head's width, so nothing more divides the scores.
W_q = torch.cat([W_query / d1**0.5, W_q2 / d2**0.5], dim=-1)  # (3, 3)
W_k = torch.cat([W_key, W_k2], dim=-1)  # (3, 3)
W_v = torch.cat([W_value, W_v2], dim=-1)  # (3, 4)

scores = (inputs @ W_q) @ (inputs @ W_k).T  # (6, 6): head 1's + head 2's
wide = torch.softmax(scores, dim=-1)  # (6, 6): one softmax for both
context_wide = wide @ (inputs @ W_v)  # (6, 4)

both = weights1 * weights2  # (6, 6): how much both heads want each token
print(torch.allclose(wide, both / both.sum(dim=-1, keepdim=True)))
print(wide[1])  # the row of "journey"
print(context_wide[1])  # (4,): one weighting of all four value columns
# --8<-- [end:page]
