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
    d_head, d_model = mha.d_head, mha.W_q.weight.shape[1]
    gqa = GroupedQueryAttention(
        d_model,
        num_heads=mha.num_heads,
        num_kv_heads=num_kv_heads,
        d_head=d_head,
        causal=mha.causal,
    )
    gqa.W_q.weight.copy_(mha.W_q.weight)  # queries and W_o: kept as is
    gqa.W_o.weight.copy_(mha.W_o.weight)
    for name in ("W_k", "W_v"):
        w = getattr(mha, name).weight  # (h * d_head, d_model)
        w = w.view(num_kv_heads, -1, d_head, d_model)  # (kv, group, ...)
        pooled = w.mean(dim=1)  # (kv, d_head, d_model): one head per group
        getattr(gqa, name).weight.copy_(pooled.reshape(-1, d_model))
    return gqa


def close(a, b):
    return (a - b).abs().max().item() < 1e-5


gqa = mha_to_gqa(mha, num_kv_heads=4)
print(close(gqa(x), mha(x)))  # distinct heads: the average loses something

shared = copy.deepcopy(mha)  # heads of a group will share K and V
with torch.no_grad():
    for W in (shared.W_k.weight, shared.W_v.weight):
        heads = W.view(4, 3, 64, 768)  # (group, head in group, 64, 768)
        heads[:, 1:] = heads[:, :1]  # each group's first head, copied
gqa = mha_to_gqa(shared, num_kv_heads=4)
print(close(gqa(x), shared(x)))  # nothing is lost
# --8<-- [end:page]
