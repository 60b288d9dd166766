import torch

from snippets.grouped_query_attention.ex04_gqa_module import (
    GroupedQueryAttention,
)
from snippets.grouped_query_attention.ex06_equals_mha import mha, x

# isort: split
# --8<-- [start:page]
import copy


@torch.no_grad()
def mha_to_gqa(mha, num_kv_heads):
    """Average the key and value heads of each group (Ainslie et al.)."""
    h, e = mha.num_heads, mha.d_head
    d_in = mha.W_q.weight.shape[1]
    gqa = GroupedQueryAttention(d_in, h * e, h, num_kv_heads, mha.causal)
    gqa.W_q.weight.copy_(mha.W_q.weight)  # queries and W_o: kept as is
    gqa.W_o.weight.copy_(mha.W_o.weight)
    for name in ("W_k", "W_v"):
        w = getattr(mha, name).weight  # (h * e, d_in)
        w = w.view(num_kv_heads, -1, e, d_in)  # (kv, group, e, d_in)
        pooled = w.mean(dim=1)  # (kv, e, d_in): one head per group
        getattr(gqa, name).weight.copy_(pooled.reshape(-1, d_in))
    return gqa


def close(a, b):
    return (a - b).abs().max().item() < 1e-5


gqa = mha_to_gqa(mha, num_kv_heads=4)
print(close(gqa(x), mha(x)))  # distinct heads: the average loses something

shared = copy.deepcopy(mha)  # heads of a group will share K and V
with torch.no_grad():
    for W in (shared.W_k.weight, shared.W_v.weight):
        heads = W.view(4, 3, 64, 768)  # (group, head in group, e, d_in)
        heads[:, 1:] = heads[:, :1]  # each group's first head, copied
gqa = mha_to_gqa(shared, num_kv_heads=4)
print(close(gqa(x), shared(x)))  # nothing is lost
# --8<-- [end:page]
