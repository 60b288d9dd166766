import torch
from torch import nn

from snippets.multi_head_attention.ex02_run_loop import batch

# --8<-- [start:page]
torch.manual_seed(123)
W_q = nn.Linear(3, 4, bias=False)  # both heads' queries in one matrix
q = W_q(batch)  # (1, 6, 4): columns 0-1 head 1, columns 2-3 head 2
q_heads = q.view(1, 6, 2, 2)  # (b, t, h, d_head): cut the last axis in two
q_heads = q_heads.transpose(1, 2)  # (b, h, t, d_head): heads in front
print(q.shape, q_heads.shape)
print(torch.equal(q_heads[0, 1], q[0, :, 2:4]))  # index 1: head 2
# --8<-- [end:page]
