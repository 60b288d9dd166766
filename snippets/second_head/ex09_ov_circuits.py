import torch

from snippets.attention_inputs import inputs
from snippets.one_head.ex01_projections import W_value
from snippets.one_head.ex03_weights import weights
from snippets.second_head.ex01_hand_set_head import W_v2, w2
from snippets.second_head.ex05_output_projection import W_o, out

# --8<-- [start:page]
ov1 = W_value @ W_o[:2]  # (3, 3): what head 1 writes, from each coordinate
ov2 = W_v2 @ W_o[2:]  # (3, 3): what head 2 writes
print(ov1)
print(ov2)
print(torch.linalg.matrix_rank(ov1), torch.linalg.matrix_rank(ov2))
writes1 = weights @ inputs @ ov1  # (6, 3): head 1's write, token by token
writes2 = w2 @ inputs @ ov2  # (6, 3): head 2's
print(torch.allclose(writes1 + writes2, out))
# --8<-- [end:page]
