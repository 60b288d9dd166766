import torch

from snippets.attention_inputs import inputs
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2


# --8<-- [start:page]
def attention_head(x, W_q, W_k, W_v):
    queries, keys, values = x @ W_q, x @ W_k, x @ W_v  # (6, d_head) each
    scores = queries @ keys.T / keys.shape[-1] ** 0.5  # (6, 6)
    return torch.softmax(scores, dim=-1) @ values  # (6, d_head)


head1 = attention_head(inputs, W_query, W_key, W_value)
head2 = attention_head(inputs, W_q2, W_k2, W_v2)  # the hand-set head
head2_copy = attention_head(inputs, W_query, W_key, W_value)  # head 1's

print(torch.equal(head1, head2))
print(torch.equal(head1, head2_copy))
# --8<-- [end:page]
