"""The claims over seeds 0 to 99, as PyTorch trains them (make twin)."""

from snippets.train_it.ex01_stream import DESIGNS
from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY
from snippets.train_it.twin_results import twin_results

# isort: split
# --8<-- [start:page]
start, stop = twin_results["seeds"]
fields, total = twin_results["fields"], twin_results["total"]
print(f"seeds {start} to {stop - 1}, PyTorch:  meets every claim",
      " accurate on both lookups")  # fmt: skip
failing = {}
for design, runs in twin_results["runs"].items():
    records = {s: dict(zip(fields, r, strict=True)) for s, r in runs.items()}
    meets = sum(not r["broken"] for r in records.values())
    both = sum(min(r["correct"]) / total >= TWO_HEADS_MIN_ACCURACY
               for r in records.values())  # fmt: skip
    heads, d_head = DESIGNS[design]
    name = f"{heads} head{'s' * (heads > 1)} of width {d_head}"
    print(f"  {name:20} {meets:14d} {both:26d}")
    failing[name] = {
        s: r["broken"] for s, r in records.items() if r["broken"]
    }
for name, seeds in failing.items():
    print(f"{name} fails in seeds {list(seeds) or 'none'}")
# --8<-- [end:page]
