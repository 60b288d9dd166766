"""Adam and the cosine schedule by hand, and the training loop."""

from snippets.train_it.ex01_stream import initial_weights, make_batch, random
from snippets.train_it.ex02_backward import loss_and_grads, torch

# isort: split
# --8<-- [start:page]
import math
from contextlib import contextmanager

STEPS, BATCH, LR = 800, 256, 0.1  # the training page's
BETAS, EPS = (0.9, 0.999), 1e-8  # torch.optim.Adam's defaults


def learning_rate(step):
    """The cosine schedule: LR at step 0, falling to 0 at step STEPS."""
    return LR * (1 + math.cos(math.pi * step / STEPS)) / 2


def adam(W, grads, m, v, step):
    """One Adam step (step counts from 1), as torch.optim.Adam takes it."""
    size = learning_rate(step - 1) / (1 - BETAS[0] ** step)
    root = math.sqrt(1 - BETAS[1] ** step)
    for name, g in grads.items():
        m[name] += (g - m[name]) * (1 - BETAS[0])  # mean of the gradients
        v[name] = v[name] * BETAS[1] + g * g * (1 - BETAS[1])  # of squares
        W[name] -= size * m[name] / (v[name].sqrt() / root + EPS)


@contextmanager
def one_thread():  # tiny tensors: one thread is fastest
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


@one_thread()
def train_by_hand(n_heads, seed, steps=STEPS):
    """The training page's run, by hand: initial weights, final, losses."""
    W = initial_weights(seed)
    start = {name: w.clone() for name, w in W.items()}
    data = random.Random(seed)  # the sequences: a generator of their own
    m = {name: torch.zeros_like(w) for name, w in W.items()}
    v = {name: torch.zeros_like(w) for name, w in W.items()}
    losses = []
    for step in range(1, steps + 1):
        x, y = make_batch(BATCH, data)
        loss, grads = loss_and_grads(W, x, y, n_heads)
        adam(W, grads, m, v, step)
        losses.append(loss)
    return start, W, losses


# --8<-- [end:page]
