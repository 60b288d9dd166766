from snippets.training.ex05_train import held_out, torch
from snippets.training.ex07_run_seeds import outcomes

# isort: split
# --8<-- [start:page]
# --8<-- [start:heatmaps]
from matplotlib.figure import Figure


def heatmaps(rows, x):
    """One panel per head (columns) per model state (rows of panels).

    rows: name -> weights (heads, T, T) for one sequence x (T, D_MODEL); every
    state has the same number of heads.
    """
    top = x[:, 1].argmax().item()  # the largest key feature gets a star
    labels = [f"{i}*" if i == top else str(i) for i in range(len(x))]
    n_cols = len(next(iter(rows.values())))  # heads per state
    fig = Figure(
        figsize=(3.2 * n_cols, 3.0 * len(rows)), layout="constrained"
    )
    axes = fig.subplots(len(rows), n_cols, squeeze=False)
    for r, (name, weights) in enumerate(rows.items()):
        for h, ax in enumerate(axes[r]):
            ax.imshow(weights[h].tolist(), cmap="Blues", vmin=0, vmax=1)
            for i, row in enumerate(weights[h].tolist()):
                for j, w in enumerate(row):  # dark cells get white text
                    colour = "white" if w > 0.5 else "black"
                    ax.text(j, i, f"{w:.2f}", ha="center", va="center",
                            fontsize=7, color=colour)  # fmt: skip
            ax.set_xticks(range(len(x)), labels)
            ax.set_yticks(range(len(x)), labels)
            ax.set_title(f"{name}: head {h + 1}", fontsize=10)
            ax.set_xlabel("attends to position", fontsize=8)
            ax.set_ylabel("position asking", fontsize=8)
    return fig


# --8<-- [end:heatmaps]


x_test, _ = held_out()
# the first held-out sequence whose largest key feature is at position 3
n = next(i for i, xi in enumerate(x_test) if xi[:, 1].argmax() == 3)
sample = x_test[n : n + 1]  # (1, T, D_MODEL)
first = outcomes[0]  # seed 0
with torch.no_grad():
    fig = heatmaps(
        {
            "before": first.two.before(sample)[1][0],  # (heads, T, T)
            "after": first.two.after(sample)[1][0],
        },
        sample[0],
    )
# --8<-- [end:page]
