import torch

from snippets.checking_against_pytorch.ex01_loop_equals_module import (
    copy_loop_into_module,
    max_diff,
    x,
)
from snippets.checking_against_pytorch.ex02_einsum import einsum_attention
from snippets.checking_against_pytorch.ex03_sdpa_module import (
    SDPAMultiHeadAttention,
)
from snippets.checking_against_pytorch.ex05_nn_multihead import to_torch_mha
from snippets.multi_head_attention.ex01_loop_of_heads import (
    LoopOfHeads,
    causal_mask,
)
from snippets.multi_head_attention.ex04_module import MultiHeadAttention


# --8<-- [start:page]
def ladder(x, num_heads, causal):
    """Each rung's largest difference from the loop, one set of weights."""
    b, t, d_model = x.shape
    sizes = dict(d_model=d_model, num_heads=num_heads, causal=causal)
    torch.manual_seed(1)
    loop = LoopOfHeads(**sizes)
    mha = MultiHeadAttention(**sizes)
    copy_loop_into_module(loop, mha)
    fused = SDPAMultiHeadAttention(**sizes)
    fused.load_state_dict(mha.state_dict())
    mask = causal_mask(t) if causal else None
    torch_mha = to_torch_mha(mha)
    torch_out, _ = torch_mha(x, x, x, attn_mask=mask, need_weights=False)
    reference = loop(x)
    return {
        "batched module": max_diff(mha(x), reference),
        "einsum": max_diff(einsum_attention(x, mha), reference),
        "scaled_dot_product_attention": max_diff(fused(x), reference),
        "nn.MultiheadAttention": max_diff(torch_out, reference),
    }


for causal in (True, False):
    print("with the causal mask" if causal else "without a mask")
    for rung, diff in ladder(x, num_heads=4, causal=causal).items():
        print(f"  {rung:30}", "agrees" if diff < 1e-5 else "DIFFERS")
# --8<-- [end:page]
