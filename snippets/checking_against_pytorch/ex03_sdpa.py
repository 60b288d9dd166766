import torch.nn.functional as F

from snippets.checking_against_pytorch.ex01_loop_equals_module import (
    max_diff,
    mha,
    reference,
    x,
)
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# --8<-- [start:page]
class SDPAMultiHeadAttention(MultiHeadAttention):
    """The same module; PyTorch's fused kernel does scores, mask, softmax, mix."""

    def attend(self, q, k, v):  # each (b, h, t, d_head)
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)


fused = SDPAMultiHeadAttention(d_in=24, d_out=24, num_heads=4)
fused.load_state_dict(mha.state_dict())  # the same four weight matrices
print(max_diff(fused(x), reference) < 1e-5)
# --8<-- [end:page]
