"""Every design at its own best settings: the fair fight.

    make tune        (or: python -m experiments.fair_fight)

The training page chose its learning rate (0.1) for two heads of width 2, and
`make seeds` trains every design with it. A design tuned for nobody may lose
for want of its own rate, so this script gives each design of
`fresh_seeds.designs()` its own:

1. Tuning, on TUNING_SEEDS, which no page reports: each design at every rate
   in RATES for the page's 800 steps, then at the best of those for LONG
   steps (twice as many). The rule was fixed before anything ran (`best`):
   the highest median, over the tuning seeds, of the accuracy on the
   design's worse lookup; among the settings within TIE of that, the lowest
   median test MSE (the loss it trains on).
2. Evaluation: each design at its best, on the 100 fresh seeds of
   `fresh_seeds.SEEDS`: its accuracy on the two lookups and its test MSE.
3. The separate-numbers task (snippets/width_and_depth/ex02b): 1 x 4, 1 x 8
   and 2 x 2 at the page's settings on SEPARATE_SEEDS.

Every run is the training page's `train_model`'s, to the last bit: the seeds
of a design are trained GROUP at a time by `together.train`, which checks
that. Each is saved under .cache/training/ like `make seeds`'s (a run at the
page's own settings is the same file), and the records go to
snippets/width_and_depth/tuned_results.py, keyed on the code (`code_key`).
About 32 minutes on two cores from nothing (every design chose 1600 steps,
which doubles the evaluation; one seed at a time it took 40), seconds once
the runs are saved.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from experiments import format_like_snippets, fresh_seeds, together
from snippets.training.ex05_train import STEPS

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "width_and_depth" / "tuned_results.py"
TUNING_SEEDS = range(3000, 3008)  # no page reports them
RATES = (0.01, 0.03, 0.1, 0.3)  # Adam's learning rate, a decade and a half
LONG = 2 * STEPS  # tried at each design's best rate: the page's steps, twice
TIE = 0.01  # medians of the worse lookup this close are a tie
SEPARATE = ("1 x 4", "1 x 8", "2 x 2")
SEPARATE_SEEDS = range(2000, 2020)
GROUP = 20  # seeds trained together: 16 or more run about as fast per seed
MODULE = "snippets.width_and_depth.ex02b_separate_numbers"
HEADER = '''\
"""Written by `make tune` (experiments/fair_fight.py): every design of the
page Heads against width and depth at its own best settings. "tuning": for
each design and setting (learning rate, steps), the median over the tuning
seeds of its accuracy on its worse lookup and of its test MSE. "best": the
setting the rule picked. "designs": each design trained at its best on the
fresh seeds, a value per seed, in the order of the seeds: its accuracy on
the two lookups and its test MSE. "separate numbers": the task with its two
values in two input numbers, at the training page's settings."""


def per_seed(text):
    """A field's values, one per seed in the seeds' order, from its lines."""
    return tuple(float(value) for value in text.split())

'''


def code_key() -> str:
    """The records' key: the training code and models (fresh_seeds'), the
    separate-numbers task, and this file's code that measures."""
    from snippets import sources_key

    digest = hashlib.sha256(fresh_seeds.code_key().encode())
    digest.update(sources_key(MODULE).encode())
    functions = [measure, separate_design, best, tune_summary, together.train,
                 together.same, together.stacked, together._fit]  # fmt: skip
    digest.update("".join(inspect.getsource(f) for f in functions).encode())
    settings = (TUNING_SEEDS, RATES, LONG, TIE, SEPARATE, SEPARATE_SEEDS)
    digest.update(repr(settings).encode())
    return digest.hexdigest()[:16]


class _Unsaved(Exception):
    """A run that is not in the cache yet."""


def _unsaved(*args, **settings):
    raise _Unsaved


def separate_design(name: str):
    """The model maker of the design `name` ("1 x 4", one of SEPARATE) for
    the separate-numbers task, and that task."""
    from snippets.training.ex03_model import Attention
    from snippets.width_and_depth.ex02b_separate_numbers import (
        D_SEPARATE,
        separate_numbers,
    )

    h, d_head = (int(n) for n in name.split(" x "))

    def make():
        return Attention(h, d_head, d_model=D_SEPARATE)

    return make, separate_numbers


def measure(job: tuple) -> list[tuple]:
    """(design, seeds, lr, steps, task) -> for each seed, the accuracy on the
    previous value, on the value at the largest key, and the test MSE. Runs
    saved under .cache/training/ are loaded; the rest are trained together
    (`together.train`: the same runs as train_model's, to the last bit) and
    saved."""
    from snippets.training.ex01_task import make_batch
    from snippets.training.ex07_run_seeds import saved_training

    name, seeds, lr, steps, task = job
    torch.set_num_threads(1)
    if task == "separate":
        from snippets.training.ex05_train import LR

        make, task = separate_design(name)
        module, lr = MODULE, LR

        def saving(train, seed):  # the call, and so the file, as before
            return saved_training(train, module)(make, seed, task=task)
    else:
        module, task = fresh_seeds.MODULES[-1], make_batch
        make = fresh_seeds.designs()[name]

        def saving(train, seed):
            return saved_training(train, module)(make, seed, steps, lr=lr)

    runs = {}
    for seed in seeds:
        try:
            runs[seed] = saving(_unsaved, seed)
        except _Unsaved:
            pass
    unsaved = [seed for seed in seeds if seed not in runs]
    trained = []
    if unsaved:
        trained = together.train(make, unsaved, steps, lr, task=task)
    for seed, run in zip(unsaved, trained, strict=True):
        runs[seed] = saving(lambda *args, run=run, **settings: run, seed)
    return [
        (round(p, 3), round(k, 3), round(runs[seed].test_mse, 5))
        for seed in seeds
        for p, k in [runs[seed].test_accuracy.tolist()]
    ]


def tune_summary(results: list[tuple]) -> tuple[float, float]:
    """Over the tuning seeds: the median accuracy on the worse lookup, and the
    median test MSE."""
    worse = statistics.median(min(p, k) for p, k, _ in results)
    return round(worse, 4), round(statistics.median(m for *_, m in results), 6)


def best(summaries: dict) -> tuple:
    """The rule, fixed before the runs: the highest median accuracy on the
    worse lookup; among the settings within TIE of it, the lowest median test
    MSE. summaries: setting -> (median worse accuracy, median test MSE)."""
    top = max(worse for worse, _ in summaries.values())
    near = [s for s, (worse, _) in summaries.items() if worse >= top - TIE]
    return min(near, key=lambda s: summaries[s][1])


def run_all(jobs: list[tuple], pool) -> dict:
    """jobs: (design, seed, lr, steps, task) -> its record. The seeds of one
    design and setting go to the workers in groups of GROUP, each group
    trained together."""
    groups = {}
    for name, seed, *setting in jobs:
        groups.setdefault((name, *setting), []).append(seed)
    batches = [(name, seeds[i : i + GROUP], *setting)
               for (name, *setting), seeds in groups.items()
               for i in range(0, len(seeds), GROUP)]  # fmt: skip
    done = {}
    for (name, seeds, *setting), records in zip(
        batches, pool.map(measure, batches, chunksize=1), strict=True
    ):
        for seed, record in zip(seeds, records, strict=True):
            done[(name, seed, *setting)] = record
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    fresh_seeds.under_kernels("experiments.fair_fight")
    key, started = code_key(), time.monotonic()
    names = list(fresh_seeds.designs())
    steps = STEPS
    spawn = multiprocessing.get_context("spawn")  # forked workers hung on a lock
    with ProcessPoolExecutor(args.jobs, mp_context=spawn) as pool:
        jobs = [(n, s, lr, steps, "page") for n in names for lr in RATES
                for s in TUNING_SEEDS]  # fmt: skip
        done = run_all(jobs, pool)
        tuning = {n: {} for n in names}
        for name in names:
            for lr in RATES:
                runs = [done[(name, s, lr, steps, "page")] for s in TUNING_SEEDS]
                tuning[name][(lr, steps)] = tune_summary(runs)
        jobs = [(n, s, best(tuning[n])[0], LONG, "page") for n in names
                for s in TUNING_SEEDS]  # fmt: skip
        done = run_all(jobs, pool)
        for name in names:
            lr = best(tuning[name])[0]
            runs = [done[(name, s, lr, LONG, "page")] for s in TUNING_SEEDS]
            tuning[name][(lr, LONG)] = tune_summary(runs)
        chosen = {n: best(tuning[n]) for n in names}
        print("best:", chosen, flush=True)
        jobs = [(n, s, *chosen[n], "page") for n in names
                for s in fresh_seeds.SEEDS]  # fmt: skip
        jobs += [(n, s, None, steps, "separate") for n in SEPARATE
                 for s in SEPARATE_SEEDS]  # fmt: skip
        done = run_all(jobs, pool)
    evaluated = {
        n: [done[(n, s, *chosen[n], "page")] for s in fresh_seeds.SEEDS] for n in names
    }
    separate = {
        n: [done[(n, s, None, steps, "separate")] for s in SEPARATE_SEEDS]
        for n in SEPARATE
    }
    write(args.output, key, tuning, chosen, evaluated, separate)
    print(f"{args.output.relative_to(ROOT)}: {len(names)} designs,",
          f"{time.monotonic() - started:.0f} s")  # fmt: skip


FIELDS = ("previous", "largest key", "test mse")


def _values(lines: list, indent: str, field: str, values: list) -> None:
    digits, per_line = (5, 7) if field == "test mse" else (3, 8)  # 78 columns
    lines.append(f'{indent}"{field}": per_seed("""')
    for i in range(0, len(values), per_line):
        row = " ".join(f"{v:.{digits}f}" for v in values[i : i + per_line])
        lines.append(f"{indent}    {row}")
    lines.append(f'{indent}"""),')


def write(path, key, tuning, chosen, evaluated, separate) -> None:
    seeds = fresh_seeds.SEEDS
    lines = [HEADER, "# fmt: off", "tuned_results = {"]
    lines.append(f'    "code": "{key}",  # its code_key()')
    lines.append(f'    "seeds": ({seeds.start}, {seeds.stop}),  # range(start, stop)')
    lines.append(f'    "tuning seeds": ({TUNING_SEEDS.start}, {TUNING_SEEDS.stop}),')
    lines.append(f'    "rates": {RATES!r},')
    lines.append(f'    "steps": ({STEPS}, {LONG}),  # at every rate, then at the best')
    lines.append(f'    "tie": {TIE!r},  # the rule\'s margin on the worse lookup')
    lines += fresh_seeds.made_lines(fresh_seeds.machine())
    lines.append('    "tuning": {  # design -> (lr, steps) -> its two medians')
    for name, settings in tuning.items():
        lines.append(f'        "{name}": {{')
        for setting, summary in settings.items():
            lines.append(f"            {setting!r}: {summary!r},")
        lines.append("        },")
    lines.append("    },")
    lines.append('    "best": {  # design -> (lr, steps)')
    lines += [f'        "{n}": {s!r},' for n, s in chosen.items()]
    lines.append("    },")
    lines.append('    "designs": {  # design at its best -> field -> value per seed')
    for name, runs in evaluated.items():
        lines.append(f'        "{name}": {{')
        for i, field in enumerate(FIELDS):
            _values(lines, "            ", field, [r[i] for r in runs])
        lines.append("        },")
    lines.append("    },")
    start, stop = SEPARATE_SEEDS.start, SEPARATE_SEEDS.stop
    lines.append(f'    "separate seeds": ({start}, {stop}),  # range(start, stop)')
    lines.append('    "separate numbers": {  # design -> field -> value per seed')
    for name, runs in separate.items():
        lines.append(f'        "{name}": {{')
        for i, field in enumerate(FIELDS[:2]):
            _values(lines, "            ", field, [r[i] for r in runs])
        lines.append("        },")
    lines += ["    },", "}", "# fmt: on", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    format_like_snippets(path)


if __name__ == "__main__":
    main()
