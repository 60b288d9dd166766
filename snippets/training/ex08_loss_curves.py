from snippets.training.ex01_task import torch
from snippets.training.ex07_run_seeds import outcomes

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure


def every_10_steps(losses):
    """The mean loss of each 10 steps: a steadier line, and a lighter file."""
    return torch.tensor(losses).view(-1, 10).mean(dim=1).tolist()


fig = Figure(figsize=(7, 3.5), layout="constrained")
ax = fig.subplots()
steps = range(5, len(outcomes[0].two.losses), 10)  # the middle of each 10
for o in outcomes:
    first = o.seed == 0  # one legend entry per model
    two, one = every_10_steps(o.two.losses), every_10_steps(o.one.losses)
    ax.plot(
        steps,
        two,
        color="C0",
        alpha=0.6,
        lw=1,
        label="two heads of width 2" if first else None,
    )
    ax.plot(steps, one, color="C3", alpha=0.6, lw=1,
            label="one head of width 4" if first else None)  # fmt: skip
ax.set_xlabel("training step (mean over each 10)")
ax.set_ylabel("mean squared error (log scale)")
ax.legend()
ax.set_yscale("log")
# --8<-- [end:page]
