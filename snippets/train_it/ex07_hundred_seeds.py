"""The claims over seeds 0 to 99, as PyTorch trains them (make twin)."""

from snippets.train_it.ex01_stream import DESIGNS
from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY
from snippets.train_it.twin_results import twin_results

# isort: split
# --8<-- [start:page]
from collections import Counter

start, stop = twin_results["seeds"]
fields, total = twin_results["fields"], twin_results["total"]
print(f"seeds {start} to {stop - 1}, PyTorch:  meets every claim",
      " accurate on both lookups")  # fmt: skip
broken = {}
for design, runs in twin_results["runs"].items():
    records = {s: dict(zip(fields, r, strict=True)) for s, r in runs.items()}
    meets = sum(not r["broken"] for r in records.values())
    both = sum(min(r["correct"]) / total >= TWO_HEADS_MIN_ACCURACY
               for r in records.values())  # fmt: skip
    heads, d_head = DESIGNS[design]
    name = f"{heads} head{'s' * (heads > 1)} of width {d_head}"
    print(f"  {name:20} {meets:14d} {both:26d}")
    broken[name] = {s: r["broken"] for s, r in records.items() if r["broken"]}
print("the claims broken, and in how many seeds:")
for name, seeds in broken.items():
    if len(seeds) == 0:
        continue
    few = len(seeds) < 5  # then name them
    print(
        f"  {name}" + (f", seed {', '.join(map(str, seeds))}" if few else "")
    )
    counts = Counter(claim for claims in seeds.values() for claim in claims)
    for claim, n in counts.items():
        print(f"    {claim}: {n}")
# --8<-- [end:page]
