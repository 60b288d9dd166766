from snippets.attention_inputs import inputs
from snippets.one_head.ex01_projections import keys, queries, values
from snippets.one_head.ex03_weights import scores, weights
from snippets.one_head.ex04_context import context
from snippets.second_head.ex01_hand_set_head import (
    keys2,
    queries2,
    scores2,
    values2,
    w2,
)
from snippets.second_head.ex02_context import context2
from snippets.second_head.ex04_concatenate import concatenated
from snippets.second_head.ex05_output_projection import W_o, out

# isort: split
# --8<-- [start:page]
# --8<-- [start:pipeline]
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# Light fills, so that black text reads on every tile.
FILL = {
    "tokens": "#dcdcdc",  # a vector per token: input, concatenation, output
    "weight": "#ffffff",  # a weight matrix
    "Q": "#c6dbef",
    "K": "#c7e9c0",
    "V": "#dadaeb",
    "scores": "#fdd0a2",
    "context": "#fcbba1",
}


def box(ax, x, y, w, h, fill, **style):
    """A rounded rectangle with its bottom left corner at (x, y)."""
    rounded = "round,pad=0,rounding_size=0.04"
    ax.add_patch(FancyBboxPatch((x, y), w, h, rounded, fc=fill, **style))


def pipeline(title, steps, heads=()):
    """Multi-head attention as rows of tiles, one row per step, top to
    bottom, over one grey lane per head.

    steps: (label, kind, tiles) per row; a tile is (first lane, lanes it
    spans, text). heads: a name over each lane (or none).
    """
    n = max(first + span for *_, tiles in steps for first, span, _ in tiles)
    lines = max(label.count("\n") + 1 for label, *_ in steps)
    width, left, row = 9.0, 3.4, 0.32 + 0.12 * lines  # inches
    height = row * (len(steps) + 1 + bool(heads)) + 0.3
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1), xlim=(0, width), ylim=(0, height))
    ax.set_axis_off()  # x and y in inches from the bottom left
    lane = (width - left - 0.05) / n  # one lane's width
    pad = min(0.05, lane / 10)  # between neighbouring tiles
    y = height - 0.2 - row / 2  # the middle of the title's line
    ax.text(0.1, y + 0.1, title, fontsize=12, va="center", weight="bold")
    for c, name in enumerate(heads):
        x = left + (c + 0.5) * lane
        ax.text(x, y - row, name, fontsize=11, ha="center", va="center")
    y -= row * bool(heads)  # the steps start below the heads' names
    bottom = y - (len(steps) + 0.5) * row  # where the lanes end
    for c in range(n):
        x = left + c * lane + pad / 2
        box(ax, x, bottom, lane - pad, y - row / 2 - bottom, "#f0f0f0",
            ec="none", zorder=0)  # fmt: skip
    ax.add_patch(FancyArrowPatch(
        (left - 0.12, y - row / 2), (left - 0.12, bottom + 0.05),
        arrowstyle="-|>", mutation_scale=10, color="#777777",
    ))  # fmt: skip
    for label, kind, tiles in steps:
        y -= row  # the middle of this step's row
        ax.text(0.1, y, label, fontsize=11, va="center", linespacing=1.4)
        for first, span, text in tiles:
            x, w = left + first * lane + pad, span * lane - 2 * pad
            box(ax, x, y - 0.16, w, 0.32, FILL[kind], ec="#444444", lw=0.8)
            ax.text(x + w / 2, y, text, fontsize=10, ha="center", va="center")
    return fig


# --8<-- [end:pipeline]


def shape(t):
    return str(tuple(t.shape))  # torch.Size([6, 2]) -> "(6, 2)"


def both(t):  # one tile across the two heads' lanes
    return [(0, 2, shape(t))]


def each(one, two):  # a tile in each head's lane
    return [(0, 1, shape(one)), (1, 1, shape(two))]


steps = [
    ("input x", "tokens", both(inputs)),
    ("queries Q = x W_q", "Q", each(queries, queries2)),
    ("keys K = x W_k", "K", each(keys, keys2)),
    ("values V = x W_v", "V", each(values, values2)),
    ("scores Q Kᵀ", "scores", each(scores, scores2)),
    ("weights: softmax of scores / √d_k", "scores", each(weights, w2)),
    ("context: weights V", "context", each(context, context2)),
    ("concatenate the heads", "tokens", both(concatenated)),
    ("times W_o", "weight", both(W_o)),
    ("output", "tokens", both(out)),
]
t, d_model = inputs.shape
title = f"Two heads on t = {t} tokens of d_model = {d_model}"
fig = pipeline(title, steps, heads=["head 1", "head 2"])
# --8<-- [end:page]
