"""MkDocs hook: the live trainer on docs/train-it.md.

At the page's marker: the trainer's stylesheet, its script (assets/js/train-it.js)
and its settings, taken from the snippets the page shows (snippets/train_it/), so
that the page and Python train and judge the same runs. The trainer itself
(assets/js/trainer.js, Web Workers) is fetched only when the reader presses Train.
"""

from __future__ import annotations

import contextlib
import io
import json

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

MARKER = "<!-- trainer: data and script -->"
SCRIPT = "assets/js/train-it.js"
TRAINER = "assets/js/trainer.js"
STYLE = "assets/css/train-it.css"
SHOWN_TOP = 3  # the maps' sequence: the first held out whose largest key is here
EVERY = 10  # a frame every this many steps
# width-and-depth's designs of one head of width 4 per layer, on a residual stream
# (experiments/train_it_depth.py trains them in PyTorch): name -> layers
LAYERS = {"1L": 1, "2L": 2}
# the thresholds (snippets/train_it/ex05_claims.py) the page's JavaScript judges with
THRESHOLDS = [
    "TWO_HEADS_MIN_ACCURACY",
    "ONE_HEAD_MAX_ACCURACY",
    "ONE_HEAD_MIN_MSE_RATIO",
    "JS_BEFORE_MAX",
    "JS_AFTER_MIN",
    "ROLE_MIN_ATTENTION",
]


def trainer_data() -> dict:
    """What train-it.js and trainer.js compute with, from the snippets."""
    with contextlib.redirect_stdout(io.StringIO()):  # the snippets print
        from snippets.train_it import ex05_claims as claims
        from snippets.train_it.ex01_stream import DESIGNS
        from snippets.train_it.ex03_train import BATCH, LR, STEPS
        from snippets.train_it.twin_results import twin_results

    return {
        "steps": STEPS,
        "batch": BATCH,
        "lr": LR,
        "tol": claims.TOL,
        "test_size": claims.x_test.shape[0],
        "test_seed": claims.TEST_SEED,
        "shown_top": SHOWN_TOP,
        "every": EVERY,
        "designs": {name: list(design) for name, design in DESIGNS.items()},
        "layers": LAYERS,
        "claims": {name.lower(): getattr(claims, name) for name in THRESHOLDS},
        "seeds": list(twin_results["seeds"]),  # what make twin trained
        "shown_bottom": shown_bottom(claims.x_test),
        "lookups": lookups_data(),
        "tuned": tuned_data(),
    }


def shown_bottom(x_test) -> int:
    """Where the key is smallest in the sequence the maps show."""
    keys = x_test[..., 1]  # (n, T)
    s = int((keys.argmax(dim=1) == SHOWN_TOP).nonzero()[0])
    return int(keys[s].argmin())


def lookups_data() -> dict:
    """How-many-heads' cells (snippets/train_it/ex08_lookups.py): the width, each
    cell's learning rate, and in how many of the seeds make twin-lookups trained
    PyTorch is accurate on every lookup."""
    with contextlib.redirect_stdout(io.StringIO()):
        from snippets.train_it.ex05_claims import TWO_HEADS_MIN_ACCURACY as line
        from snippets.train_it.ex08_lookups import CELL_WIDTH, held
        from snippets.train_it.lookups_results import lookups_results

    total = held[0].shape[0] * held[0].shape[1]  # held-out predictions per lookup
    cells = lookups_results["cells"].items()
    return {
        "width": CELL_WIDTH,
        "seeds": list(lookups_results["seeds"]),
        "rates": {f"{k},{h}": cell["lr"] for (k, h), cell in cells},
        "pytorch": {
            f"{k},{h}": sum(min(c) / total >= line for c in cell["correct"].values())
            for (k, h), cell in cells
        },
    }


def tuned_data() -> dict:
    """Each design at its own best settings (snippets/train_it/tuned_results.py,
    from `make tune`'s choice): the steps, one for every design, since the page
    draws one chart; each design's learning rate; the seeds PyTorch trained."""
    with contextlib.redirect_stdout(io.StringIO()):
        from snippets.train_it.tuned_results import tuned_results

    settings = tuned_results["settings"]
    steps = {steps for _, steps in settings.values()}
    if len(steps) != 1:  # the chart, the slider and the link hold one number
        raise PluginError(f"tuned_results.py: the designs' steps differ: {settings}")
    return {
        "steps": steps.pop(),
        "own": {design: lr for design, (lr, _) in settings.items()},
        "seeds": list(tuned_results["seeds"]),
    }


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    here = page.file.url
    data = {**trainer_data(), "trainer": get_relative_url(TRAINER, here)}
    html = (
        f'<link rel="stylesheet" href="{get_relative_url(STYLE, here)}">\n'
        f'<script type="application/json" id="train-it-data">'
        f"{json.dumps(data, separators=(',', ':'))}</script>\n"
        f'<script src="{get_relative_url(SCRIPT, here)}" defer></script>'
    )
    return markdown.replace(MARKER, html)
