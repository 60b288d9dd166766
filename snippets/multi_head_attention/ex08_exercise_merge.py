import torch

from snippets.multi_head_attention.ex03_split_heads import q, q_heads

# --8<-- [start:page]
merged = q_heads.transpose(1, 2)  # (1, 6, 2, 2): back to (b, t, h, d_head)
merged = merged.reshape(1, 6, 4)  # (1, 6, 4): the heads side by side again
print(torch.equal(merged, q))
# --8<-- [end:page]
