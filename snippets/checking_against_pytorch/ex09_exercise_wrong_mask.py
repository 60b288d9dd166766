from snippets.checking_against_pytorch.ex01_loop_equals_module import (
    max_diff,
    reference,
    x,
)
from snippets.checking_against_pytorch.ex05_nn_multihead import (
    mask,
    torch_mha,
)

# --8<-- [start:page]
wrong = mask.T  # True below the diagonal: now the past is hidden
out, _ = torch_mha(x, x, x, attn_mask=wrong, need_weights=False)
print(f"{max_diff(out, reference):.2f}")  # far above 1e-5: caught
# --8<-- [end:page]
