"""Print every float that another CPU could round differently one ulp off.

Matrix products, reductions, softmax and exp are not correctly rounded, and MKL
and ATen pick their kernels by the CPU's instruction set: a result on a rounding
boundary, or printed exactly (a row of softmax weights summing to `tensor(1.)`,
0.99999994 elsewhere), shows another reader something else. After
`shift_printed_values(+1)` (or -1) each such float that reaches a page's output
(a tensor's repr, `.item()`, `.tolist()`, `float()`) is one ulp larger (smaller),
so a printed value that depends on the last bit changes on any machine.

Shifted: every float that is not a whole number, and a whole number summed or
averaged from ones that are not. Not shifted, being exact on every CPU: zeros,
other whole numbers (counts, one-hot codes, hand-set integer weights), a sum or
mean of whole numbers (the sum is exact, the division correctly rounded), and a
number with at most ten binary places (0.875, 28 of 32): an inexact result lands
on one about once in ten thousand, counts over powers of two every time.

Imports only torch: the reader-run kernels execute this file's text.
"""

import torch
import torch.nn.functional as F

_REDUCTIONS = [
    (torch, "sum"), (torch.Tensor, "sum"), (torch, "mean"),
    (torch.Tensor, "mean"), (torch.Tensor, "norm"), (torch.linalg, "vector_norm"),
    (F, "cosine_similarity"),
]  # fmt: skip
_PRINTING = [
    (torch.Tensor, "item"), (torch.Tensor, "tolist"),
    (torch.Tensor, "__float__"), (torch._tensor_str, "_str"),
]  # fmt: skip
_ORIGINAL = {}


def _whole(t):
    return not t.is_floating_point() or bool(torch.equal(t, t.trunc()))


def _reduction(original):
    def reduce(t, *args, **kwargs):
        result = original(t, *args, **kwargs)
        if isinstance(t, torch.Tensor) and not _whole(t):
            result._sum_of_fractions = True  # exact here, maybe not elsewhere
        elif isinstance(t, torch.Tensor):
            result._of_whole_numbers = True  # the same on every CPU
        return result

    return reduce


def _shifted(t, direction):
    if not t.is_floating_point() or t.requires_grad or hasattr(t, "_of_whole_numbers"):
        return t
    with torch.no_grad():
        moved = torch.nextafter(t, torch.full_like(t, float("inf") * direction))
        few_places = t * 1024 == (t * 1024).trunc()  # whole numbers among them
        keep = few_places & ~torch.tensor(hasattr(t, "_sum_of_fractions"))
        return torch.where(keep | (t == 0), t, moved)


_printing_now = []  # a repr calls .tolist() and .item(): shift once, not twice


def _printing(original, direction):
    def printed(t, *args, **kwargs):
        if _printing_now:
            return original(t, *args, **kwargs)
        _printing_now.append(t)
        try:
            return original(_shifted(t, direction), *args, **kwargs)
        finally:
            _printing_now.pop()

    return printed


def shift_printed_values(direction):
    """From now on, in this process: printed floats one ulp up (+1) or down
    (-1), as described above. Returns a function that ends it."""
    for owner, name in _REDUCTIONS + _PRINTING:
        original = _ORIGINAL.setdefault((owner, name), getattr(owner, name))
        if (owner, name) in _REDUCTIONS:
            setattr(owner, name, _reduction(original))
        else:
            setattr(owner, name, _printing(original, direction))

    def restore():
        for (owner, name), original in _ORIGINAL.items():
            setattr(owner, name, original)

    return restore
