from snippets.real_text.sweep_results import sweep_results

# isort: split
# --8<-- [start:page]
import statistics

fields = sweep_results["fields"]
runs = [dict(zip(fields, run, strict=True)) for run in sweep_results["runs"]]


def losses(d_model, h):
    """The validation loss of each seed, in nats per character."""
    return [r["validation loss"] for r in runs
            if r["d_model"] == d_model and r["heads"] == h]  # fmt: skip


def ms_per_step(d_model, h):
    """Timed after the sweep, every model in turn, on one thread (the runs'
    own timings, two at a time on a shared machine, follow its load)."""
    timing = sweep_results["timing"]["ms per step"]
    return next(ms for d, heads, ms in timing if (d, heads) == (d_model, h))


def table(d_model):
    heads = sweep_results["settings"][f"width {d_model}"]["heads"]
    print(f"d_model = {d_model}: validation loss, nats per character")
    print("   h  d_head   mean ± sd      seeds 0 to 4", " " * 18, "ms/step")
    for h in heads:
        loss = losses(d_model, h)
        each = " ".join(f"{x:.3f}" for x in loss)
        print(f"{h:4} {d_model // h:7}   {statistics.mean(loss):.3f}",
              f"± {statistics.stdev(loss):.3f}   {each}",
              f"{ms_per_step(d_model, h):7.0f}")  # fmt: skip


m, timing = sweep_results["machine"], sweep_results["timing"]
print(f"make sweep, {m['date']}, {m['cpu']}, {m['cores']} cores:",
      f"{len(runs)} runs, {m['runs at once']} at a time,",
      f"{m['wall minutes']:.0f} minutes")  # fmt: skip
print(f"  load average {m['load average before']} before,",
      f"{m['load average after']} after")  # fmt: skip
print(
    f"ms/step: median of {timing['rounds']} rounds of {timing['steps']}",
    f"steps per model, one thread, load average {timing['load average']}",
)
print()
table(64)
# --8<-- [end:page]
