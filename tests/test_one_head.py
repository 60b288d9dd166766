"""Claims on docs/one-head.md."""

import pytest
import torch

from snippets.attention_inputs import inputs, tokens
from snippets.one_head import ex01_projections
from snippets.one_head.ex01_projections import W_key, W_query, W_value, values
from snippets.one_head.ex03_weights import scores, weights
from snippets.one_head.ex04_context import context
from snippets.one_head.ex06_one_row_two_answers import i_one, i_your, split
from snippets.one_head.ex07_word_order import head_1, out
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2
from tests.pages import DOCS, check_prose_numbers

JOURNEY = tokens.index("journey")


def test_projections_come_from_seed_123():
    torch.manual_seed(123)
    expected = [torch.rand(3, 2) for _ in range(3)]
    for got, want in zip([W_query, W_key, W_value], expected, strict=True):
        assert torch.equal(got, want)


def test_d_head_is_the_width_of_one_head():
    """`d_head` names a head's width, `d_model` the token's (the notation on the
    index); the retired names are gone."""
    assert ex01_projections.d_head == W_query.shape[1] == W_value.shape[1] == 2
    assert ex01_projections.d_model == W_query.shape[0] == 3  # the notation's name
    assert not hasattr(ex01_projections, "d_out")
    assert not hasattr(ex01_projections, "d_in")


def test_self_attention_queries_keys_values_come_from_one_sequence():
    q, k, v = ex01_projections.queries, ex01_projections.keys, values
    assert torch.equal(q, inputs @ W_query) and torch.equal(k, inputs @ W_key)
    assert torch.equal(v, inputs @ W_value)


def test_journey_row_and_context_match_the_article():
    want = torch.tensor([0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])
    torch.testing.assert_close(weights[JOURNEY], want, atol=5e-5, rtol=0)
    torch.testing.assert_close(
        context[JOURNEY], torch.tensor([0.3061, 0.8210]), atol=5e-5, rtol=0
    )


def test_scores_are_scaled_by_sqrt_d_k_before_the_softmax():
    assert torch.allclose(weights, torch.softmax(scores / 2**0.5, dim=-1))
    assert not torch.allclose(weights, torch.softmax(scores, dim=-1), atol=1e-3)


def test_journey_and_starts_tilt_the_mixture_but_do_not_dominate_it():
    """ "tilted towards journey and starts ... together 45%, where an even spread
    would give any two tokens 33%": more than even, less than half."""
    top_two = weights[JOURNEY, [JOURNEY, tokens.index("starts")]].sum().item()
    assert f"{top_two:.0%}" == "45%"
    assert 2 / 6 < top_two < 0.5
    assert weights[JOURNEY].argsort(descending=True)[:2].tolist() == [1, 2]


def test_without_the_scaling_large_scores_leave_the_softmax_tiny_gradients():
    """Vaswani et al. (2017, section 3.2.1): for large d_k the dot products grow large
    and push the softmax "into regions where it has extremely small gradients".
    1,000 rows of random unit-variance queries and keys of width 512, nobody's pick:
    unscaled, the typical row puts nearly all its weight on one of its 16 keys and
    its Jacobian nearly vanishes; divided by sqrt(d_k), neither happens."""
    generator = torch.Generator().manual_seed(0)
    d_k = 512
    q = torch.randn(1000, d_k, generator=generator)
    k = torch.randn(1000, 16, d_k, generator=generator)
    scores = torch.einsum("nd,ntd->nt", q, k)  # (1000, 16): one row per query

    def top_weight_and_jacobian(s):
        p = torch.softmax(s, dim=-1)
        jacobian = torch.diag_embed(p) - p[:, :, None] * p[:, None, :]
        return p.amax(dim=-1), torch.linalg.matrix_norm(jacobian)

    top_raw, jac_raw = top_weight_and_jacobian(scores)
    top_scaled, jac_scaled = top_weight_and_jacobian(scores / d_k**0.5)
    assert top_raw.median() > 0.99 and (top_raw > 0.9).float().mean() > 0.75
    assert top_scaled.median() < 0.5 and (top_scaled > 0.9).sum() == 0
    assert jac_raw.median() < jac_scaled.median() / 100


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


# -- why one head is a compromise ---------------------------------------------------


def test_a_softmax_row_can_split_its_budget_between_two_tokens():
    assert (tokens[i_your], tokens[i_one]) == ("Your", "one")
    torch.testing.assert_close(split[[i_your, i_one]], torch.tensor([0.5, 0.5]))
    assert split.sum().item() == pytest.approx(1.0)
    others = [i for i in range(len(tokens)) if i not in (i_your, i_one)]
    assert split[others].max() < 1e-8


def test_the_head_returns_the_average_which_is_neither_answer():
    blend = split @ values
    torch.testing.assert_close(blend, (values[i_your] + values[i_one]) / 2)
    for answer in (values[i_your], values[i_one]):
        assert (blend - answer).norm() > 0.25  # far from both: neither answer
    # The same row weights every number of the values, one channel at a time.
    for c in range(values.shape[1]):
        assert torch.allclose(blend[c], split @ values[:, c])


def test_after_the_head_the_two_answers_cannot_be_pulled_apart():
    """Any other pair of answers with the same average gives the same vector."""
    shift = torch.tensor([0.3, -0.2])
    other = values.clone()
    other[i_your] += shift
    other[i_one] -= shift
    assert not torch.allclose(other[i_your], values[i_your])
    torch.testing.assert_close(split @ other, split @ values)


def test_two_heads_with_a_row_each_would_keep_both_answers():
    rows = torch.zeros(2, 6)
    rows[0, i_your] = rows[1, i_one] = 1.0
    answers = rows @ values  # one row per head
    torch.testing.assert_close(
        torch.cat(list(answers)), values[[i_your, i_one]].flatten()
    )


# -- word order -----------------------------------------------------------------------


def attention(x, W_q, W_k, W_v):
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v


def sinusoids(t, d):
    """Vaswani et al. (2017), section 3.5: sin on even, cos on odd dimensions."""
    pos = torch.arange(t, dtype=torch.float32)[:, None]
    i = torch.arange(d)[None, :]
    angle = pos / 10000 ** ((i - i % 2) / d)
    return torch.where(i % 2 == 0, torch.sin(angle), torch.cos(angle))


def test_reading_backwards_gives_each_token_its_context_in_a_new_row():
    backwards = tokens[::-1]
    torch.testing.assert_close(out[backwards.index("journey")], context[JOURNEY])
    torch.testing.assert_close(out, context.flip(0))
    torch.testing.assert_close(head_1(inputs), context)


@pytest.mark.parametrize("seed", range(5))
def test_any_reordering_only_reorders_the_outputs_of_both_heads(seed):
    order = torch.randperm(6, generator=torch.Generator().manual_seed(seed))
    for W in [(W_query, W_key, W_value), (W_q2, W_k2, W_v2)]:
        torch.testing.assert_close(
            attention(inputs[order], *W), attention(inputs, *W)[order]
        )


def test_position_vectors_make_the_order_matter():
    """What real models add: the same reordering now changes the answers."""
    pe = sinusoids(6, 3)
    order = torch.arange(5, -1, -1)
    for W in [(W_query, W_key, W_value), (W_q2, W_k2, W_v2)]:
        moved = attention(inputs[order] + pe, *W)  # tokens move, positions stay
        assert not torch.allclose(moved, attention(inputs + pe, *W)[order], atol=1e-3)


def test_the_page_quotes_vaswani():
    text = " ".join((DOCS / "one-head.md").read_text().split())
    assert '"With a single attention head, averaging inhibits this"' in text
    assert "Vaswani et al. (2017, section 3.2.2)" in text
    assert "Vaswani et al. (2017, section 3.2.1)" in text  # why the scaling


def test_every_row_ranks_the_tokens_alike_journey_first_one_last():
    order = weights[0].argsort(descending=True)
    assert all(torch.equal(row.argsort(descending=True), order) for row in weights)
    assert tokens[order[0]] == "journey" and tokens[order[-1]] == "one"


def test_with_points_like_journey_yet_gets_less_than_your():
    """Not a similarity head: with's embedding is closer in direction to journey's
    than Your's is, and journey's row still gives with less."""
    j, w, y = (tokens.index(t) for t in ("journey", "with", "Your"))
    cos = torch.nn.functional.cosine_similarity(inputs[j], inputs, dim=-1)
    assert cos[w] > 0.95 > 0.8 > cos[y]
    assert weights[j, w] < weights[j, y]


def test_prose_numbers():
    row = weights[JOURNEY]
    pct = {t: f"{row[tokens.index(t)]:.0%}" for t in ("journey", "starts", "one")}
    computed = {f"share of {t}": s for t, s in pct.items()}
    computed["journey and starts together"] = f"{row[[1, 2]].sum():.0%}"
    computed["two tokens of an even spread"] = f"{2 / len(tokens):.0%}"
    check_prose_numbers(
        "one-head.md",
        computed=computed,
        # row 1, widths 2, 3 numbers per token, GPT-2;
        # Vaswani et al. 2017, sections 3.2.1, 3.2.2 and 3.5; Su et al. 2021
        definitions={"1", "2", "3", "2017", "3.2.1", "3.2.2", "3.5", "2021"},
    )
