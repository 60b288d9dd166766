"""Each split of the width over the 100 fresh seeds (make seeds)."""

from snippets.training.ex14a_interval import interval
from snippets.width_and_depth.design_results import design_results
from snippets.width_and_depth.ex01_split_width import WIDTHS

# isort: split
# --8<-- [start:page]
import statistics

ACCURATE = 0.85  # on a lookup: the training page's line for two heads
NEAR = 0.05  # an accuracy this close to the line could fall either side
measured = design_results["designs"]  # design -> field -> value per seed
start, stop = design_results["seeds"]
names = [f"{h} x {d_head}" for h, d_head in WIDTHS]


def accurate(runs):
    """runs: field -> value per seed. In how many seeds they are accurate
    on the previous value, on the value at the largest key, and on both."""
    previous = [a >= ACCURATE for a in runs["previous"]]
    largest = [a >= ACCURATE for a in runs["largest key"]]
    both = [p and k for p, k in zip(previous, largest, strict=True)]
    return sum(previous), sum(largest), sum(both)


def near_line(runs):
    """In how many seeds either accuracy lies within NEAR of the line."""
    pairs = zip(runs["previous"], runs["largest key"], strict=True)
    return sum(min(abs(p - ACCURATE), abs(k - ACCURATE)) < NEAR
               for p, k in pairs)  # fmt: skip


def print_rates(designs):
    """A line per design: the counts over the line (both lookups with the
    count's 95% interval), how many seeds sit near the line, and the test
    MSE (median, and range) behind them."""
    print(f"{'design':15} previous  largest key  both (95%)  near line",
          " test MSE: median, range")  # fmt: skip
    for name, runs in designs.items():
        previous, largest, both = accurate(runs)
        low, high = interval(both, len(runs["test mse"]))
        both = f"{both:3d} ({low}-{high})"
        mse = runs["test mse"]
        print(f"{name:15} {previous:8d} {largest:12d} {both:12}"
              f" {near_line(runs):9d}   {statistics.median(mse):.4f},"
              f" {min(mse):.4f} to {max(mse):.4f}")  # fmt: skip


print(f"seeds {start} to {stop - 1}: in how many of the {stop - start}",
      "each design is accurate")  # fmt: skip
print_rates({name: measured[name] for name in names})
narrow = [measured[n]["most on previous"] for n in ("2 x 1", "4 x 1")]
print("the most that one head of width 1 puts on the previous position,",
      f"in any seed: {max(max(m) for m in narrow):.2f}")  # fmt: skip
wide, one = (measured[n]["test mse"] for n in ("1 x 8", "1 x 4"))
lower = sum(w < o for w, o in zip(wide, one, strict=True))  # seed by seed
print("1 x 8's test MSE below 1 x 4's, seed by seed:",
      f"in {lower} of {len(one)}")  # fmt: skip
# --8<-- [end:page]
