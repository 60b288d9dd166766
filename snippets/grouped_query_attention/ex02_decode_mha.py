import torch

from snippets.attention_inputs import inputs
from snippets.grouped_query_attention.ex01_decode_step import decode
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
torch.manual_seed(123)
mha = MultiHeadAttention(3, num_heads=2, d_head=2)
batch = inputs.unsqueeze(0)  # (1, 6, 3): our six tokens
cached = decode(mha, batch)  # six steps, one token each
with torch.no_grad():
    full = mha(batch)  # all six tokens at once, causal mask, no cache
torch.testing.assert_close(cached, full)  # raises if any step differs
print("every step equals the uncached pass:", cached.shape)
# --8<-- [end:page]
