from snippets.training.ex01_task import make_batch, torch
from snippets.training.ex03_model import Attention

# isort: split
# --8<-- [start:page]
import copy
from dataclasses import dataclass, field

import torch.nn.functional as F

STEPS = 800
BATCH = 256
LR = 0.1
N_TEST = 4096


def accuracy(prediction, target, tol=0.1):
    """Share of predictions within tol of the target, per output: (2,)."""
    close = (prediction - target).abs() < tol  # (n, T, 2)
    return close.float().mean(dim=(0, 1))


def held_out(n=N_TEST, task=make_batch):
    """The test sequences: the same for every run (their own seed)."""
    return task(n, torch.Generator().manual_seed(10_000))


@dataclass
class Run:
    """One model's training: where it started, where it ended."""

    before: Attention  # a frozen copy of the initial weights
    after: Attention
    losses: list = field(default_factory=list)
    test_mse: float = float("nan")
    test_accuracy: torch.Tensor = None  # (2,): previous v, largest-k v


def fit(make_model, seed, steps, lr, batch, task):
    torch.manual_seed(seed)  # the initial weights
    model = make_model()
    run = Run(before=copy.deepcopy(model), after=model)
    data = torch.Generator().manual_seed(seed)  # the training sequences
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    for _ in range(steps):
        x, y = task(batch, data)
        loss = F.mse_loss(model(x)[0], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        run.losses.append(loss.item())

    x, y = held_out(task=task)
    with torch.no_grad():
        prediction = model(x)[0]
    run.test_mse = F.mse_loss(prediction, y).item()
    run.test_accuracy = accuracy(prediction, y)
    return run


def train_model(make_model, seed, steps=STEPS, lr=LR, batch=BATCH,
                task=make_batch):  # fmt: skip
    """make_model() trained from seed on sequences from task. Same seed,
    same run, bit for bit, on one machine: another CPU's kernels may
    round differently, enough to move a third decimal."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: one thread is fastest
    try:
        return fit(make_model, seed, steps, lr, batch, task)
    finally:
        torch.set_num_threads(threads)


def train(n_heads, d_head, seed, steps=STEPS):
    """n_heads heads of width d_head, trained from seed."""
    return train_model(lambda: Attention(n_heads, d_head), seed, steps)


# --8<-- [end:page]
