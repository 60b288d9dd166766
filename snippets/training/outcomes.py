"""What the experiment claims, as numbers, and the check of every seed.

The thresholds are chosen here, stated on the page, and asserted by the tests
and by the notebook itself.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import torch

from snippets.training.metrics import head_divergence, where_heads_look
from snippets.training.train import Run, held_out, train

SEEDS = range(5)

TWO_HEADS_MIN_ACCURACY = 0.85  # on each of the two outputs
ONE_HEAD_MAX_ACCURACY = 0.60  # averaged over the two outputs
ONE_HEAD_MIN_MSE_RATIO = 10  # its test error over the two heads' test error
JS_BEFORE_MAX = 0.05  # bits: the two heads start alike ...
JS_AFTER_MIN = 0.50  # bits: ... and end far apart
ROLE_MIN_ATTENTION = (
    0.90  # a head "asks" a question when it puts this much there
)


@dataclass
class Outcome:
    """One seed: two heads of width 2 against one of width 4."""

    seed: int
    two: Run
    one: Run
    js_before: float
    js_after: float
    looks: (
        torch.Tensor
    )  # (2 heads, 2 places): attention on previous / largest k

    def failures(self) -> list[str]:
        """Every claim this seed breaks, in words (empty when all hold)."""
        broken = []
        if self.two.test_accuracy.min() < TWO_HEADS_MIN_ACCURACY:
            broken.append("two heads are not accurate on both outputs")
        if self.one.test_accuracy.mean() > ONE_HEAD_MAX_ACCURACY:
            broken.append("one head of width 4 is too accurate")
        if self.one.test_mse < ONE_HEAD_MIN_MSE_RATIO * self.two.test_mse:
            broken.append("one head's error is not clearly larger")
        if self.js_before > JS_BEFORE_MAX:
            broken.append("the heads do not start alike")
        if self.js_after < JS_AFTER_MIN:
            broken.append("the heads do not end apart")
        best = self.looks.max(dim=0).values  # the best head for each place
        if (
            best.min() < ROLE_MIN_ATTENTION
            or self.looks.argmax(dim=0).unique().numel() < 2
        ):
            broken.append("no separate head for each of the two lookups")
        return [f"seed {self.seed}: {b}" for b in broken]


def run_seed(seed: int) -> Outcome:
    x, _ = held_out()
    two, one = (
        train(n_heads=2, head_dim=2, seed=seed),
        train(n_heads=1, head_dim=4, seed=seed),
    )
    with torch.no_grad():
        before, after = two.before(x)[1], two.after(x)[1]
    return Outcome(
        seed, two, one, head_divergence(before), head_divergence(after),
        where_heads_look(after, x),
    )  # fmt: skip


CACHE = Path(__file__).parents[2] / ".cache" / "training"


def code_key() -> str:
    """A fingerprint of the training code: this folder's files and torch."""
    h = hashlib.sha256(torch.__version__.encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def run_all(seeds=SEEDS, cache: Path | None = CACHE) -> list[Outcome]:
    """Every seed's outcome, trained once per version of the code.

    The site's build (the notebook) and its tests need the same runs; saving
    them under .cache/training/, keyed on the code that produced them, lets
    whichever comes first train and the other load. Training is deterministic,
    so a loaded run is bit for bit the run that would be trained.
    """
    path = (
        cache / f"{code_key()}-{'-'.join(map(str, seeds))}.pt"
        if cache
        else None
    )
    if path is not None and path.exists():
        return torch.load(path, weights_only=False)
    outcomes = [run_seed(seed) for seed in seeds]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        torch.save(outcomes, partial)
        partial.replace(path)  # atomic: a reader never sees half a file
    return outcomes


def summary(outcomes: list[Outcome]) -> str:
    """A plain-text table, one row per seed."""
    lines = [
        "      JS divergence   two heads of width 2   one head of width 4",
        "seed  before  after   acc prev  max k   MSE   acc prev  max k   MSE",
    ]
    for o in outcomes:
        a2, a1 = o.two.test_accuracy.tolist(), o.one.test_accuracy.tolist()
        lines.append(
            f"{o.seed:4d}  {o.js_before:6.3f}  {o.js_after:5.3f}   "
            f"{a2[0]:8.2f}  {a2[1]:5.2f}  {o.two.test_mse:.3f}   "
            f"{a1[0]:8.2f}  {a1[1]:5.2f}  {o.one.test_mse:.3f}"
        )
    return "\n".join(lines)
