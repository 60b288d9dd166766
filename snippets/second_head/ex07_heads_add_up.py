import torch

from snippets.one_head.ex04_context import context
from snippets.second_head.ex02_context import context2
from snippets.second_head.ex05_output_projection import W_o, out

# --8<-- [start:page]
from_head_1 = context @ W_o[:2]  # (6, 3): head 1 through its rows of W_o
from_head_2 = context2 @ W_o[2:]  # (6, 3): head 2 through its rows
print(from_head_1[1], from_head_2[1])
print(torch.allclose(from_head_1 + from_head_2, out))
# --8<-- [end:page]
