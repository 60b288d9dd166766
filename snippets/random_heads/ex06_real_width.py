import torch

from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex05_measure import compare_random_heads, show

# --8<-- [start:page]
d_model, num_heads = 768, 12  # GPT-2 small
d_head = d_model // num_heads  # 64


def layer_normed_tokens(n):  # (n, 6, 768): as LayerNorm hands them on
    x = torch.randn(n, 6, d_model, dtype=torch.float64)  # for long sums
    x = x - x.mean(dim=-1, keepdim=True)  # each token: mean 0
    return x / x.std(dim=-1, correction=0, keepdim=True)  # and variance 1


torch.manual_seed(1)  # the heads' weights come from seed 0
x = layer_normed_tokens(100)  # six fresh tokens for each of 100 pairs
real = {
    name: compare_random_heads(inits[name], x, d_head)
    for name in ["nn.Linear", "N(0, 0.02)"]
}
show(real)
# --8<-- [end:page]
