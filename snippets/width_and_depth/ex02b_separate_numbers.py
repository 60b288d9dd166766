"""The task again, with the two values in two different input numbers."""

from snippets.training.ex01_task import T, torch
from snippets.training.ex03_model import Attention
from snippets.training.ex05_train import train_model

# --8<-- [start:page]
D_SEPARATE = 3 + T  # numbers per position: u, w, k, and a one-hot place
LOOKUPS = ["the previous value", "the value at the largest key"]


def separate_numbers(n, generator):
    """make_batch's task with two values a position: the next position
    fetches u, and every position fetches w at the largest key."""
    u = torch.rand(n, T, generator=generator) * 2 - 1  # (n, T) in (-1, 1)
    w = torch.rand(n, T, generator=generator) * 2 - 1  # (n, T) in (-1, 1)
    k = torch.rand(n, T, generator=generator)  # (n, T) in (0, 1)
    place = torch.eye(T).expand(n, T, T)
    x = torch.cat([u[..., None], w[..., None], k[..., None], place], -1)

    previous = u.roll(1, dims=1)  # previous[:, i] = u[:, i - 1]
    top = k.argmax(dim=1, keepdim=True)  # (n, 1): where k is largest
    largest = w.gather(1, top).expand(n, T)  # (n, T)
    return x, torch.stack([previous, largest], dim=-1)  # (n, T, 9), (n, T, 2)


def train_separate(h, d_head, seed):
    """h heads of width d_head, trained as ever, on separate_numbers."""
    model = lambda: Attention(h, d_head, d_model=D_SEPARATE)  # noqa: E731
    return train_model(model, seed, task=separate_numbers)


# --8<-- [end:page]
