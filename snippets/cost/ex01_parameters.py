from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
d_model = 768  # GPT-2 small's width
heads_sweep = [1, 2, 4, 8, 12]

print("heads  d_head  parameters  4 d_model^2")
for h in heads_sweep:
    mha = MultiHeadAttention(d_model, num_heads=h)  # d_head = d_model / h
    params = sum(p.numel() for p in mha.parameters())
    print(f"{h:>5}  {mha.d_head:>6}  {params:>10,}  {4 * d_model**2:,}")
# --8<-- [end:page]
