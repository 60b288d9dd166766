import torch

from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex05_measure import compare_random_heads, show

# --8<-- [start:page]
d_model, num_heads = 768, 12  # GPT-2 small
d_head = d_model // num_heads  # 64


def layer_normed_tokens(n, width):  # (n, 6, width), as a LayerNorm hands on
    x = torch.randn(n, 6, width, dtype=torch.float64)  # for long sums
    x = x - x.mean(dim=-1, keepdim=True)  # each token: mean 0
    return x / x.std(dim=-1, correction=0, keepdim=True)  # and variance 1


torch.manual_seed(1)  # the heads' weights come from seed 0
x = layer_normed_tokens(100, d_model)  # six fresh tokens, for 100 pairs
real = {
    name: compare_random_heads(inits[name], x, d_head)
    for name in ["nn.Linear", "N(0, 0.02)"]
}
show(real)
# --8<-- [end:page]

# --8<-- [start:narrow]
torch.manual_seed(1)
x3 = layer_normed_tokens(1000, 3)  # the toy's width: 3 numbers per token
narrow = {
    name: compare_random_heads(inits[name], x3, d_head=2)  # the toy's heads
    for name in ["nn.Linear", "N(0, 0.02)"]
}
show(narrow)
# --8<-- [end:narrow]
