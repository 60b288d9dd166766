"""Claims on docs/random-heads.md: untrained heads look alike, for two reasons."""

import inspect

import pytest
import torch

from snippets.random_heads.ex01_init_schemes import gpt2_init, linear_init, rand_init
from snippets.random_heads.ex02_one_pair import head_a, head_b
from snippets.random_heads.ex03_measure import (
    compare_random_heads,
    js_divergence,
    results,
)
from tests.pages import check_prose_numbers

ALIKE_BITS = 0.01  # "the JS divergence stays below 0.01 bits" on the page
CHANCE = 1 / 6


def test_measured_over_100_seeds_per_init():
    assert list(results) == ["torch.rand", "nn.Linear", "N(0, 0.02)"]
    seeds = inspect.signature(compare_random_heads).parameters["num_seeds"].default
    assert seeds >= 100


@pytest.mark.parametrize("init", ["torch.rand", "nn.Linear", "N(0, 0.02)"])
def test_random_heads_look_alike_under_every_init(init):
    assert results[init]["js_bits"] < ALIKE_BITS
    assert results[init]["max_abs_diff"] < 0.1


def test_all_positive_weights_share_the_input_geometry():
    r = results["torch.rand"]
    assert r["logit_corr"] > 0.7
    assert r["same_argmax"] > 3 * CHANCE


@pytest.mark.parametrize("init", ["nn.Linear", "N(0, 0.02)"])
def test_zero_centred_heads_are_unrelated_but_near_uniform(init):
    r = results[init]
    assert abs(r["logit_corr"]) < 0.2  # unrelated scores
    assert r["same_argmax"] < 2 * CHANCE  # top tokens agree about as often as chance
    assert r["max_from_uniform"] < results["torch.rand"]["max_from_uniform"]
    assert r["score_spread"] < results["torch.rand"]["score_spread"] / 4


def test_gpt2_init_is_uniform_to_four_decimals():
    assert results["N(0, 0.02)"]["max_from_uniform"] < 5e-4


def test_the_first_pair_favours_journey_and_starts():
    for row in (head_a[1], head_b[1]):
        assert set(row.argsort(descending=True)[:2].tolist()) == {1, 2}


def test_js_divergence_is_zero_for_equal_and_one_bit_for_disjoint_rows():
    p = torch.tensor([[0.5, 0.5, 0.0, 0.0]]) + 1e-12
    q = torch.tensor([[0.0, 0.0, 0.5, 0.5]]) + 1e-12
    assert js_divergence(p, p).item() == pytest.approx(0.0, abs=1e-9)
    assert js_divergence(p, q).item() == pytest.approx(1.0, abs=1e-6)


def test_init_schemes_have_the_stated_ranges():
    torch.manual_seed(0)
    assert (rand_init() >= 0).all()
    bound = 1 / 3**0.5
    assert linear_init().abs().max() <= bound
    samples = torch.cat([gpt2_init().flatten() for _ in range(2000)])
    assert samples.std().item() == pytest.approx(0.02, rel=0.05)


def test_prose_numbers():
    rand, linear, gpt2 = results.values()
    check_prose_numbers(
        "random-heads.md",
        computed={
            "rand same top token": f"{rand['same_argmax']:.0%}",
            "rand score correlation": f"{rand['logit_corr']:.2f}",
            "nn.Linear score spread": f"{linear['score_spread']:.2f}",
            "GPT-2 init score spread": f"{gpt2['score_spread']:.4f}",
            "alike threshold": f"{ALIKE_BITS}",
        },
        # U(0, 1), 100 seeds, std 0.02, 1/6 of six tokens, JS between 0 and 1 bit
        definitions={"0", "1", "2", "6", "100", "0.02"},
    )
