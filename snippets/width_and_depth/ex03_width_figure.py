"""Each seed of each split of the width, as a dot: its accuracy on the two
lookups."""

from snippets.width_and_depth.ex02_width_rates import (
    ACCURATE,
    accurate,
    measured,
    names,
)

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure


def accuracy_panels(names):
    """One panel per design, one dot per seed: its accuracy on the previous
    value (across) and on the value at the largest key (up)."""
    fig = Figure(figsize=(2.1 * len(names), 2.6), layout="constrained")
    axes = fig.subplots(
        1, len(names), sharex=True, sharey=True, squeeze=False
    )
    for ax, name in zip(axes[0], names, strict=True):
        runs = measured[name]
        ax.axvline(ACCURATE, color="grey", lw=0.8, ls="--")
        ax.axhline(ACCURATE, color="grey", lw=0.8, ls="--")
        ax.plot(runs["previous"], runs["largest key"], "o", ms=3,
                color="C0", alpha=0.4)  # fmt: skip
        n = len(runs["previous"])
        ax.set_title(f"{name}: {accurate(name)[2]} of {n}", fontsize=9)
        ax.set_xlabel("accuracy, previous", fontsize=8)
        ax.set_xlim(0, 1.05)
        ax.set_ylim(0, 1.05)
    axes[0, 0].set_ylabel("accuracy, largest key", fontsize=8)
    return fig


fig = accuracy_panels(names)
# --8<-- [end:page]
