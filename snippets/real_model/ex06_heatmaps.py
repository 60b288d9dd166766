from snippets.real_model.ex03_attend import attentions, sentences
from snippets.real_model.ex04_find_heads import best

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure


def draw_heads(tokens, weights, picks):
    """One heatmap per picked head: rows attend to columns."""
    fig = Figure(figsize=(4.2 * len(picks), 4.6), layout="constrained")
    axes = fig.subplots(1, len(picks))
    for ax, (name, (layer, head)) in zip(axes, picks.items(), strict=True):
        w = weights[layer, head].tolist()  # (T, T) as plain numbers
        ax.imshow(w, cmap="Blues", vmin=0, vmax=1, interpolation="none")
        ax.set_xticks(range(len(tokens)), tokens, rotation=90, fontsize=8)
        ax.set_yticks(range(len(tokens)), tokens, fontsize=8)
        ax.set_title(
            f"{name}\nlayer {layer + 1}, head {head + 1}", fontsize=10
        )
        ax.set_xlabel("attends to")
    axes[0].set_ylabel("token")
    return fig


picks = {
    "previous token": best["previous token"],
    "next token": best["next token"],
    "[CLS] sink": best["on [CLS]"],
}
tokens, weights = attentions(sentences[7])
fig = draw_heads(tokens, weights, picks)
# fig.savefig("heads.svg") writes it to a file
# --8<-- [end:page]
