"""The 72 single-head removals as a 6 x 12 heatmap."""

from snippets.ablation.ex06_one_head_columns import known_heads
from snippets.ablation.ex07_single_heads import change

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

fig = Figure(figsize=(9, 4.4), layout="constrained")
ax = fig.subplots()
image = ax.imshow(change.tolist(), cmap="Blues", vmin=0)
for layer, row in enumerate(change.tolist()):
    for head, c in enumerate(row):  # dark cells get white text
        colour = "white" if c > change.max() / 2 else "black"
        ax.text(head, layer, f"{c:.3f}", ha="center", va="center",
                fontsize=7, color=colour)  # fmt: skip
found = []  # the heads the real-model page found get an orange frame
for name, (layer, head) in known_heads.items():
    corner = (head - 0.5, layer - 0.5)
    ax.add_patch(Rectangle(corner, 1, 1, fill=False, ec="C1", lw=2.5))
    found.append(f"{name} (layer {layer + 1}, head {head + 1})")
n_layers, n_heads = change.shape  # labelled counting from 1
ax.set_xticks(range(n_heads), range(1, n_heads + 1))
ax.set_yticks(range(n_layers), range(1, n_layers + 1))
ax.set_xlabel("head\n\nframed: " + ", ".join(found))
ax.set_ylabel("layer")
ax.set_title("How far the embeddings move when one head is removed "
             "(1 - cosine similarity)", fontsize=10)  # fmt: skip
colorbar = fig.colorbar(image, ax=ax, shrink=0.8)
# --8<-- [end:page]
