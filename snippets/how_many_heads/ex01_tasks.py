"""A family of tasks: k lookups at once, on the training page's sequences."""

from snippets.training.ex01_task import D_MODEL, T, make_batch

# isort: split
# --8<-- [start:page]
import torch


def previous(v, key):  # the value one position back
    return v.roll(1, dims=1)


def at_largest_key(v, key):  # the value where the key feature is largest
    return v.gather(1, key.argmax(1, keepdim=True)).expand_as(v)


def at_smallest_key(v, key):  # the value where it is smallest
    return v.gather(1, key.argmin(1, keepdim=True)).expand_as(v)


def two_back(v, key):  # the value two positions back
    return v.roll(2, dims=1)


LOOKUPS = [previous, at_largest_key, at_smallest_key, two_back]


def lookups_task(k):
    """The task of the first k lookups: batch(n, generator) -> x of
    (n, T, 8) as on the training page, y of (n, T, k), one output each."""

    def batch(n, generator):
        v = torch.rand(n, T, generator=generator) * 2 - 1  # (n, T)
        key = torch.rand(n, T, generator=generator)  # (n, T)
        place = torch.eye(T).expand(n, T, T)  # one-hot position
        x = torch.cat([v[..., None], key[..., None], place], dim=-1)
        y = torch.stack([f(v, key) for f in LOOKUPS[:k]], dim=-1)
        return x, y  # (n, T, D_MODEL), (n, T, k)

    return batch


# --8<-- [end:page]
# --8<-- [start:check]
x, y = lookups_task(2)(3, torch.Generator().manual_seed(0))
print("x:", tuple(x.shape), " y:", tuple(y.shape))
print(f"{D_MODEL} numbers per token: v, the key feature, {T} for the place")
a, b = make_batch(3, torch.Generator().manual_seed(0))  # the training page's
print("k = 2 is the training page's task:", x.equal(a) and y.equal(b))
# --8<-- [end:check]
