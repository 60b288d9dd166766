import torch

from snippets.multi_head_attention.ex01_loop_of_heads import causal_mask


# --8<-- [start:page]
def einsum_attention(x, mha):
    """The same computation, index by index, with the heads explicit."""
    h, e = mha.num_heads, mha.d_head
    Wq = mha.W_q.weight.view(h, e, -1)  # (h, e, d_in): a block per head
    Wk = mha.W_k.weight.view(h, e, -1)  # (h, e, d_in)
    Wv = mha.W_v.weight.view(h, e, -1)  # (h, e, d_in)
    Wo = mha.W_o.weight.view(-1, h, e)  # (d_out, h, e): reads every head
    q = torch.einsum("btd,hed->bhte", x, Wq)  # (b, h, t, e)
    k = torch.einsum("btd,hed->bhte", x, Wk)  # (b, h, t, e)
    v = torch.einsum("btd,hed->bhte", x, Wv)  # (b, h, t, e)
    scores = torch.einsum("bhqe,bhke->bhqk", q, k) / e**0.5  # (b, h, t, t)
    if mha.causal:
        future = causal_mask(x.shape[1])  # (t, t)
        scores = scores.masked_fill(future, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # (b, h, t, t)
    context = torch.einsum("bhqk,bhke->bhqe", weights, v)  # (b, h, t, e)
    return torch.einsum("bhqe,ohe->bqo", context, Wo)  # sum over h and e


# --8<-- [end:page]
