from snippets.grouped_query_attention.ex01_gqa_module import (
    GroupedQueryAttention,
)

# isort: split
# --8<-- [start:page]
import torch

from snippets.attention_inputs import inputs

torch.manual_seed(123)
mqa = GroupedQueryAttention(3, 4, num_heads=2, num_kv_heads=1)
batch = inputs.unsqueeze(0)  # (1, 6, 3)
print(mqa(batch).shape)  # (b, t, d_out): as in multi-head attention
print(mqa.W_q.weight.shape)  # (4, 3): two query heads
print(mqa.W_k.weight.shape)  # (2, 3): one key head, shared
# --8<-- [end:page]
