import torch

from snippets.attention_inputs import inputs, tokens
from snippets.explorer.ex01_two_heads import hand_set_projections
from snippets.one_head.ex01_projections import W_key, W_query, W_value

# --8<-- [start:page]
W_o = torch.tensor(
    [
        [1.0, 0.0, 0.0],  # head 1, number 1 -> output 1
        [0.0, 1.0, 0.0],  # head 1, number 2 -> output 2
        [0.0, 0.0, 1.0],  # head 2, number 1 -> output 3
        [0.0, 0.0, 1.0],  # head 2, number 2 -> output 3 as well
    ]
)  # (4, 3): the output projection of the second-head page


def explore(
    token,
    query=None,  # head 1's query of `token`, moved to this point
    q_reads=3,
    k_reads=3,
    q_scale=3.0,
    k_scale=3.0,
    same=False,  # head 2 gets head 1's projections
    heads_on=(True, True),  # which heads feed W_o
):
    """Everything the explorer shows, for one setting of its controls."""
    i = tokens.index(token)
    q1, k1, v1 = inputs @ W_query, inputs @ W_key, inputs @ W_value
    if query is not None:
        q1[i] = torch.tensor(query)  # (2,)
    if same:
        W_2 = W_query, W_key, W_value
    else:
        W_2 = hand_set_projections(q_reads, k_reads, q_scale, k_scale)
    q2, k2, v2 = (inputs @ W for W in W_2)  # (6, d_k), (6, d_k), (6, 2)

    scores1 = q1 @ k1.T / k1.shape[-1] ** 0.5  # (6, 6)
    scores2 = q2 @ k2.T / k2.shape[-1] ** 0.5  # (6, 6)
    w1 = torch.softmax(scores1, dim=-1)  # (6, 6)
    w2 = torch.softmax(scores2, dim=-1)  # (6, 6)
    wide = torch.softmax(scores1 + scores2, dim=-1)  # (6, 6): one softmax

    c1, c2 = w1[i] @ v1, w2[i] @ v2  # (2,) each
    both = torch.cat([c1, c2])  # (4,): what two heads hand on
    c_wide = wide[i] @ torch.cat([v1, v2], dim=-1)  # (4,): what one does
    on1, on2 = heads_on  # a head switched off hands on zeros
    out = torch.cat([c1 * on1, c2 * on2]) @ W_o  # (3,)
    return {
        "w1": w1, "w2": w2, "wide": wide,  # the three maps
        "query": q1[i], "keys1": k1, "scores1": scores1[i],  # the plane
        "c1": c1, "c2": c2, "both": both, "c_wide": c_wide,
        "out": out, "out_both": both @ W_o, "out_wide": c_wide @ W_o,
    }  # fmt: skip


shown = explore("journey", query=[0.5, -1.0], heads_on=(True, False))
print(shown["query"], shown["scores1"], sep="\n")
print(shown["w1"][1], shown["wide"][1], sep="\n")
print(shown["out"], shown["out_both"], sep="\n")
# --8<-- [end:page]
