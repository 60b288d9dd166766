"""Claims on docs/one-head.md."""

import torch

from snippets.attention_inputs import inputs, tokens
from snippets.one_head.ex01_projections import W_key, W_query, W_value
from snippets.one_head.ex03_weights import scores, weights
from snippets.one_head.ex04_context import context
from tests.pages import check_prose_numbers

JOURNEY = tokens.index("journey")


def test_projections_come_from_seed_123():
    torch.manual_seed(123)
    expected = [torch.rand(3, 2) for _ in range(3)]
    for got, want in zip([W_query, W_key, W_value], expected, strict=True):
        assert torch.equal(got, want)


def test_journey_row_and_context_match_the_article():
    want = torch.tensor([0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])
    torch.testing.assert_close(weights[JOURNEY], want, atol=5e-5, rtol=0)
    torch.testing.assert_close(
        context[JOURNEY], torch.tensor([0.3061, 0.8210]), atol=5e-5, rtol=0
    )


def test_scores_are_scaled_by_sqrt_d_k_before_the_softmax():
    assert torch.allclose(weights, torch.softmax(scores / 2**0.5, dim=-1))
    assert not torch.allclose(weights, torch.softmax(scores, dim=-1), atol=1e-3)


def test_one_budget_per_row():
    """Claim 1: every row is positive and sums to one, so giving more to one token
    means giving less to the others."""
    torch.testing.assert_close(weights.sum(dim=-1), torch.ones(len(tokens)))
    assert (weights > 0).all()
    boosted = scores.clone()
    boosted[JOURNEY, tokens.index("starts")] += 1.0
    more = torch.softmax(boosted / 2**0.5, dim=-1)[JOURNEY]
    others = [i for i in range(len(tokens)) if i != tokens.index("starts")]
    assert (more[others] < weights[JOURNEY, others]).all()


def test_journey_favours_itself_then_starts_and_least_one():
    row = weights[JOURNEY]
    order = [tokens[i] for i in row.argsort(descending=True)]
    assert order[:2] == ["journey", "starts"]
    assert order[-1] == "one"
    assert inputs.shape == (6, 3)


def test_prose_numbers():
    row = weights[JOURNEY]
    pct = {t: f"{row[tokens.index(t)]:.0%}" for t in ("journey", "starts", "one")}
    check_prose_numbers(
        "one-head.md",
        computed={f"share of {t}": s for t, s in pct.items()},
        definitions={"1", "2", "3"},  # row 1, width 2, 3 numbers per token
    )
