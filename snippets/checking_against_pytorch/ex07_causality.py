import torch

from snippets.checking_against_pytorch.ex01_loop_equals_module import mha, x
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
changed = x.clone()
torch.manual_seed(2)
changed[:, 6:] = torch.randn(2, 4, 24)  # new tokens 6 to 9, not 0 to 5
before, after = mha(x), mha(changed)  # (2, 10, 24) each
print(torch.equal(before[:, :6], after[:, :6]))  # earlier: the same
print(torch.equal(before[:, 6:], after[:, 6:]))  # later: changed

open_mha = MultiHeadAttention(24, num_heads=4, causal=False)
open_mha.load_state_dict(mha.state_dict())  # same weights, no mask
open_before, open_after = open_mha(x), open_mha(changed)
print(torch.equal(open_before[:, :6], open_after[:, :6]))  # now they move
# --8<-- [end:page]
