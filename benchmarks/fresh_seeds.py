"""The training page's experiment over 100 seeds that the page does not show.

    make seeds        (or: python -m benchmarks.fresh_seeds)

The page trains and shows five seeds. A claim about "every seed" needs seeds
nobody picked, so this script trains both models, two heads of width 2 and one
head of width 4, for each of the seeds in SEEDS, with the page's own code
(`run_seed`, saved under .cache/training/ like the page's runs), and records for
each seed what the page's checks find:

- the claims of snippets/training/ex13_claims.py that the seed breaks
  (`failures`), split into the claims about the two heads and those about the
  one wide head;
- which head took the previous-token lookup;
- whether the ablation page's crossing pattern holds
  (snippets/ablation/ex04_every_seed.py, `crossing`).

The results go to snippets/training/seed_results.py, a Python literal that the
training and ablation pages include and print their rates from, keyed on a hash
of the code that produced them (`code_key`): tests/test_training.py fails while
the key is stale, and retrains a sample of the seeds to check the records.
This takes a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "training" / "seed_results.py"
SEEDS = range(2000, 2100)  # fresh: the set-up was chosen on seeds 1000-1039
HEADER = '''\
"""Written by `make seeds` (benchmarks/fresh_seeds.py): the training page's
two models trained for 100 seeds that the page does not show. "runs", per
seed: the accuracy of each model on the two lookups (previous value, value at
the largest key feature), the claims of the page that the seed breaks, which
head (1 or 2) took the previous-token lookup, and whether removing each head
breaks its own lookup and keeps the other (the ablation page's crossing
pattern), with the head zeroed and set to its mean. "first set-up": the two
heads of the page's first version (circle places, batch 128, learning rate
0.05) on the same seeds, and the most that any head put on the previous
position."""
'''
# The code whose results these are: the claims (and all they import: the task,
# the model, training, the measures) and the ablation page's crossing check.
MODULES = ["snippets.training.ex13_claims", "snippets.ablation.ex04_every_seed"]
TWO_HEAD_CLAIMS = (
    "two heads are not accurate on both outputs",
    "the heads do not start alike",
    "the heads do not end apart",
    "no separate head for each of the two lookups",
)


def code_key() -> str:
    """The records' key: torch's version, the snippets they come from, and
    this file's code that measures (not the code that writes the file)."""
    from snippets import sources_key

    digest = hashlib.sha256(torch.__version__.encode())
    for module in MODULES:
        digest.update(sources_key(module).encode())
    digest.update(_measuring_code().encode())
    return digest.hexdigest()[:16]


def _measuring_code() -> str:
    functions = [measure, circle_batch, measure_first_setup_afresh]
    code = "".join(inspect.getsource(f) for f in functions)
    return code + repr((SEEDS, TWO_HEAD_CLAIMS, FIRST_SETUP))


def measure(seed: int) -> dict:
    """One seed's record, as seed_results.py holds it."""
    from snippets.ablation.ex04_every_seed import crossing
    from snippets.training.ex07_run_seeds import run_seed
    from snippets.training.ex13_claims import failures

    o = run_seed(seed)
    prefix = f"seed {seed}: "
    broken = [b.removeprefix(prefix) for b in failures(o)]
    previous_head = o.looks[:, 0].argmax().item() + 1  # heads counted from 1
    return {
        "two heads": tuple(round(a, 4) for a in o.two.test_accuracy.tolist()),
        "one head": tuple(round(a, 4) for a in o.one.test_accuracy.tolist()),
        "broken": [b for b in broken if b in TWO_HEAD_CLAIMS],
        "broken, one head": [b for b in broken if b not in TWO_HEAD_CLAIMS],
        "previous-token head": previous_head,
        "crossing": crossing(o.two.after)[1],  # each head zeroed
        "crossing, mean": crossing(o.two.after, mean=True)[1],  # set to mean
    }


def circle_batch(n, generator):
    """The page's first set-up: each position's place as the cosine and sine
    of its angle on a circle (two numbers, not a one-hot code of six)."""
    import math

    from snippets.training.ex01_task import T

    v = torch.rand(n, T, generator=generator) * 2 - 1
    k = torch.rand(n, T, generator=generator)
    angle = 2 * math.pi * torch.arange(T) / T
    where = torch.stack([angle.cos(), angle.sin()], -1).expand(n, T, 2)
    x = torch.cat([v[..., None], k[..., None], where], dim=-1)  # (n, T, 4)
    previous = v.roll(1, dims=1)
    largest = v.gather(1, k.argmax(dim=1, keepdim=True)).expand(n, T)
    return x, torch.stack([previous, largest], dim=-1)


FIRST_SETUP = {"batch": 128, "lr": 0.05}  # and the circle


def measure_first_setup(seed: int) -> dict:
    """measure_first_setup_afresh, saved under .cache/training/ (the first
    set-up is the slow half of this script) and keyed on this file and the
    training code; `make seeds` after an edit elsewhere loads it."""
    from snippets import sources_key
    from snippets.training.ex07_run_seeds import CACHE

    key = sources_key("snippets.training.ex13_claims") + _measuring_code()
    key = hashlib.sha256((torch.__version__ + key).encode()).hexdigest()
    path = CACHE / f"first-setup-{key[:16]}-seed{seed}.json"
    if path.exists():
        return _from_json(json.loads(path.read_text(encoding="utf-8")))
    record = measure_first_setup_afresh(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(record), encoding="utf-8")
    partial.replace(path)  # atomic: nobody reads half a file
    return record


def _from_json(record: dict) -> dict:
    return {k: tuple(v) if k == "two heads" else v for k, v in record.items()}


def measure_first_setup_afresh(seed: int) -> dict:
    """The two-head part of the record for the page's first set-up: circle
    places, batch 128, learning rate 0.05 (the same steps, model and claims).
    Trained afresh (the saved runs are keyed on the code, which this changes
    at run time), and only the two heads: the one wide head is not needed."""
    from snippets.training import ex03_model, ex05_train
    from snippets.training.ex06_measures import head_divergence, where_heads_look
    from snippets.training.ex07_run_seeds import Outcome
    from snippets.training.ex13_claims import failures

    kept = ex05_train.make_batch, ex03_model.D_MODEL, ex05_train.BATCH
    kept += (ex05_train.LR,)
    ex05_train.make_batch, ex03_model.D_MODEL = circle_batch, 4
    ex05_train.BATCH, ex05_train.LR = FIRST_SETUP["batch"], FIRST_SETUP["lr"]
    try:
        two = ex05_train.train(n_heads=2, d_head=2, seed=seed)
        x, _ = ex05_train.held_out()
    finally:
        ex05_train.make_batch, ex03_model.D_MODEL = kept[:2]
        ex05_train.BATCH, ex05_train.LR = kept[2:]
    with torch.no_grad():
        before, after = two.before(x)[1], two.after(x)[1]
    looks = where_heads_look(after, x)
    o = Outcome(seed, two, two, head_divergence(before), head_divergence(after),
                looks)  # fmt: skip
    prefix = f"seed {seed}: "
    broken = [b.removeprefix(prefix) for b in failures(o)]  # two-head claims:
    return {  # the one-head ones are meaningless here (one is `two`)
        "two heads": tuple(round(a, 4) for a in two.test_accuracy.tolist()),
        "broken": [b for b in broken if b in TWO_HEAD_CLAIMS],
        "best on previous": round(looks[:, 0].max().item(), 4),
    }


def _measure_quietly(seed: int) -> tuple[dict, dict]:
    torch.set_num_threads(1)
    return measure(seed), measure_first_setup(seed)


def records(table: dict) -> dict:
    """A table of seed_results.py as {seed: {field: value}}."""
    fields, seeds = table["fields"], table["seeds"]
    return {s: dict(zip(fields, r, strict=True)) for s, r in seeds.items()}


def write(results: dict, path: Path) -> None:
    """One line a seed: each table holds its field names, then per seed a
    tuple of the values (`records` on the training page makes them dicts)."""
    lines = [HEADER, "seed_results = {"]
    lines.append(f'    "code": "{results["code"]}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # range(start, stop)')
    for name in ("runs", "first set-up"):
        records = results[name]
        fields = tuple(next(iter(records.values())))
        lines.append(f'    "{name}": {{')
        lines.append(f'        "fields": {fields!r},')
        lines.append('        "seeds": {')
        for seed, record in records.items():
            assert tuple(record) == fields, (seed, record)
            lines.append(f"            {seed}: {tuple(record.values())!r},")
        lines += ["        },", "    },"]
    lines += ["}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    ruff = Path(sys.executable).with_name("ruff")
    if ruff.exists():  # the same layout as every other snippet
        config = ROOT / "snippets" / "ruff.toml"  # wherever `path` is
        subprocess.run([ruff, "format", "--quiet", "--config", config, path],
                       check=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    measure(SEEDS.start)  # imports (and trains) the page's code once, here:
    # the workers are forked from this process and start with it imported
    with ProcessPoolExecutor(args.jobs) as pool:
        records = list(pool.map(_measure_quietly, SEEDS))
    results = {
        "code": code_key(),
        "runs": {s: now for s, (now, _) in zip(SEEDS, records, strict=True)},
        "first set-up": {
            s: first for s, (_, first) in zip(SEEDS, records, strict=True)
        },
    }
    write(results, args.output)
    runs, first = results["runs"].values(), results["first set-up"].values()
    meet = sum(not r["broken"] for r in runs)
    print(f"{args.output.relative_to(ROOT)}: {len(records)} seeds;",
          f"two heads meet every claim in {meet}",
          f"(first set-up: {sum(not r['broken'] for r in first)})")  # fmt: skip


if __name__ == "__main__":
    main()
