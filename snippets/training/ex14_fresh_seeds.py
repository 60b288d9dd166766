"""The claims over 100 seeds that the page does not show (make seeds)."""

from snippets.training.ex13_claims import TWO_HEADS_MIN_ACCURACY
from snippets.training.ex14a_interval import interval
from snippets.training.seed_results import seed_results

# isort: split
# --8<-- [start:page]
import statistics

MIN_SHARE = 0.95  # two heads meet every claim in at least this share ...
MAX_SHARE = 0.05  # ... and one wide head is accurate in at most this share


runs = seed_results["runs"]  # seed -> {column: value}
first_setup = seed_results["first set-up"]
start, stop = seed_results["seeds"]


def count(table, holds):
    return sum(bool(holds(r)) for r in table.values())


def kept(broken):
    """The seeds that break no claim; broken: seed -> the claims it breaks."""
    return len(runs) - len(broken)


meet = kept(seed_results["broken"])
wide = count(
    runs, lambda r: min(r["one_prev"], r["one_key"]) >= TWO_HEADS_MIN_ACCURACY
)
rows = {
    "two heads of width 2 meet every claim": meet,
    "one head of width 4 is accurate on both lookups": wide,
    "the claims about the one wide head hold":
        kept(seed_results["broken, one head"]),
    "the first head took the previous-token lookup":
        count(runs, lambda r: r["head"] == 1),
    "ablation page: crossing with the head zeroed":
        count(runs, lambda r: r["crossing"]),
    "ablation page: crossing with the head's mean":
        count(runs, lambda r: r["crossing_mean"]),
    "first set-up: two heads meet every claim":
        kept(seed_results["broken, first set-up"]),
}  # fmt: skip
print(f"seeds {start} to {stop - 1}: in how many of the {len(runs)},",
      "and the 95% interval")  # fmt: skip
for what, n in rows.items():
    low, high = interval(n, len(runs))
    print(f"  {what:50} {n:3d}  ({low}-{high})")
for seed, claims in seed_results["broken"].items():
    print(f"seed {seed}: {'; '.join(claims)}")
failing = [first_setup[seed] for seed in seed_results["broken, first set-up"]]
stalled = [r["most_on_prev"] for r in failing if r["most_on_prev"] < 0.5]
best = statistics.median(stalled)
found = sorted(r["two_key"] for r in failing if r["most_on_prev"] >= 0.5)
print(f"first set-up, {len(failing)} failing seeds:",
      f"in {len(stalled)} no head puts most of its weight on the previous",
      f"position (the most any puts there: median {best:.2f});\n ",
      f"in {len(found)} one does, and their accuracy on the largest key is",
      ", ".join(f"{a:.3f}" for a in found))  # fmt: skip
assert meet >= MIN_SHARE * len(runs) and wide <= MAX_SHARE * len(runs)
# --8<-- [end:page]
