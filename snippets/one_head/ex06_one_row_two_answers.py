import torch

from snippets.attention_inputs import tokens
from snippets.one_head.ex01_projections import values

# --8<-- [start:page]
i_your, i_one = tokens.index("Your"), tokens.index("one")
wanted = torch.zeros(6)  # journey's scores, if it wanted two tokens
wanted[[i_your, i_one]] = 20.0  # equally, and far more than the rest
split = torch.softmax(wanted, dim=-1)  # (6,): half the budget on each
print(split.round(decimals=4))
print(values[i_your], values[i_one])  # the two answers journey wants
print(split @ values)  # the one vector the head hands back
# --8<-- [end:page]
