"""What PyTorch computes for the live trainer's tasks of k lookups at once.

    make twin-lookups        (or: python -m experiments.train_it_lookups)

The explorer of docs/train-it.md also trains the how-many-heads page's tasks, k
lookups at once against h heads at width 12, in float64, from the random numbers
Python and the page share (`train_lookups` in snippets/train_it/ex08_lookups.py),
each cell (k, h) at the learning rate the staircase tuned for it. This script
trains the same runs in PyTorch and writes:

- snippets/train_it/lookups_results.py: for every cell, its learning rate and,
  for seeds 0 to 99, the accurate predictions on each lookup on the held-out
  sequences. The page prints each cell's rate from it, and the browser suite
  checks that "Train 100 seeds" finds the same counts. The hundred seeds of a
  cell train together (`train_many`: every weight with a leading seed axis, as
  the how-many-heads page's `train_seeds` does), which moves each seed's
  weights as training it alone does, up to rounding;
- tests/data/train_it_lookups_steps.json: for the seeds of STEP_SEEDS in every
  cell, trained alone, the loss at every step and the final weights, which the
  browser suite compares with the page's trainer step for step, and PyTorch's own
  spread (every initial weight one ulp up), as `make twin` records it.

Keyed on the code and the learning rates (`code_key`); tests/test_train_it.py
fails while the key is stale. About 30 minutes on two idle cores (29.8 on an AMD EPYC).
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
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from experiments import fresh_seeds
from experiments.train_it_twin import nudged, steps_entry

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "snippets" / "train_it" / "lookups_results.py"
STEPS_FILE = ROOT / "tests" / "data" / "train_it_lookups_steps.json"
MODULE = "snippets.train_it.ex08_lookups"
CACHE = ROOT / ".cache" / "train_it_lookups"
SEEDS = range(0, 100)  # what "Train 100 seeds" trains from seed 0
STEP_SEEDS = range(0, 2)  # every cell's, checked step for step in the browser
HEADER = '''\
"""Written by `make twin-lookups` (experiments/train_it_lookups.py): the
how-many-heads page's tasks of k lookups at once against h heads at width 12,
trained in PyTorch, float64, from the random numbers the live trainer shares
with Python, each cell (k, h) at the learning rate the staircase tuned for it:
for seeds 0 to 99, the accurate predictions on each of the k lookups, on the
held-out sequences."""


def per_seed(text, k):
    """{seed: its k counts}: a seed's counts one after the other, from 0."""
    numbers = [int(word) for word in text.split()]
    starts = range(0, len(numbers), k)
    return dict(enumerate(tuple(numbers[i : i + k]) for i in starts))

'''


def quietly():
    """The snippets print what their page shows when imported."""
    return contextlib.redirect_stdout(io.StringIO())


def rates() -> dict:
    """(k, h) -> the learning rate the staircase picked for the cell."""
    from snippets.how_many_heads.staircase_results import staircase_results

    return {cell: r["lr"] for cell, r in staircase_results["cells"].items()}


def numpy_batch(n: int, stream, k: int) -> tuple:
    """lookups_batch(n, random.Random(seed), k), drawn from numpy's Mersenne
    Twister seeded with [seed] (`stream`), which draws the same numbers as
    Python's seeded with seed (0 <= seed < 2**32), many at a time: the page's
    batches, number for number (main checks it), in a fifth of the time."""
    with quietly():
        from snippets.train_it.ex08_lookups import LOOKUPS, T

    v = torch.from_numpy(stream.random_sample((n, T))) * 2 - 1  # (n, T)
    key = torch.from_numpy(stream.random_sample((n, T)))  # (n, T)
    place = torch.eye(T, dtype=torch.float64).expand(n, T, T)
    x = torch.cat([v[..., None], key[..., None], place], dim=-1)
    return x, torch.stack([f(v, key) for f in LOOKUPS[:k]], dim=-1)


def train_many(k: int, h: int, seeds: range, lr: float) -> list[list[int]]:
    """train_lookups for every seed at once; each seed's accurate predictions
    on each lookup."""
    import numpy
    from torch.func import functional_call, stack_module_state, vmap

    with quietly():
        from snippets.train_it.ex03_train import BATCH, STEPS
        from snippets.train_it.ex05_claims import TOL
        from snippets.train_it.ex08_lookups import (
            cell_model,
            held,
            lookups_weights,
        )

    models = []
    for seed in seeds:
        model = cell_model(k, h)
        model.load_state_dict(lookups_weights(seed, k))
        models.append(model)
    weights, _ = stack_module_state(models)  # name -> (S, ...)
    shape = models[0].to("meta")
    everyone = vmap(lambda w, x: functional_call(shape, w, (x,))[0])
    trained = [w for name, w in weights.items() if name != "W_key.bias"]
    data = [numpy.random.RandomState([seed]) for seed in seeds]
    optimizer = torch.optim.Adam(trained, lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, STEPS)
    for _ in range(STEPS):
        batches = [numpy_batch(BATCH, g, k) for g in data]
        x = torch.stack([b[0] for b in batches])  # (S, n, T, 8)
        y = torch.stack([b[1] for b in batches])  # (S, n, T, k)
        loss = ((everyone(weights, x) - y) ** 2).mean(dim=(1, 2, 3)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
    x, y = held[0], held[1][..., :k]
    with torch.no_grad():
        out = everyone(weights, x.expand(len(seeds), *x.shape))  # (S, n, T, k)
    return ((out - y).abs() < TOL).sum(dim=(1, 2)).tolist()


def steps_of(k: int, h: int, seed: int, lr: float) -> dict:
    """One run alone, as the browser checks it: losses, final weights, and the
    spread of a start one ulp up. No by-hand twin at this width: the browser is
    held to PyTorch alone."""
    with quietly():
        from snippets.train_it.ex08_lookups import lookups_weights, train_lookups

    model, losses = train_lookups(k, h, seed, lr)
    nudge, spread = train_lookups(
        k, h, seed, lr, start=nudged(lookups_weights(seed, k))
    )
    weights, moved = model.state_dict(), nudge.state_dict()
    entry = steps_entry(
        {"losses": losses, "weights": weights, "spread": spread,
         "spread weights": moved, "twin": losses, "twin weights": weights}
    )  # fmt: skip
    del entry["twin"]  # there is none here
    return entry


def job(task: tuple) -> tuple:
    """One task, saved under .cache/train_it_lookups/ as it ends, keyed on the
    code: a run that stops halfway keeps what it did."""
    torch.set_num_threads(1)
    kind, k, h, arg, lr = task
    name = f"{code_key()}-{kind}-{k}-{h}-{arg}-{lr}".replace(" ", "")
    path = CACHE / f"{hashlib.sha256(name.encode()).hexdigest()[:20]}.json"
    if path.exists():
        return task, json.loads(path.read_text(encoding="utf-8"))
    done = train_many(k, h, arg, lr) if kind == "many" else steps_of(k, h, arg, lr)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(done), encoding="utf-8")
    partial.replace(path)  # atomic: nobody reads half a file
    return task, json.loads(json.dumps(done))


def same_batches() -> None:
    """numpy_batch draws what the page's lookups_batch draws, number for number:
    two batches of two seeds, four lookups."""
    import numpy

    with quietly():
        from snippets.train_it.ex08_lookups import lookups_batch, random

    for seed in (0, 3):
        mine, theirs = numpy.random.RandomState([seed]), random.Random(seed)
        for _ in range(2):
            a, b = numpy_batch(16, mine, 4), lookups_batch(16, theirs, 4)
            assert all(torch.equal(p, q) for p, q in zip(a, b, strict=True))


def code_key() -> str:
    """The records' key: torch's version, the snippet, this file's code that
    trains and measures, the seeds and the learning rates."""
    from snippets import sources_key

    digest = hashlib.sha256(torch.__version__.encode())
    digest.update(sources_key(MODULE).encode())
    functions = [numpy_batch, train_many, steps_of, steps_entry, nudged]
    digest.update("".join(inspect.getsource(f) for f in functions).encode())
    digest.update(repr((SEEDS, STEP_SEEDS, sorted(rates().items()))).encode())
    return digest.hexdigest()[:16]


def write_results(key: str, made: dict, lrs: dict, counts: dict, path: Path) -> None:
    lines = [HEADER, "# fmt: off", "lookups_results = {"]
    lines.append(f'    "code": "{key}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # range(start, stop)')
    lines += fresh_seeds.made_lines(made)
    lines.append('    "cells": {  # (k, h): its learning rate, its counts')
    for (k, h), seeds in counts.items():
        lines.append(f"        ({k}, {h}): {{")
        lines.append(f'            "lr": {lrs[k, h]},')
        lines.append('            "correct": per_seed("""')
        rows = [" ".join(map(str, c)) for c in seeds]
        per_line = 64 // (6 * k + 1)  # as many as fit in 78 columns
        for i in range(0, len(rows), per_line):
            lines.append("                " + "  ".join(rows[i : i + per_line]))
        lines.append(f'            """, {k}),')
        lines.append("        },")
    lines += ["    },", "}", "# fmt: on", ""]
    text = "\n".join(lines)
    assert max(map(len, text.splitlines())) <= 78, "snippets/ruff.toml"
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    fresh_seeds.under_kernels("experiments.train_it_lookups")  # portable kernels
    began = time.monotonic()
    same_batches()
    lrs = rates()
    tasks = [("many", k, h, SEEDS, lr) for (k, h), lr in lrs.items()]
    tasks += [("steps", k, h, s, lr) for (k, h), lr in lrs.items() for s in STEP_SEEDS]
    tasks.sort(key=lambda t: -(t[1] * (t[0] == "many")))  # the longest first
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.jobs, mp_context=spawn) as pool:
        done = dict(pool.map(job, tasks))
    key, made = code_key(), fresh_seeds.machine()
    counts = {(k, h): done["many", k, h, SEEDS, lr] for (k, h), lr in lrs.items()}
    write_results(key, made, lrs, counts, RESULTS)
    runs = {
        f"k{k}h{h}/{s}": done["steps", k, h, s, lr]
        for (k, h), lr in lrs.items()
        for s in STEP_SEEDS
    }
    steps = {"code": key, "made": made, "runs": runs}
    STEPS_FILE.write_text(json.dumps(steps) + "\n", encoding="utf-8")
    minutes = (time.monotonic() - began) / 60
    print(f"{RESULTS.relative_to(ROOT)}, {STEPS_FILE.relative_to(ROOT)}:",
          f"{minutes:.1f} min")  # fmt: skip


if __name__ == "__main__":
    main()
