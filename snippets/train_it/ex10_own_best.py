"""The claims over seeds 0 to 99 with each design at its own best settings,
as PyTorch trains them (make twin-tuned)."""

from snippets.train_it.ex01_stream import DESIGNS
from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY
from snippets.train_it.tuned_results import tuned_results

# isort: split
# --8<-- [start:page]
start, stop = tuned_results["seeds"]
total = tuned_results["total"]
print(f"seeds {start} to {stop - 1}, PyTorch, each at its own best:")
print("                      rate  steps  meets every claim",
      " accurate on both lookups")  # fmt: skip
for design, correct in tuned_results["correct"].items():
    lr, steps = tuned_results["settings"][design]
    broken = tuned_results["broken"][design]  # claim -> the seeds breaking it
    failing = set().union(*broken.values())
    both = sum(min(c) / total >= TWO_HEADS_MIN_ACCURACY
               for c in correct.values())  # fmt: skip
    heads, d_head = DESIGNS[design]
    name = f"{heads} head{'s' * (heads > 1)} of width {d_head}"
    print(f"  {name:20} {lr:4} {steps:6d} {len(correct) - len(failing):18d}",
          f"{both:25d}")  # fmt: skip
    for claim, seeds in broken.items():
        print(f"    {claim}: {len(seeds)}")
# --8<-- [end:page]
