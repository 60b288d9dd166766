"""The one wide head's answers against the targets: the lookup it learned,
and the lookup it misses."""

from snippets.training.ex01_task import torch
from snippets.training.ex05_train import held_out
from snippets.training.ex09_before_after import first  # seed 0

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure

N_SHOWN = 25  # held-out sequences drawn: 6 points each
x, y = held_out()
with torch.no_grad():
    guess = first.one.after(x[:N_SHOWN])[0]  # (25, T, 2): seed 0's wide head
target = y[:N_SHOWN]
learned = first.one.test_accuracy.argmax().item()  # 0: v[i-1], 1: v[max k]
lookups = ["the previous value v[i-1]", "the value at the largest key"]

fig = Figure(figsize=(7, 3.4), layout="constrained")
axes = fig.subplots(1, 2, sharey=True)
axes[0].set_ylabel("one head of width 4 answers")
for ax, out in zip(axes, [learned, 1 - learned], strict=True):
    ax.plot([-1, 1], [-1, 1], color="grey", lw=0.8, ls="--")  # right answers
    ax.scatter(target[..., out].flatten(), guess[..., out].flatten(),
               s=6, color="C3", alpha=0.6)  # fmt: skip
    verdict = "learned" if out == learned else "missed"
    ax.set_title(f"{lookups[out]}: {verdict}", fontsize=10)
    ax.set_xlabel("target")
    ax.set_aspect("equal")
# --8<-- [end:page]
