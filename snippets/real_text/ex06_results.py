from snippets.real_text.sweep_results import sweep_results

# isort: split
# --8<-- [start:page]
import statistics

fields = sweep_results["fields"]
runs = [dict(zip(fields, run, strict=True)) for run in sweep_results["runs"]]


def runs_of(d_model, h):
    return [r for r in runs if r["d_model"] == d_model and r["heads"] == h]


def losses(d_model, h):
    """The validation loss of each seed, in nats per character."""
    return [r["validation loss"] for r in runs_of(d_model, h)]


def ms_per_step(d_model, h):
    """Timed after the sweep, all models in turn, one thread (the runs' own
    timings, taken two at a time on a shared machine, are noisier)."""
    timing = sweep_results["timing"]["ms per step"]
    return next(ms for d, heads, ms in timing if (d, heads) == (d_model, h))


def table(d_model):
    heads = sweep_results["settings"][f"width {d_model}"]["heads"]
    print(f"d_model = {d_model}   validation loss (nats per character)",
          "        ms per step")  # fmt: skip
    print("   h  d_head   mean ± sd      seeds 0 to 4")
    for h in heads:
        loss = losses(d_model, h)
        seeds = " ".join(f"{x:.3f}" for x in loss)
        print(f"{h:4} {d_model // h:7}   {statistics.mean(loss):.3f}",
              f"± {statistics.stdev(loss):.3f}   {seeds}",
              f"{ms_per_step(d_model, h):6.0f}")  # fmt: skip


table(64)
# --8<-- [end:page]
