"""Four lookups and three heads at its neighbours' rate, 0.1: make
staircase's record of the cell's fresh seeds."""

from snippets.how_many_heads.ex05_staircase import ACCURATE, cells
from snippets.how_many_heads.other_rate_results import other_rate_results

# isort: split
# --8<-- [start:page]
other = other_rate_results  # the cell (4, 3), trained at another rate
seeds = range(*other["seeds"])
by_seed = list(zip(*other["lookups"], strict=True))  # (seeds, 4 lookups)
learned = [sum(a >= ACCURATE for a in lookups) for lookups in by_seed]
print(f"4 lookups, 3 heads, at {other['lr']} (tuned: {cells[4, 3]['lr']})")
print("seeds that learned 0, 1, 2, 3, 4 of the lookups:",
      *(learned.count(n) for n in range(5)))  # fmt: skip
every = [s for s, n in zip(seeds, learned, strict=True) if n == 4]
print("all four in seeds", every)
# --8<-- [end:page]
