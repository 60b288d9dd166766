import torch

from snippets.attention_inputs import inputs
from snippets.random_heads.ex01_init_schemes import inits


# --8<-- [start:define]
def random_head_weights(init, x, d_head):  # x: (..., 6, d_model)
    *batch, _, d_model = x.shape  # a batch of inputs gets one head each
    W_q = init(*batch, d_model, d_head).to(x.dtype)  # values play no part
    W_k = init(*batch, d_model, d_head).to(x.dtype)
    scores = (x @ W_q) @ (x @ W_k).transpose(-2, -1)  # (..., 6, 6)
    return torch.softmax(scores / d_head**0.5, dim=-1), scores


# --8<-- [end:define]

# --8<-- [start:page]
torch.manual_seed(0)
head_a, _ = random_head_weights(inits["torch.rand"], inputs, d_head=2)
head_b, _ = random_head_weights(inits["torch.rand"], inputs, d_head=2)
print(head_a[1])  # "journey", random head A
print(head_b[1])  # "journey", random head B
# --8<-- [end:page]
