"""The figures: drawn from the weights the pages compute, saying what their alt text
says, and written by the build as self-contained, deterministic SVG."""

import contextlib
import io
import re
import runpy

import pytest
import torch

from hooks.generated import FIGURES, figure_svg
from snippets.attention_inputs import tokens
from snippets.one_head.ex03_weights import weights
from snippets.one_head.ex05_heatmap import fig as one_head_fig
from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex03_heatmaps import fig as random_fig
from snippets.random_heads.ex03_heatmaps import pairs
from snippets.second_head.ex01_hand_set_head import w2
from snippets.second_head.ex06_heatmaps import fig as two_heads_fig
from tests.pages import DOCS, ROOT


def drawn(ax) -> torch.Tensor:
    """The numbers a heatmap panel was drawn from: its image, and its cell labels."""
    image = torch.tensor(ax.images[0].get_array().tolist())
    labels = [t.get_text() for t in ax.texts]
    assert labels == [f"{v:.2f}" for v in image.flatten().tolist()]
    assert [t.get_text() for t in ax.get_xticklabels()] == tokens
    assert [t.get_text() for t in ax.get_yticklabels()] == tokens
    return image


def test_one_head_figure_is_drawn_from_head_1s_weights():
    (ax,) = one_head_fig.axes
    assert torch.allclose(drawn(ax), weights, atol=1e-7)


def test_alt_one_head_pale_and_journey_starts_on_top():
    assert weights.max() < 0.25  # "no weight reaches a quarter"
    top_two = {tokens.index("journey"), tokens.index("starts")}
    assert all(set(r) == top_two for r in weights.topk(2, dim=-1).indices.tolist())


def test_two_heads_figure_is_drawn_from_both_heads_weights():
    left, right = two_heads_fig.axes
    assert torch.allclose(drawn(left), weights, atol=1e-7)
    assert torch.allclose(drawn(right), w2, atol=1e-7)
    assert "head 1" in left.get_title() and "head 2" in right.get_title()


def test_random_heads_figure_is_drawn_from_each_inits_pair():
    panels = random_fig.axes
    assert len(panels) == 2 * len(inits)
    for k, (name, (head_a, head_b)) in enumerate(pairs.items()):
        a, b = panels[2 * k], panels[2 * k + 1]
        assert torch.allclose(drawn(a), head_a, atol=1e-7)
        assert torch.allclose(drawn(b), head_b, atol=1e-7)
        assert a.get_title() == f"{name}: random head A"


def test_the_pairs_are_the_pages_pair_under_torch_rand():
    from snippets.random_heads.ex02_one_pair import head_a, head_b

    assert torch.equal(pairs["torch.rand"][0], head_a)
    assert torch.equal(pairs["torch.rand"][1], head_b)


# The alt texts make claims; each is checked here.
def test_alt_two_heads_head1_pale_head2_looks_at_your():
    assert weights.max() < 0.5  # pale cells with black labels, all of them
    assert (w2.argmax(dim=-1) == tokens.index("Your")).all()


def test_alt_random_heads():
    top_two = {tokens.index("journey"), tokens.index("starts")}
    for head in pairs["torch.rand"]:
        assert all(set(row) == top_two for row in head.topk(2, dim=-1).indices.tolist())
    for head in pairs["nn.Linear"]:
        assert (head - 1 / 6).abs().max() < 0.05  # close to uniform
    for head in pairs["N(0, 0.02)"]:
        labels = {f"{v:.2f}" for v in head.flatten().tolist()}
        assert labels == {f"{1 / 6:.2f}"}  # one sixth, to two decimals


@pytest.mark.parametrize("path", sorted(FIGURES))
def test_each_figure_is_on_a_page_with_alt_text(path):
    image = re.compile(r"!\[([^\]]{40,})\]\(" + re.escape(path) + r"\)", re.S)
    pages = [p for p in DOCS.glob("*.md") if image.search(p.read_text())]
    assert len(pages) == 1, f"{path} should be shown by exactly one page"


def fresh_figure(module: str):
    """The figure as a build draws it: the snippet's code run anew (quietly)."""
    with contextlib.redirect_stdout(io.StringIO()):
        path = ROOT / (module.replace(".", "/") + ".py")
        return runpy.run_path(str(path))["fig"]


@pytest.mark.parametrize("module", sorted(FIGURES.values()))
def test_svg_is_self_contained_and_deterministic(module):
    first = figure_svg(fresh_figure(module))
    assert first == figure_svg(fresh_figure(module))  # same code, same bytes
    assert "<text" in first  # text stays text
    external = re.findall(r'(?:href|src)="(?!#|data:)([^"]+)"', first)
    assert external == []
    assert "url(http" not in first and "@import" not in first
