"""Four lookups and three heads at the rate of the cells around it. `make
staircase` tuned that cell to 0.3, a pick between rates at which every tuning
seed failed; here the same fresh seeds train at 0.1, the rate its neighbours
were tuned to, by the staircase's own jobs.

    make staircase        (or: python -m experiments.other_rate)

Writes snippets/how_many_heads/other_rate_results.py, keyed on the staircase's
code and this file's settings, under the records' kernels, on every core.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from experiments import fresh_seeds, staircase

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "how_many_heads" / "other_rate_results.py"
K, H = 4, 3  # the cell
LR = 0.1  # its neighbours' rate
LINE = 0.85  # the training page's "accurate" (TWO_HEADS_MIN_ACCURACY)
HEADER = '''\
"""Written by `make staircase` (experiments/other_rate.py): four lookups and
three heads, trained at a learning rate of 0.1 (the staircase tuned the cell
to 0.3) on the staircase's fresh seeds for the cell. "lookups": for each
lookup, its accuracy in each seed, in the order of the seeds; "test mse": each
seed's test MSE; "alone": each seed that learned all four, trained alone with
train_model, as it is and one ulp up (experiments.staircase.alone_job), which
the suite trains again and compares by staircase.compare."""

'''


def code_key() -> str:
    """The staircase's key, and this cell and rate."""
    digest = hashlib.sha256(staircase.code_key().encode())
    digest.update(repr((K, H, LR, LINE)).encode())
    return digest.hexdigest()[:16]


def rows(values: list, indent: int) -> list[str]:
    """The values, five to a line (snippets' lines are at most 78 wide)."""
    return [
        " " * indent + ", ".join(map(str, values[i : i + 5])) + ",\n"
        for i in range(0, len(values), 5)
    ]


def alone_entry(seed: int, plain: dict, nudged: dict) -> list[str]:
    """The lines of one seed's runs alone (staircase.alone_job's), as the
    staircase's checked jobs keep them."""
    lines = [f'        "{K} {H} {seed}": {{\n', f'            "lr": {LR},\n']
    for name, values in [("record", plain["record"]), ("nudged", nudged["record"])]:
        numbers = (f"                {value!r},\n" for value in values)
        lines += [f'            "{name}": [\n', *numbers, "            ],\n"]
    for name, text in [("early", plain["early"]), ("early, nudged", nudged["early"])]:
        parts = [text[i : i + 56] for i in range(0, len(text), 56)]
        lines += [f'            "{name}": (\n', *(f'                "{part}"\n'
                  for part in parts), "            ),\n"]  # fmt: skip
    return [*lines, "        },\n"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    fresh_seeds.under_kernels("experiments.other_rate")
    started = time.monotonic()
    seeds = staircase.seeds_of(K, H)
    jobs = [(K, H, LR, part) for part in staircase.chunks(seeds)]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.jobs, mp_context=spawn) as pool:
        runs = [run for part in pool.map(staircase.train_job, jobs) for run in part]
        every = [s for s, run in zip(seeds, runs, strict=True) if min(run[:-1]) >= LINE]
        alone_jobs = [(K, H, LR, s, nudge) for s in every for nudge in (False, True)]
        alone = dict(
            zip(alone_jobs, pool.map(staircase.alone_job, alone_jobs), strict=True)
        )
    lines = [HEADER, "# fmt: off\n", "other_rate_results = {\n"]
    lines.append(f'    "code": "{code_key()}",  # its code_key()\n')
    lines.append(f'    "cell": ({K}, {H}),  # (k lookups, h heads)\n')
    lines.append(f'    "lr": {LR},\n')
    lines.append(f'    "seeds": ({seeds.start}, {seeds.stop}),  # range(start, stop)\n')
    lines.append('    "lookups": [  # lookup -> accuracy per seed\n')
    for lookup in range(K):
        accuracy = [run[lookup] for run in runs]
        lines += ["        [\n", *rows(accuracy, 12), "        ],\n"]
    lines.append("    ],\n")
    lines += ['    "test mse": [\n', *rows([run[-1] for run in runs], 8), "    ],\n"]
    lines += ['    "alone": {  # seed -> its run alone, and one ulp up\n']
    for seed in every:
        lines += alone_entry(seed, *(alone[K, H, LR, seed, n] for n in (False, True)))
    lines.append("    },\n")
    lines.append("}\n# fmt: on\n")
    args.output.write_text("".join(lines), encoding="utf-8")
    minutes = (time.monotonic() - started) / 60
    print(f"{args.output.relative_to(ROOT)}: {len(runs)} seeds, {minutes:.1f} minutes")


if __name__ == "__main__":
    main()
