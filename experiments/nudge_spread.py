"""How far a one-ulp nudge of the start moves each record that the suite trains
again: the measured spread its retrain-and-compare checks are held to.

    make spread        (or: python -m experiments.nudge_spread)

The suite trains a sample of `make seeds`' records again (fresh_seeds.CHECKED)
and compares the result with the record. Another CPU's kernels round some sums
otherwise in the last bit, and 800 steps of training can carry that into the
third decimal of an accuracy, so "the same bits" is no test on another machine.
How far is fine is measured here, not guessed: every job the suite can retrain
(`JOBS`) is trained twice under the records' kernels (fresh_seeds.KERNELS), once
as `make seeds` trains it and once with every initial weight moved one ulp up
(`nudged`: the smallest change there is), and
tests/data/nudge_spread.json keeps, for each job:

- "record" and "nudged": the two runs' records, as `make seeds` writes them
  (for the real-text page's checked run, its first 100 steps' mean loss);
- "early" and "early, nudged": each trained model's loss at the first EARLY
  steps (float32, base64), where a one-ulp nudge has moved the loss by about
  1e-6 of itself and a planted error (a learning rate 1% off) by far more.

`tolerances` turns these into every check's tolerance, and `compare` is the one
rule the checks apply: a retrained number within MULTIPLE times the spread of
its kind (the largest gap the nudge made over the sample's seeds), or one unit of
the record's last digit where that is larger; each early loss within MULTIPLE
times the nudge's largest gap up to that step (the live trainer's rule);
everything else (verdicts, lists of claims, which head) exactly. The live
trainer's PyTorch run ("twin") is held to its own records' spread (`twin_gaps`).
About two minutes on two cores; keyed on the records' code
(fresh_seeds.code_key) and this file's measuring code.
"""

from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import functools
import hashlib
import inspect
import json
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from experiments import fair_fight, fresh_seeds, head_sweep, train_it_twin
from tools import spread_rule
from tools.spread_rule import MULTIPLE

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "data" / "nudge_spread.json"
EARLY = 100  # steps whose losses are compared step for step
LOSS_ULP = 2.0**-23  # a float32 loss's last bit, relative to it
# A retrained value may stray from its record by MULTIPLE times the spread a
# one-ulp nudge of the start makes (tools/spread_rule.py), as the live trainer's
# compare() allows. Measured (make cpu-sets prints it): retrained on an AMD EPYC
# with AVX-512 under its own kernels and three other sets, against records that an
# Intel Xeon with AVX-512 and AMX made, no gap came to more than 0.2 of its
# tolerance; each planted error (PLANTS) goes past it, on the toy within the
# first ten steps' losses.
# The jobs: the kinds of record (the training page's two models, its first
# set-up, and each other design of the width-and-depth page) on every seed of
# the suite's sample, the page's two layers on the first fresh seed, and the
# real-text page's checked run (d_model 64, 4 heads, seed 2: its first
# head_sweep.CHECKED_STEPS steps' mean loss is recorded to 6 decimals).
OTHER_DESIGNS = [n for n in fresh_seeds.designs() if n not in ("2 x 2", "1 x 4")]
KINDS = ("runs", "first set-up", *OTHER_DESIGNS)
REAL_TEXT = {"d_model": 64, "heads": 4, "seed": 2}
# The records of `make tune` (every design at its own best settings): each design
# on one seed of the sample, in turn, a kind of its own ("tuned 2 x 2"), held to
# its own nudge's spread: at these settings a nudge can flip a run's outcome (it
# does for one of the eight), which would make a pooled tolerance toothless.
TUNED = dict(zip(fresh_seeds.CHECKED, fresh_seeds.designs(), strict=True))
TUNED_KINDS = [f"tuned {design}" for design in TUNED.values()]
JOBS = [(kind, seed) for kind in KINDS for seed in fresh_seeds.CHECKED]
JOBS += [(f"tuned {design}", seed) for seed, design in TUNED.items()]
JOBS += [("2 layers", fresh_seeds.SEEDS.start), ("real text", REAL_TEXT["seed"])]
# What the suite trains again: the training page's two models on every seed of
# the sample, its first set-up on two; one other design on each seed, in turn;
# the page's two layers; the real-text run; and the live trainer's last seed
# checked step for step ("twin", held to its own records' spread, twin_gaps).
RUNS_JOBS = [("runs", s) for s in fresh_seeds.CHECKED]
RUNS_JOBS += [("first set-up", s) for s in fresh_seeds.CHECKED[::4]]
DESIGN_JOBS = [
    (OTHER_DESIGNS[k % len(OTHER_DESIGNS)], seed)
    for k, seed in enumerate(fresh_seeds.CHECKED)
]
DESIGN_JOBS.append(("2 layers", fresh_seeds.SEEDS.start))
TWIN_SEED = train_it_twin.STEP_SEEDS["2x2"][-1]
# Of the tuned records, two designs at two different learning rates.
TUNED_JOBS = [(f"tuned {d}", s) for s, d in TUNED.items() if d in ("2 x 2", "2 layers")]
SUITE_JOBS = [*RUNS_JOBS, *DESIGN_JOBS, *TUNED_JOBS, JOBS[-1], ("twin", TWIN_SEED)]
# The record's last digit, per kind: a retrained value that differs from it by
# any amount may round one unit away.
UNIT = {"runs": 1e-4, "first set-up": 1e-4, "real text": 1e-6}  # designs: 1e-3
MSE_UNIT = 1e-5  # a design's test MSE (design_results.py keeps 5 decimals)


def code_key() -> str:
    functions = [run_job, watched_training, nudged, early_losses, real_text_losses]
    functions += [planted, plant_gradient, lr_factor, tuned_run]
    code = "".join(inspect.getsource(f) for f in functions)
    code += repr((JOBS, EARLY)) + head_sweep.runs_key()
    records = fresh_seeds.code_key() + fair_fight.code_key()  # what it retrains
    return hashlib.sha256((records + code).encode()).hexdigest()[:16]


def nudged(model: torch.nn.Module) -> torch.nn.Module:
    """The model with every weight moved one ulp up: the smallest change there
    is (experiments/train_it_twin.py nudges the live trainer's start so)."""
    with torch.no_grad():
        for weight in model.parameters():
            weight.copy_(torch.nextafter(weight, torch.full_like(weight, math.inf)))
    return model


# Planted errors that every check must catch (tests/test_nudge_spread.py): the
# learning rate 1% high, and the gradient of the largest weight tensor off by 1%.
PLANTS = ("learning rate", "gradient")


def plant_gradient(model: torch.nn.Module) -> torch.nn.Module:
    """The model, with the gradient of its largest weight tensor off by 1% of
    its mean size (an offset: Adam divides out any constant factor of a
    gradient, so 1.01 times it would change nothing)."""
    largest = max(model.parameters(), key=torch.Tensor.numel)
    largest.register_hook(lambda g: g + 0.01 * g.abs().mean())
    return model


def lr_factor(plant: str | None) -> float:
    """What the plant does to a learning rate: 1% high, or nothing."""
    if plant not in (None, *PLANTS):
        raise ValueError(f"no such plant: {plant}")
    return 1.01 if plant == "learning rate" else 1.0


@contextlib.contextmanager
def planted(plant: str | None, *modules):
    """While open, each module's LR is 1% high if `plant` is "learning rate"
    (the real-text page's training reads its module's LR as it runs)."""
    kept = [m.LR for m in modules]
    for m in modules:
        m.LR *= lr_factor(plant)
    try:
        yield
    finally:
        for m, value in zip(modules, kept, strict=True):
            m.LR = value


@contextlib.contextmanager
def watched_training(nudge: bool, plant: str | None = None):
    """While open, the page's train_model trains afresh (no saved run), each
    model's initial weights moved one ulp up if `nudge`, with the error
    `plant` planted if given (its learning rate, the page's or the one it is
    given, 1% high); yields the list of the runs it trains, in order."""
    from snippets.training import ex05_train, ex07_run_seeds

    trained, original = [], ex05_train.train_model

    def train_model(make_model, seed, steps=ex05_train.STEPS, **settings):
        def make():
            model = make_model()
            model = nudged(model) if nudge else model
            return plant_gradient(model) if plant == "gradient" else model

        settings["lr"] = settings.get("lr", ex05_train.LR) * lr_factor(plant)
        run = original(make, seed, steps, **settings)
        trained.append(run)
        return run

    kept = ex07_run_seeds.run_seed
    ex05_train.train_model = train_model
    ex07_run_seeds.run_seed = ex07_run_seeds.fresh_run_seed  # trains, not loads
    try:
        yield trained
    finally:
        ex05_train.train_model, ex07_run_seeds.run_seed = original, kept


def run_job(
    job: tuple[str, int], nudge: bool = False, plant: str | None = None
) -> dict:
    """One job's record, as `make seeds` writes it, and the loss at each of the
    first EARLY steps of each model it trains. Without the nudge, runs that
    `make seeds` saves (.cache/training) are loaded where saved."""
    from snippets.training import ex05_train
    from snippets.training.ex07_run_seeds import run_seed, saved_training

    kind, seed = job
    if kind == "real text":
        losses = real_text_losses(nudge, plant)
        return {"record": {"mean loss": statistics.fmean(losses)}, "early": f32(losses)}
    if kind == "twin":
        return twin_run(seed, plant)
    if kind.startswith("tuned "):
        return tuned_run(kind.removeprefix("tuned "), seed, nudge, plant)
    if nudge or plant or kind == "first set-up":  # its saved record has no losses
        with watched_training(nudge, plant) as trained:
            if kind == "runs":
                record = fresh_seeds.measure(seed)
            elif kind == "first set-up":
                record = fresh_seeds.measure_first_setup_afresh(seed)
            else:
                run = ex05_train.train_model(fresh_seeds.designs()[kind], seed)
                record = fresh_seeds.design_record(run)
    elif kind == "runs":
        outcome = run_seed(seed)
        trained, record = [outcome.two, outcome.one], fresh_seeds.measure(seed)
    else:
        train = saved_training(ex05_train.train_model, fresh_seeds.MODULES[-1])
        trained = [train(fresh_seeds.designs()[kind], seed)]
        record = fresh_seeds.design_record(trained[0])
    return {"record": as_fields(kind, record), "early": early_losses(trained)}


def tuned_run(design: str, seed: int, nudge: bool, plant: str | None) -> dict:
    """run_job's result for a record of `make tune`: the design at the best
    settings tuned_results.py names, its record rounded as
    experiments/fair_fight.py's `measure` rounds it."""
    from snippets.training import ex05_train
    from snippets.training.ex07_run_seeds import saved_training
    from snippets.width_and_depth.tuned_results import tuned_results

    lr, steps = tuned_results["best"][design]
    make = fresh_seeds.designs()[design]
    if nudge or plant:
        with watched_training(nudge, plant) as trained:
            ex05_train.train_model(make, seed, steps, lr=lr)
    else:
        train = saved_training(ex05_train.train_model, fresh_seeds.MODULES[-1])
        trained = [train(make, seed, steps, lr=lr)]
    (run,) = trained
    previous, largest = run.test_accuracy.tolist()
    record = {"previous": round(previous, 3), "largest key": round(largest, 3),
              "test mse": round(run.test_mse, 5)}  # fmt: skip
    return {"record": record, "early": early_losses(trained)}


def early_losses(runs) -> str:
    """The first EARLY losses of each run, in f32's form."""
    return f32([loss for run in runs for loss in run.losses[:EARLY]])


def f32(values: list[float]) -> str:
    """float32 values (what loss.item() gives), little-endian, in base64."""
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


def from_f32(text: str) -> list[float]:
    data = base64.b64decode(text)
    return list(struct.unpack(f"<{len(data) // 4}f", data))


def as_fields(kind: str, record) -> dict:
    """A record as {field: value}: a design record's tuple by its field names
    (fresh_seeds.DESIGN_FIELDS), a tuple field of the others as one field per
    number ("two heads 1", "two heads 2")."""
    if isinstance(record, tuple):
        return dict(zip(fresh_seeds.DESIGN_FIELDS, record, strict=True))
    fields = {}
    for name, value in record.items():
        if isinstance(value, tuple):
            fields |= {f"{name} {i}": v for i, v in enumerate(value, 1)}
        else:
            fields[name] = value
    return fields


def real_text_losses(nudge: bool, plant: str | None = None) -> list[float]:
    """The real-text page's checked run: the losses of its first
    CHECKED_STEPS steps, its initial weights moved one ulp up if `nudge`, with
    the error `plant` planted if given."""
    from snippets.real_text import ex04_train
    from snippets.real_text.ex02_model import GPT, Config

    class Watched(GPT):
        def __init__(self, config):
            super().__init__(config)
            if nudge:
                nudged(self)
            if plant == "gradient":
                plant_gradient(self)

    kept = ex04_train.GPT, ex04_train.validation_loss
    ex04_train.GPT = Watched
    ex04_train.validation_loss = lambda model, context: 0.0  # not recorded
    try:
        config = Config(REAL_TEXT["heads"], d_model=REAL_TEXT["d_model"])
        with planted(plant, ex04_train):
            losses, _, _ = ex04_train.train(
                config, REAL_TEXT["seed"], head_sweep.CHECKED_STEPS
            )
    finally:
        ex04_train.GPT, ex04_train.validation_loss = kept
    return losses


def twin_run(seed: int, plant: str | None = None) -> dict:
    """The live trainer's PyTorch run of two heads of width 2 (float64) from
    seed, as `make twin` records it: its losses and final weights."""
    from snippets.train_it import ex04_pytorch

    class Watched(ex04_pytorch.Attention):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            if plant == "gradient":
                plant_gradient(self)

    kept = ex04_pytorch.Attention
    ex04_pytorch.Attention = Watched
    try:
        with planted(plant, ex04_pytorch):
            weights, losses = ex04_pytorch.fresh_train_pytorch(2, 2, seed)
    finally:
        ex04_pytorch.Attention = kept
    flat = torch.cat([w.flatten() for w in weights.values()])
    return {
        "losses": train_it_twin.f64(losses),
        "weights": train_it_twin.f64(flat.tolist()),
    }


def twin_gaps(seed: int, found: dict) -> list[tuple[str, float, float]]:
    """The live trainer's rule (train-it's compare()), as (what, gap,
    tolerance): each loss within 1e-9 of `make twin`'s, relative, or ten times
    PyTorch's own spread (its run with the start nudged one ulp) where that is
    larger; each final weight within 1e-9 or ten times the nudged run's
    largest gap."""
    entry = json.loads(train_it_twin.STEPS_FILE.read_text(encoding="utf-8"))
    entry = entry["runs"][f"2x2/{seed}"]
    losses = spread_rule.from_f64(found["losses"])
    recorded = spread_rule.from_f64(entry["losses"])
    spread = max([gap for _, gap in entry["spread"]], default=0)
    loss_gap = max(train_it_twin.relative_gap(losses, recorded))
    weights = spread_rule.from_f64(found["weights"])
    recorded = spread_rule.from_f64(entry["weights"])
    weight_gap = max(abs(a - b) for a, b in zip(weights, recorded, strict=True))
    weight_spread = max(entry["weight spread"].values())
    return [
        ("losses, relative", loss_gap, spread_rule.tolerance(spread)),
        ("weights", weight_gap, spread_rule.tolerance(weight_spread)),
    ]


def _measure(job) -> dict:
    torch.set_num_threads(1)
    nudged_run = run_job(job, nudge=True)
    return {
        **run_job(job),
        "nudged": nudged_run["record"],
        "early, nudged": nudged_run["early"],
    }


# --- what the checks read ---------------------------------------------------------


@functools.cache
def load() -> dict:
    return json.loads(OUTPUT.read_text(encoding="utf-8"))


def step_gaps(a: str, b: str) -> list[float]:
    """Two f32 texts of early losses, a run after another: at each of the
    EARLY steps, the largest relative gap between them up to that step, over
    the runs."""
    a, b = from_f32(a), from_f32(b)
    runs = len(a) // EARLY
    envelope = [0.0] * EARLY
    for r in range(runs):
        largest = 0.0
        for step in range(EARLY):
            x, y = a[r * EARLY + step], b[r * EARLY + step]
            largest = max(largest, abs(x - y) / abs(y))
            envelope[step] = max(envelope[step], largest)
    return envelope


def kind_of(job: str) -> str:
    return job.rsplit(" ", 1)[0]


def tolerances(spread: dict | None = None) -> dict:
    """kind -> {field: tolerance, ..., "early": tolerance per step}: MULTIPLE
    times the largest gap a one-ulp nudge made over the kind's seeds, and at
    least one unit of the record's last digit. A field that is not a number
    (a verdict, a list of claims, which head) gets None: it must be equal.
    The early losses, as the live trainer's compare() holds its steps: at
    each step, MULTIPLE times the largest relative gap the nudge made up to
    that step (and at least one float32 ulp of a loss): tight in the first
    steps, where a planted error already shows and the nudge has moved the
    loss by about 1e-6 of itself; looser later, where in some seeds of one
    and two layers the nudged run has strayed by a third of the loss by step
    100."""
    spread = spread or load()
    found = {}
    for job, entry in spread["jobs"].items():
        kind = kind_of(job)
        tol = found.setdefault(kind, {"early": [0.0] * EARLY})
        for field, value in entry["record"].items():
            nudged_value = entry["nudged"][field]
            if isinstance(value, bool) or not isinstance(value, float):
                tol[field] = None
                continue
            gap = MULTIPLE * abs(nudged_value - value)
            unit = MSE_UNIT if field == "test mse" else UNIT.get(kind, 1e-3)
            tol[field] = max(tol.get(field) or unit, gap)
        gaps = step_gaps(entry["early, nudged"], entry["early"])
        tol["early"] = [
            max(t, MULTIPLE * max(gap, LOSS_ULP))
            for t, gap in zip(tol["early"], gaps, strict=True)
        ]
    return found


def recorded(job: tuple[str, int]) -> dict:
    """The job's record as `make seeds` wrote it (seed_results.py,
    design_results.py), in as_fields' form, None where the table keeps no
    value."""
    from snippets.training.seed_results import seed_results
    from snippets.width_and_depth.design_results import design_results

    kind, seed = job
    if kind in ("runs", "first set-up"):
        return as_fields(kind, fresh_seeds.records(seed_results, kind)[seed])
    if kind.startswith("tuned "):
        from snippets.width_and_depth.tuned_results import tuned_results

        table = tuned_results["designs"][kind.removeprefix("tuned ")]
        k = list(fresh_seeds.SEEDS).index(seed)
        return {f: table[f][k] for f in ("previous", "largest key", "test mse")}
    if kind == "real text":
        from snippets.real_text.sweep_results import sweep_results

        fields = sweep_results["fields"]
        runs = [dict(zip(fields, r, strict=True)) for r in sweep_results["runs"]]
        (run,) = [r for r in runs if REAL_TEXT.items() <= r.items()]
        return {"mean loss": run[f"mean loss, first {head_sweep.CHECKED_STEPS} steps"]}
    table = design_results["designs"][kind]
    k = list(fresh_seeds.SEEDS).index(seed)
    return {f: table[f][k] if f in table else None for f in fresh_seeds.DESIGN_FIELDS}


def gaps(job: tuple[str, int], retrained: dict, record: dict | None = None):
    """(what, gap, tolerance) for each number of a retrained job against its
    record (`recorded`'s, unless given), and for its early losses against
    `make spread`'s (the first step past its tolerance, if any, else the one
    where gap / tolerance is largest), by
    `tolerances`' rule; for a field that must be equal, (what, got, want).
    `retrained` is run_job's result."""
    kind, seed = job
    if kind == "twin":
        return twin_gaps(seed, retrained)
    record = recorded(job) if record is None else record
    tol, spread = tolerances()[kind], load()["jobs"][f"{kind} {seed}"]
    found = []
    for field, want in record.items():
        got = retrained["record"][field]
        if want is None:  # a field the record does not keep
            continue
        if tol[field] is None:
            found.append((field, got, want))
        else:
            found.append((field, abs(got - want), tol[field]))
    steps = step_gaps(retrained["early"], spread["early"])
    over = [i for i in range(EARLY) if steps[i] > tol["early"][i]]  # the first
    step = (
        over[0] if over else max(range(EARLY), key=lambda i: steps[i] / tol["early"][i])
    )
    found.append((f"the loss at step {step + 1}", steps[step], tol["early"][step]))
    return found


def compare(job: tuple[str, int], retrained: dict, record: dict | None = None):
    """What is wrong with a retrained job (`gaps`): [] if nothing."""
    problems = []
    for what, gap, allowed in gaps(job, retrained, record):
        if isinstance(gap, float) and isinstance(allowed, float):
            if gap > allowed:
                problems.append(f"{what}: {gap:.3g} apart, tolerance {allowed:.3g}")
        elif gap != allowed:
            problems.append(f"{what}: {gap!r}, recorded {allowed!r}")
    return problems


def worst(job: tuple[str, int], retrained: dict) -> float:
    """The largest gap / tolerance of a retrained job: at most 1 to pass."""
    ratios = [g / t for _, g, t in gaps(job, retrained) if isinstance(t, float)]
    return max(ratios)


def environment(kernels: dict | None) -> dict:
    """This process's environment with `kernels` set (a setting None: unset)."""
    env = dict(os.environ)
    for name, value in (kernels or {}).items():
        env.pop(name, None)
        env |= {name: value} if value else {}
    return env


def retrain(
    jobs: list[tuple[str, int]], plant: str | None = None, kernels: dict | None = None
) -> list[dict]:
    """run_job's result for each job, in a new process under the caller's own
    kernel settings (whatever they are: the checks hold on any of them), or
    under `kernels` (a setting None: unset) where given; for ("kernels", 0),
    the settings and torch's CPU capability there."""
    env = environment(kernels)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "retrained.json"
        command = [sys.executable, "-m", "experiments.nudge_spread",
                   "--again", repr(jobs), "--output", str(path)]  # fmt: skip
        command += ["--plant", plant] if plant else []
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:4])} failed:\n{done.stderr}")
        return json.loads(path.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--again", help="retrain's jobs; to --output")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--plant", choices=PLANTS, help="an error planted: retrain")
    args = parser.parse_args()
    if args.again:
        torch.set_num_threads(1)
        found = [
            fresh_seeds.machine()
            if kind == "kernels"
            else run_job((kind, seed), plant=args.plant)
            for kind, seed in ast.literal_eval(args.again)
        ]
        args.output.write_text(json.dumps(found), encoding="utf-8")
        return
    fresh_seeds.under_kernels("experiments.nudge_spread")  # the records' kernels
    key = code_key()
    with ProcessPoolExecutor(args.jobs) as pool:
        measured = list(pool.map(_measure, JOBS))
    spread = {
        "code": key,
        "made": fresh_seeds.machine(),
        "multiple": MULTIPLE,
        "early steps": EARLY,
        "jobs": {f"{k} {s}": m for (k, s), m in zip(JOBS, measured, strict=True)},
    }
    args.output.write_text(json.dumps(spread, indent=1) + "\n", encoding="utf-8")
    for kind, tol in tolerances(spread).items():
        early = tol.pop("early")
        shown = {f: f"{t:.2g}" for f, t in tol.items() if t is not None}
        print(f"{kind}: {shown}; the losses: step 10 {early[9]:.1e},",
              f"step {EARLY} {early[-1]:.1e}")  # fmt: skip


if __name__ == "__main__":
    main()
