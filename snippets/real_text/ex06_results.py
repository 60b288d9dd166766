from snippets.real_text.sweep_results import sweep_results

# isort: split
# --8<-- [start:reading]
import statistics

fields = sweep_results["fields"]
runs = [dict(zip(fields, run, strict=True)) for run in sweep_results["runs"]]
timing = sweep_results["timing"]
speed = {(t[0], t[1]): dict(zip(timing["fields"], t, strict=True))
         for t in timing["models"]}  # fmt: skip


def losses(d_model, h):
    """The validation loss of each seed, in nats per character."""
    return [r["validation loss"] for r in runs
            if r["d_model"] == d_model and r["heads"] == h]  # fmt: skip


def ms_per_step(d_model, h):
    """CPU milliseconds per training step, one thread: about what a step
    takes on an idle core (the runs' wall times follow the machine's load)."""
    return speed[d_model, h]["CPU ms per step"]


def run_seconds(r):
    """One run on an idle core: its steps, the model built, the validation."""
    model = speed[r["d_model"], r["heads"]]
    rest = model["CPU seconds, rest of a run"]
    return rest + r["steps"] * model["CPU ms per step"] / 1000


def idle_minutes(cores, d_model=None):
    """How long the recorded runs (of one width, or all) would take on `cores`
    idle cores: each run, slowest first, on the first core that is free."""
    chosen = [r for r in runs if d_model in (None, r["d_model"])]
    seconds = sorted(map(run_seconds, chosen), reverse=True)
    busy = [0.0] * cores  # seconds of work given to each core so far
    for s in seconds:
        busy[busy.index(min(busy))] += s
    return max(busy) / 60


def timing_minutes():
    """The timing after the runs, on one idle core: in each round, every
    model trains for 1 step, then for 1 + timing["steps"] steps."""
    per_round = sum(2 * t["CPU seconds, rest of a run"]
                    + (timing["steps"] + 2) * t["CPU ms per step"] / 1000
                    for t in speed.values())  # fmt: skip
    return timing["rounds"] * per_round / 60


# --8<-- [end:reading]
# --8<-- [start:page]
def table(d_model):
    heads = sweep_results["settings"][f"width {d_model}"]["heads"]
    print(f"d_model = {d_model}: validation loss, nats per character")
    print("   h  d_head   mean ± sd      seeds 0 to 4",
          " " * 12, "CPU ms/step")  # fmt: skip
    for h in heads:
        loss = losses(d_model, h)
        each = " ".join(f"{x:.3f}" for x in loss)
        print(f"{h:4} {d_model // h:7}   {statistics.mean(loss):.3f}",
              f"± {statistics.stdev(loss):.3f}   {each}",
              f"{ms_per_step(d_model, h):7.0f}")  # fmt: skip


m = sweep_results["machine"]
print(f"make sweep, {m['date']}, {m['cpu']}, {m['cores']} cores:",
      f"{len(runs)} runs, {m['runs at once']} at a time,",
      f"{m['wall minutes']:.0f} minutes")  # fmt: skip
print(f"  load average {m['load average before']} before,",
      f"{m['load average after']} after")  # fmt: skip
before, after = timing["load average before"], timing["load average after"]
print(f"CPU ms/step: one thread, the median of {timing['rounds']} rounds",
      f"of {timing['steps']} steps, timed after the runs, load average",
      f"{before} before, {after} after")  # fmt: skip
print(f"on {m['cores']} idle cores: the runs about",
      f"{idle_minutes(m['cores']):.0f} minutes, the timing about",
      f"{timing_minutes():.0f} more")  # fmt: skip
print()
table(64)
# --8<-- [end:page]
