"""Claims on docs/random-heads.md: do untrained heads look alike? At a real width no,
on the toy yes, for two reasons."""

import inspect

import pytest
import torch

from snippets.attention_inputs import inputs, tokens
from snippets.random_heads.ex01_init_schemes import gpt2_init, linear_init, rand_init
from snippets.random_heads.ex02_one_pair import head_a, head_b, random_head_weights
from snippets.random_heads.ex04_yardstick import baseline, js_divergence
from snippets.random_heads.ex05_measure import CHANCE as UNRELATED
from snippets.random_heads.ex05_measure import correlation, pairs, toy
from snippets.random_heads.ex06_real_width import (
    d_head,
    d_model,
    layer_normed_tokens,
    narrow,
    num_heads,
    real,
    x,
    x3,
)
from tests.pages import DOCS, check_digit_changes, check_prose_numbers, on_page

PAGE = "random-heads.md"
symmetry = on_page(
    PAGE, "snippets.random_heads.ex07_symmetry"
)  # trains; imported below


ALIKE_BITS = 0.01  # "the JS divergence stays below 0.01 bits" on the page
CHANCE = 1 / 6  # two heads picking one of six tokens at random
ZERO_CENTRED = ["nn.Linear", "N(0, 0.02)"]
JS, DIFF, UNIFORM, SAME_TOP, CORR, SPREAD = next(iter(toy.values()))


def top_token_shares(init, x, d_head):
    """How often each position is a random head's top token, over the pairs."""
    torch.manual_seed(0)  # the draws compare_random_heads makes
    a, _ = random_head_weights(init, x, d_head)
    b, _ = random_head_weights(init, x, d_head)
    tops = torch.cat([a.argmax(-1).flatten(), b.argmax(-1).flatten()])
    return torch.bincount(tops, minlength=6).double() / len(tops)


# -- the yardstick and the toy ------------------------------------------------------


def test_head_1_and_head_2_are_about_0_15_bits_apart():
    assert baseline == pytest.approx(0.150, abs=0.0005)


def test_toy_is_measured_over_1000_pairs_per_init():
    assert list(toy) == ["torch.rand", "nn.Linear", "N(0, 0.02)"]
    assert pairs == 1000
    assert list(toy["torch.rand"]) == [JS, DIFF, UNIFORM, SAME_TOP, CORR, SPREAD]


@pytest.mark.parametrize("init", list(toy))
def test_every_toy_pair_looks_alike_by_js_and_largest_difference(init):
    assert toy[init][JS] < ALIKE_BITS
    assert toy[init][JS] < baseline / 10  # "against 0.150 between head 1 and head 2"
    assert toy[init][DIFF] < 0.1


def test_all_positive_weights_share_the_input_geometry():
    r = toy["torch.rand"]
    assert r[CORR] > 0.7
    assert r[SAME_TOP] > 3 * CHANCE


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_zero_centred_toy_heads_are_related_up_to_sign_but_not_copies(init):
    r, n = toy[init], narrow[init]
    assert 2 * UNRELATED < r[CORR] < 0.5  # related, sign aside; not copies
    assert 3 * UNRELATED < n[CORR] < 0.6  # three numbers per token, LayerNorm'd
    assert CHANCE < r[SAME_TOP] < 0.3  # "a little above one in six"


def test_unrelated_lists_give_the_textbook_size_of_correlation():
    """E|r| for two unrelated lists of n = 36 normal numbers: the t distribution's
    Gamma((n-1)/2) / (sqrt(pi) Gamma(n/2)), about 0.1362."""
    import math

    n = 36
    expected = math.exp(math.lgamma((n - 1) / 2) - math.lgamma(n / 2)) / math.sqrt(
        math.pi
    )
    assert UNRELATED == pytest.approx(expected, abs=0.001)


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_with_signs_the_average_correlation_is_near_zero_whatever_the_heads(init):
    """The page: the sign is a coin flip, so a signed average says nothing."""
    from snippets.random_heads.ex01_init_schemes import inits

    torch.manual_seed(0)  # the draws compare_random_heads makes
    _, a = random_head_weights(inits[init], inputs.expand(pairs, 6, 3), 2)
    _, b = random_head_weights(inits[init], inputs.expand(pairs, 6, 3), 2)
    signed = correlation(a.flatten(1), b.flatten(1))
    assert abs(signed.mean().item()) < 0.05 < toy[init][CORR]
    flipped = correlation(a.flatten(1), -b.flatten(1))  # a head with -W_q
    torch.testing.assert_close(flipped, -signed)


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_unrelated_heads_share_top_tokens_because_some_tokens_win_more(init):
    from snippets.random_heads.ex01_init_schemes import inits

    shares = top_token_shares(inits[init], inputs.expand(pairs, 6, 3), 2)
    # two unrelated heads agree with probability sum(p_k ** 2): the page's figure
    assert (shares**2).sum().item() == pytest.approx(toy[init][SAME_TOP], abs=0.03)
    share = dict(zip(tokens, shares.tolist(), strict=True))
    often = min(share["one"], share["Your"])
    rarely = max(share["starts"], share["with"])
    assert often > 3 * rarely  # "several times as often"


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_zero_centred_toy_heads_are_faint_and_near_uniform(init):
    r = toy[init]
    assert r[UNIFORM] < toy["torch.rand"][UNIFORM] / 2
    assert r[UNIFORM] < 0.05  # close to uniform
    assert r[SPREAD] < toy["torch.rand"][SPREAD] / 4


def test_gpt2_init_is_uniform_to_four_decimals_on_the_toy():
    assert toy["N(0, 0.02)"][UNIFORM] < 5e-4


def test_the_first_pair_favours_journey_and_starts():
    for row in (head_a[1], head_b[1]):
        assert set(row.argsort(descending=True)[:2].tolist()) == {1, 2}


def test_js_divergence_is_zero_for_equal_and_one_bit_for_disjoint_rows():
    p = torch.tensor([[0.5, 0.5, 0.0, 0.0]]) + 1e-12
    q = torch.tensor([[0.0, 0.0, 0.5, 0.5]]) + 1e-12
    assert js_divergence(p, p).item() == pytest.approx(0.0, abs=1e-9)
    assert js_divergence(p, q).item() == pytest.approx(1.0, abs=1e-6)


def test_correlation_is_pearsons_per_row():
    u, v = torch.randn(2, 3, 36, dtype=torch.float64)
    for row in range(3):
        expected = torch.corrcoef(torch.stack([u[row], v[row]]))[0, 1]
        assert correlation(u, v)[row].item() == pytest.approx(expected.item())


def test_init_schemes_have_the_stated_distributions():
    torch.manual_seed(0)
    assert (rand_init(3, 2) >= 0).all()
    assert rand_init(5, 3, 2).shape == (5, 3, 2)  # a stack of heads
    samples = gpt2_init(2000, 3, 2)
    assert samples.mean().item() == pytest.approx(0.0, abs=0.002)
    assert samples.std().item() == pytest.approx(0.02, rel=0.02)


@pytest.mark.parametrize("d_in", [3, d_model])
def test_linear_init_draws_what_nn_linear_draws(d_in):
    torch.manual_seed(0)
    ours = linear_init(d_in, 1000)  # (d_in, 1000)
    theirs = torch.nn.Linear(d_in, 1000, bias=False).weight.detach()  # (1000, d_in)
    bound = 1 / d_in**0.5
    for w in (ours, theirs):
        assert w.abs().max() <= bound
        assert w.abs().max() > 0.99 * bound  # uniform up to the bound, both
        assert w.std().item() == pytest.approx(bound / 3**0.5, rel=0.03)


# -- GPT-2's width -------------------------------------------------------------------


def test_a_toy_token_is_three_numbers_below_1():
    assert inputs.shape[-1] == 3
    assert 0 < inputs.min() and inputs.max() < 1


def test_gpt2_small_sizes():
    # Radford et al. 2019, Table 2; openai/gpt-2 src/model.py: n_embd=768, n_head=12
    assert (d_model, num_heads, d_head) == (768, 12, 64)


def test_real_width_inputs_are_what_layer_norm_hands_on():
    assert x.shape == (100, 6, d_model)
    assert torch.allclose(x.mean(-1), torch.zeros(100, 6, dtype=x.dtype), atol=1e-12)
    assert torch.allclose(x.var(-1, correction=0), torch.ones(100, 6, dtype=x.dtype))
    torch.manual_seed(5)
    ours = layer_normed_tokens(3, d_model)
    torch.manual_seed(5)
    raw = torch.randn(3, 6, d_model, dtype=torch.float64)
    layer_norm = torch.nn.functional.layer_norm(raw, (d_model,))  # eps 1e-5
    assert torch.allclose(ours, layer_norm, atol=1e-4)


def test_nn_linear_std_is_nearly_gpt2s_at_real_width():
    std = 1 / (3 * d_model) ** 0.5
    assert std == pytest.approx(0.02, rel=0.05)
    torch.manual_seed(0)
    assert linear_init(d_model, d_head).std().item() == pytest.approx(std, rel=0.02)


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_real_width_scores_are_not_faint(init):
    r = real[init]
    assert 0.5 < r[SPREAD] < 1.5  # of order 1
    assert r[SPREAD] > 5 * toy[init][SPREAD]
    assert r[UNIFORM] > 0.1  # far from uniform
    assert r[UNIFORM] > 5 * toy[init][UNIFORM]


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_real_width_heads_are_unrelated(init):
    r = real[init]
    assert abs(r[CORR] - UNRELATED) < 0.01  # the size unrelated scores give
    assert r[SAME_TOP] == pytest.approx(CHANCE, abs=0.05)  # "around one in six"


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_real_width_no_token_is_easier_to_put_on_top(init):
    from snippets.random_heads.ex01_init_schemes import inits

    shares = top_token_shares(inits[init], x, d_head)
    assert (shares - CHANCE).abs().max() < 0.05


def test_at_the_toys_width_nn_linear_heads_differ_as_much_n002_heads_are_faint():
    """The inputs or the width: with a LayerNorm's inputs at three numbers per
    token, nn.Linear's heads are about as far apart (within a fifth) as at width
    768, far from the toy's, but related up to sign; N(0, 0.02)'s are faint."""
    assert x3.shape == (1000, 6, 3)
    linear, gpt2 = narrow["nn.Linear"], narrow["N(0, 0.02)"]
    assert linear[JS] == pytest.approx(real["nn.Linear"][JS], rel=0.2)
    assert linear[JS] > 10 * toy["nn.Linear"][JS]
    assert linear[CORR] > 3 * UNRELATED and linear[SPREAD] > 0.5
    assert linear[SPREAD] > 5 * toy["nn.Linear"][SPREAD]
    assert gpt2[SPREAD] < 0.01 and gpt2[UNIFORM] < 0.001  # "uniform again"
    assert gpt2[JS] < 1e-4


@pytest.mark.parametrize("init", ZERO_CENTRED)
def test_real_width_heads_differ_more_than_on_the_toy_but_less_than_1_and_2(init):
    assert real[init][JS] > 10 * toy[init][JS]  # "far more than on the toy"
    assert real[init][JS] > ALIKE_BITS
    assert real[init][JS] < baseline / 3  # "well below the 0.150 bits"


# -- symmetry breaking ---------------------------------------------------------------


def test_training_is_300_steps():
    steps = inspect.signature(symmetry.train).parameters["steps"].default
    assert steps == 300


def test_twins_are_separate_tensors_that_stay_bit_for_bit_equal():
    twin_1, twin_2 = symmetry.starts["identical"]
    for p, q in zip(twin_1, twin_2, strict=True):
        assert p.data_ptr() != q.data_ptr()  # two heads, not one head shared
        assert torch.equal(p, q)  # after 300 steps of Adam
    assert symmetry.gap(symmetry.starts["identical"]) == 0.0


def untrained_pair() -> list:
    """The page's pair of heads that start different, before training."""
    torch.manual_seed(0)
    symmetry.make_head()  # the twins' draw
    return [symmetry.make_head(), symmetry.make_head()]


def test_heads_that_start_different_are_pulled_apart():
    heads, fresh = symmetry.starts["different"], untrained_pair()
    assert symmetry.js(heads) > 10 * symmetry.js(fresh)
    assert symmetry.gap(heads) > symmetry.gap(fresh)


@pytest.mark.parametrize("seed", [1, 2])
def test_symmetry_holds_for_other_seeds(seed):
    torch.manual_seed(seed)
    head = symmetry.make_head()
    twins = [head, [p.detach().clone().requires_grad_() for p in head]]
    pair = [symmetry.make_head(), symmetry.make_head()]
    start = [p.detach().clone() for p in head]
    js_before = symmetry.js(pair)
    symmetry.train(twins)
    symmetry.train(pair)
    moved = [not torch.equal(p, q) for p, q in zip(head, start, strict=True)]
    assert any(moved)  # training moved them
    assert all(torch.equal(p, q) for p, q in zip(*twins, strict=True))
    assert symmetry.js(pair) > 10 * js_before


def test_training_fits_both_answers():
    for heads in symmetry.starts.values():
        output = symmetry.layer(heads, symmetry.inputs64)
        loss = ((output - symmetry.target) ** 2).mean()
        assert loss.item() < 1e-3


# -- prose ---------------------------------------------------------------------------


def scaled_score_std(init, d, d_head=64, n=20_000) -> float:
    """The standard deviation of a scaled score, for tokens with mean 0 and variance
    1 per number and projections drawn by `init`."""
    torch.manual_seed(0)
    x = torch.randn(n, 2, d, dtype=torch.float64)  # a query token and a key token
    w_q, w_k = (init(d, d_head).double() for _ in range(2))
    q, k = x[:, 0] @ w_q, x[:, 1] @ w_k  # (n, d_head)
    return ((q * k).sum(-1) / d_head**0.5).std().item()


@pytest.mark.parametrize("d", [48, 768])
def test_a_scaled_score_has_standard_deviation_d_model_sigma_squared(d):
    """nn.Linear: 1/3 at every width; N(0, 0.02): 0.0004 d."""
    assert scaled_score_std(linear_init, d) == pytest.approx(1 / 3, rel=0.1)
    assert scaled_score_std(linear_init, d, d_head=8) == pytest.approx(1 / 3, rel=0.1)
    assert scaled_score_std(gpt2_init, d) == pytest.approx(d * 0.02**2, rel=0.1)


def range_of_six() -> float:
    """The mean of (largest - smallest) of six standard normal draws."""
    torch.manual_seed(0)
    draws = torch.randn(200_000, 6, dtype=torch.float64)
    return (draws.amax(-1) - draws.amin(-1)).mean().item()


def test_the_real_width_spreads_are_what_those_deviations_predict():
    spread = range_of_six()
    assert real["nn.Linear"][SPREAD] == pytest.approx(spread / 3, abs=0.05)
    assert real["N(0, 0.02)"][SPREAD] == pytest.approx(
        spread * d_model * 0.02**2, abs=0.05
    )


REAL_WIDTH = "## Optional depth: on a real model's inputs and width"
TOY = "## Optional depth: on our toy, the cautionary case"
SYMMETRY = "## Why heads must start different"


def test_the_page_leads_with_the_symmetry_argument_and_the_headline():
    """A core-path page: its lead gives why heads start random and the answer
    (they differ; alike on the toy only because near-uniform), the symmetry
    section comes before the measurements, and those are optional depth."""
    text = (DOCS / "random-heads.md").read_text(encoding="utf-8")
    assert text.startswith("# Do untrained heads look alike?\n")
    assert "Why untrained heads look alike" not in text
    lead = " ".join(text[: text.index("## Three ways")].split())
    assert "one head, twice" in lead and "(#why-heads-must-start-different)" in lead
    assert "random heads differ.**" in lead and "zero-centred" in lead
    assert "because their maps are near-uniform" in lead
    assert "**With a real model's inputs and width, no.**" in lead
    assert "**On our three-number toy, yes**" in lead
    assert text.index(SYMMETRY) < text.index(REAL_WIDTH) < text.index(TOY)
    # every section after the symmetry argument is optional depth
    after = text[text.index(SYMMETRY) + len(SYMMETRY) :]
    headings = [line for line in after.split("\n") if line.startswith("## ")]
    assert [h.split(" {")[0] for h in headings] == [REAL_WIDTH, TOY]
    # the measurements: at real width before the toy's, the cautionary case
    assert text.index("ex06_real_width.py:page") < text.index("ex05_measure.py:page")
    assert text.index(REAL_WIDTH) < text.index("ex02_one_pair.py:page")
    assert (
        text.index(SYMMETRY)
        < text.index("ex07_symmetry.py:page")
        < text.index(REAL_WIDTH)
    )
    # the lead's numbers are the real-width measurement's
    for init in ZERO_CENTRED:
        assert real[init][JS] > 10 * toy[init][JS]  # many times the toy's ...
        assert real[init][JS] < baseline  # ... less than heads 1 and 2
        assert abs(real[init][CORR] - UNRELATED) < 0.01  # unrelated
        # on the toy, near-uniform: (toy table) less than 0.05 from 1/6 anywhere
        assert toy[init][UNIFORM] < 0.05


def prose_numbers() -> dict:
    """check_prose_numbers' registration: each number once per occurrence."""
    rand, linear, gpt2 = toy.values()
    pair = symmetry.starts["different"]
    narrow_corr = narrow["nn.Linear"][CORR]
    computed = {
        "head 1 vs head 2, bits": [f"{baseline:.3f}"] * 4,  # a yardstick, 4 times
        "rand same top token": [f"{rand[SAME_TOP]:.0%}"] * 2,  # text, summary
        "rand score correlation": f"{rand[CORR]:.2f}",
        "zero-centred toy correlation": f"sign aside, by {linear[CORR]:.2f} and "
        f"{gpt2[CORR]:.2f}, against {UNRELATED:.3f}",
        "unrelated scores": [f"({UNRELATED:.3f})"] * 2,
        "nn.Linear toy same top": f"{linear[SAME_TOP]:.0%}",
        "N(0, 0.02) toy same top": f"{gpt2[SAME_TOP]:.0%}",
        "nn.Linear toy spread": [f"{linear[SPREAD]:.2f}"] * 2,  # toy; real width
        "both toy inits, from uniform": f"against {linear[UNIFORM]:.2f} and "
        f"{gpt2[UNIFORM]:.4f} on the toy",
        "N(0, 0.02) toy spread": [f"{gpt2[SPREAD]:.4f}"] * 2,
        "alike threshold": [f"{ALIKE_BITS}"] * 2,  # the table, the summary
        "nn.Linear std at 768": f"{1 / (3 * d_model) ** 0.5:.3f}",
        "pairs on the toy": f"{pairs:,}",
        "pairs at real width": f"{len(x)}",
        "real JS, rounded": f"{real['nn.Linear'][JS]:.2f}",
        "pair JS before training": f"{symmetry.js(untrained_pair()):.4f}",
        "pair JS after training": f"{symmetry.js(pair):.4f}",
        "0.02 squared": [f"${0.02**2:.4f}\\, d_\\text{{model}}$"] * 2,
        "N(0, 0.02) std at 3": f"{3 * 0.02**2:.4f}",
        "N(0, 0.02) std at 768": [f"{d_model * 0.02**2:.2f}"] * 2,
        "range of six draws": f"{range_of_six():.1f}",
        "pairs at the toy's width": f"{len(x3):,}",
        "nn.Linear narrow JS": f"{narrow['nn.Linear'][JS]:.3f} bits apart",
        "nn.Linear real JS, beside it": f"nearly the {real['nn.Linear'][JS]:.3f}",
        "nn.Linear narrow corr": f"by {narrow_corr:.2f}, against {UNRELATED:.3f}",
        "nn.Linear narrow spread": f"{narrow['nn.Linear'][SPREAD]:.2f}.",
        "N(0, 0.02) narrow spread": f"{narrow['N(0, 0.02)'][SPREAD]:.4f},",
    }
    for init in ZERO_CENTRED:
        r = real[init]
        computed |= {
            f"{init} real spread": f"{r[SPREAD]:.2f}",
            f"{init} real from uniform": f"{r[UNIFORM]:.2f}",
            f"{init} real correlation": [f"{r[CORR]:.3f}"] * 2,  # lead, section
            f"{init} real same top": f"{r[SAME_TOP]:.0%}",
            f"{init} real JS": [f"{r[JS]:.3f}"] * 2,  # the lead, the section
        }
    return dict(
        computed=computed,
        # U(0, 1), mean 0 and variance 1, 1/6 of six tokens, JS between 0 and 1 bit,
        # std 0.02 (GPT-2; Radford et al. 2018, section 4.1), GPT-2 small's 768 and
        # 12 heads of 64 (Radford et al. 2019, Table 2; LayerNorm first, section
        # 2.3), three numbers below 1, heads 1 and 2, 36 scores, 300 steps
        definitions={"0", "1", "2", "3", "6", "12", "36", "64", "300", "768", "0.02"}
        | {"2018", "4.1", "2019", "2.3"},
    )


def test_prose_numbers():
    registered = prose_numbers()
    rounded = registered["computed"]["real JS, rounded"]
    assert f"{real['N(0, 0.02)'][JS]:.2f}" == rounded  # both, "about 0.03"
    check_prose_numbers("random-heads.md", **registered)


def test_a_digit_changed_in_the_prose_fails_naming_its_line():
    """Every one-digit change of a prose number, planted in a copy of the page."""
    counts = check_digit_changes("random-heads.md", **prose_numbers())
    assert counts["planted"] > 300 and counts["failed naming the line"] > 250
