"""The real-text page's sweep: small character-level models, trained from
scratch on Python's documentation topics, for each number of heads and seed.

    make sweep        (or: python -m experiments.head_sweep)

For each setting in SETTINGS (a width, and the numbers of heads h tried at that
width, d_head = d_model / h) and each seed in SEEDS, this trains the page's
model with the page's own `train` (snippets/real_text/ex04_train.py) and records
its validation loss and the mean training loss of its first 100 steps (the
suite trains one run's first 100 steps again and checks that record). Runs go
two at a time (`--jobs`), one thread each. Then it times a training step of
every model, round after round, all models in each round (`time_steps`): the
runs' own timings are kept too, but on a shared machine they say more about the
load of the moment than about the model.

The records go to snippets/real_text/sweep_results.py, a Python literal that
the page includes and prints its tables from, keyed on a hash of the code that
produced them (`code_key`): tests/test_real_text.py fails while the key is
stale. Each finished run is also saved under .cache/real_text/ (keyed on
`runs_key`), so that an interrupted sweep picks up where it stopped. The
"machine" entry describes the invocation that trained every run, and is kept by
an invocation that only retimes; after a resumed sweep it says how many runs
were trained in it, and the suite fails (delete .cache/real_text/ for a full,
timed sweep). About 27 minutes on two idle cores (the page estimates it from
the CPU time per step recorded), far longer on a busy machine.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import torch

from experiments import format_like_snippets

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "real_text" / "sweep_results.py"
CACHE = ROOT / ".cache" / "real_text"
MODULE = "snippets.real_text.ex04_train"  # the code the runs come from
SEEDS = range(5)
SETTINGS = {  # a width, and the numbers of heads tried at that width
    "width 64": {"d_model": 64, "heads": (1, 2, 4, 8, 16)},
    "width 128": {"d_model": 128, "heads": (1, 2)},
}
CHECKED_STEPS = 100  # the suite retrains this many steps of one run
GOAL_MINUTES = 30  # make sweep on two idle cores, at most (issue 28)
TIMING = {  # time_steps: rounds of steps per model, and what it records of each
    "rounds": 5,
    "steps": 30,
    "fields": (
        "d_model",
        "heads",
        "wall ms per step",
        "CPU ms per step",
        "CPU seconds, rest of a run",
    ),
}
FIELDS = (
    "d_model",
    "context",
    "heads",
    "seed",
    "steps",
    "validation loss",
    "ms per step",
    f"mean loss, first {CHECKED_STEPS} steps",
    "seconds",
)
HEADER = '''\
"""Written by `make sweep` (experiments/head_sweep.py): the real-text page's
character-level models, trained from scratch on Python's documentation topics
for each width, number of heads and seed. "runs": one tuple per run, its
fields named in "fields": the steps trained, the validation loss in nats per
character, the milliseconds per training step (one thread, two runs at a time
on the machine in "machine", which others shared), the mean training loss of
the first 100 steps (which the suite checks by training them again) and the
run's wall time in seconds. "timing": a training step of each (d_model, h),
timed after the runs, in rounds in which every model trains in turn on one
thread: the medians of its wall and CPU milliseconds, and the CPU seconds of
the rest of a run (building the model, the validation loss)."""
'''


def corpus_key() -> str:
    """The corpus is part of the code: another Python ships other topics."""
    from snippets.real_text.ex01_corpus import text

    return hashlib.sha256(text.encode()).hexdigest()[:16]


def runs_key() -> str:
    """The runs' key: torch's version, the page's training code and all it
    imports, the corpus, and this file's code that trains and records."""
    from snippets import sources_key

    digest = hashlib.sha256(torch.__version__.encode())
    digest.update(sources_key(MODULE).encode())
    digest.update(corpus_key().encode())
    measuring = inspect.getsource(measure) + repr((SEEDS, SETTINGS, FIELDS))
    digest.update(measuring.encode())
    return digest.hexdigest()[:16]


def code_key() -> str:
    """The records' key: the runs' key, and the code that times the steps."""
    timing = inspect.getsource(time_steps) + repr(TIMING)
    return hashlib.sha256((runs_key() + timing).encode()).hexdigest()[:16]


def measure(d_model: int, heads: int, seed: int) -> tuple:
    """One run's record, as sweep_results.py holds it (FIELDS)."""
    from snippets.real_text.ex02_model import Config
    from snippets.real_text.ex04_train import train

    config = Config(num_heads=heads, d_model=d_model)
    start = time.perf_counter()
    losses, val_loss, ms_per_step = train(config, seed)
    first = statistics.fmean(losses[:CHECKED_STEPS])
    seconds = time.perf_counter() - start
    return (d_model, config.context, heads, seed, len(losses),
            round(val_loss, 5), round(ms_per_step, 1), round(first, 6),
            round(seconds))  # fmt: skip


def saved_measure(job: tuple[int, int, int]) -> tuple[tuple, bool]:
    """`measure`, saved under .cache/real_text/ and keyed on the code: the
    record, and whether it was trained now."""
    path = CACHE / f"{runs_key()}-{'-'.join(map(str, job))}.json"
    if path.exists():
        return tuple(json.loads(path.read_text(encoding="utf-8"))), False
    torch.set_num_threads(1)
    record = measure(*job)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(record), encoding="utf-8")
    partial.replace(path)  # atomic: nobody reads half a file
    return record, True


def time_steps() -> list[tuple]:
    """TIMING["fields"] of every model: the medians of TIMING["rounds"] rounds,
    in each of which every model trains in turn. A run of 1 step and a run of
    1 + TIMING["steps"] steps: the CPU time of their difference is the steps'
    (time.process_time, one thread: what a step costs the core it runs on,
    which is about what it takes on an idle machine, however busy this one is);
    the run of one step is the rest of a run (the model built, the validation
    loss). The wall time per step is train's own, and follows the load."""
    from snippets.real_text.ex02_model import Config
    from snippets.real_text.ex04_train import train

    models = [(s["d_model"], h) for s in SETTINGS.values() for h in s["heads"]]
    samples = {model: [] for model in models}
    steps = TIMING["steps"]
    for _ in range(TIMING["rounds"]):
        for d_model, h in models:
            config = Config(num_heads=h, d_model=d_model)
            start = time.process_time()
            train(config, 0, 1)
            rest = time.process_time()
            wall = train(config, 0, 1 + steps)[2]
            done = time.process_time()
            cpu = 1000 * ((done - rest) - (rest - start)) / steps
            samples[d_model, h].append((wall, cpu, rest - start))
    medians = []
    for model in models:
        columns = zip(*samples[model], strict=True)  # wall, CPU, rest
        wall, cpu, rest = (statistics.median(column) for column in columns)
        medians.append((*model, round(wall, 1), round(cpu, 1), round(rest, 2)))
    return medians


def jobs() -> list[tuple[int, int, int]]:
    """(d_model, heads, seed) of every run, the slowest first."""
    runs = [(s["d_model"], h, seed) for s in SETTINGS.values()
            for h in s["heads"] for seed in SEEDS]  # fmt: skip
    return sorted(runs, key=lambda r: (-r[0], -r[1], r[2]))


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def write(results: dict, path: Path) -> None:
    lines = [HEADER, "sweep_results = {"]
    for key in ("code", "runs key", "corpus", "machine", "timing", "settings",
                "fields"):  # fmt: skip
        lines.append(f"    {key!r}: {results[key]!r},")
    lines.append('    "runs": [')
    lines += [f"        {run!r}," for run in results["runs"]]
    lines += ["    ],", "}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    format_like_snippets(path)


def machine(trained: int, minutes: float, load_before: float, at_once: int) -> dict:
    """Where and how the runs were trained. An invocation that trained none
    keeps the entry of the one that trained them all (saved beside the runs,
    or found in the records it rewrites)."""
    saved = CACHE / f"{runs_key()}-machine.json"
    if trained == 0 and saved.exists():
        return json.loads(saved.read_text(encoding="utf-8"))
    if trained == 0 and OUTPUT.exists():
        namespace: dict = {}
        exec(OUTPUT.read_text(encoding="utf-8"), namespace)
        previous = namespace["sweep_results"]
        if runs_key() in (previous.get("runs key"), previous["code"]):
            return previous["machine"]
    from snippets.training.ex07_run_seeds import KERNEL_SETTINGS

    entry = {
        "cpu": cpu_model(),
        "kernels": {k: os.environ.get(k) for k in KERNEL_SETTINGS},  # None: unset
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cores": os.cpu_count(),
        "runs at once": at_once,
        "threads per run": 1,
        "load average before": round(load_before, 1),
        "load average after": round(os.getloadavg()[0], 1),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "runs trained": trained,
        "wall minutes": round(minutes, 1),
    }
    if trained == len(jobs()):  # a full sweep: its entry is the runs'
        saved.write_text(json.dumps(entry), encoding="utf-8")
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    todo = jobs()
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    code_key()  # imports the page's code (and encodes the corpus) once, here:
    # the workers are forked from this process and start with it imported
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(pool.map(saved_measure, todo))
    minutes = (time.perf_counter() - start) / 60
    runs = sorted(record for record, _ in done)
    trained = sum(now for _, now in done)
    where = machine(trained, minutes, load_before, args.jobs)
    print(f"{len(runs)} runs ({trained} trained now) in {minutes:.1f} minutes;",
          "timing a step of each model")  # fmt: skip
    load, timed = os.getloadavg()[0], time.perf_counter()
    timing = {
        **TIMING,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "load average before": round(load, 1),
        "models": time_steps(),
        "load average after": round(os.getloadavg()[0], 1),
        "wall minutes": round((time.perf_counter() - timed) / 60, 1),
    }
    results = {
        "code": code_key(),
        "runs key": runs_key(),
        "corpus": corpus_key(),
        "machine": where,
        "timing": timing,
        "settings": SETTINGS,
        "fields": FIELDS,
        "runs": runs,
    }
    write(results, args.output)
    print(f"wrote {args.output.relative_to(ROOT)}; the page will print:")
    if args.output == OUTPUT:  # the page's own reading of the new records
        from snippets.real_text import ex06_results as page

        idle = page.idle_minutes(where["cores"]) + page.timing_minutes()
        print(f"make sweep on {where['cores']} idle cores, estimated: about",
              f"{idle:.0f} minutes (the goal: {GOAL_MINUTES} at most)")  # fmt: skip


if __name__ == "__main__":
    main()
