"""Train one model on the two-lookup task and record what happened."""

import math
from dataclasses import dataclass, field

import torch

from snippets.training.data import make_batch
from snippets.training.metrics import accuracy
from snippets.training.model import Attention

STEPS = 800
BATCH = 128
LR = 5e-2
N_TEST = 4096


@dataclass
class Run:
    """One training run: the model before and after, and how it got there."""

    n_heads: int
    head_dim: int
    seed: int
    before: Attention
    after: Attention
    losses: list[float] = field(default_factory=list)
    test_mse: float = math.nan
    test_accuracy: torch.Tensor | None = (
        None  # (2,): previous value, largest-k value
    )


def held_out(n: int = N_TEST) -> tuple[torch.Tensor, torch.Tensor]:
    """Held-out sequences, the same for every run (their own fixed seed)."""
    return make_batch(n, torch.Generator().manual_seed(10_000))


def train(n_heads: int, head_dim: int, seed: int, steps: int = STEPS) -> Run:
    """Train from seed `seed`: the same seed gives the same run, bit for bit.

    Runs on one thread: for tensors this small that is also the fastest, and
    it keeps the result independent of how many cores the machine has.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _train(n_heads, head_dim, seed, steps)
    finally:
        torch.set_num_threads(threads)


def _train(n_heads: int, head_dim: int, seed: int, steps: int) -> Run:
    torch.manual_seed(seed)  # the initial weights
    model = Attention(n_heads, head_dim)
    before = Attention(n_heads, head_dim)
    before.load_state_dict(model.state_dict())  # a frozen copy of the start

    data = torch.Generator().manual_seed(seed)  # the training sequences
    optimizer = torch.optim.Adam(model.parameters(), lr=LR, fused=True)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(
        optimizer, T_max=steps
    )
    run = Run(n_heads, head_dim, seed, before, model)
    for _ in range(steps):
        x, y = make_batch(BATCH, data)
        loss = torch.nn.functional.mse_loss(model(x)[0], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        run.losses.append(loss.item())

    x, y = held_out()
    with torch.no_grad():
        prediction = model(x)[0]
    run.test_mse = torch.nn.functional.mse_loss(prediction, y).item()
    run.test_accuracy = accuracy(prediction, y)
    return run
