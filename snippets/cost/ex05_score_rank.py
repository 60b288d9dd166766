import torch

from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
n = 128  # tokens, as in BERT's pre-training sequences
torch.manual_seed(0)
tokens = torch.randn(1, n, d_model)  # (b, t, d_model)
print("heads  d_head  rank of one head's scores")
with torch.no_grad():
    for h in heads_sweep:
        mha = MultiHeadAttention(d_model, num_heads=h)
        q = mha.split(mha.W_q(tokens))[0, 0]  # head 1: (t, d_head)
        k = mha.split(mha.W_k(tokens))[0, 0]  # (t, d_head)
        rank = torch.linalg.matrix_rank(q @ k.T).item()  # of (t, t) scores
        print(f"{h:>5}  {d_model // h:>6}  {rank:>25}")
# --8<-- [end:page]
