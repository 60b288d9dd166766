import torch

from snippets.one_head.ex02_scores import keys, scores

# --8<-- [start:page]
d_k = keys.shape[-1]  # 2
weights = torch.softmax(scores / d_k**0.5, dim=-1)  # (6, 6), rows sum to 1
print(weights[1])
print(weights.sum(dim=-1).round(decimals=4))  # each row's sum
# --8<-- [end:page]
