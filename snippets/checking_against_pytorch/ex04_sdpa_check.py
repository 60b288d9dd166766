from snippets.checking_against_pytorch.ex01_loop_equals_module import mha
from snippets.checking_against_pytorch.ex03_sdpa_module import (
    SDPAMultiHeadAttention,
)

# --8<-- [start:page]
fused = SDPAMultiHeadAttention(24, num_heads=4)
fused.load_state_dict(mha.state_dict())  # the same four weight matrices
print(list(fused.state_dict()))
# --8<-- [end:page]
