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


def accuracy_panels(designs, columns=5):
    """One panel per design (name -> field -> value per seed), one dot per
    seed: its accuracy on the previous value (across) and on the value at
    the largest key (up); rows of `columns` panels, each row full."""
    rows = -(-len(designs) // columns)  # rounded up
    fig = Figure(figsize=(2.1 * min(columns, len(designs)), 2.6 * rows),
                 layout="constrained")  # fmt: skip
    axes = fig.subplots(rows, min(columns, len(designs)), sharex=True,
                        sharey=True, squeeze=False).flatten()  # fmt: skip
    for ax, (name, runs) in zip(axes, designs.items(), strict=True):
        ax.axvline(ACCURATE, color="grey", lw=0.8, ls="--")
        ax.axhline(ACCURATE, color="grey", lw=0.8, ls="--")
        ax.plot(runs["previous"], runs["largest key"], "o", ms=3,
                color="C0", alpha=0.4)  # fmt: skip
        n = len(runs["previous"])
        ax.set_title(f"{name}: {accurate(runs)[2]} of {n}", fontsize=9)
        ax.set_xlabel("accuracy, previous", fontsize=8)
        ax.set_xlim(0, 1.05)
        ax.set_ylim(0, 1.05)
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel("accuracy, largest key", fontsize=8)
    return fig


fig = accuracy_panels({name: measured[name] for name in names})
# --8<-- [end:page]
