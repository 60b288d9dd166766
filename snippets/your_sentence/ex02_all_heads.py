"""The first example's 72 maps in one figure, for a reader without
JavaScript (the page shows it in place of the explorer)."""

from snippets.your_sentence.ex01_reference import run, text

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure


def draw_all(tokens, weights):
    """Every head's map, a row of heads per layer; rows attend to columns."""
    layers, heads = weights.shape[:2]
    fig = Figure(figsize=(12, 6.8), layout="constrained")
    axes = fig.subplots(layers, heads)
    for layer in range(layers):
        for head in range(heads):
            ax = axes[layer, head]
            w = weights[layer, head].tolist()  # (T, T) as plain numbers
            ax.imshow(w, cmap="Blues", vmin=0, vmax=1, interpolation="none")
            ax.set_xticks([])
            ax.set_yticks([])
            ax.set_title(f"layer {layer + 1} head {head + 1}", fontsize=6)
    fig.suptitle(" ".join(tokens), fontsize=9)
    return fig


tokens, weights, _ = run(text)
fig = draw_all(tokens, weights)
# --8<-- [end:page]
