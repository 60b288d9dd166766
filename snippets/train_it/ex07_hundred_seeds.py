"""The claims over seeds 0 to 99, as PyTorch trains them (make twin)."""

from snippets.train_it.ex01_stream import DESIGNS
from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY
from snippets.train_it.twin_results import twin_results

# isort: split
# --8<-- [start:page]
start, stop = twin_results["seeds"]
total = twin_results["total"]
print(f"seeds {start} to {stop - 1}, PyTorch:  meets every claim",
      " accurate on both lookups")  # fmt: skip
names = {}
for design, correct in twin_results["correct"].items():
    broken = twin_results["broken"][design]  # claim -> the seeds breaking it
    failing = set().union(*broken.values())
    both = sum(min(c) / total >= TWO_HEADS_MIN_ACCURACY
               for c in correct.values())  # fmt: skip
    heads, d_head = DESIGNS[design]
    names[design] = f"{heads} head{'s' * (heads > 1)} of width {d_head}"
    print(f"  {names[design]:20} {len(correct) - len(failing):19d}",
          f"{both:25d}")  # fmt: skip
print("the claims broken, and in how many seeds:")
for design, broken in twin_results["broken"].items():
    failing = sorted(set().union(*broken.values()))
    if failing:
        listed = ", ".join(map(str, failing))
        few = len(failing) < 5  # then name them
        print(f"  {names[design]}" + (f", seed {listed}" if few else ""))
        for claim, seeds in broken.items():
            print(f"    {claim}: {len(seeds)}")
# --8<-- [end:page]
