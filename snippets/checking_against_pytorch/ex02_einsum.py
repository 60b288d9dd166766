import torch

from snippets.multi_head_attention.ex01_loop_of_heads import causal_mask


# --8<-- [start:page]
def einsum_attention(x, mha):
    """The same computation, index by index, with the heads explicit."""
    h, d_head = mha.num_heads, mha.d_head
    Wq = mha.W_q.weight.view(h, d_head, -1)  # (h, d_head, d_model): per head
    Wk = mha.W_k.weight.view(h, d_head, -1)  # (h, d_head, d_model)
    Wv = mha.W_v.weight.view(h, d_head, -1)  # (h, d_head, d_model)
    Wo = mha.W_o.weight.view(-1, h, d_head)  # (d_model, h, d_head)
    q = torch.einsum("btm,hcm->bhtc", x, Wq)  # (b, h, t, d_head)
    k = torch.einsum("btm,hcm->bhtc", x, Wk)  # (b, h, t, d_head)
    v = torch.einsum("btm,hcm->bhtc", x, Wv)  # (b, h, t, d_head)
    scores = torch.einsum("bhqc,bhkc->bhqk", q, k)  # (b, h, t, t)
    scores = scores / d_head**0.5
    if mha.causal:
        future = causal_mask(x.shape[1])  # (t, t)
        scores = scores.masked_fill(future, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # (b, h, t, t)
    context = torch.einsum("bhqk,bhkc->bhqc", weights, v)  # (b, h, t, d_head)
    return torch.einsum("bhqc,ohc->bqo", context, Wo)  # sums over h and c


# --8<-- [end:page]
