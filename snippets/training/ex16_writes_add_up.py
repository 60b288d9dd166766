from snippets.training.ex01_task import torch
from snippets.training.ex05_train import held_out
from snippets.training.ex15_what_heads_write import circuits, two

# --8<-- [start:page]
x, _ = held_out()  # (n, T, D_MODEL)
with torch.no_grad():
    prediction, weights = two(x)  # (n, T, 2), (n, heads, T, T)
    writes = [
        weights[:, head] @ x @ ov + bias  # (n, T, 2): this head's write
        for head, (ov, bias) in enumerate(circuits)
    ]
print(torch.allclose(sum(writes) + two.W_o.bias, prediction, atol=1e-5))
# --8<-- [end:page]
