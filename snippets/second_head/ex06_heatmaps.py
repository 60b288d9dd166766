from snippets.one_head.ex03_weights import weights
from snippets.one_head.ex05_heatmap import Figure, heatmap
from snippets.second_head.ex01_hand_set_head import w2

# --8<-- [start:page]
fig = Figure(figsize=(9, 4.6), layout="constrained")
ax1, ax2 = fig.subplots(1, 2)
heatmap(ax1, weights, "head 1 (random projections)")
heatmap(ax2, w2, "head 2 (reads the third coordinate)")
# fig.savefig("two_heads.svg") writes it to a file
# --8<-- [end:page]
