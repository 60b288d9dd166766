"""The training page's experiment over 100 seeds that the page does not show.

    make seeds        (or: python -m experiments.fresh_seeds)

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
  (snippets/ablation/ex04_every_seed.py, `crossing`);
- for the page's other designs (`designs`: the same width split into other
  numbers of heads, and one head per layer on a residual stream, in one layer
  and in two), each one's accuracy on the two lookups and where its heads look
  (`measure_designs`).

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
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from experiments import format_like_snippets

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "training" / "seed_results.py"
SEEDS = range(2000, 2100)  # fresh: the set-up was chosen on seeds 1000-1039
# The seeds the suite trains again, spread over the range (nobody picked them),
# and compares with their records (experiments/nudge_spread.py: within what
# another CPU's rounding can move them).
CHECKED = range(SEEDS.start + 6, SEEDS.stop, 12)
# The kernels every record is made with, set before torch loads: MKL's
# portable branch (Conditional Numerical Reproducibility, MKL_CBWR=COMPATIBLE)
# and ATen without vector instructions. They make a record repeatable on one
# machine whatever its settings, but not the same bits on every x86-64: on an
# AMD EPYC with AVX-512, 4 of the suite's retrained designs differed from the
# records (made on an Intel Xeon with AVX-512 and AMX) in the third decimal,
# and over 100 seeds two layers differed in 65. So the suite compares within
# the spread a one-ulp nudge of the start produces, measured
# (experiments/nudge_spread.py), under whatever kernels it runs.
KERNELS = {"MKL_CBWR": "COMPATIBLE", "ATEN_CPU_CAPABILITY": "default"}
HEADER = '''\
"""Written by `make seeds` (experiments/fresh_seeds.py): the training page's
two models trained for 100 seeds that the page does not show. "runs", a seed
a line: the accuracy of two heads of width 2 and of one head of width 4 on
the two lookups (previous value, value at the largest key feature), which
head (1 or 2) took the previous-token lookup, and whether removing each head
breaks its own lookup and keeps the other (the ablation page's crossing
pattern), with the head zeroed and set to its mean. "broken": the claims of
the page that a seed breaks, for the seeds that break any. "first set-up":
the two heads of the page's first version (circle places, batch 128, learning
rate 0.05) on the same seeds, and the most that any head put on the previous
position. "designs": for each design of the next page (Heads against width
and depth), in how many seeds it is accurate on the previous value, on the
value at the largest key feature, and on both; each seed's record is in
snippets/width_and_depth/design_results.py."""


def by_seed(text):
    """seed -> {column: value}, from a table whose first line names the
    columns; "yes" and "no" are True and False, the rest numbers."""
    yes_no = {"yes": True, "no": False}
    names, *lines = text.strip().splitlines()
    table = {}
    for line in lines:
        seed, *cells = line.split()
        values = [yes_no[c] if c in yes_no else float(c) for c in cells]
        table[int(seed)] = dict(zip(names.split()[1:], values, strict=True))
    return table

'''
DESIGN_OUTPUT = ROOT / "snippets" / "width_and_depth" / "design_results.py"
DESIGN_HEADER = '''\
"""Written by `make seeds` (experiments/fresh_seeds.py): the designs of the
page Heads against width and depth, trained as the training page trains its
models, for the same 100 fresh seeds: the same total width split into other
numbers of heads, and one head of width 4 per layer on a residual stream, in
one layer and in two. For each design, a value per seed, in the order of the
seeds, of: its accuracy on the two lookups; for heads of width 1, the most
weight that any one head puts on the previous position; for two layers, the
most that either layer puts on the position with the largest key feature, and
on the one just after it."""


def per_seed(text):
    """A field's values, one per seed in the seeds' order, from its lines."""
    return tuple(float(value) for value in text.split())

'''
# The code whose results these are: the claims (and all they import: the task,
# the model, training, the measures) and the ablation page's crossing check.
MODULES = [
    "snippets.training.ex13_claims",
    "snippets.ablation.ex04_every_seed",
    "snippets.width_and_depth.ex01_split_width",
    "snippets.width_and_depth.ex06b_stream_control",  # and the depth models
]
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
    functions += [designs, measure_designs, design_record, kept_fields]
    functions += [design_table, design_counts]
    code = "".join(inspect.getsource(f) for f in functions)
    return code + repr(
        (SEEDS, TWO_HEAD_CLAIMS, FIRST_SETUP, DEPTHS, CONTROL, DESIGN_FIELDS, KEPT)
    )


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
    set-up is a slow part of this script) and keyed on its own code and the
    training code; `make seeds` after an edit elsewhere loads it."""
    from snippets import sources_key
    from snippets.training.ex07_run_seeds import CACHE

    functions = [circle_batch, measure_first_setup_afresh]  # its own code
    code = "".join(inspect.getsource(f) for f in functions)
    code += repr((TWO_HEAD_CLAIMS, FIRST_SETUP))
    key = sources_key("snippets.training.ex13_claims") + code
    key += kernel_settings()
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
    Only the two heads: the one wide head is not needed."""
    from snippets.training.ex03_model import Attention
    from snippets.training.ex05_train import held_out, train_model
    from snippets.training.ex06_measures import head_divergence, where_heads_look
    from snippets.training.ex07_run_seeds import Outcome
    from snippets.training.ex13_claims import failures

    # two heads of width 2 that read the circle's 4 numbers a position
    two = train_model(lambda: Attention(2, 2, d_model=4), seed, task=circle_batch,
                      **FIRST_SETUP)  # fmt: skip
    x, _ = held_out(task=circle_batch)
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


DEPTHS = (1, 2)  # layers of one head of width 4, on a residual stream


def designs() -> dict:
    """name -> a function that makes the model: width-and-depth's splits of
    the width, one head per layer on a residual stream, and the control, two
    heads of width 2 on that stream."""
    from snippets.training.ex03_model import Attention
    from snippets.width_and_depth.ex01_split_width import WIDTHS
    from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer
    from snippets.width_and_depth.ex06b_stream_control import TwoHeadsOnStream

    made = {f"{h} x {d}": lambda h=h, d=d: Attention(h, d) for h, d in WIDTHS}
    for n in DEPTHS:
        made[f"{n} layer{'s' if n > 1 else ''}"] = lambda n=n: OneHeadPerLayer(n)
    made[CONTROL] = TwoHeadsOnStream
    return made


CONTROL = "2 x 2 on stream"  # the depth designs' control


def design_record(run) -> tuple:
    """Accuracy on the previous value and on the value at the largest key
    feature, then the most weight one head (or layer) puts on the previous
    position, on the position with the largest key feature, and on the one
    just after it, to 3 decimals; then the test MSE, to 5."""
    from snippets.training.ex05_train import held_out
    from snippets.width_and_depth.ex04_one_head_per_layer import where_layers_look

    x, _ = held_out()
    with torch.no_grad():
        looks = where_layers_look(run.after(x)[1], x)  # (heads, 3 places)
    numbers = run.test_accuracy.tolist() + looks.max(dim=0).values.tolist()
    return (*(round(n, 3) for n in numbers), round(run.test_mse, 5))


# design_record's numbers, by name; the table keeps the accuracies of every
# design and, of the rest, what the page reads
DESIGN_FIELDS = ("previous", "largest key", "most on previous",
                 "most on largest key", "most just after it", "test mse")  # fmt: skip
KEPT = {
    "2 x 1": ("most on previous",),
    "4 x 1": ("most on previous",),
    "2 layers": ("most on largest key", "most just after it"),
}


def kept_fields(name: str) -> tuple[str, ...]:
    return (*DESIGN_FIELDS[:2], *KEPT.get(name, ()), "test mse")


def design_table(records: dict) -> dict:
    """{seed: {design: record}} -> {design: {field: (its value per seed)}}"""
    names = next(iter(records.values()))
    return {
        name: {
            field: tuple(r[name][DESIGN_FIELDS.index(field)] for r in records.values())
            for field in kept_fields(name)
        }
        for name in names
    }


def measure_designs(seed: int) -> dict:
    """One seed's record of every design, as seed_results.py holds it: the
    page's two models from `run_seed`, the others trained (and saved under
    .cache/training/, keyed on the code) with the page's `train_model`."""
    from snippets.training.ex05_train import train_model
    from snippets.training.ex07_run_seeds import run_seed, saved_training

    train = saved_training(train_model, MODULES[-1])  # the depth model's file
    o = run_seed(seed)
    runs = {"2 x 2": o.two, "1 x 4": o.one}  # the page's two, as trained
    return {
        name: design_record(runs[name] if name in runs else train(make, seed))
        for name, make in designs().items()
    }


def _measure_quietly(seed: int) -> tuple[dict, dict, dict]:
    torch.set_num_threads(1)
    return measure(seed), measure_first_setup(seed), measure_designs(seed)


def machine() -> dict:
    """How a record is made: the kernel settings (None where unset), torch's
    CPU capability, the CPU's model name, torch's version and the date."""
    from datetime import UTC, datetime

    from experiments.head_sweep import cpu_model
    from snippets.training.ex07_run_seeds import KERNEL_SETTINGS

    return {
        "kernels": {k: os.environ.get(k) for k in KERNEL_SETTINGS},
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cpu": cpu_model(),
        "torch": torch.__version__,
        "date": datetime.now(UTC).date().isoformat(),
    }


def kernel_settings() -> str:
    """The kernel settings this process runs under, as the training cache's
    keys hold them (snippets/training/ex07_run_seeds.py)."""
    from snippets.training.ex07_run_seeds import KERNEL_SETTINGS

    return repr([os.environ.get(k) for k in KERNEL_SETTINGS])


def under_kernels(module: str) -> None:
    """Runs the script `module` again, with the same arguments, under KERNELS,
    unless it already runs under them (they are read as torch loads)."""
    if any(os.environ.get(k) != v for k, v in KERNELS.items()):
        command = [sys.executable, "-m", module, *sys.argv[1:]]
        os.execve(sys.executable, command, {**os.environ, **KERNELS})


def records(results: dict, name: str) -> dict:
    """seed_results.py's table `name` ("runs" or "first set-up") as `measure`
    and `measure_first_setup` return each seed's record: {seed: {field: value}}."""
    table = results[name]  # by_seed's: seed -> {column: value}
    if name == "first set-up":
        broken = results["broken, first set-up"]
        return {
            seed: {
                "two heads": (r["two_prev"], r["two_key"]),
                "broken": broken.get(seed, []),
                "best on previous": r["most_on_prev"],
            }
            for seed, r in table.items()
        }
    return {
        seed: {
            "two heads": (r["two_prev"], r["two_key"]),
            "one head": (r["one_prev"], r["one_key"]),
            "broken": results["broken"].get(seed, []),
            "broken, one head": results["broken, one head"].get(seed, []),
            "previous-token head": int(r["head"]),
            "crossing": r["crossing"],
            "crossing, mean": r["crossing_mean"],
        }
        for seed, r in table.items()
    }


def design_counts(table: dict) -> dict:
    """design -> in how many seeds it is accurate on the previous value, on
    the value at the largest key, and on both (the training page's line)."""
    from snippets.training.ex13_claims import TWO_HEADS_MIN_ACCURACY as line

    counts = {}
    for name, fields in table.items():
        pairs = list(zip(fields["previous"], fields["largest key"], strict=True))
        counts[name] = (
            sum(p >= line for p, _ in pairs),
            sum(k >= line for _, k in pairs),
            sum(min(p, k) >= line for p, k in pairs),
        )
    return counts


# measure's record; seed_results.py's tables' columns, as by_seed reads them
RUN_FIELDS = ("two heads", "one head", "broken", "broken, one head",
              "previous-token head", "crossing", "crossing, mean")  # fmt: skip
RUN_COLUMNS = ("two_prev", "two_key", "one_prev", "one_key", "head", "crossing",
               "crossing_mean")  # fmt: skip
FIRST_COLUMNS = ("two_prev", "two_key", "most_on_prev")


def _run_cells(record: dict) -> tuple:
    assert list(record) == list(RUN_FIELDS), record
    return (*record["two heads"], *record["one head"], record["previous-token head"],
            record["crossing"], record["crossing, mean"])  # fmt: skip


def _cell(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _table(columns: tuple, cells: dict) -> list[str]:
    """A table's lines: a header naming the columns, then a seed a line."""
    widths = [max(len(c), 6) for c in columns]
    head = " ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))
    lines = [f"        seed {head}"]
    for seed, row in cells.items():
        line = " ".join(_cell(v).rjust(w) for v, w in zip(row, widths, strict=True))
        lines.append(f"        {seed} {line}")
    return lines


def made_lines(made: dict) -> list[str]:
    """machine()'s dict as lines, a key a line, as ruff would format it."""
    lines = ['    "made": {  # machine()']
    for key, value in made.items():
        if isinstance(value, dict):
            lines.append(f'        "{key}": {{')
            lines += [
                f'            "{k}": {v!r},'.replace("'", '"') for k, v in value.items()
            ]
            lines.append("        },")
        else:
            lines.append(f'        "{key}": {value!r},'.replace("'", '"'))
    return [*lines, "    },"]


def _broken(records: dict, field: str) -> list[str]:
    """The lines of a dict of the claims each seed breaks, where it breaks any."""
    return [f"        {s}: {r[field]!r}," for s, r in records.items() if r[field]]


def write(results: dict, path: Path, design_path: Path = DESIGN_OUTPUT) -> None:
    """seed_results.py: each table as text that by_seed reads, a seed a line,
    and the claims each seed breaks where it breaks any; the designs' counts.
    design_results.py: per design and field, a value per seed, 8 to a line,
    as text that per_seed reads. Highlighted, a tuple of floats is two HTML
    elements a number: the training page parsed 3,400 of them as it loaded,
    and width-and-depth's 4,800; a string is one."""
    table = design_table(results["designs"])
    runs, first = results["runs"], results["first set-up"]
    lines = [HEADER, "seed_results = {"]
    lines.append(f'    "code": "{results["code"]}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # range(start, stop)')
    lines += made_lines(results["made"])
    lines.append('    "runs": by_seed("""')
    lines += _table(RUN_COLUMNS, {seed: _run_cells(r) for seed, r in runs.items()})
    lines.append('    """),')
    lines.append('    "broken": {')
    lines += _broken(runs, "broken")
    lines.append("    },")
    lines.append('    "broken, one head": {')
    lines += _broken(runs, "broken, one head")
    lines.append("    },")
    lines.append('    "first set-up": by_seed("""')
    cells = {s: (*r["two heads"], r["best on previous"]) for s, r in first.items()}
    lines += _table(FIRST_COLUMNS, cells)
    lines.append('    """),')
    lines.append('    "broken, first set-up": {')
    lines += _broken(first, "broken")
    lines.append("    },")
    lines.append('    "designs": {  # on the previous value, the largest key, both')
    for name, counts in design_counts(table).items():
        lines.append(f'        "{name}": {counts!r},')
    lines += ["    },", "}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")

    lines = [DESIGN_HEADER, "# fmt: off", "design_results = {"]
    lines.append(f'    "code": "{results["code"]}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # range(start, stop)')
    lines += made_lines(results["made"])
    lines.append('    "designs": {  # design -> field -> its value in each seed')
    for name, fields in table.items():
        lines.append(f'        "{name}": {{')
        for field, values in fields.items():
            lines.append(f'            "{field}": per_seed("""')
            digits, per_line = (5, 7) if field == "test mse" else (3, 8)
            for i in range(0, len(values), per_line):  # 78 columns
                row = " ".join(f"{v:.{digits}f}" for v in values[i : i + per_line])
                lines.append(f"                {row}")
            lines.append('            """),')
        lines.append("        },")
    lines += ["    },", "}", "# fmt: on", ""]
    design_path.write_text("\n".join(lines), encoding="utf-8")
    format_like_snippets(path, design_path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--design-output", type=Path, default=DESIGN_OUTPUT)
    args = parser.parse_args()
    under_kernels("experiments.fresh_seeds")
    # the key of the code as it is now, not as it may be after an edit during the
    # run (inspect reads functions' sources from the files then)
    key = code_key()
    measure(SEEDS.start)  # imports (and trains) the page's code once, here:
    designs()  # the workers are forked from this process and start with it
    with ProcessPoolExecutor(args.jobs) as pool:
        records = list(pool.map(_measure_quietly, SEEDS))
    tables = zip(*records, strict=True)  # runs, first set-up, designs
    results = {"code": key, "made": machine()}
    for name, table in zip(("runs", "first set-up", "designs"), tables, strict=True):
        results[name] = dict(zip(SEEDS, table, strict=True))
    write(results, args.output, args.design_output)
    runs, first = results["runs"].values(), results["first set-up"].values()
    meet = sum(not r["broken"] for r in runs)
    print(f"{args.output.relative_to(ROOT)}: {len(records)} seeds;",
          f"two heads meet every claim in {meet}",
          f"(first set-up: {sum(not r['broken'] for r in first)})")  # fmt: skip


if __name__ == "__main__":
    main()
