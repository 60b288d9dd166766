"""Both pruning orders, both measures, against the share of heads removed."""

from snippets.ablation.ex10_pruning import (
    REMOVED,
    greedy_curve,
    heads,
    random_curve,
    random_curves,
)

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure

removed = [k / len(heads) for k in REMOVED]  # share of the heads removed
fig = Figure(figsize=(9, 3.8), layout="constrained")
panels = fig.subplots(1, 2, sharex=True)
titles = [
    "similarity with the full model's embeddings",
    "pairs task: paraphrase nearest (look-alikes included)",
]
for measure, (ax, title) in enumerate(zip(panels, titles, strict=True)):
    for one in random_curves:  # each random order, faint
        ax.plot(removed, one[:, measure], color="C3", alpha=0.25, lw=1)
    ax.plot(removed, random_curve[:, measure], "s--", color="C3",
            label=f"random order (mean of {len(random_curves)})")  # fmt: skip
    ax.plot(removed, greedy_curve[:, measure], "o-", color="C0",
            label="least important first")  # fmt: skip
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("share of the 72 heads removed")
    ax.xaxis.set_major_formatter("{x:.0%}")
    ax.set_ylim(0.4, 1.02)
    ax.grid(alpha=0.3)
legend = panels[0].legend(loc="lower left")
# --8<-- [end:page]
