"""The random numbers the page's trainer and Python share: initial weights
and training sequences from Python's Mersenne Twister."""

from snippets.training.ex01_task import D_MODEL, T, torch

# isort: split
# --8<-- [start:page]
import math
import random

WIDTH = 4  # heads * d_head, the same in every design
DESIGNS = {"2x2": (2, 2), "1x4": (1, 4), "4x1": (4, 1)}  # (heads, d_head)


def uniforms(rng, *shape):
    """Numbers in [0, 1) from Python's Mersenne Twister, as float64."""
    numbers = [rng.random() for _ in range(math.prod(shape))]
    return torch.tensor(numbers, dtype=torch.float64).view(shape)


def initial_weights(seed):
    """A state_dict for Attention: nn.Linear's default initialisation,
    weight and bias uniform in (-b, b) with b = 1 / sqrt(inputs)."""
    rng = random.Random(seed)
    shapes = {"W_query": (WIDTH, D_MODEL), "W_key": (WIDTH, D_MODEL),
              "W_value": (WIDTH, D_MODEL), "W_o": (2, WIDTH)}  # fmt: skip
    weights = {}
    for name, (n_out, n_in) in shapes.items():
        bound = 1 / math.sqrt(n_in)
        weight = (2 * uniforms(rng, n_out, n_in) - 1) * bound  # (out, in)
        bias = (2 * uniforms(rng, n_out) - 1) * bound  # (out,)
        weights |= {f"{name}.weight": weight, f"{name}.bias": bias}
    return weights


def make_batch(n, rng):
    """The training page's make_batch, drawing from rng: x (n, T, 8), y."""
    v = uniforms(rng, n, T) * 2 - 1  # (n, T) in (-1, 1)
    k = uniforms(rng, n, T)  # (n, T) in (0, 1)
    place = torch.eye(T, dtype=torch.float64).expand(n, T, T)
    x = torch.cat([v[..., None], k[..., None], place], dim=-1)  # (n, T, 8)
    previous = v.roll(1, dims=1)  # previous[:, i] = v[:, i - 1]
    top = k.argmax(dim=1, keepdim=True)  # (n, 1): where k is largest
    largest = v.gather(1, top).expand(n, T)  # (n, T)
    return x, torch.stack([previous, largest], dim=-1)  # y: (n, T, 2)


w = initial_weights(seed=0)
first = random.Random(0).random()  # the generator's first number
print(f"{first:.12f} {w['W_query.weight'][0, 0]:.12f}")
# --8<-- [end:page]
