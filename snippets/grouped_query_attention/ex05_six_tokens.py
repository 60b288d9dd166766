import torch

from snippets.grouped_query_attention.ex02_decode_mha import batch
from snippets.grouped_query_attention.ex04_gqa_module import (
    GroupedQueryAttention,
)

# --8<-- [start:page]
torch.manual_seed(123)
mqa = GroupedQueryAttention(3, num_heads=2, num_kv_heads=1, d_head=2)
print(mqa(batch).shape)  # (b, t, d_model): as in multi-head attention
print(mqa.W_q.weight.shape)  # (4, 3): two query heads
print(mqa.W_k.weight.shape)  # (2, 3): one key head, shared
# --8<-- [end:page]
