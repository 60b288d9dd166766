import torch

from snippets.one_head.ex04_context import context
from snippets.second_head.ex02_context import context2

# --8<-- [start:page]
concatenated = torch.cat(
    [context, context2], dim=-1
)  # (6, 4): head 1, head 2
print(concatenated[1])
# --8<-- [end:page]
