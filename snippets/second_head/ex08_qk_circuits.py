import torch

from snippets.one_head.ex01_projections import W_key, W_query
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2

# --8<-- [start:page]
qk1 = W_query @ W_key.T  # (3, 3): head 1's question
qk2 = W_q2 @ W_k2.T  # (3, 3): head 2's question
print(qk1)
print(qk2)
print(torch.linalg.matrix_rank(qk1), torch.linalg.matrix_rank(qk2))
print(torch.linalg.svdvals(qk1).round(decimals=4))  # head 1's strengths
# --8<-- [end:page]
