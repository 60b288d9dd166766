import torch

from snippets.attention_inputs import inputs, tokens
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.one_head.ex03_weights import d_k
from snippets.one_head.ex04_context import context


# --8<-- [start:page]
def head_1(x):  # (t, 3) -> (t, 2): this page's steps in one function
    queries, keys, values = x @ W_query, x @ W_key, x @ W_value
    weights = torch.softmax(queries @ keys.T / d_k**0.5, dim=-1)
    return weights @ values


backwards = inputs.flip(0)  # "step one with starts journey Your"
out = head_1(backwards)  # (6, 2)
print(out[tokens[::-1].index("journey")])  # journey's row, wherever it is
print(torch.allclose(out, context.flip(0)))  # all rows: same, reordered
# --8<-- [end:page]
