import torch

from snippets.attention_inputs import inputs

# --8<-- [start:page]
W_q2 = torch.tensor([[0.0], [0.0], [3.0]])  # (3, 1): query reads coord 3
W_k2 = torch.tensor([[0.0], [0.0], [3.0]])  # (3, 1): so does the key
W_v2 = torch.tensor(
    [
        [1.0, 0.0],
        [0.0, 1.0],
        [0.0, 0.0],
    ]
)  # (3, 2): the value delivers coordinates 1 and 2

queries2 = inputs @ W_q2  # (6, 1)
keys2 = inputs @ W_k2  # (6, 1)
values2 = inputs @ W_v2  # (6, 2)

d_k2 = keys2.shape[-1]  # 1, so dividing by sqrt(d_k2) changes nothing
scores2 = queries2 @ keys2.T  # (6, 6)
w2 = torch.softmax(scores2 / d_k2**0.5, dim=-1)  # (6, 6)
print(w2[1])  # the row for "journey"
# --8<-- [end:page]
