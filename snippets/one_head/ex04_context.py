from snippets.one_head.ex01_projections import values
from snippets.one_head.ex03_weights import weights

# --8<-- [start:page]
context = weights @ values  # (6, 2): one context vector per token
print(context[1])
# --8<-- [end:page]
