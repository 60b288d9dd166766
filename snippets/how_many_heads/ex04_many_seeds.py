"""The training page's training, for many seeds at once."""

from snippets.how_many_heads.ex01_tasks import lookups_task
from snippets.how_many_heads.ex02_designs import design
from snippets.training.ex05_train import (
    BATCH,
    LR,
    STEPS,
    accuracy,
    held_out,
    torch,
    train_model,
)

# isort: split
# --8<-- [start:page]
from torch.func import functional_call, stack_module_state, vmap


def train_seeds(make_model, seeds, task, steps=STEPS, lr=LR, batch=BATCH):
    """train_model for each seed, all at once: every weight gets a leading
    seed axis. Adam works weight by weight and the loss is a sum of each
    seed's own loss, so each seed's weights move as they would alone, up to
    rounding (batched kernels add in another order, as another CPU's do).
    Returns each seed's accuracy per lookup (S, k) and test MSE (S,)."""
    models = []
    for seed in seeds:
        torch.manual_seed(seed)  # each seed's initial weights, as alone
        models.append(make_model())
    weights, _ = stack_module_state(models)  # name -> (S, ...)
    shape = models[0].to("meta")  # the module, without its numbers

    def one_model(w, x):  # one seed's weights on its own batch
        return functional_call(shape, w, (x,))[0]

    all_models = vmap(one_model)  # (S, n, T, 8) -> (S, n, T, k)
    data = [torch.Generator().manual_seed(seed) for seed in seeds]
    optimizer = torch.optim.Adam(weights.values(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    for _ in range(steps):
        batches = [task(batch, g) for g in data]  # each seed's own stream
        x = torch.stack([pair[0] for pair in batches])  # (S, n, T, 8)
        y = torch.stack([pair[1] for pair in batches])  # (S, n, T, k)
        error = (all_models(weights, x) - y) ** 2  # (S, n, T, k)
        loss = error.mean(dim=(1, 2, 3)).sum()  # each seed's MSE, summed
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()

    x, y = held_out(task=task)  # the same test sequences for every seed
    with torch.no_grad():
        prediction = all_models(weights, x.expand(len(models), *x.shape))
    mse = ((prediction - y) ** 2).mean(dim=(1, 2, 3))  # (S,)
    return torch.stack([accuracy(p, y) for p in prediction]), mse


# --8<-- [end:page]
# --8<-- [start:check]
seeds, task = [0, 1], lookups_task(2)
together, _ = train_seeds(design(2, 2), seeds, task, steps=100)
alone = [train_model(design(2, 2), s, steps=100, task=task) for s in seeds]
alone = torch.stack([run.test_accuracy for run in alone])
gap = (together - alone).abs().max().item()
print("together and alone agree to within 0.01:", gap < 0.01)
# --8<-- [end:check]
