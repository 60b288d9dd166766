from snippets.real_text.ex06_results import losses, sweep_results

# isort: split
# --8<-- [start:page]
import statistics

from matplotlib.figure import Figure

settings = list(sweep_results["settings"].values())
fig = Figure(figsize=(7, 3.4), layout="constrained")
widths = [len(s["heads"]) + 0.5 for s in settings]  # a column per h
axes = fig.subplots(1, len(settings), sharey=True, width_ratios=widths)
axes[0].set_ylabel("validation loss (nats per character)")
for ax, setting in zip(axes, settings, strict=True):
    d_model, heads = setting["d_model"], setting["heads"]
    for place, h in enumerate(heads):
        loss = losses(d_model, h)
        mean, sd = statistics.mean(loss), statistics.stdev(loss)
        seeds = [place - 0.25 + 0.06 * s for s in range(len(loss))]
        ax.plot(seeds, loss, "o", color="C0", ms=4, alpha=0.7)  # each seed
        ax.errorbar(place + 0.25, mean, sd, fmt="_", color="C3", ms=10,
                    capsize=3)  # the mean, one sd either side  # fmt: skip
    ax.set_xticks(range(len(heads)), heads)
    ax.set_xlim(-0.6, len(heads) - 0.4)
    ax.set_xlabel(f"heads h, each of width {d_model} / h")
    ax.set_title(f"d_model = {d_model}")
# --8<-- [end:page]
