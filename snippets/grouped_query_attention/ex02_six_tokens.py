import torch

from snippets.grouped_query_attention.ex01_gqa_module import GroupedQueryAttention

# isort: split
# --8<-- [start:page]
from snippets.attention_inputs import inputs

torch.manual_seed(123)
mqa = GroupedQueryAttention(d_in=3, d_out=4, num_heads=2, num_kv_heads=1)
batch = inputs.unsqueeze(0)  # (1, 6, 3)
print(mqa(batch).shape)  # (b, t, d_out): the same shape as multi-head attention
print(mqa.W_q.weight.shape, mqa.W_k.weight.shape)  # two queries, one shared key
# --8<-- [end:page]
