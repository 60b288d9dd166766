"""One cell of how-many-heads trained alone, and every cell's rate over
seeds 0 to 99, as PyTorch trains them (make twin-lookups)."""

from snippets.train_it.ex03_train import STEPS
from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY
from snippets.train_it.ex08_lookups import (
    CELL_WIDTH,
    T,
    accurate,
    held,
    train_lookups,
)
from snippets.train_it.lookups_results import lookups_results

# isort: split
# --8<-- [start:one]
k, h = 3, 3  # three lookups, three heads of width 4
lr = lookups_results["cells"][k, h]["lr"]  # the staircase's rate for it
model, losses = train_lookups(k, h, seed=0, lr=lr)
print(f"{k} lookups, {h} heads of width {CELL_WIDTH // h}, seed 0, lr {lr}")
print(f"loss at step 1: {losses[0]:.8f}, at step {STEPS}: {losses[-1]:.8f}")
total = held[0].shape[0] * T  # held-out predictions per lookup
print(
    "accurate on each lookup:",
    [round(c / total, 2) for c in accurate(model, k)],
)
# --8<-- [end:one]
# --8<-- [start:grid]
cells = lookups_results["cells"]  # (k, h) -> its rate and counts
first, last = lookups_results["seeds"]
print(f"seeds {first} to {last - 1}, PyTorch: accurate on every lookup")
heads = sorted({h for _, h in cells})
columns = [f"{n} x {CELL_WIDTH // n}" for n in heads]
print("k \\ h  " + "".join(f"{c:10}" for c in columns).rstrip())
for k in sorted({k for k, _ in cells}):
    rates = []
    for h in heads:
        counts = cells[k, h]["correct"].values()
        rates.append(sum(min(c) / total >= TWO_HEADS_MIN_ACCURACY
                         for c in counts))  # fmt: skip
    print(f"{k:5}  " + "".join(f"{r:<10}" for r in rates).rstrip())
# --8<-- [end:grid]
