import torch

from snippets.multi_head_attention.ex01_loop_of_heads import LoopOfHeads
from snippets.multi_head_attention.ex04_module import MultiHeadAttention


# --8<-- [start:page]
def max_diff(a, b):
    """The largest absolute difference between two tensors, as a float."""
    return (a - b).abs().max().item()


@torch.no_grad()
def copy_loop_into_module(loop, mha):
    """Stack each head's rows into the module's single projections."""
    for name in ("W_q", "W_k", "W_v"):
        rows = [getattr(head, name).weight for head in loop.heads]
        getattr(mha, name).weight.copy_(torch.cat(rows))  # (24, 24)
    mha.W_o.weight.copy_(loop.W_o.weight)  # (d_model, h * d_head)


torch.manual_seed(0)
x = torch.randn(2, 10, 24)  # (b, t, d_model): two sequences of ten tokens
loop = LoopOfHeads(24, num_heads=4)  # d_model 24: four heads of width 6
mha = MultiHeadAttention(24, num_heads=4)
copy_loop_into_module(loop, mha)
with torch.no_grad():
    reference = loop(x)  # (2, 10, 24): every later rung is compared with this
    print(reference[0, 0, :4])  # the loop: token 0, its first four numbers
    print(mha(x)[0, 0, :4])  # the module, with the loop's weights
# --8<-- [end:page]
