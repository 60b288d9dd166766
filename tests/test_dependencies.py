"""What is computed from the snippets is redone when, and only when, the code it
imports changes: the saved training runs (keyed on the training code the runs
import, not on the figures' files) and the figures `mkdocs serve` draws (a rebuild
redraws only the figures whose snippets, or what they import, were edited)."""

import json
import shutil
import subprocess
import sys
import types

import pytest
import torch

import snippets
from snippets import sources, sources_key
from tests.pages import ROOT, SNIPPETS, copy_sources

TRAINING = "snippets.training.ex07_run_seeds"


def names(paths):
    return {p.relative_to(ROOT).as_posix() for p in paths}


def test_the_training_runs_depend_on_the_code_they_import():
    training = ["__init__", "ex01_task", "ex03_model", "ex05_train", "ex06_measures"]
    assert names(sources(TRAINING)) == {
        "snippets/__init__.py",
        *(f"snippets/training/{name}.py" for name in [*training, "ex07_run_seeds"]),
    }


def test_the_training_key_changes_with_the_training_code_only(tmp_path, monkeypatch):
    """A figure's file (ex08) is not part of the key; the training loop (ex05) is."""
    from snippets.training.ex07_run_seeds import code_key

    shutil.copytree(SNIPPETS, tmp_path / "snippets")
    monkeypatch.setattr(snippets, "ROOT", tmp_path)
    before = code_key()
    assert before == code_key()
    with open(tmp_path / "snippets/training/ex08_loss_curves.py", "a") as file:
        file.write("# a figure's edit\n")
    assert code_key() == before
    with open(tmp_path / "snippets/training/ex05_train.py", "a") as file:
        file.write("# a training edit\n")
    assert code_key() != before


def test_a_run_of_this_file_as_a_script_is_not_saved(tmp_path):
    """`python -m snippets.training.ex07_run_seeds` defines `Outcome` in `__main__`;
    a run saved from there could not be loaded by the build or the tests."""
    from snippets.training.ex07_run_seeds import saved

    script = type("Outcome", (), {"__module__": "__main__"})
    run_seed = saved(lambda seed: script(), cache=tmp_path)
    assert type(run_seed(0)) is script
    assert list(tmp_path.iterdir()) == []


def test_a_model_defined_in_a_script_is_not_saved(tmp_path):
    """The same for `saved_training`, when a script defines the model
    (`python -m snippets.width_and_depth.ex06_two_layers`)."""
    from snippets.training.ex07_run_seeds import saved_training

    script_model = type("Model", (), {"__module__": "__main__"})
    run = type("Run", (), {"after": script_model()})

    def train_model(make_model, seed, steps):
        return run

    train = saved_training(train_model, "snippets.training.ex05_train", cache=tmp_path)
    assert train(lambda: torch.nn.Linear(2, 1), seed=0) is run
    assert list(tmp_path.iterdir()) == []


def test_a_run_is_saved_once_and_then_loaded(tmp_path):
    """Covered here, not only when the suite starts with no runs saved."""
    from snippets.training.ex07_run_seeds import saved, saved_training

    seeds = []

    def run_seed(seed):
        seeds.append(seed)
        return types.SimpleNamespace(seed=seed)

    run_seed = saved(run_seed, cache=tmp_path / "seeds")
    assert run_seed(3).seed == run_seed(3).seed == 3 and seeds == [3]
    calls = []

    def train_model(make_model, seed, steps, **settings):
        calls.append((seed, settings))
        return types.SimpleNamespace(after=torch.nn.Linear(2, 1))

    train = saved_training(
        train_model, "snippets.training.ex05_train", cache=tmp_path / "runs"
    )
    first = train(lambda: torch.nn.Linear(2, 1), seed=0)
    again = train(lambda: torch.nn.Linear(2, 1), seed=0)
    assert calls == [(0, {})] and len(list((tmp_path / "runs").iterdir())) == 1
    torch.testing.assert_close(again.after.weight, first.after.weight)
    # the page's learning rate named is the page's run; another is another run
    from snippets.training.ex05_train import LR

    train(lambda: torch.nn.Linear(2, 1), seed=0, lr=LR)
    train(lambda: torch.nn.Linear(2, 1), seed=0, lr=LR / 2)
    assert calls == [(0, {}), (0, {"lr": LR / 2})]


def test_designs_with_the_same_repr_are_saved_apart(tmp_path):
    """1 x 4, 2 x 2 and 4 x 1 print the same repr (the same Linear layers):
    the key holds each part's numbers too (n_heads, d_head)."""
    from snippets.training.ex03_model import Attention
    from snippets.training.ex07_run_seeds import saved_training

    def train_model(make_model, seed, steps):
        model = make_model()
        return types.SimpleNamespace(after=model, heads=model.n_heads)

    train = saved_training(train_model, "snippets.training.ex05_train", cache=tmp_path)
    assert repr(Attention(1, 4)) == repr(Attention(2, 2)) == repr(Attention(4, 1))
    heads = [train(lambda h=h: Attention(h, 4 // h), seed=0).heads for h in (1, 2, 4)]
    assert heads == [1, 2, 4] and len(list(tmp_path.iterdir())) == 3


def test_sources_follow_every_form_of_import(tmp_path, monkeypatch):
    tree = {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/x.py": (
            "import torch\n"
            "import snippets.a.y\n"
            "from snippets.a import z\n"
            "from snippets.a.w import f\n"
        ),
        "a/y.py": "from snippets.b.v import g\n",
        "a/z.py": "",
        "a/w.py": "def f(): pass\n",
        "a/unused.py": "",
        "b/__init__.py": "",
        "b/v.py": "def g(): pass\n",
        "b/relative.py": "import os\nfrom .v import g\n",
    }
    for name, text in tree.items():
        path = tmp_path / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.setattr(snippets, "ROOT", tmp_path)
    found = {
        p.relative_to(tmp_path / "snippets").as_posix() for p in sources("snippets.a.x")
    }
    assert found == set(tree) - {"a/unused.py", "b/relative.py"}
    assert sources("snippets.a.nothing") == []
    assert sources_key("snippets.a.x") != sources_key("snippets.a.y")
    with pytest.raises(ValueError, match=r"relative.py, line 2: a relative import"):
        sources("snippets.b.relative")


# -- mkdocs serve -------------------------------------------------------------------

# Run in a copy of the site's sources: what `mkdocs serve` does on each change (load
# the config, run the hooks), after each edit in turn; report what was drawn.
DRIVER = r"""
import hashlib, json, sys
from pathlib import Path
from mkdocs.config import load_config
from mkdocs.structure.files import get_files

figures, edits = json.loads(sys.argv[1]), json.loads(sys.argv[2])
config = load_config("mkdocs.yml")
config.plugins.on_startup(command="serve", dirty=False)
hook = sys.modules["hooks/generated.py"]
hook.FIGURES = {path: hook.FIGURES[path] for path in figures}
drawn, stale = [], []
draw, forget = hook.draw, hook.forget_stale_snippets
hook.draw = lambda module: drawn.append(module) or draw(module)
hook.forget_stale_snippets = lambda folder: stale.extend(forget(folder))
for edit in [None, *edits]:
    if edit:
        path, old, new = edit
        text = Path(path).read_text()
        assert old in text, (path, old)
        Path(path).write_text(text.replace(old, new))
    drawn.clear(), stale.clear()
    config = load_config("mkdocs.yml")
    config.plugins.on_pre_build(config=config)
    files = config.plugins.on_files(get_files(config), config=config)
    svgs = {f.src_uri: hashlib.sha256(f.content_bytes).hexdigest()
            for f in files if f.src_uri in figures}
    print(json.dumps({"drawn": sorted(drawn), "stale": stale, "svgs": svgs}))
"""

ONE_HEAD = "assets/figures/one-head-heatmap.svg"
SECOND_HEAD = "assets/figures/second-head-heatmaps.svg"
LOSS = "assets/figures/training-loss.svg"
EDITS = [  # (file, text, replaced by)
    # a page, or nothing the figures import
    ("docs/one-head.md", "# One head", "# One head, edited"),
    # the second head's figure
    ("snippets/second_head/ex06_heatmaps.py", "[end:page]", "[end:page]\n# edited"),
    # the heatmap function both heatmap figures import: a new colour map
    ("snippets/one_head/ex05_heatmap.py", 'cmap="Blues"', 'cmap="Greens"'),
    # the loss curves' file, which the saved training runs do not import
    ("snippets/training/ex08_loss_curves.py", 'set_yscale("log', 'set_yscale("linear'),
]


@pytest.fixture(scope="module")
def rebuilds(tmp_path_factory):
    root = copy_sources(tmp_path_factory.mktemp("serve"))
    figures = json.dumps([ONE_HEAD, SECOND_HEAD, LOSS])
    command = [sys.executable, "-c", DRIVER, figures, json.dumps(EDITS)]
    result = subprocess.run(
        command, cwd=root, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_the_first_build_draws_every_figure(rebuilds):
    assert rebuilds[0]["drawn"] == [
        "snippets.one_head.ex05_heatmap",
        "snippets.second_head.ex06_heatmaps",
        "snippets.training.ex08_loss_curves",
    ]


def test_a_page_edit_imports_and_draws_nothing(rebuilds):
    first, after_page = rebuilds[0], rebuilds[1]
    assert after_page["drawn"] == [] and after_page["stale"] == []
    assert after_page["svgs"] == first["svgs"]


def test_a_snippet_edit_redraws_only_the_figures_that_import_it(rebuilds):
    before, after = rebuilds[1], rebuilds[2]
    assert after["drawn"] == ["snippets.second_head.ex06_heatmaps"]
    assert after["stale"] == ["snippets.second_head.ex06_heatmaps"]
    before, after = rebuilds[2], rebuilds[3]
    assert after["drawn"] == [
        "snippets.one_head.ex05_heatmap",
        "snippets.second_head.ex06_heatmaps",
    ]
    assert after["svgs"][ONE_HEAD] != before["svgs"][ONE_HEAD]  # the new colours
    assert after["svgs"][SECOND_HEAD] != before["svgs"][SECOND_HEAD]
    assert after["svgs"][LOSS] == before["svgs"][LOSS]


def test_a_training_figure_edit_keeps_the_training_runs(rebuilds):
    before, after = rebuilds[3], rebuilds[4]
    assert after["drawn"] == ["snippets.training.ex08_loss_curves"]
    assert after["stale"] == ["snippets.training.ex08_loss_curves"]
    assert after["svgs"][LOSS] != before["svgs"][LOSS]  # the new label
