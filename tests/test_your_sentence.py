"""Claims on docs/your-sentence.md: the model the browser runs (hooks/live_model.py)
against PyTorch (snippets/your_sentence/ex01_reference.py), its cache and size.
The page in Chromium against PyTorch: tests/browser/test_your_sentence.py."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import torch
from mkdocs.exceptions import PluginError

import snippets
from hooks import live_model
from tests.browser import test_your_sentence as browser
from tests.pages import DOCS, SNIPPETS, check_prose_numbers, lazy, on_page

PAGE = "your-sentence.md"
ref = on_page(PAGE, "snippets.your_sentence.ex01_reference")
figure = on_page(PAGE, "snippets.your_sentence.ex02_all_heads")
found = lazy("snippets.real_model.ex04_find_heads")


@pytest.fixture(scope="module")
def folder():
    return live_model.built()


@pytest.fixture(scope="module")
def error(folder):
    return json.loads((folder / "error.json").read_text())


@pytest.fixture(scope="module")
def sizes():
    files = live_model.site_files(live_model.ROOT)
    return {p.removeprefix(live_model.SITE): f.stat().st_size for p, f in files.items()}


def test_the_measured_error_is_within_what_the_page_and_its_test_allow(error):
    assert error["sentences"] == 56 and error["runs"] == 112
    assert error["worst_cell"] <= browser.CELL
    assert error["same_top"] >= browser.TOP
    assert error["worst_cosine"] >= browser.COSINE
    assert error["limit"] == ref.LIMIT


def test_the_saved_model_agrees_with_pytorch_with_heads_off(folder):
    """On a text none of the measured sentences is, the gate of the saved model and
    the reference's hook switch the same heads off."""
    text = "Nobody wrote this sentence for the error, did they?"
    session = live_model.session(folder / "model.onnx")
    ids = ref.tokenizer(text)["input_ids"]
    for off in ([], [(0, 2), (3, 5)], [(5, h) for h in range(12)]):
        _, weights, embedding = ref.run(text, off)
        got, got_embedding = live_model.run_onnx(session, ids, off)
        assert (torch.from_numpy(got) - weights).abs().max() <= browser.CELL
        assert torch.from_numpy(got_embedding) @ embedding >= browser.COSINE
    _, _, on = ref.run(text)
    _, _, off = ref.run(text, [(5, h) for h in range(12)])
    assert on @ off < 0.999  # a layer off changes the embedding: the switch works


def test_switching_a_head_off_is_zeroing_its_columns_of_the_projection():
    """Another way to switch heads off: the output projection's weight columns
    that read those heads' contexts set to 0, so it cannot see them."""
    text = "The dog waited by the door."
    heads = [1, 7]
    _, _, mine = ref.run(text, [(2, h) for h in heads])
    projection = ref.model.encoder.layer[2].attention.output.dense
    kept = projection.weight.detach().clone()
    try:
        with torch.no_grad():
            for h in heads:
                projection.weight[:, h * ref.head_dim : (h + 1) * ref.head_dim] = 0
        _, _, theirs = ref.run(text)
    finally:
        with torch.no_grad():
            projection.weight.copy_(kept)
    assert torch.allclose(mine, theirs, atol=1e-6)
    assert not torch.allclose(mine, ref.run(text)[2], atol=1e-3)


def test_the_download_fits_the_goal(sizes):
    total = sum(sizes[name] for name in live_model.DOWNLOADS)
    assert total <= 40e6  # a reader's download: model and runtime, at most 40 MB


def test_a_build_with_the_model_saved_exports_nothing(monkeypatch, folder):
    monkeypatch.setattr(live_model, "build", lambda path: pytest.fail("exported"))
    assert live_model.built() == folder


def test_the_key_changes_with_the_reference_code(tmp_path, monkeypatch):
    before = live_model.cache_key()
    assert before == live_model.cache_key()
    shutil.copytree(SNIPPETS, tmp_path / "snippets")
    monkeypatch.setattr(snippets, "ROOT", tmp_path)
    assert live_model.cache_key() == before
    with open(tmp_path / "snippets/your_sentence/ex01_reference.py", "a") as file:
        file.write("# an edit\n")
    assert live_model.cache_key() != before


def test_a_missing_runtime_fails_the_build_saying_what_to_run(tmp_path):
    with pytest.raises(PluginError, match=r"npm ci"):
        live_model.node_module("onnxruntime-web/dist/ort.wasm.min.mjs", tmp_path)


def test_the_figure_is_drawn_from_the_reference_maps():
    axes = figure.fig.axes
    assert len(axes) == 72
    for n, ax in enumerate(axes):
        layer, head = divmod(n, 12)
        drawn = torch.tensor(ax.images[0].get_array().tolist())
        assert torch.equal(drawn, figure.weights[layer, head])
        assert ax.get_title() == f"layer {layer + 1} head {head + 1}"  # from 1


def alt_text() -> str:
    page = (DOCS / PAGE).read_text()
    return re.search(r"!\[(.*?)\]\(assets/figures/your-sentence", page, re.S)[1]


def cls_heads() -> int:
    return int((found.pattern_scores(figure.weights)[2] > 0.5).sum())


def test_the_figures_alt_text():
    alt = alt_text()
    assert ref.text.rstrip(".") in alt
    scores = found.pattern_scores(figure.weights)
    layer, head = divmod(scores[0].argmax().item(), 12)  # the token before
    assert scores[0, layer, head] > 0.99
    assert f"Layer {layer + 1} head {head + 1} is a line just below the diagonal" in (
        " ".join(alt.split())
    )
    assert "layer 1 at the top" in alt
    assert f"{cls_heads()} of the 72 maps put more than half" in alt


def test_prose_numbers(error, sizes):
    check_prose_numbers(
        PAGE,
        computed={
            "model MB": f"{sizes['model.onnx'] / 1e6:.1f}",
            "runtime MB": f"{sizes['ort/ort-wasm-simd-threaded.wasm'] / 1e6:.1f}",
            "worst cell": f"{error['worst_cell']:.3f}",
            "same top token": f"{error['same_top']:.1%}",
            "worst cosine": f"{error['worst_cosine']:.4f}",
            "[CLS] heads in the figure": str(cls_heads()),
            # the real-model page's previous-token head, counted from 1: in the
            # alt text and under the output that switches it off
            "previous-token head": [
                f"Layer {layer + 1} head {head + 1} is {words}"
                for layer, head in [found.best["previous token"]]
                for words in ("a line", "the previous-token head")
            ],
        },
        # the model and the switches; the real-model page's 24 sentences; SHA-256;
        # what the browser test holds it to
        definitions={"72", "6", "12", "0", "1", "8", "32", "64"}
        | {"24", "256", "0.05", "99%", "0.999", "0.005"},
    )
