"""The close counts compared seed by seed: McNemar's exact test on the
designs that pass both lookups in most seeds, and the sign test on their
test MSE."""

from snippets.width_and_depth.ex02_width_rates import ACCURATE, measured
from snippets.width_and_depth.ex09_tuned import tuned

# isort: split
# --8<-- [start:page]
from math import comb

LEVEL = 0.05  # a p below this counts as a difference, one test at a time


def passes(runs):
    """Per seed, in the seeds' order: accurate on both lookups?"""
    pairs = zip(runs["previous"], runs["largest key"], strict=True)
    return [min(p, k) >= ACCURATE for p, k in pairs]


def mcnemar_exact(b, c):
    """McNemar's exact test, two-sided: the chance that seeds on which two
    designs disagree split b to c, or more unevenly, if each way were as
    likely (a binomial with n = b + c and probability one half). On which
    design has the lower test MSE, the same sum is the sign test."""
    n = b + c
    tail = sum(comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


settings = {"shared": measured, "own best": tuned}
comparisons = [  # (design, setting) against (design, setting)
    (("2 x 2", "shared"), ("2 layers", "shared")),
    (("2 x 2", "shared"), ("2 x 2 on stream", "shared")),
    (("2 x 2 on stream", "shared"), ("2 layers", "shared")),
    (("2 x 2", "shared"), ("2 x 2", "own best")),
    (("2 x 2", "own best"), ("2 layers", "own best")),
    (("2 x 2", "own best"), ("2 x 2 on stream", "own best")),
    (("2 layers", "own best"), ("2 x 2 on stream", "own best")),
    (("2 layers", "shared"), ("2 layers", "own best")),
    (("2 x 2 on stream", "shared"), ("2 x 2 on stream", "own best")),
]
paired = {}  # (first, second) -> (passes only first, only second, p)
fits = {}  # (first, second) -> (lower MSE in first, in second, p)
print("accurate on both lookups in only one of the two:")
print(f"{'first':27} {'second':27} only first  only second  p")
for first, second in comparisons:
    a, b = (passes(settings[where][name]) for name, where in (first, second))
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    p = mcnemar_exact(only_a, only_b)
    paired[first, second] = only_a, only_b, p
    left, right = (f"{name} ({where})" for name, where in (first, second))
    print(f"{left:27} {right:27} {only_a:10d} {only_b:12d}  {p:.4f}")
print("the lower test MSE, seed by seed (a tie counts for neither):")
print(f"{'first':27} {'second':27} first lower  second lower  p")
for first, second in comparisons:
    a, b = (settings[at][name]["test mse"] for name, at in (first, second))
    lower_a = sum(x < y for x, y in zip(a, b, strict=True))
    lower_b = sum(y < x for x, y in zip(a, b, strict=True))
    p = mcnemar_exact(lower_a, lower_b)
    fits[first, second] = lower_a, lower_b, p
    left, right = (f"{name} ({where})" for name, where in (first, second))
    print(f"{left:27} {right:27} {lower_a:11d} {lower_b:13d}  {p:.1g}")
tests = 2 * len(comparisons)
firm = LEVEL / tests  # Bonferroni's correction: every test at once
print(f"{tests} tests: p below {LEVEL} / {tests} = {firm:.4f} keeps the",
      f"chance of any false alarm below {LEVEL}")  # fmt: skip
# --8<-- [end:page]
