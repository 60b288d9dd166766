"""Why h heads carry at most h lookups at once: the values pass through one
weighted average per head and position."""

from snippets.how_many_heads.ex01_tasks import LOOKUPS, lookups_task
from snippets.how_many_heads.ex02_designs import HEADS, KS, WIDTH, design
from snippets.training.ex01_task import torch


# isort: split
# --8<-- [start:page]
def rows_held(model, x, weights):
    """The model's output with its softmax rows held at `weights`
    (n, h, T, T): what the values contribute, for rows as they are."""
    n, t, _ = x.shape
    v = model.W_value(x).view(n, t, model.n_heads, model.d_head)
    context = weights @ v.transpose(1, 2)  # (n, h, T, d_head)
    return model.W_o(context.transpose(1, 2).reshape(n, t, -1))


def value_map(model, x):
    """How each output at each position moves with each token's value v
    (input number 0), the rows held: (T, k, T) for one sequence x (T, 8)."""
    x = x[None]  # (1, T, 8)
    weights = model(x)[1].detach()  # (1, h, T, T): the rows, as they are

    def outputs(v):  # (T,) -> (T, k)
        return rows_held(model, torch.cat([v[None, :, None], x[..., 1:]], -1),
                         weights)[0]  # fmt: skip

    return torch.autograd.functional.jacobian(
        outputs, x[0, :, 0], vectorize=True
    )


# --8<-- [end:page]
# --8<-- [start:same]
torch.manual_seed(0)
model, (x, _) = design(2, 3)(), lookups_task(3)(1, torch.Generator())
out, weights = model(x)
print(
    "rows held as they are, same output:",
    torch.allclose(rows_held(model, x, weights), out, atol=1e-6),
)
# --8<-- [end:same]
# --8<-- [start:ranks]
generator, ranks_of = torch.Generator().manual_seed(1), {}
for h in HEADS:
    ranks = ranks_of[h] = set()
    for seed in range(10):  # 10 fresh models, 10 fresh sequences each
        torch.manual_seed(seed)
        model = design(h, 4)()  # four outputs, weights as they come
        xs, _ = lookups_task(4)(10, generator)
        for x in xs:
            per_position = value_map(model, x)  # (T, k, T)
            ranks |= set(torch.linalg.matrix_rank(per_position).tolist())
    print(f"{h} x {WIDTH // h:<2} ranks of the map from values to outputs:",
          sorted(ranks))  # fmt: skip


# --8<-- [end:ranks]
# --8<-- [start:target]
def lookup_map(k, x):
    """How the first k lookups move with each token's value: (T, k, T)."""
    key = x[:, 1]

    def lookups(v):  # (T,) -> (T, k)
        return torch.stack(
            [f(v[None], key[None])[0] for f in LOOKUPS[:k]], -1
        )

    return torch.autograd.functional.jacobian(
        lookups, x[:, 0], vectorize=True
    )


xs, _ = lookups_task(4)(500, torch.Generator().manual_seed(2))
shares = {}  # k -> the share of positions whose k sources all differ
for k in KS:
    ranks = torch.cat(
        [torch.linalg.matrix_rank(lookup_map(k, x)) for x in xs]
    )
    shares[k] = (ranks == k).float().mean().item()
    print(f"k = {k}: rank {k} (every source different) at {shares[k]:.0%}",
          "of positions")  # fmt: skip
# --8<-- [end:target]
