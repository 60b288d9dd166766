"""The staircase as a picture: a k x h grid of rates."""

from snippets.how_many_heads.ex02_designs import HEADS, KS, WIDTH
from snippets.how_many_heads.ex05_staircase import found

# isort: split
# --8<-- [start:page]
import matplotlib.pyplot as plt

rates = [[found(k, h)[0] / found(k, h)[1] for h in HEADS] for k in KS]
fig, ax = plt.subplots(figsize=(4.2, 3.6))
ax.imshow(rates, cmap="Blues", vmin=0, vmax=1.25)  # k = 1 on top, as printed
for i, k in enumerate(KS):
    for j, h in enumerate(HEADS):
        n_found, n = found(k, h)
        ax.text(j, i, f"{n_found}/{n}", ha="center", va="center",
                color="white" if rates[i][j] > 0.6 else "black")  # fmt: skip
ax.set_xticks(range(len(HEADS)), [f"{h} x {WIDTH // h}" for h in HEADS])
ax.set_yticks(range(len(KS)), [str(k) for k in KS])
ax.set_xlabel("heads x width of each (one layer)")
ax.set_ylabel("lookups at once, k")
ax.set_title("seeds in which all k lookups are learned")
fig.tight_layout()
# --8<-- [end:page]
