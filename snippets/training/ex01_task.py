"""The two-lookup task: a value, a key feature and a place per position."""

# --8<-- [start:page]
import torch

T = 6  # positions per sequence
D_MODEL = 2 + T  # numbers per position: v, k, and a one-hot place


def make_batch(n, generator):
    """n sequences x (n, T, 2 + T) and their targets y (n, T, 2)."""
    v = torch.rand(n, T, generator=generator) * 2 - 1  # (n, T) in (-1, 1)
    k = torch.rand(n, T, generator=generator)  # (n, T) in (0, 1)
    place = torch.eye(T).expand(n, T, T)  # position i: a 1 in column i
    x = torch.cat([v[..., None], k[..., None], place], dim=-1)  # (n, T, 8)

    previous = v.roll(1, dims=1)  # previous[:, i] = v[:, i - 1]
    top = k.argmax(dim=1, keepdim=True)  # (n, 1): where k is largest
    largest = v.gather(1, top).expand(n, T)  # (n, T)
    y = torch.stack([previous, largest], dim=-1)  # (n, T, 2)
    return x, y


# --8<-- [end:page]
