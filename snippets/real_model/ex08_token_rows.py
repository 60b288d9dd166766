from snippets.real_model.ex07_one_token import it, layer, rows, tokens, top

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure

# one head per distinct answer: the head that gives that token the most weight
picked = [rows[:, j].argmax().item() for j in top.unique().tolist()]
shown = rows[picked].tolist()  # (3, T): three rows of attention weights

fig = Figure(figsize=(10, 2.8), layout="constrained")
ax = fig.subplots()
ax.imshow(shown, cmap="Blues", vmin=0, vmax=1, interpolation="none")
ax.set_xticks(range(len(tokens)), tokens, rotation=45, ha="right")
ax.set_yticks(range(len(picked)), [f"head {h + 1}" for h in picked])
ax.set_title(
    f'where "{tokens[it]}" looks, in three heads of layer {layer + 1}'
)
for i, row in enumerate(shown):
    for j, value in enumerate(row):  # dark cells get white text
        colour = "white" if value > 0.5 else "black"
        ax.text(j, i, f"{value:.2f}", ha="center", va="center",
                color=colour, fontsize=8)  # fmt: skip
# --8<-- [end:page]
