"""The task: two different lookups at every position.

Each sequence has T = 6 positions. Position i carries four numbers:

    x[i] = [v_i, k_i, cos(2*pi*i/T), sin(2*pi*i/T)]

a value v_i ~ U(-1, 1), a key feature k_i ~ U(0, 1), and where it sits on a
circle. At every position the model must output two numbers:

    y[i] = [v at position i - 1 (cyclic),  v where k is largest]

The first is a question about *where* (the position just before me); the
second a question about *what* (whoever has the largest key feature). One
softmax row can point at one of those places, not both.
"""

import math

import torch

T = 6  # positions per sequence
D_MODEL = 4  # numbers per position: v, k, cos, sin


def make_batch(
    n: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return n sequences x (n, T, 4) and their targets y (n, T, 2)."""
    v = (
        torch.rand(n, T, generator=generator) * 2 - 1
    )  # (n, T) values in (-1, 1)
    k = torch.rand(n, T, generator=generator)  # (n, T) key features in (0, 1)
    angle = 2 * math.pi * torch.arange(T) / T  # (T,)
    where = torch.stack([angle.cos(), angle.sin()], dim=-1).expand(n, T, 2)
    x = torch.cat([v[..., None], k[..., None], where], dim=-1)  # (n, T, 4)

    previous = v.roll(shifts=1, dims=1)  # previous[:, i] = v[:, i - 1]
    largest = v.gather(1, k.argmax(dim=1, keepdim=True)).expand(
        n, T
    )  # (n, T)
    y = torch.stack([previous, largest], dim=-1)  # (n, T, 2)
    return x, y
