"""Remove heads: zero their slices of the context before the output
projection, with a forward pre-hook that is always taken off again."""

from snippets.ablation.ex01_two_heads import models
from snippets.training.ex01_task import torch
from snippets.training.ex05_train import held_out

# isort: split
# --8<-- [start:page]
from contextlib import contextmanager


@contextmanager
def heads_removed(removed, head_dim, mean=None):
    """Inside the `with`, the given heads contribute nothing.

    removed: {output projection: [head, ...]}. A forward pre-hook sees the
    projection's input, the context (..., heads * head_dim), before the
    projection does, and hands on a copy with those heads' columns zeroed,
    or, given the context's mean over the data (mean ablation), set to it.
    """

    def zero(heads):
        def hook(projection, args):
            (context,) = args
            context = context.clone()  # the caller's tensor stays as it was
            for h in heads:
                columns = slice(h * head_dim, (h + 1) * head_dim)
                context[..., columns] = 0 if mean is None else mean[columns]
            return (context,)

        return hook

    handles = [
        p.register_forward_pre_hook(zero(hs)) for p, hs in removed.items()
    ]
    try:
        yield
    finally:  # even after an error: the model is whole again
        for handle in handles:
            handle.remove()


# --8<-- [end:page]

# --8<-- [start:try]
toy = models[0]  # seed 0
x, y = held_out()  # the training page's 4096 test sequences
with torch.no_grad():
    before = toy(x)[0]
    with heads_removed({toy.W_o: [0]}, toy.d_head):
        without_1 = toy(x)[0]
    after = toy(x)[0]
print(
    "output changed without the first head:",
    not torch.equal(before, without_1),  # [0]: the first head
)
print("hooks left on W_o:", len(toy.W_o._forward_pre_hooks))
print("output after the with-block as before:", torch.equal(before, after))
# --8<-- [end:try]
