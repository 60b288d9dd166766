import torch

from snippets.grouped_query_attention.ex04_gqa_module import (
    GroupedQueryAttention,
)
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
torch.manual_seed(0)
x = torch.randn(2, 16, 768)  # (b, t, d_model)
mha = MultiHeadAttention(768, num_heads=12)
gqa = GroupedQueryAttention(768, num_heads=12, num_kv_heads=12)
gqa.load_state_dict(mha.state_dict())  # same shapes: the weights fit
print((gqa(x) - mha(x)).abs().max().item() < 1e-5)
# --8<-- [end:page]
