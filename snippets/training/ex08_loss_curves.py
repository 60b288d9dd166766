from snippets.training.ex07_run_seeds import outcomes

# isort: split
# --8<-- [start:page]
from matplotlib.figure import Figure

fig = Figure(figsize=(7, 3.5), layout="constrained")
ax = fig.subplots()
for o in outcomes:
    first = o.seed == 0  # one legend entry per model
    ax.plot(
        o.two.losses,
        color="C0",
        alpha=0.6,
        lw=1,
        label="two heads of width 2" if first else None,
    )
    ax.plot(o.one.losses, color="C3", alpha=0.6, lw=1,
            label="one head of width 4" if first else None)  # fmt: skip
ax.set_xlabel("training step")
ax.set_ylabel("mean squared error (log scale)")
ax.legend()
ax.set_yscale("log")
# --8<-- [end:page]
