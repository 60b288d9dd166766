"""Print every float that another CPU could round differently one unit in the
last place (ulp) off.

Matrix products, reductions, softmax and exp are not correctly rounded: MKL
and ATen pick their kernels by the CPU's instruction set (AVX-512, AVX2,
SSE4.2; NEON on Arm), and two kernels may round the same result differently
in its last bit. A page that prints such a result on a rounding boundary, or
exactly (`tensor(1.)` for a sum of softmax weights, 0.99999994 on another
CPU), shows another reader something else. After `shift_printed_values(+1)`
(or -1), each such float that reaches a page's output, through a tensor's
repr, `.item()`, `.tolist()` or `float()`, is one ulp larger (or smaller), so
a printed value that depends on the last bit changes on any machine: the
suite runs every page once each way (tests/cpu_sets.py).

Which floats: every one that is not a whole number, and a whole number that a
sum or mean computed from numbers that are not (the sum of a row of weights).
Other whole numbers are exact on every CPU (counts, one-hot codes, products
of hand-set integer weights), and so are zeros: they print as they are. So is
a sum or mean of whole numbers (an accuracy, the mean of 0s and 1s): the sum is
exact and the division correctly rounded, the same on every CPU. And so is a
number with at most ten binary places, such as 0.875, 28 right of 32, even after
it passed through another tensor: an inexact result lands on one by chance about
once in ten thousand, while counts over powers of two land there every time.

This file imports only torch: the reader-run kernels execute its text.
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
    if not t.is_floating_point() or t.requires_grad:
        return t
    with torch.no_grad():
        away = torch.full_like(t, float("inf") * direction)
        moved = torch.nextafter(t, away)
        if hasattr(t, "_of_whole_numbers"):
            return t
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
