"""Depth against heads over the 100 fresh seeds (make seeds)."""

from snippets.width_and_depth.ex02_width_rates import (
    ACCURATE,
    measured,
    print_rates,
)
from snippets.width_and_depth.ex05_depth_designs import models

# --8<-- [start:page]
LOOKS = 0.90  # a layer "looks" at a place with this much of its weight
print_rates({name: measured[name] for name in models})

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
