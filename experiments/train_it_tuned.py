"""What PyTorch computes for the live trainer at each design's own best settings.

    make twin-tuned      (or: python -m experiments.train_it_tuned)

`make tune` (experiments/fair_fight.py) gave every design of Heads against width
and depth its own learning rate and number of steps, chosen on tuning seeds that
no page reports. The live trainer (docs/train-it.md) offers the page's five
designs at those settings too; this script trains the same runs in PyTorch,
float64, from the random numbers the trainer shares with Python
(snippets/train_it/ex01_stream.py; width-and-depth's model for the depth
designs, experiments/train_it_depth.py), and writes:

- snippets/train_it/tuned_results.py: each design's settings, and for the seeds
  of "Train 100 seeds" and the three designs of one layer, what the training
  page's claims find (as snippets/train_it/twin_results.py does at the page's own
  settings), and the same for each run trained from a start one ulp up
  (`measure_nudged`): the browser suite checks that the button shows the same,
  within PyTorch's own spread;
- tests/data/train_it_tuned_steps.json: for the seeds of STEP_SEEDS and every
  design, the loss at every step, the final weights and PyTorch's own spread (its
  run with every initial weight one ulp up), in the layout of
  tests/data/train_it_steps.json: the browser suite compares the page's trainer
  with it step for step.

Keyed on the code (`code_key`: torch's version, the snippets, the settings, this
file's training code); tests/test_train_it.py fails while the key is stale.
About 50 minutes on two cores (47 on a 2-core AMD EPYC: 27 for the runs, 20 for
the runs from one ulp up).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch
import torch.nn.functional as F

from experiments import fresh_seeds
from experiments import train_it_twin as twin

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "snippets" / "train_it" / "tuned_results.py"
STEPS_FILE = ROOT / "tests" / "data" / "train_it_tuned_steps.json"
SEEDS = twin.SEEDS  # "Train 100 seeds", as at the page's settings
# the trainer's name of each design -> make tune's
NAMES = {"2x2": "2 x 2", "1x4": "1 x 4", "4x1": "4 x 1", "1L": "1 layer",
         "2L": "2 layers"}  # fmt: skip
ONE_LAYER = ("2x2", "1x4", "4x1")  # the designs the training page's claims are about
STEP_SEEDS = range(0, 10)  # checked step for step, in every design
MODULES = [
    "snippets.train_it.ex01_stream",
    "snippets.train_it.ex03_train",
    "snippets.train_it.ex05_claims",
    "snippets.training.ex03_model",
    "snippets.width_and_depth.ex04_one_head_per_layer",
]
HEADER = '''\
"""Written by `make twin-tuned` (experiments/train_it_tuned.py): the live
trainer's designs at their own best settings (`make tune`'s choice on seeds
no page reports), trained in PyTorch, float64, from the random numbers the
trainer shares with Python. For seeds 0 to 99 and each design of one layer:
on the held-out sequences, the accurate predictions on each lookup, and the
claims of the training page that each run breaks."""


def per_seed(text):
    """{seed: (previous value, largest key's)}: a pair a seed, from seed 0."""
    numbers = [int(word) for word in text.split()]
    return dict(enumerate(zip(numbers[::2], numbers[1::2], strict=True)))

'''


def settings() -> dict[str, tuple[float, int]]:
    """Each design's own best (learning rate, steps), as `make tune` chose it."""
    from snippets.width_and_depth.tuned_results import tuned_results

    return {design: tuned_results["best"][name] for design, name in NAMES.items()}


def model_of(design: str, seed: int) -> torch.nn.Module:
    """The design's model, float64, with the trainer's initial weights for seed."""
    from experiments import train_it_depth as depth
    from snippets.train_it.ex01_stream import DESIGNS, initial_weights
    from snippets.training.ex03_model import Attention
    from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer

    if design in ONE_LAYER:
        model = Attention(*DESIGNS[design]).double()
        model.load_state_dict(initial_weights(seed))
    else:
        layers = depth.DESIGNS[NAMES[design]]
        model = OneHeadPerLayer(layers).double()
        model.load_state_dict(depth.initial_weights(layers, seed))
    return model


def train(model: torch.nn.Module, seed: int, lr: float, steps: int) -> tuple:
    """The live trainer's run in PyTorch, at learning rate lr for `steps` steps:
    the sequences of random.Random(seed), Adam and the cosine schedule, the key
    biases left where they start (their gradient is zero). The final state_dict
    and every step's loss."""
    from snippets.train_it.ex01_stream import make_batch
    from snippets.train_it.ex03_train import BATCH

    for name, weight in model.named_parameters():
        weight.requires_grad_(not name.endswith("W_key.bias"))
    trained = [p for p in model.parameters() if p.requires_grad]
    data = random.Random(seed)
    optimizer = torch.optim.Adam(trained, lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    losses = []
    for _ in range(steps):
        x, y = make_batch(BATCH, data)
        loss = F.mse_loss(model(x)[0], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
    return model.state_dict(), losses


def measure_run(job: tuple[str, int]) -> dict:
    """One design and seed at its own best: for the designs of one layer, its
    measures before and after (ex05_claims.measure); for the seeds of
    STEP_SEEDS, its steps and PyTorch's own spread (twin.steps_entry, without
    the Python twin's columns: the page's hand-written twin trains at the
    page's settings only)."""
    from snippets.train_it.ex01_stream import DESIGNS
    from snippets.train_it.ex05_claims import measure

    design, seed = job
    torch.set_num_threads(1)
    lr, steps = settings()[design]
    weights, losses = train(model_of(design, seed), seed, lr, steps)
    found = {}
    if design in ONE_LAYER:
        heads = DESIGNS[design][0]
        found["after"] = measure(weights, heads)
        found["before"] = measure(model_of(design, seed).state_dict(), heads)
    if seed in STEP_SEEDS:
        start = twin.nudged(model_of(design, seed).state_dict())
        nudged = model_of(design, seed)
        nudged.load_state_dict(start)
        spread_weights, spread = train(nudged, seed, lr, steps)
        entry = twin.steps_entry({"losses": losses, "weights": weights,
                                  "spread": spread, "spread weights": spread_weights,
                                  "twin": losses, "twin weights": weights})  # fmt: skip
        del entry["twin"]  # no Python twin here (see above)
        found["steps"] = entry
    return found


def measure_nudged(job: tuple[str, int]) -> dict:
    """One design of one layer and a seed at its own best, from its start with
    every weight one ulp up: its measures after training. Where they differ
    from the run's own, training carries a difference in the last bit into the
    verdict: PyTorch's own spread, which the page is held to."""
    from snippets.train_it.ex01_stream import DESIGNS
    from snippets.train_it.ex05_claims import measure

    design, seed = job
    torch.set_num_threads(1)
    lr, steps = settings()[design]
    model = model_of(design, seed)
    model.load_state_dict(twin.nudged(model.state_dict()))
    weights, _ = train(model, seed, lr, steps)
    return {"after": measure(weights, DESIGNS[design][0])}


def code_key() -> str:
    """The records' key: the runs' (run_key) and the nudged runs' code."""
    digest = hashlib.sha256(run_key().encode())
    digest.update(inspect.getsource(measure_nudged).encode())
    return digest.hexdigest()[:16]


def run_key() -> str:
    """measure_run's key: torch's version, the snippets it runs, the settings,
    the seeds and this file's training and measuring code."""
    from snippets import sources_key

    digest = hashlib.sha256(torch.__version__.encode())
    for module in MODULES:
        digest.update(sources_key(module).encode())
    functions = [model_of, train, measure_run, twin.nudged, twin.steps_entry]
    digest.update("".join(inspect.getsource(f) for f in functions).encode())
    digest.update(repr((sorted(settings().items()), SEEDS, STEP_SEEDS)).encode())
    return digest.hexdigest()[:16]


def saved_run(job: tuple[str, str, int]) -> dict:
    """measure_run (job "run") or measure_nudged ("nudged") of a design and seed,
    saved under .cache/train_it/, keyed on its code and the kernels it ran
    under."""
    kind, design, seed = job
    key = run_key() + fresh_seeds.kernel_settings()
    if kind == "nudged":
        key += inspect.getsource(measure_nudged)
    key = hashlib.sha256(key.encode()).hexdigest()[:16]
    name = "tuned" if kind == "run" else "tuned-nudged"
    path = twin.CACHE / f"{name}-{key}-{design}-{seed}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    measured = measure_run if kind == "run" else measure_nudged
    found = json.loads(json.dumps(measured((design, seed))))  # as saved
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(found), encoding="utf-8")
    partial.replace(path)  # atomic: nobody reads half a file
    return found


def write_results(key: str, made: dict, total: int, runs: dict, nudged: dict) -> None:
    """In twin_results.py's layout (five seeds a line), with the settings, and the
    same for the runs from a start one ulp up."""
    lines = [HEADER, "# fmt: off", "tuned_results = {"]
    lines.append(f'    "code": "{key}",  # its code_key()')
    lines.append(f'    "seeds": ({SEEDS.start}, {SEEDS.stop}),  # range(start, stop)')
    lines.append(f'    "total": {total},  # held-out predictions per lookup')
    lines += fresh_seeds.made_lines(made)
    lines.append('    "settings": {  # design -> (learning rate, steps): make tune\'s')
    lines += [f'        "{d}": {s!r},' for d, s in settings().items()]
    lines.append("    },")
    lines += twin.correct_lines(runs)
    lines += twin.broken_lines(runs)
    again = "the same, trained from a start one ulp up"
    lines += twin.correct_lines(nudged, "nudged correct", again)
    lines += twin.broken_lines(nudged, "nudged broken", again)
    lines += ["}", "# fmt: on", ""]
    text = "\n".join(lines)
    assert max(map(len, text.splitlines())) <= 78, "snippets/ruff.toml"
    RESULTS.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    fresh_seeds.under_kernels("experiments.train_it_tuned")  # portable kernels
    from snippets.train_it.ex05_claims import broken, x_test

    jobs = [("run", d, s) for d in ONE_LAYER for s in SEEDS]
    jobs += [("run", d, s) for d in NAMES if d not in ONE_LAYER for s in STEP_SEEDS]
    jobs += [("nudged", d, s) for d in ONE_LAYER for s in SEEDS]
    spawn = multiprocessing.get_context("spawn")  # see train_it_twin.py
    with ProcessPoolExecutor(args.jobs, mp_context=spawn) as pool:
        found = dict(zip(jobs, pool.map(saved_run, jobs), strict=True))
    runs, nudged = {}, {}  # design -> seed -> record: the runs, and one ulp up
    for design in ONE_LAYER:
        runs[design], nudged[design] = {}, {}
        for seed in SEEDS:
            before = found["run", design, seed]["before"]
            for kind, into in [("run", runs), ("nudged", nudged)]:
                after = found[kind, design, seed]["after"]
                two = found[kind, "2x2", seed]["after"]["mse"]
                two = two if after["heads"] == 1 else None
                into[design][seed] = twin.as_record(after, broken(after, before, two))
    key, made = code_key(), fresh_seeds.machine()
    write_results(key, made, x_test.shape[0] * x_test.shape[1], runs, nudged)
    steps = {
        "code": key,
        "made": made,
        "runs": {
            f"{d}/{s}": found["run", d, s]["steps"] for d in NAMES for s in STEP_SEEDS
        },
    }
    STEPS_FILE.write_text(json.dumps(steps) + "\n", encoding="utf-8")
    for design, seeds in runs.items():
        meet = sum(not r["broken"] for r in seeds.values())
        print(f"{design} at {settings()[design]}: meets every claim in {meet} of",
              f"{len(SEEDS)} seeds")  # fmt: skip


if __name__ == "__main__":
    main()
