from snippets.attention_inputs import tokens
from snippets.one_head.ex03_weights import weights

# isort: split
# --8<-- [start:page]
# --8<-- [start:heatmap]
from matplotlib.figure import Figure


def heatmap(ax, w, title):
    """One head's (6, 6) weights: row = query token, column = key token."""
    rows = w.tolist()  # plain numbers: a list of six rows
    # the same colour scale, 0 to 1, for every head
    ax.imshow(rows, cmap="Blues", vmin=0, vmax=1, interpolation="none")
    ax.set_xticks(range(len(tokens)), tokens, rotation=45, ha="right")
    ax.set_yticks(range(len(tokens)), tokens)
    ax.set_xlabel("attends to (key)")
    ax.set_ylabel("token (query)")
    ax.set_title(title)
    for i, row in enumerate(rows):
        for j, value in enumerate(row):  # dark cells get white text
            colour = "white" if value > 0.5 else "black"
            label = f"{value:.2f}"
            ax.text(j, i, label, ha="center", va="center", color=colour)


# --8<-- [end:heatmap]


fig = Figure(figsize=(4.6, 4.6), layout="constrained")
heatmap(fig.subplots(), weights, "head 1: every row of weights")
# --8<-- [end:page]
