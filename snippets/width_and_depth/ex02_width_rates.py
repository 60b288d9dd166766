"""Each split of the width over the 100 fresh seeds (make seeds)."""

from snippets.width_and_depth.design_results import design_results
from snippets.width_and_depth.ex01_split_width import WIDTHS

# --8<-- [start:page]
ACCURATE = 0.85  # on a lookup: the training page's line for two heads
measured = design_results["designs"]  # design -> field -> value per seed
start, stop = design_results["seeds"]
names = [f"{h} x {d_head}" for h, d_head in WIDTHS]


def accurate(name):
    """In how many seeds the design is accurate on the previous value, on
    the value at the largest key, and on both."""
    runs = measured[name]
    previous = [a >= ACCURATE for a in runs["previous"]]
    largest = [a >= ACCURATE for a in runs["largest key"]]
    both = [p and k for p, k in zip(previous, largest, strict=True)]
    return sum(previous), sum(largest), sum(both)


print(f"seeds {start} to {stop - 1}: in how many of the {stop - start}",
      "each design is accurate")  # fmt: skip
print("h x d_head   on previous  on largest key  on both")
for name in names:
    previous, largest, both = accurate(name)
    print(f"{name:10} {previous:13d} {largest:15d} {both:8d}")
narrow = [measured[n]["most on previous"] for n in ("2 x 1", "4 x 1")]
print("the most that one head of width 1 puts on the previous position,",
      f"in any seed: {max(max(m) for m in narrow):.2f}")  # fmt: skip
# --8<-- [end:page]
