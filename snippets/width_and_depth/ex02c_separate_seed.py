"""The first fresh seed of three designs on the separate-numbers task."""

from snippets.width_and_depth.ex02_width_rates import ACCURATE
from snippets.width_and_depth.ex02b_separate_numbers import (
    LOOKUPS,
    train_separate,
)

# --8<-- [start:page]
for h, d_head in [(1, 4), (1, 8), (2, 2)]:
    run = train_separate(h, d_head, seed=2000)
    hit = (run.test_accuracy >= ACCURATE).tolist()  # (2,)
    hits = [n for n, ok in zip(LOOKUPS, hit, strict=True) if ok]
    print(f"{h} x {d_head}, seed 2000: accurate on",
          " and ".join(hits) or "neither")  # fmt: skip
# --8<-- [end:page]
