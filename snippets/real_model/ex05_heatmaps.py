from pathlib import Path

from snippets.real_model.ex03_attend import attentions, sentences
from snippets.real_model.ex04_find_heads import best

# isort: split
# --8<-- [start:page]
import matplotlib.pyplot as plt


def draw_heads(tokens, weights, picks):
    """One heatmap per picked head: rows attend to columns."""
    fig, axes = plt.subplots(1, len(picks), figsize=(4.2 * len(picks), 4.4))
    for ax, (name, (layer, head)) in zip(axes, picks.items(), strict=True):
        ax.imshow(weights[layer, head].numpy(), cmap="Blues", vmin=0, vmax=1)
        ax.set_xticks(range(len(tokens)), tokens, rotation=90, fontsize=8)
        ax.set_yticks(range(len(tokens)), tokens, fontsize=8)
        ax.set_title(f"{name}\nlayer {layer}, head {head}", fontsize=10)
    fig.tight_layout()
    return fig


tokens, weights = attentions(sentences[7])
figure = draw_heads(tokens, weights, best)
# --8<-- [end:page]

FIGURE = (
    Path(__file__).parents[2] / "docs/assets/figures/real-model-heads.png"
)


def save(fig, path: Path = FIGURE) -> None:
    """Write the figure the page shows (a PNG without a timestamp)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80, metadata={"Software": None})
