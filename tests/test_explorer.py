"""docs/explorer.md: its data comes from the snippets, and its PyTorch twin agrees
with the other pages. (tests/browser/test_explorer.py checks the page's JavaScript.)"""

import json
import re

import pytest
import torch

from hooks.generated import EXPLORER_MARKER, explorer_data
from snippets.attention_inputs import inputs, tokens
from snippets.explorer.ex01_two_heads import explore, hand_set_projections
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.one_head.ex03_weights import weights
from snippets.one_head.ex04_context import context
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2, w2
from snippets.second_head.ex02_context import context2
from tests.pages import DOCS, check_prose_numbers


def test_embedded_data_is_the_snippets_tensors():
    data = json.loads(json.dumps(explorer_data()))  # exactly what the page embeds
    assert data["tokens"] == tokens
    assert torch.equal(torch.tensor(data["inputs"]), inputs)
    for name, W in {"W_q": W_query, "W_k": W_key, "W_v": W_value}.items():
        assert torch.equal(torch.tensor(data["head1"][name]), W)
    for name, W in {"W_q": W_q2, "W_k": W_k2, "W_v": W_v2}.items():
        assert torch.equal(torch.tensor(data["head2"][name]), W)


def test_the_page_asks_for_the_data():
    assert EXPLORER_MARKER in (DOCS / "explorer.md").read_text()


def test_defaults_reproduce_the_second_head_page():
    row1, row2, c1, c2, both = explore("journey")
    assert torch.equal(row1, weights[1]) and torch.allclose(row2, w2[1])
    assert torch.equal(c1, context[1]) and torch.allclose(c2, context2[1])
    assert torch.equal(both, torch.cat([c1, c2]))
    for mine, page in zip(hand_set_projections(), (W_q2, W_k2, W_v2), strict=True):
        assert torch.equal(mine, page)


def test_same_projections_give_identical_heads():
    for token in tokens:
        row1, row2, c1, c2, _ = explore(
            token, q_reads=1, q_scale=-2.0, k_scale=0.5, same=True
        )
        assert torch.equal(row1, row2) and torch.equal(c1, c2)


def test_scale_zero_is_uniform_attention():
    for scales in [(0.0, 0.0), (0.0, 3.0), (-2.5, 0.0)]:
        _, row2, _, _, _ = explore("one", q_scale=scales[0], k_scale=scales[1])
        assert torch.allclose(row2, torch.full((6,), 1 / 6))


def test_every_coordinate_is_positive():
    assert (inputs > 0).all()


@pytest.mark.parametrize("token", tokens)
@pytest.mark.parametrize("k_reads", [1, 2, 3])
def test_one_negative_scale_turns_the_head_around(token, k_reads):
    """The head then favours the token whose key coordinate is smallest."""
    coordinate = inputs[:, k_reads - 1]
    for q_reads in [1, 2, 3]:
        _, up, *_ = explore(token, q_reads, k_reads, 3.0, 1.5)
        _, down, *_ = explore(token, q_reads, k_reads, 3.0, -1.5)
        _, down_too, *_ = explore(token, q_reads, k_reads, -3.0, 1.5)
        assert up.argmax() == coordinate.argmax()
        assert down.argmax() == coordinate.argmin()
        assert torch.equal(down, down_too)


@pytest.mark.parametrize("token", tokens)
def test_two_negative_scales_change_nothing(token):
    for q_reads, k_reads in [(3, 3), (1, 2), (2, 3)]:
        plus = explore(token, q_reads, k_reads, 2.0, 3.5)
        minus = explore(token, q_reads, k_reads, -2.0, -3.5)
        for a, b in zip(plus, minus, strict=True):
            assert torch.equal(a, b)


def test_prose_numbers():
    text = (DOCS / "explorer.md").read_text()
    assert re.search(r"scale\s+of\s+3\b", text)
    # heads 1 and 2, coordinates 1 to 3, the scale 3 (set on the second-head page)
    check_prose_numbers("explorer.md", computed={}, definitions={"1", "2", "3"})
