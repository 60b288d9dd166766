import torch

from snippets.attention_inputs import inputs
from snippets.random_heads.ex01_init_schemes import inits


# --8<-- [start:page]
def random_head_weights(init, x):
    W_q, W_k = init(), init()  # (3, 2) each; values play no part
    scores = (x @ W_q) @ (x @ W_k).T  # (6, 6)
    return torch.softmax(scores / W_k.shape[-1] ** 0.5, dim=-1), scores


torch.manual_seed(0)
head_a, _ = random_head_weights(inits["torch.rand"], inputs)
head_b, _ = random_head_weights(inits["torch.rand"], inputs)
print(head_a[1])  # "journey", random head A
print(head_b[1])  # "journey", random head B
# --8<-- [end:page]
