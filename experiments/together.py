"""Many seeds of one design trained at once, bit for bit as the training page
trains each alone (`make tune` trains its runs this way).

`train_model` (snippets/training/ex05_train.py) trains one seed: tensors a
few numbers wide, so much of a step's time goes on calling each operation,
not on the arithmetic. `stacked` stacks the seeds' models
(torch.func.stack_module_state) and takes each step once for all of them:
each seed's gradient and loss come from torch.func.vmap over
torch.func.grad_and_value, then one Adam step and one schedule step move
every seed's weights. The seeds keep their own initial weights (each seed's
`torch.manual_seed`) and their own training sequences (each seed's
generator). Under the kernels the record makers pin (fresh_seeds.KERNELS),
every loss and weight comes out equal to train_model's to the last bit on
every design here (`differences`, which `make cpu-sets` runs). Autograd
through vmap did not: with heads of width 1, W_o's gradient came out
summed in another order. `train` checks the first steps both ways before it
trains a group together, and trains each seed alone if any bit differs.
Measured on an AMD EPYC, one core, 20 seeds at once: 1.6 ms a seed-step
for 2 x 2 against 3.0 alone, 3.0 against 5.3 for two layers.
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F
from torch.func import functional_call, grad_and_value, stack_module_state, vmap

from snippets.training.ex01_task import make_batch
from snippets.training.ex05_train import BATCH, Run, accuracy, held_out, train_model

PROBE = 2  # steps trained both ways before a group is trained together


def train(make_model, seeds, steps, lr, batch=BATCH, task=make_batch):
    """[train_model(make_model, seed, steps, lr, batch, task) for seed in
    seeds]: trained together if PROBE steps of the seeds come out the same
    both ways, to the last bit; each alone otherwise. A kernel that sums in
    another order for the stacked shapes shows in the first step's gradient:
    the shapes, and so the kernels, are the same at every step."""
    seeds = list(seeds)
    probe = stacked(make_model, seeds, PROBE, lr, batch, task)
    if all(same(run, train_model(make_model, seed, PROBE, lr, batch, task))
           for seed, run in zip(seeds, probe, strict=True)):  # fmt: skip
        return stacked(make_model, seeds, steps, lr, batch, task)
    return [train_model(make_model, seed, steps, lr, batch, task) for seed in seeds]


def same(run: Run, other: Run) -> bool:
    """The two runs' losses, final weights and test results, bit for bit."""
    weights = dict(other.after.named_parameters())
    return (
        run.losses == other.losses
        and all(torch.equal(w, weights[n]) for n, w in run.after.named_parameters())
        and run.test_mse == other.test_mse
        and torch.equal(run.test_accuracy, other.test_accuracy)
    )


def stacked(make_model, seeds, steps, lr, batch=BATCH, task=make_batch):
    """One Run per seed, in the seeds' order, trained side by side: as
    train_model(make_model, seed, steps, lr, batch, task) trains each, the
    same to the last bit only where `train` has checked it (the kernels
    decide)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as train_model: tiny tensors
    try:
        return _fit(make_model, list(seeds), steps, lr, batch, task)
    finally:
        torch.set_num_threads(threads)


def _fit(make_model, seeds, steps, lr, batch, task):
    models = []
    for seed in seeds:
        torch.manual_seed(seed)  # each seed's initial weights, as fit draws them
        models.append(make_model())
    runs = [Run(before=copy.deepcopy(m), after=m) for m in models]
    data = [torch.Generator().manual_seed(seed) for seed in seeds]
    weights, buffers = stack_module_state(models)  # name -> (seeds, ...)
    shell = copy.deepcopy(models[0]).to("meta")  # the structure, no numbers

    def loss(w, b, x, y):  # one seed's model on its own batch
        return F.mse_loss(functional_call(shell, (w, b), (x,))[0], y)

    weights = {name: w.detach() for name, w in weights.items()}
    optimizer = torch.optim.Adam(weights.values(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    gradients_and_losses = vmap(grad_and_value(loss))
    for _ in range(steps):
        xs, ys = zip(*(task(batch, generator) for generator in data), strict=True)
        grads, losses = gradients_and_losses(
            weights, buffers, torch.stack(xs), torch.stack(ys)
        )
        for name, w in weights.items():
            w.grad = grads[name]  # (seeds, ...): each seed's own
        optimizer.step()
        schedule.step()
        for run, value in zip(runs, losses.tolist(), strict=True):
            run.losses.append(value)

    x, y = held_out(task=task)
    with torch.no_grad():
        for i, run in enumerate(runs):
            for name, tensor in run.after.named_parameters():
                tensor.copy_(weights[name][i])
            prediction = run.after(x)[0]
            run.test_mse = F.mse_loss(prediction, y).item()
            run.test_accuracy = accuracy(prediction, y)
    return runs


def differences(steps: int = 10, seeds=(3000, 3001, 3002), planted: float = 1.0):
    """Every design `make tune` trains (and the separate-numbers task), a few
    steps by `train` and alone: the (design, together?) pairs whose runs
    differ in any bit, and for each design whether its seeds were trained
    together. `planted` scales `stacked`'s learning rate (as if it
    were wrong): then every design trained together must differ."""
    from experiments import fair_fight, fresh_seeds
    from snippets.training.ex05_train import LR

    cases = [(name, make, make_batch) for name, make in fresh_seeds.designs().items()]
    for name in fair_fight.SEPARATE:
        cases.append((f"{name}, separate numbers", *fair_fight.separate_design(name)))
    differ, together = [], {}
    for name, make, task in cases:
        probe = stacked(make, seeds, PROBE, LR, task=task)
        together[name] = all(
            same(run, train_model(make, seed, PROBE, LR, task=task))
            for seed, run in zip(seeds, probe, strict=True)
        )
        if together[name] and planted != 1.0:
            found = stacked(make, seeds, steps, LR * planted, task=task)
        else:
            found = train(make, seeds, steps, LR, task=task)
        for seed, run in zip(seeds, found, strict=True):
            if not same(run, train_model(make, seed, steps, LR, task=task)):
                differ.append(name)
                break
    return differ, together


if __name__ == "__main__":  # the check tests/test_width_and_depth.py runs
    import json
    import sys

    planted = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    differ, together = differences(planted=planted)
    capability = torch.backends.cpu.get_cpu_capability()
    found = {"capability": capability, "differ": differ, "together": together}
    print(json.dumps(found))
