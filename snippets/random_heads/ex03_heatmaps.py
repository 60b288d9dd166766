import torch

from snippets.attention_inputs import inputs
from snippets.one_head.ex05_heatmap import Figure, heatmap
from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex02_one_pair import random_head_weights

# --8<-- [start:page]
pairs = {}  # init name -> (head A's weights, head B's weights), each (6, 6)
for name, init in inits.items():
    torch.manual_seed(0)  # the same seed as the pair above
    head_a, _ = random_head_weights(init, inputs, d_head=2)
    head_b, _ = random_head_weights(init, inputs, d_head=2)
    pairs[name] = (head_a, head_b)

fig = Figure(figsize=(9, 13), layout="constrained")
for row, (name, heads) in zip(fig.subplots(3, 2), pairs.items(), strict=True):
    for ax, w, letter in zip(row, heads, "AB", strict=True):
        heatmap(ax, w, f"{name}: random head {letter}")
# --8<-- [end:page]
