import hashlib
import os
from pathlib import Path

from snippets import sources_key
from snippets.training.ex01_task import torch
from snippets.training.ex05_train import (
    BATCH,
    LR,
    N_TEST,
    STEPS,
    Run,
    held_out,
    train,
)
from snippets.training.ex06_measures import head_divergence, where_heads_look

# isort: split
# --8<-- [start:define]
from dataclasses import dataclass

SEEDS = range(5)


@dataclass
class Outcome:
    """One seed: two heads of width 2 against one head of width 4."""

    seed: int
    two: Run
    one: Run
    js_before: float  # between the two heads, on held-out sequences
    js_after: float
    looks: torch.Tensor  # (2 heads, 2 places): previous, largest k


def run_seed(seed):
    two = train(n_heads=2, d_head=2, seed=seed)
    one = train(n_heads=1, d_head=4, seed=seed)
    x, _ = held_out()
    with torch.no_grad():
        before, after = two.before(x)[1], two.after(x)[1]
    return Outcome(
        seed, two, one, head_divergence(before), head_divergence(after),
        where_heads_look(after, x),
    )  # fmt: skip


# --8<-- [end:define]


# Not on the page. The site's build (the figures) and its tests need these
# runs too. Training is deterministic, so `saved` stores each seed's outcome
# under .cache/training/, keyed on the code the runs import (this file and the
# snippets it imports, transitively: not the figures' files), torch's
# version and the kernel settings below, and loads it while they are
# unchanged. A page's own blocks, which the tests run as a reader would,
# always train.
CACHE = Path(__file__).parents[2] / ".cache" / "training"


# A CPU's own kernels round some sums differently in the last bit, and 800
# steps of training can carry that into the third decimal: a run is saved
# for the kernels it ran on (benchmarks/fresh_seeds.py pins portable ones).
KERNEL_SETTINGS = "MKL_CBWR", "MKL_ENABLE_INSTRUCTIONS", "ATEN_CPU_CAPABILITY"


def code_key():
    digest = hashlib.sha256(torch.__version__.encode())
    digest.update(sources_key("snippets.training.ex07_run_seeds").encode())
    digest.update(repr([os.environ.get(k) for k in KERNEL_SETTINGS]).encode())
    return digest.hexdigest()[:16]


def saved(run_seed, cache=CACHE):
    def run_or_load(seed):
        path = cache / f"{code_key()}-seed{seed}.pt"
        if path.exists():
            return torch.load(path, weights_only=False)
        outcome = run_seed(seed)
        if type(outcome).__module__ == "__main__":
            return outcome  # this file run as a script: no other can load it
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        torch.save(outcome, partial)
        partial.replace(path)  # atomic: nobody reads half a file
        return outcome

    return run_or_load


def saved_training(train_model, module, cache=CACHE):
    """train_model(make_model, seed), with each run saved like `saved`'s,
    keyed on `code_key()` (training), the code `module` imports (which must
    define the model and any task), the model's structure (its repr, and
    the numbers its parts keep that the repr leaves out: Attention's heads
    and their width), the seed, and the settings (lr, batch, task: the
    page's where not given)."""

    def run_or_load(make_model, seed, steps=STEPS, **settings):
        named = {"lr": LR, "batch": BATCH, "task": "make_batch"}
        for name, value in settings.items():  # a task by its name
            named[name] = getattr(value, "__qualname__", value)
        digest = hashlib.sha256(code_key().encode())
        digest.update(sources_key(module).encode())
        model = make_model()
        kept = [  # 1 x 4, 2 x 2 and 4 x 1 have the same repr
            {k: v for k, v in vars(part).items() if type(v) in (int, float)}
            for part in model.modules()
        ]
        digest.update(f"{model!r} {kept} {seed} {steps} {named}".encode())
        path = cache / f"run-{digest.hexdigest()[:16]}.pt"
        if path.exists():
            return torch.load(path, weights_only=False)
        run = train_model(make_model, seed, steps, **settings)
        if type(run.after).__module__ == "__main__":
            return run  # a model defined in a script: no other can load it
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        torch.save(run, partial)
        partial.replace(path)  # atomic: nobody reads half a file
        return run

    return run_or_load


fresh_run_seed = run_seed
run_seed = saved(fresh_run_seed)

# --8<-- [start:run]
print(f"{STEPS} steps, batch {BATCH}, learning rate {LR},",
      f"{N_TEST} held-out sequences, seeds {list(SEEDS)}")  # fmt: skip
outcomes = [run_seed(seed) for seed in SEEDS]  # trains 10 models
# --8<-- [end:run]
