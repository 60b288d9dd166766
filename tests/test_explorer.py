"""docs/explorer.md: its data comes from the snippets, its PyTorch twin agrees with
the other pages, and the claims its prose makes about the wide head, the moved
query and a head switched off hold. (tests/browser/test_explorer.py checks that
the page's JavaScript shows what explore() computes.)"""

import itertools
import json
import random
import re

import pytest
import torch

from hooks.generated import EXPLORER_MARKER, explorer_data
from snippets.attention_inputs import inputs, tokens
from snippets.explorer.ex01_two_heads import hand_set_projections
from snippets.explorer.ex02_wide_head import W_k, W_q, scores, wide
from snippets.explorer.ex03_explore import W_o, explore
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.one_head.ex03_weights import weights
from snippets.one_head.ex04_context import context
from snippets.second_head import ex05_output_projection as second_head_out
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2, w2
from snippets.second_head.ex02_context import context2
from tests.pages import DOCS, check_prose_numbers

ONE = tokens.index("one")


def random_settings(n: int, seed: int) -> list[dict]:
    """Settings nobody picked: every control of explore(), drawn at random."""
    rng = random.Random(seed)
    return [
        {
            "token": rng.choice(tokens),
            "query": None
            if rng.random() < 0.2
            else [rng.uniform(-2, 2) for _ in range(2)],
            "q_reads": rng.randint(1, 3),
            "k_reads": rng.randint(1, 3),
            "q_scale": rng.uniform(-10, 10),
            "k_scale": rng.uniform(-10, 10),
            "same": rng.random() < 0.2,
            "heads_on": (rng.random() < 0.7, rng.random() < 0.7),
        }
        for _ in range(n)
    ]


SETTINGS = random_settings(200, seed=18)


def test_embedded_data_is_the_snippets_tensors():
    data = json.loads(json.dumps(explorer_data()))  # exactly what the page embeds
    assert data["tokens"] == tokens
    assert torch.equal(torch.tensor(data["inputs"]), inputs)
    for name, W in {"W_q": W_query, "W_k": W_key, "W_v": W_value}.items():
        assert torch.equal(torch.tensor(data["head1"][name]), W)
    for name, W in {"W_q": W_q2, "W_k": W_k2, "W_v": W_v2}.items():
        assert torch.equal(torch.tensor(data["head2"][name]), W)
    assert torch.equal(torch.tensor(data["W_o"]), second_head_out.W_o)


def test_the_page_asks_for_the_data():
    assert EXPLORER_MARKER in (DOCS / "explorer.md").read_text()


def test_w_o_is_the_second_head_pages():
    assert torch.equal(W_o, second_head_out.W_o)


def test_defaults_reproduce_the_earlier_pages():
    shown = explore("journey")
    assert torch.equal(shown["w1"], weights) and torch.allclose(shown["w2"], w2)
    assert torch.allclose(shown["both"], torch.cat([context[1], context2[1]]))
    assert torch.allclose(shown["out_both"], second_head_out.out[1])
    assert torch.allclose(shown["wide"], wide)
    for mine, page in zip(hand_set_projections(), (W_q2, W_k2, W_v2), strict=True):
        assert torch.equal(mine, page)


def test_same_projections_give_identical_heads():
    for token in tokens:
        shown = explore(token, q_reads=1, q_scale=-2.0, k_scale=0.5, same=True)
        assert torch.equal(shown["w1"], shown["w2"])
        assert torch.equal(shown["both"][:2], shown["both"][2:])


def test_scale_zero_is_uniform_attention():
    for scales in [(0.0, 0.0), (0.0, 3.0), (-2.5, 0.0)]:
        shown = explore("one", q_scale=scales[0], k_scale=scales[1])
        assert torch.allclose(shown["w2"], torch.full((6, 6), 1 / 6))


def test_every_coordinate_is_positive():
    assert (inputs > 0).all()


@pytest.mark.parametrize("token", tokens)
@pytest.mark.parametrize("k_reads", [1, 2, 3])
def test_one_negative_scale_turns_head_2_around(token, k_reads):
    """Head 2 then favours the token whose key coordinate is smallest."""
    i, coordinate = tokens.index(token), inputs[:, k_reads - 1]
    for q_reads in [1, 2, 3]:
        up = explore(token, None, q_reads, k_reads, 3.0, 1.5)["w2"][i]
        down = explore(token, None, q_reads, k_reads, 3.0, -1.5)["w2"][i]
        down_too = explore(token, None, q_reads, k_reads, -3.0, 1.5)["w2"][i]
        assert up.argmax() == coordinate.argmax()
        assert down.argmax() == coordinate.argmin()
        assert torch.equal(down, down_too)


@pytest.mark.parametrize("token", tokens)
def test_two_negative_scales_change_nothing(token):
    for q_reads, k_reads in [(3, 3), (1, 2), (2, 3)]:
        plus = explore(token, None, q_reads, k_reads, 2.0, 3.5)
        minus = explore(token, None, q_reads, k_reads, -2.0, -3.5)
        for name in plus:
            assert torch.equal(plus[name], minus[name]), name


def head_scores(queries, keys):
    return queries @ keys.T / keys.shape[-1] ** 0.5  # (6, 6), as each head scales


def test_the_wide_heads_scores_are_the_two_heads_scores_added():
    """ex02's one head of both heads' columns, divided by nothing more."""
    s1 = head_scores(inputs @ W_query, inputs @ W_key)
    s2 = head_scores(inputs @ W_q2, inputs @ W_k2)
    assert torch.allclose(scores, s1 + s2)
    assert W_q.shape == W_k.shape == (3, 3)  # a head of width 3 (2 + 1)
    # A library's head of width 3 divides the raw sum by sqrt(3): each question's
    # part of the score is scaled down (sqrt(2/3) and sqrt(1/3), both below 1).
    raw = torch.cat([W_query, W_q2], dim=-1)
    library = (inputs @ raw) @ (inputs @ W_k).T / 3**0.5
    assert torch.allclose(library, s1 * (2 / 3) ** 0.5 + s2 * (1 / 3) ** 0.5)


@pytest.mark.parametrize("setting", SETTINGS[:50])
def test_the_wide_heads_row_is_the_two_rows_multiplied(setting):
    """Every setting: the wide head's weights are the two heads' weights
    multiplied square by square and rescaled to sum to one."""
    shown = explore(**setting)
    product = shown["w1"] * shown["w2"]
    assert torch.allclose(shown["wide"], product / product.sum(-1, keepdim=True))


@pytest.mark.parametrize("token", tokens)
def test_a_longer_query_makes_head_1s_row_sharper(token):
    i = tokens.index(token)
    query = explore(token)["query"]

    def entropy(row):
        return -(row * row.log()).sum()

    rows = [explore(token, (c * query).tolist())["w1"][i] for c in (1, 1.5, 2, 3)]
    for shorter, longer in itertools.pairwise(rows):
        assert entropy(longer) < entropy(shorter)
        assert longer.max() > shorter.max()


@pytest.mark.parametrize("token", tokens)
def test_the_keys_furthest_along_the_query_get_the_most_weight(token):
    i = tokens.index(token)
    for setting in SETTINGS[:20]:
        shown = explore(token, setting["query"])
        along = shown["keys1"] @ shown["query"]  # (6,): reach along the query
        assert torch.equal(shown["w1"][i].argsort(), along.argsort())


@pytest.mark.parametrize("token", tokens)
def test_a_query_turned_round_favours_one(token):
    """Pointing away from the keys, head 1 favours the key that reaches least far
    along the query: *one*, for every token's query."""
    i = tokens.index(token)
    own = explore(token)
    turned = explore(token, (-own["query"]).tolist())
    assert turned["w1"][i].argmax() == ONE
    assert (own["keys1"] @ own["query"]).argmin() == ONE


@pytest.mark.parametrize("setting", SETTINGS[:30])
def test_a_head_switched_off_takes_only_its_outputs(setting):
    """W_o sends head 1 to outputs 1 and 2, head 2 to output 3: switching one off
    zeroes its outputs and leaves the other head's as they were."""
    both, only_1, only_2, none = (
        explore(**{**setting, "heads_on": on})["out"]
        for on in [(True, True), (True, False), (False, True), (False, False)]
    )
    assert torch.equal(both, explore(**setting)["out_both"])
    assert torch.equal(only_1[:2], both[:2]) and only_1[2] == 0
    assert torch.equal(only_2[2:], both[2:]) and (only_2[:2] == 0).all()
    assert (none == 0).all()
    assert torch.allclose(only_1 + only_2, both)


def test_prose_numbers():
    text = (DOCS / "explorer.md").read_text()
    assert re.search(r"scale\s+of\s+3\b", text)
    assert re.search(r"head 1 by √2\s+and head 2 by √1", text)
    assert re.search(r"head of width 3 would divide the whole sum by √3", text)
    assert (W_key.shape[-1], W_k2.shape[-1], W_k.shape[-1]) == (2, 1, 3)
    # heads 1 and 2, coordinates and outputs 1 to 3, the scale 3 (set on the
    # second-head page), the widths 2 and 1 and their sum 3 (√ of each)
    check_prose_numbers("explorer.md", computed={}, definitions={"1", "2", "3"})
