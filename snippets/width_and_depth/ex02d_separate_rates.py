"""The separate-numbers task over fresh seeds (make tune)."""

from snippets.training.ex05_train import LR
from snippets.training.ex14a_interval import interval
from snippets.width_and_depth.ex02_width_rates import accurate
from snippets.width_and_depth.tuned_results import tuned_results

# --8<-- [start:page]
separate = tuned_results["separate numbers"]  # design -> field -> per seed
first, end = tuned_results["separate seeds"]
print(f"two values in two numbers, seeds {first} to {end - 1},",
      f"learning rate {LR}: in how many each design is accurate")  # fmt: skip
print("design   on previous  on largest key  on both (95%)")
for name, runs in separate.items():
    previous, largest, both = accurate(runs)
    low, high = interval(both, end - first)
    print(f"{name:8} {previous:11d} {largest:15d} {both:8d} ({low}-{high})")
lookup_ranges = {}  # design -> better lookup: lowest, highest; worse: highest
for name, runs in separate.items():
    pairs = list(zip(runs["previous"], runs["largest key"], strict=True))
    better = [max(pair) for pair in pairs]
    lookup_ranges[name] = min(better), max(better), max(min(p) for p in pairs)
print("design   better lookup: lowest  highest  worse lookup: highest")
for name, (lowest, highest, worse) in lookup_ranges.items():
    print(f"{name:8} {lowest:21.2f} {highest:8.2f} {worse:22.2f}")
# --8<-- [end:page]
