"""The staircase of the page "How many heads does a task need?": for every task
of k lookups at once and every design of h heads at one total width, how often
training finds all k lookups, each cell at its own best learning rate.

    make staircase        (or: python -m experiments.staircase)

Writes snippets/how_many_heads/staircase_results.py. Under the records' kernels
(fresh_seeds.KERNELS), on every core, in three parts:

1. Tuning, on seeds no page reports (fair_fight.TUNING_SEEDS): every cell at
   every rate of fair_fight.RATES, 800 steps. The rule, fixed before any
   evaluation seed ran, is the fair fight's (`fair_fight.best`): the highest
   median accuracy on the cell's worst lookup, ties within fair_fight.TIE
   going to the lowest median test MSE.
2. Evaluation, every cell at its best rate, on the fresh seeds: SEEDS (100) on
   the diagonal h = k, the first OFF_DIAGONAL (50) of them elsewhere.
3. The suite's sample (CHECKED): a few cells' first seed, and the seeds the
   page takes apart, trained again alone
   by the training page's own `train_model`, once as it is and once with every
   initial weight one ulp up (nudge_spread.nudged), into CHECKED_FILE: what the
   suite retrains, and the spread its comparison allows (`compare`, by
   nudge_spread's rule: each number within MULTIPLE times the nudge's gap, or
   one unit of the record's last digit; each of the first EARLY losses within
   MULTIPLE times the nudge's gap up to that step).

Every run trains many seeds at once (`train_seeds` on the page), which moves
each seed's weights as training it alone does. Keyed on the code it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import inspect
import io
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from experiments import fair_fight, format_like_snippets, fresh_seeds, nudge_spread

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "how_many_heads" / "staircase_results.py"
CHECKED_FILE = ROOT / "tests" / "data" / "staircase_checked.json"
MODULE = "snippets.how_many_heads.ex04_many_seeds"
SEEDS = fresh_seeds.SEEDS  # 2000-2099: on the diagonal
OFF_DIAGONAL = 50  # seeds per cell off the diagonal: the first 50 of SEEDS
CHUNK = 25  # seeds trained together in one job
CHECKED = (  # (k, h, seed): the diagonal, one cell below it, and the page's
    (1, 1, 2000), (2, 2, 2000), (3, 3, 2000), (4, 4, 2000), (2, 1, 2000),
    (4, 3, 2007), (4, 3, 2011),  # the two seeds of 3 heads that learned 4
)  # fmt: skip
HEADER = '''\
"""Written by `make staircase` (experiments/staircase.py): tasks of k lookups
at once against designs of h heads at one total width. "cells": for each
(k, h), "tuning": the median over the tuning seeds, at each learning rate, of
the accuracy on the worst of the k lookups and of the test MSE; "lr": the
rate the rule picked; then, trained at that rate on the fresh seeds, a value
per seed in the seeds' order: the accuracy on each lookup and the test MSE."""


def per_seed(text):
    """A field's values, one per seed in the seeds' order, from its lines."""
    return tuple(float(value) for value in text.split())

'''


def cells() -> list[tuple[int, int]]:
    from snippets.how_many_heads.ex02_designs import HEADS, KS

    return [(k, h) for k in KS for h in HEADS]


def seeds_of(k: int, h: int) -> range:
    return SEEDS if k == h else SEEDS[:OFF_DIAGONAL]


def code_key() -> str:
    """The record's key: the snippets the runs import, this file's measuring
    code and its settings, and the rule it shares with the fair fight."""
    from snippets import sources_key

    digest = hashlib.sha256(sources_key(MODULE).encode())
    functions = [train_job, alone_job, summary, fair_fight.best, nudge_spread.nudged]
    digest.update("".join(inspect.getsource(f) for f in functions).encode())
    settings = (SEEDS, OFF_DIAGONAL, CHECKED, fair_fight.TUNING_SEEDS,
                fair_fight.RATES, fair_fight.TIE)  # fmt: skip
    digest.update(repr(settings).encode())
    return digest.hexdigest()[:16]


def _quietly():
    """The snippets print their examples when imported: not here."""
    return contextlib.redirect_stdout(io.StringIO())


def train_job(job: tuple) -> list[tuple]:
    """(k, h, lr, seeds) -> for each seed, its accuracy on each lookup (3
    decimals) and its test MSE (5)."""
    torch.set_num_threads(1)
    with _quietly():
        from snippets.how_many_heads.ex01_tasks import lookups_task
        from snippets.how_many_heads.ex02_designs import design
        from snippets.how_many_heads.ex04_many_seeds import train_seeds
    k, h, lr, seeds = job
    accuracy, mse = train_seeds(design(h, k), list(seeds), lookups_task(k), lr=lr)
    rows = zip(accuracy.tolist(), mse.tolist(), strict=True)
    return [(*(round(a, 3) for a in row), round(m, 5)) for row, m in rows]


def alone_job(job: tuple) -> dict:
    """(k, h, lr, seed, nudge) -> "record": train_model's accuracy on each
    lookup and its test MSE, at full precision; "early": its first EARLY
    losses (nudge_spread.f32): the seed trained alone, as the page's training
    does, from its start or from its start one ulp up."""
    torch.set_num_threads(1)
    with _quietly():
        from snippets.how_many_heads.ex01_tasks import lookups_task
        from snippets.how_many_heads.ex02_designs import design
        from snippets.training.ex05_train import train_model
    k, h, lr, seed, nudge = job
    make = design(h, k)
    start = (lambda: nudge_spread.nudged(make())) if nudge else make
    run = train_model(start, seed, lr=lr, task=lookups_task(k))
    early = nudge_spread.f32(run.losses[: nudge_spread.EARLY])
    return {"record": [*run.test_accuracy.tolist(), run.test_mse], "early": early}


def summary(runs: list[tuple]) -> tuple[float, float]:
    """Over the tuning seeds: the median accuracy on the worst lookup, and
    the median test MSE."""
    worst = statistics.median(min(run[:-1]) for run in runs)
    return round(worst, 4), round(statistics.median(run[-1] for run in runs), 6)


def cost(job: tuple) -> int:
    """A job's rough cost, to start the longest first: heads and seeds."""
    return (3 + job[1]) * len(job[3])


def chunks(seeds: range) -> list[range]:
    return [seeds[i : i + CHUNK] for i in range(0, len(seeds), CHUNK)]


def run_all(pool, jobs: list[tuple]) -> dict:
    ordered = sorted(jobs, key=cost, reverse=True)
    return dict(zip(ordered, pool.map(train_job, ordered, chunksize=1), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--again", action="store_true",
                        help="train the checked sample again, alone, under the "
                        "kernels this process has, into --output (JSON)")  # fmt: skip
    parser.add_argument("--lr-factor", type=float, default=1.0)
    args = parser.parse_args()
    if args.again:
        found = trained_again(args.lr_factor)
        found["capability"] = torch.backends.cpu.get_cpu_capability()
        args.output.write_text(json.dumps(found), encoding="utf-8")
        return
    fresh_seeds.under_kernels("experiments.staircase")
    key, started = code_key(), time.monotonic()
    tuning_seeds = fair_fight.TUNING_SEEDS
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.jobs, mp_context=spawn) as pool:
        jobs = [(k, h, lr, tuning_seeds) for k, h in cells() for lr in fair_fight.RATES]
        done = run_all(pool, jobs)
        tuning = {(k, h): {lr: summary(done[(k, h, lr, tuning_seeds)])
                           for lr in fair_fight.RATES} for k, h in cells()}  # fmt: skip
        best = {cell: fair_fight.best(tuning[cell]) for cell in cells()}
        print(f"tuned in {time.monotonic() - started:.0f} s:", best, flush=True)
        jobs = [(k, h, best[k, h], part) for k, h in cells()
                for part in chunks(seeds_of(k, h))]  # fmt: skip
        done = run_all(pool, jobs)
        runs = {(k, h): [r for part in chunks(seeds_of(k, h))
                         for r in done[(k, h, best[k, h], part)]]
                for k, h in cells()}  # fmt: skip
        print(f"evaluated in {time.monotonic() - started:.0f} s", flush=True)
        jobs = [(k, h, best[k, h], seed, nudge) for k, h, seed in CHECKED
                for nudge in (False, True)]  # fmt: skip
        alone = dict(zip(jobs, pool.map(alone_job, jobs), strict=True))
    minutes = (time.monotonic() - started) / 60
    write(args.output, key, tuning, best, runs, minutes)
    write_checked(CHECKED_FILE, key, best, runs, alone)
    print(f"{args.output.relative_to(ROOT)}: {minutes:.1f} minutes")


def write(path, key, tuning, best, runs, minutes) -> None:
    t = fair_fight.TUNING_SEEDS
    lines = [HEADER, "# fmt: off", "staircase_results = {"]
    lines.append(f'    "code": "{key}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # on the diagonal')
    lines.append(f'    "off the diagonal": {OFF_DIAGONAL},  # the first seeds')
    lines.append(f'    "tuning seeds": ({t.start}, {t.stop}),')
    lines.append(f'    "rates": {fair_fight.RATES!r},')
    lines.append(f'    "tie": {fair_fight.TIE!r},  # the rule\'s margin')
    lines.append(f'    "minutes": {minutes:.1f},  # to make, on {os.cpu_count()} cores')
    lines += fresh_seeds.made_lines(fresh_seeds.machine())
    lines.append('    "cells": {  # (k, h) -> what it measured')
    for (k, h), settings in tuning.items():
        lines.append(f"        ({k}, {h}): {{")
        lines.append('            "tuning": {  # lr -> its two medians')
        lines += [f"                {lr!r}: {s!r}," for lr, s in settings.items()]
        lines.append("            },")
        lines.append(f'            "lr": {best[k, h]!r},')
        for i in range(k):
            fair_fight._values(
                lines, "            ", f"lookup {i + 1}", [r[i] for r in runs[k, h]]
            )
        fair_fight._values(
            lines, "            ", "test mse", [r[-1] for r in runs[k, h]]
        )
        lines.append("        },")
    lines += ["    },", "}", "# fmt: on", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    format_like_snippets(path)


def write_checked(path, key, best, runs, alone) -> None:
    """For each CHECKED seed: its batched record (as the page's
    records keep it), and train_model's run alone, as it is and one ulp up."""
    jobs = {}
    for k, h, seed in CHECKED:
        lr = best[k, h]
        plain, nudged = (alone[(k, h, lr, seed, n)] for n in (False, True))
        jobs[f"{k} {h} {seed}"] = {
            "lr": lr,
            "batched": list(runs[k, h][seed - SEEDS.start]),
            "record": plain["record"],
            "nudged": nudged["record"],
            "early": plain["early"],
            "early, nudged": nudged["early"],
        }
    text = json.dumps({"code": key, "jobs": jobs}, indent=1)
    path.write_text(text + "\n", encoding="utf-8")


def trained_again(lr_factor: float = 1.0) -> dict:
    """Each checked job ("k h seed") trained alone again, as `alone_job`
    trains it, its learning rate times lr_factor (1.01: a planted error)."""
    found = {}
    for name, entry in load_checked()["jobs"].items():
        k, h, seed = (int(n) for n in name.split())
        found[name] = alone_job((k, h, entry["lr"] * lr_factor, seed, False))
    return found


def retrain(kernels: dict | None = None, lr_factor: float = 1.0) -> dict:
    """trained_again's result, in a new process under `kernels` (a setting
    None: unset), with "capability": torch's CPU capability there."""
    env = nudge_spread.environment(kernels)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "again.json"
        command = [sys.executable, "-m", "experiments.staircase", "--again",
                   "--lr-factor", str(lr_factor), "--output", str(path)]  # fmt: skip
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:4])} failed:\n{done.stderr}")
        return json.loads(path.read_text(encoding="utf-8"))


def load_checked() -> dict:
    return json.loads(CHECKED_FILE.read_text(encoding="utf-8"))


def tolerances(entry: dict, checked: dict | None = None) -> dict:
    """nudge_spread's rule for one checked job, its jobs one kind: "record",
    per number (the accuracies, then the test MSE), MULTIPLE times the largest
    gap the nudge made in any job's accuracies (or test MSEs), and at least one
    unit of the batched record's last digit; "early", per step, MULTIPLE times
    this job's own nudge gap up to that step."""
    jobs = (checked or load_checked())["jobs"].values()
    gaps = [[abs(a - b) for a, b in zip(j["record"], j["nudged"], strict=True)]
            for j in jobs]  # fmt: skip
    accuracy = max(max(g[:-1]) for g in gaps) * nudge_spread.MULTIPLE
    mse = max(g[-1] for g in gaps) * nudge_spread.MULTIPLE
    record = [max(1e-3, accuracy)] * (len(entry["record"]) - 1)
    record.append(max(nudge_spread.MSE_UNIT, mse))
    steps = nudge_spread.step_gaps(entry["early, nudged"], entry["early"])
    early = [nudge_spread.MULTIPLE * max(g, nudge_spread.LOSS_ULP) for g in steps]
    return {"record": record, "early": early}


def compare(name: str, found: dict, checked: dict | None = None) -> list[str]:
    """What is wrong with a checked job ("k h seed") trained again (alone_job's
    result) against its record: [] if nothing."""
    checked = checked or load_checked()
    entry = checked["jobs"][name]
    tol, problems = tolerances(entry, checked), []
    for i, (got, want, allowed) in enumerate(
        zip(found["record"], entry["record"], tol["record"], strict=True)
    ):
        if abs(got - want) > allowed:
            problems.append(f"number {i}: {abs(got - want):.3g} apart, tolerance "
                            f"{allowed:.3g}")  # fmt: skip
    steps = nudge_spread.step_gaps(found["early"], entry["early"])
    over = [
        i for i, (g, t) in enumerate(zip(steps, tol["early"], strict=True)) if g > t
    ]
    if over:
        problems.append(f"the loss at step {over[0] + 1}: {steps[over[0]]:.3g} "
                        f"apart, tolerance {tol['early'][over[0]]:.3g}")  # fmt: skip
    return problems


if __name__ == "__main__":
    main()
