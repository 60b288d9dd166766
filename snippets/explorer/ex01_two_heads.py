import torch

from snippets.attention_inputs import inputs
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.second_head.ex01_hand_set_head import W_v2


# --8<-- [start:page]
def head(x, W_q, W_k, W_v):
    queries, keys, values = x @ W_q, x @ W_k, x @ W_v  # (6, d_head) each
    scores = queries @ keys.T / keys.shape[-1] ** 0.5  # (6, 6)
    weights = torch.softmax(scores, dim=-1)  # (6, 6)
    return weights, weights @ values  # (6, 6) and (6, 2)


def hand_set_projections(q_reads=3, k_reads=3, q_scale=3.0, k_scale=3.0):
    """Query and key each read one coordinate (1, 2 or 3), times a scale."""
    W_q2 = torch.zeros(3, 1)  # (3, 1)
    W_k2 = torch.zeros(3, 1)  # (3, 1)
    W_q2[q_reads - 1] = q_scale
    W_k2[k_reads - 1] = k_scale
    return W_q2, W_k2, W_v2  # the value still hands over coordinates 1 and 2


weights1, context1 = head(inputs, W_query, W_key, W_value)
weights2, context2 = head(inputs, *hand_set_projections())
print(weights1[1])  # the row of "journey" in head 1's map
print(weights2[1])  # and in head 2's
print(torch.cat([context1[1], context2[1]]))  # (4,): head 1 | head 2
# --8<-- [end:page]
