"""Depth against heads over the 100 fresh seeds (make seeds)."""

from snippets.width_and_depth.ex02_width_rates import (
    ACCURATE,
    accurate,
    measured,
)
from snippets.width_and_depth.ex05_depth_designs import models

# --8<-- [start:page]
LOOKS = 0.90  # a layer "looks" at a place with this much of its weight
print("design      on previous  on largest key  on both")
for name in models:
    previous, largest, both = accurate(name)
    print(f"{name:10} {previous:13d} {largest:15d} {both:8d}")

two = measured["2 layers"]  # field -> its value in each seed
on_both = [  # the seeds in which two layers are accurate on both lookups
    i
    for i, (p, k) in enumerate(
        zip(two["previous"], two["largest key"], strict=True)
    )
    if min(p, k) >= ACCURATE
]
at_it = sum(two["most on largest key"][i] >= LOOKS for i in on_both)
after = sum(two["most just after it"][i] >= LOOKS for i in on_both)
print(f"two layers, on both in {len(on_both)} seeds: a layer looks at the",
      f"largest key in {at_it}, just after it in {after}")  # fmt: skip
# --8<-- [end:page]
