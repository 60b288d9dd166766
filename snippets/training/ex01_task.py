"""The two-lookup task: a value and a key feature per position."""

# --8<-- [start:page]
import math

import torch

T = 6  # positions per sequence
D_MODEL = 4  # numbers per position: v, k, cos, sin


def make_batch(n, generator):
    """n sequences x (n, T, 4) and their targets y (n, T, 2)."""
    v = torch.rand(n, T, generator=generator) * 2 - 1  # (n, T) in (-1, 1)
    k = torch.rand(n, T, generator=generator)  # (n, T) in (0, 1)
    angle = 2 * math.pi * torch.arange(T) / T  # (T,)
    where = torch.stack([angle.cos(), angle.sin()], -1).expand(n, T, 2)
    x = torch.cat([v[..., None], k[..., None], where], dim=-1)  # (n, T, 4)

    previous = v.roll(1, dims=1)  # previous[:, i] = v[:, i - 1]
    top = k.argmax(dim=1, keepdim=True)  # (n, 1): where k is largest
    largest = v.gather(1, top).expand(n, T)  # (n, T)
    y = torch.stack([previous, largest], dim=-1)  # (n, T, 2)
    return x, y


# --8<-- [end:page]
