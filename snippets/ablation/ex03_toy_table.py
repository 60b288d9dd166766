"""Seed 0: each head removed in turn, each lookup measured again."""

from snippets.ablation.ex01_two_heads import models
from snippets.ablation.ex02_remove_heads import heads_removed, x, y
from snippets.training.ex01_task import torch
from snippets.training.ex05_train import accuracy
from snippets.training.ex06_measures import where_heads_look

# isort: split
# --8<-- [start:page]
LOOKUPS = ["previous-token", "largest-key"]  # the two outputs, in order


def roles(model):
    """Each head's job: the place it puts most of its attention on."""
    with torch.no_grad():
        looks = where_heads_look(model(x)[1], x)  # (heads, 2 places)
    return [LOOKUPS[place] for place in looks.argmax(dim=1).tolist()]


def context_mean(model):
    """The context W_o receives, averaged over every test position."""
    seen = []
    hook = model.W_o.register_forward_pre_hook(lambda _, a: seen.append(a[0]))
    try:
        with torch.no_grad():
            model(x)
    finally:
        hook.remove()
    return seen[0].mean(dim=(0, 1))  # (heads * d_head,)


def lookup_accuracy(model, removed=(), mean=False):
    """Accuracy on each lookup, with the heads in `removed` zeroed (or set
    to their mean output, mean=True): (2,)."""
    fill = context_mean(model) if mean else None
    with (
        torch.no_grad(),
        heads_removed({model.W_o: removed}, model.d_head, fill),
    ):
        return accuracy(model(x)[0], y)


def ablation_table(model):
    """Rows: nothing removed, then each head removed; columns: lookups."""
    rows = {"nothing removed": lookup_accuracy(model)}
    for head, role in enumerate(roles(model)):  # head 0 is the first head
        name = f"without the {['first', 'second'][head]} head ({role})"
        rows[name] = lookup_accuracy(model, [head])
    return rows


table = ablation_table(models[0])
table["always answering 0, for comparison"] = accuracy(torch.zeros_like(y), y)
print(f"{'seed 0: accuracy':40} {LOOKUPS[0]:>15} {LOOKUPS[1]:>12}")
for name, (previous, largest) in table.items():
    print(f"{name:40} {previous:15.2f} {largest:12.2f}")
# --8<-- [end:page]
