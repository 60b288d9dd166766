"""Pictures of runs: attention heatmaps and loss curves (matplotlib)."""

import matplotlib.pyplot as plt
import torch


def position_labels(x: torch.Tensor) -> list[str]:
    """Tick labels for one sequence x (T, 4): the largest k is starred."""
    largest = x[:, 1].argmax().item()
    return [f"{i}*" if i == largest else str(i) for i in range(x.shape[0])]


def heatmaps(rows: dict[str, torch.Tensor], labels: list[str]):
    """One heatmap per head (columns) per model state (rows).

    rows: name -> attention weights (heads, T, T) for one sequence.
    """
    n_cols = max(w.shape[0] for w in rows.values())
    fig, axes = plt.subplots(
        len(rows),
        n_cols,
        figsize=(3.2 * n_cols, 3.0 * len(rows)),
        squeeze=False,
    )
    for r, (name, weights) in enumerate(rows.items()):
        for h in range(n_cols):
            ax = axes[r][h]
            if h >= weights.shape[0]:
                ax.axis("off")
                continue
            ax.imshow(weights[h].numpy(), cmap="Blues", vmin=0, vmax=1)
            for i in range(weights.shape[1]):
                for j in range(weights.shape[2]):
                    w = weights[h, i, j].item()
                    colour = "white" if w > 0.5 else "black"
                    ax.text(j, i, f"{w:.2f}", ha="center", va="center",
                            fontsize=7, color=colour)  # fmt: skip
            ax.set_xticks(range(len(labels)), labels)
            ax.set_yticks(range(len(labels)), labels)
            ax.set_title(f"{name}: head {h + 1}", fontsize=10)
            ax.set_xlabel("attends to position", fontsize=8)
            ax.set_ylabel("position asking", fontsize=8)
    fig.tight_layout()
    return fig


def loss_curves(runs: dict[str, list]):
    """Training loss per step, one line per seed, one colour per model."""
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for (name, model_runs), colour in zip(
        runs.items(), ["C0", "C3"], strict=False
    ):
        for i, run in enumerate(model_runs):
            ax.plot(run.losses, color=colour, alpha=0.6, lw=1,
                    label=name if i == 0 else None)  # fmt: skip
    ax.set_yscale("log")
    ax.set_xlabel("training step")
    ax.set_ylabel("mean squared error (log scale)")
    ax.legend()
    fig.tight_layout()
    return fig
