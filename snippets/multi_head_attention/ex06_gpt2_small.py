import torch

from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
torch.manual_seed(123)
gpt2_attn = MultiHeadAttention(768, num_heads=12)  # d_head = 768 / 12
x = torch.randn(2, 64, 768)  # (b, t, d_model): two sequences of 64 tokens
out = x + gpt2_attn(x)  # (2, 64, 768): added back onto the input
print(out.shape)
print(gpt2_attn.d_head)
print(sum(p.numel() for p in gpt2_attn.parameters()))
# --8<-- [end:page]
