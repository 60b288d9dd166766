import torch

from snippets.attention_inputs import inputs

# --8<-- [start:page]
torch.manual_seed(123)
W_q, W_k, W_v = torch.rand(3, 2), torch.rand(3, 2), torch.rand(3, 2)
b = torch.tensor([0.5, -1.0])  # one bias vector, tried in each place in turn


def head(x, b_q=0.0, b_k=0.0, b_v=0.0):
    q, k, v = x @ W_q + b_q, x @ W_k + b_k, x @ W_v + b_v  # (6, 2) each
    weights = torch.softmax(q @ k.T / 2**0.5, dim=-1)  # (6, 6)
    return weights, weights @ v  # (6, 6) and (6, 2)


weights, context = head(inputs)  # no bias anywhere
weights_q, _ = head(inputs, b_q=b)
weights_k, _ = head(inputs, b_k=b)
_, context_v = head(inputs, b_v=b)
moved_q = (weights_q - weights).abs().max()  # largest change of a weight
moved_k = (weights_k - weights).abs().max()
print(f"query bias: weights move by up to {moved_q:.4f}")
print(f"key bias:   weights move by up to {moved_k:.4f}")
print(context_v - context)  # value bias: (6, 2), b in every row
# --8<-- [end:page]
