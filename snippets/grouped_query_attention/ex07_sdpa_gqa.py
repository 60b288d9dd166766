import torch

from snippets.grouped_query_attention.ex04_gqa_module import (
    GroupedQueryAttention,
)
from snippets.grouped_query_attention.ex06_equals_mha import x

# isort: split
# --8<-- [start:page]
import torch.nn.functional as F

torch.manual_seed(0)
gqa = GroupedQueryAttention(768, num_heads=12, num_kv_heads=4)
q = gqa.split(gqa.W_q(x))  # (b, 12, t, 64)
k = gqa.split(gqa.W_k(x))  # (b, 4, t, 64): never repeated
v = gqa.split(gqa.W_v(x))  # (b, 4, t, 64)
context = F.scaled_dot_product_attention(
    q, k, v, is_causal=True, enable_gqa=True
)  # (b, 12, t, 64)
out = gqa.W_o(context.transpose(1, 2).reshape(2, 16, 768))  # (b, t, 768)
print(k.shape, context.shape)
print((out - gqa(x)).abs().max().item() < 1e-5)
# --8<-- [end:page]
