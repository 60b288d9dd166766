import torch

from snippets.multi_head_attention.ex02_run_loop import batch
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
torch.manual_seed(123)
mha = MultiHeadAttention(3, num_heads=2, d_head=2)
print(mha(batch).shape)
# --8<-- [end:page]
