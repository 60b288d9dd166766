from snippets.multi_head_attention.ex02_run_loop import loop
from snippets.multi_head_attention.ex05_run_module import mha


# --8<-- [start:page]
def count(module):
    return sum(p.numel() for p in module.parameters())


print(count(loop), count(mha))
for head in loop.heads:
    print(head.W_q.weight.shape)  # (d_head, d_model): stored transposed
print(mha.W_q.weight.shape)  # (h * d_head, d_model): rows stacked
# --8<-- [end:page]
