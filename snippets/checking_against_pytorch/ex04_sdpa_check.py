from snippets.checking_against_pytorch.ex01_loop_equals_module import (
    max_diff,
    mha,
    reference,
    x,
)
from snippets.checking_against_pytorch.ex03_sdpa_module import (
    SDPAMultiHeadAttention,
)

# --8<-- [start:page]
fused = SDPAMultiHeadAttention(d_in=24, d_out=24, num_heads=4)
fused.load_state_dict(mha.state_dict())  # the same four weight matrices
print(max_diff(fused(x), reference) < 1e-5)
# --8<-- [end:page]
