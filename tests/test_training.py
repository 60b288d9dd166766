"""Heads that learn (docs/training.ipynb): the outcomes, over every seed.

The notebook itself runs during the site build (tests/test_site_build.py); here the
same experiment runs once per seed, in-process, and each claim is asserted.
"""

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import matplotlib
import pytest
import torch
from mkdocs.config import load_config

from snippets.training import outcomes as claims
from snippets.training.data import T, make_batch
from snippets.training.figures import heatmaps, loss_curves, position_labels
from snippets.training.metrics import head_divergence, js_divergence, where_heads_look
from snippets.training.model import Attention, count_parameters
from snippets.training.train import held_out, train
from tests.browser.browser_kit import built_site as shared_build
from tests.pages import copy_sources
from tests.test_site_build import build

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "training.ipynb"


@pytest.fixture(scope="module")
def outcomes() -> dict[int, claims.Outcome]:
    torch.use_deterministic_algorithms(True)
    return {o.seed: o for o in claims.run_all()}  # trained, or saved by the build


# --- the task and the model ----------------------------------------------------------


def test_targets_are_the_two_lookups():
    x, y = make_batch(64, torch.Generator().manual_seed(1))
    assert x.shape == (64, T, 4) and y.shape == (64, T, 2)
    for n in range(64):
        largest = x[n, :, 1].argmax()
        for i in range(T):
            assert y[n, i, 0] == x[n, (i - 1) % T, 0]  # the previous value, cyclic
            assert y[n, i, 1] == x[n, largest, 0]  # the value at the largest k


def test_two_heads_and_one_wide_head_have_the_same_parameter_count():
    assert count_parameters(Attention(2, 2)) == count_parameters(Attention(1, 4)) == 70


def test_attention_rows_sum_to_one():
    x, _ = make_batch(8, torch.Generator().manual_seed(2))
    out, weights = Attention(2, 2)(x)
    assert out.shape == (8, T, 2) and weights.shape == (8, 2, T, T)
    torch.testing.assert_close(weights.sum(-1), torch.ones(8, 2, T))


def test_js_divergence_is_zero_for_equal_rows_and_one_bit_for_disjoint_rows():
    p = torch.tensor([[0.5, 0.5, 0.0, 0.0], [0.1, 0.2, 0.3, 0.4]])
    q = torch.tensor([[0.0, 0.0, 0.5, 0.5], [0.1, 0.2, 0.3, 0.4]])
    torch.testing.assert_close(js_divergence(p, q), torch.tensor([1.0, 0.0]))
    weights = torch.stack([p, q], dim=0)[None]  # (1, heads=2, rows=2, 4)
    assert head_divergence(weights) == pytest.approx(0.5)


def test_where_heads_look_finds_a_previous_token_head_and_a_largest_k_head():
    x, _ = make_batch(4, torch.Generator().manual_seed(3))
    previous = torch.eye(T).roll(shifts=-1, dims=1)  # row i has its 1 at column i - 1
    largest = torch.zeros(4, T, T)
    largest[torch.arange(4), :, x[..., 1].argmax(1)] = 1
    weights = torch.stack([previous.expand(4, T, T), largest], dim=1)  # (4, 2, T, T)
    looks = where_heads_look(weights, x)
    assert looks[0, 0] == 1 and looks[1, 1] == 1
    assert looks[0, 1] < 1 and looks[1, 0] < 1


def test_training_is_reproducible_and_leaves_the_thread_count_alone():
    threads = torch.get_num_threads()
    a, b = train(2, 2, seed=7, steps=5), train(2, 2, seed=7, steps=5)
    assert a.losses == b.losses and a.test_mse == b.test_mse
    assert torch.get_num_threads() == threads
    for p, q in zip(a.before.parameters(), a.after.parameters(), strict=True):
        assert not torch.equal(p, q)  # "before" is a frozen copy of the start


# --- the outcomes, over every seed ----------------------------------------------------


@pytest.mark.parametrize("seed", claims.SEEDS)
def test_two_heads_learn_both_lookups(outcomes, seed):
    accuracy = outcomes[seed].two.test_accuracy
    assert accuracy.min() >= claims.TWO_HEADS_MIN_ACCURACY


@pytest.mark.parametrize("seed", claims.SEEDS)
def test_one_head_of_width_4_is_clearly_worse(outcomes, seed):
    o = outcomes[seed]
    assert o.one.test_accuracy.mean() <= claims.ONE_HEAD_MAX_ACCURACY
    assert o.one.test_mse >= claims.ONE_HEAD_MIN_MSE_RATIO * o.two.test_mse
    # The prose: it always misses the largest-key lookup ...
    assert o.one.test_accuracy[1] < 0.2


def test_one_head_answers_close_to_0_for_the_largest_key_output(outcomes):
    x, y = held_out()
    for o in outcomes.values():
        with torch.no_grad():
            guess = o.one.after(x)[0][..., 1]
        assert guess.abs().mean() < 0.2 < y[..., 1].abs().mean() / 2


def test_one_head_sometimes_learns_the_previous_token_and_sometimes_neither(outcomes):
    # ... in some seeds it learns the previous-token lookup, in others neither.
    previous = [o.one.test_accuracy[0].item() for o in outcomes.values()]
    assert max(previous) > 0.9 and min(previous) < claims.ONE_HEAD_MAX_ACCURACY


@pytest.mark.parametrize("seed", claims.SEEDS)
def test_heads_start_alike_and_end_apart(outcomes, seed):
    o = outcomes[seed]
    assert o.js_before <= claims.JS_BEFORE_MAX
    assert o.js_after >= claims.JS_AFTER_MIN


@pytest.mark.parametrize("seed", claims.SEEDS)
def test_each_lookup_has_its_own_head(outcomes, seed):
    looks = outcomes[seed].looks  # (head, place)
    assert looks.max(dim=0).values.min() >= claims.ROLE_MIN_ATTENTION
    assert set(looks.argmax(dim=0).tolist()) == {0, 1}  # different heads


@pytest.mark.parametrize("seed", claims.SEEDS)
def test_every_seed_passes_the_notebooks_own_check(outcomes, seed):
    assert outcomes[seed].failures() == []


def test_the_check_catches_each_broken_claim(outcomes):
    good = outcomes[0]
    bad_two = replace(good.two, test_accuracy=torch.tensor([1.0, 0.5]))
    bad_one = replace(good.one, test_accuracy=torch.tensor([0.9, 0.9]), test_mse=0.0)
    broken = replace(
        good, two=bad_two, one=bad_one, js_before=0.5, js_after=0.1,
        looks=torch.tensor([[0.95, 0.2], [0.9, 0.2]]),
    )  # fmt: skip
    assert len(broken.failures()) == 6


def test_runs_are_saved_per_version_of_the_code(monkeypatch, tmp_path):
    trained = []
    monkeypatch.setattr(claims, "run_seed", lambda seed: trained.append(seed) or seed)
    assert claims.run_all([3, 4], cache=tmp_path) == [3, 4]
    assert claims.run_all([3, 4], cache=tmp_path) == [3, 4]  # loaded, not trained
    assert trained == [3, 4]
    assert claims.run_all([3], cache=None) == [3] and trained == [3, 4, 3]
    assert [p.name.split("-", 1)[1] for p in tmp_path.iterdir()] == ["3-4.pt"]


def test_saved_runs_equal_fresh_runs(outcomes):
    fresh = claims.run_seed(0)
    saved = outcomes[0]
    assert fresh.two.losses == saved.two.losses
    assert fresh.one.test_mse == saved.one.test_mse
    assert fresh.js_after == saved.js_after


def test_heads_before_training_stay_near_uniform(outcomes):
    x, _ = held_out()
    for o in outcomes.values():
        with torch.no_grad():
            weights = o.two.before(x)[1]
        assert (weights - 1 / T).abs().mean() < 0.05  # on average near 1/6


def test_loss_falls_far_for_two_heads_and_plateaus_for_one(outcomes):
    for o in outcomes.values():
        two, one = o.two.losses, o.one.losses
        assert len(two) == len(one) == 800 and all(map(math.isfinite, two + one))
        assert sum(two[-50:]) / 50 < sum(two[:10]) / 10 / 20
        assert sum(one[-50:]) / 50 > 10 * sum(two[-50:]) / 50


def test_summary_table_has_a_row_per_seed(outcomes):
    table = claims.summary(list(outcomes.values()))
    assert len(table.splitlines()) == 2 + len(claims.SEEDS)


def test_figures_draw(outcomes):
    x, _ = held_out()
    labels = position_labels(x[0])
    assert sum(label.endswith("*") for label in labels) == 1
    with torch.no_grad():
        rows = {"after": outcomes[0].two.after(x[:1])[1][0]}
        rows["one"] = outcomes[0].one.after(x[:1])[1][0]
    fig = heatmaps(rows, labels)
    assert len([ax for ax in fig.axes if ax.axison]) == 3  # 2 heads + 1 head
    fig = loss_curves({"two": [outcomes[0].two], "one": [outcomes[0].one]})
    assert len(fig.axes[0].lines) == 2


# --- the notebook as a file and as a page ---------------------------------------------


def test_notebook_is_kept_without_outputs():
    nb = json.loads(NOTEBOOK.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] for c in code)
    assert all(c["execution_count"] is None for c in code)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


def test_notebook_is_executed_strictly_and_downloadable():
    config = load_config(str(ROOT / "mkdocs.yml"))
    jupyter = config.plugins["mkdocs-jupyter"].config
    assert jupyter["execute"] is True and jupyter["allow_errors"] is False
    assert jupyter["include_source"] is True and jupyter["include"] == ["*.ipynb"]
    assert "training.ipynb" in json.dumps(config["nav"])  # listed in the nav
    assert "page.nb_url" in (ROOT / "overrides" / "main.html").read_text()


# --- the notebook page fails the build loudly -----------------------------------------


@pytest.fixture
def copy_of_site(tmp_path):
    return copy_sources(tmp_path / "src")


def test_a_broken_link_in_the_notebook_fails_the_build(copy_of_site, tmp_path):
    text = (copy_of_site / "docs/training.ipynb").read_text(encoding="utf-8")
    assert "../random-heads/" in text
    broken = text.replace("../random-heads/", "../no-such-page/")
    (copy_of_site / "docs/training.ipynb").write_text(broken, encoding="utf-8")
    result = build(copy_of_site, tmp_path / "out", HEADS_EXECUTE_NOTEBOOKS="false")
    assert result.returncode != 0
    assert "no-such-page" in result.stdout + result.stderr


def test_an_error_in_a_notebook_cell_fails_the_build(copy_of_site, tmp_path):
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cell = dict(nb["cells"][1], source="raise ValueError('planted in a cell')")
    nb["cells"] = [nb["cells"][0], cell]  # the title, then the failing cell
    (copy_of_site / "docs/training.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    result = build(copy_of_site, tmp_path / "out", CI="true")
    assert result.returncode != 0
    assert "planted in a cell" in result.stdout + result.stderr


def test_the_notebook_page_offers_the_ipynb_and_loads_nothing_from_elsewhere():
    page = shared_build() / "training"  # the suite's one strict build
    html = (page / "index.html").read_text(encoding="utf-8")
    assert (page / "training.ipynb").read_bytes() == NOTEBOOK.read_bytes()
    assert re.search(r'<a href="training.ipynb"[^>]*download', html)
    scripts = re.findall(r'<script[^>]*src="([^"]*)"', html)
    assert scripts and all(src.startswith("../assets/") for src in scripts), scripts
    assert "cdnjs" not in html and "x-mathjax-config" not in html
    # its math is typeset at build time (hooks/katex.py), like every page's
    assert r"$$x_i = \big[" not in html and 'class="katex-display"' in html
