import torch


# --8<-- [start:page]
@torch.no_grad()
def step(attn, x_t, cache):
    """One step of generation, from the newest token x_t (b, 1, d_model).

    `cache` holds the keys and values of every earlier token; the step
    appends the new token's own and returns its output (b, 1, d_model).
    """
    q = attn.split(attn.W_q(x_t))  # (b, h, 1, d_head): one new query
    k = attn.split(attn.W_k(x_t))  # (b, h_kv, 1, d_head): one new key
    v = attn.split(attn.W_v(x_t))  # (b, h_kv, 1, d_head)
    if cache:  # earlier tokens: their keys and values are never recomputed
        k = torch.cat([cache["k"], k], dim=2)  # (b, h_kv, t, d_head)
        v = torch.cat([cache["v"], v], dim=2)  # (b, h_kv, t, d_head)
    cache["k"], cache["v"] = k, v  # what the cache keeps: h_kv heads
    group = q.shape[1] // k.shape[1]  # query heads per kv head (1 in MHA)
    k = k.repeat_interleave(group, dim=1)  # (b, h, t, d_head)
    v = v.repeat_interleave(group, dim=1)  # (b, h, t, d_head)
    scores = q @ k.transpose(-2, -1) / attn.d_head**0.5  # (b, h, 1, t)
    weights = torch.softmax(scores, dim=-1)  # no mask: all t are in the past
    context = (weights @ v).transpose(1, 2)  # (b, 1, h, d_head)
    return attn.W_o(context.reshape(x_t.shape[0], 1, -1))  # (b, 1, d_model)


def decode(attn, x):
    """Feed the tokens of x (b, t, d_model) one at a time, with a cache."""
    cache, outs = {}, []
    for t in range(x.shape[1]):
        outs.append(step(attn, x[:, t : t + 1], cache))  # (b, 1, d_model)
        print(f"token {t + 1}: cached keys {tuple(cache['k'].shape)}")
    return torch.cat(outs, dim=1)  # (b, t, d_model)


# --8<-- [end:page]
