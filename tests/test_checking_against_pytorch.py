"""Claims of docs/checking-against-pytorch.md: the equivalence ladder and causality."""

import pytest
import torch
import torch.nn.functional as F
from torch.profiler import profile

from snippets.checking_against_pytorch import (
    ex01_loop_equals_module,
    ex02_einsum,
    ex04_sdpa_check,
    ex05_nn_multihead,
    ex06_ladder,
    ex07_causality,
    ex08_exercise_weights,
    ex09_exercise_wrong_mask,
)
from snippets.checking_against_pytorch.ex03_sdpa_module import SDPAMultiHeadAttention
from snippets.multi_head_attention.ex01_loop_of_heads import causal_mask
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import check_prose_numbers

TOLERANCE = 1e-5
x = ex01_loop_equals_module.x
reference = ex01_loop_equals_module.reference
max_diff = ex01_loop_equals_module.max_diff


def test_example_sizes():
    assert x.shape == (2, 10, 24)
    assert ex01_loop_equals_module.mha.d_head == 6
    heads = ex01_loop_equals_module.loop.heads
    assert [h.W_q.weight.shape for h in heads] == [(6, 24)] * 4


def test_head_i_owns_rows_6i_minus_5_to_6i_counting_from_1():
    loop, mha = ex01_loop_equals_module.loop, ex01_loop_equals_module.mha
    for i, head in enumerate(loop.heads, start=1):  # heads and rows from 1
        first, last = 6 * i - 5, 6 * i
        rows = mha.W_q.weight[first - 1 : last]  # Python's indexing, from 0
        assert rows.equal(mha.W_q.weight[6 * (i - 1) : 6 * i])  # as the page says
        assert torch.equal(rows, head.W_q.weight)


def test_first_numbers_shown_agree():
    with torch.no_grad():
        shown_loop = reference[0, 0, :4]
        shown_module = ex01_loop_equals_module.mha(x)[0, 0, :4]
    assert torch.equal(shown_loop.round(decimals=4), shown_module.round(decimals=4))
    assert not torch.equal(shown_loop, torch.zeros(4))


def test_torch_mha_stacks_q_k_v_in_that_order():
    mha, torch_mha = ex01_loop_equals_module.mha, ex05_nn_multihead.torch_mha
    assert torch_mha.in_proj_weight.shape == (3 * 24, 24)
    q, k, v = torch_mha.in_proj_weight.chunk(3)
    assert torch.equal(q, mha.W_q.weight)
    assert torch.equal(k, mha.W_k.weight)
    assert torch.equal(v, mha.W_v.weight)


def test_each_rung_matches_the_loop():
    mha = ex01_loop_equals_module.mha
    assert max_diff(mha(x), reference) < TOLERANCE
    assert max_diff(ex02_einsum.einsum_attention(x, mha), reference) < TOLERANCE
    assert max_diff(ex04_sdpa_check.fused(x), reference) < TOLERANCE
    out, _ = ex05_nn_multihead.torch_mha(x, x, x, attn_mask=ex05_nn_multihead.mask)
    assert max_diff(out, reference) < TOLERANCE


WIDE = torch.randn(1, 32, 768, generator=torch.Generator().manual_seed(3))  # GPT-2's


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("inputs, heads", [(x, 4), (WIDE, 12)], ids=["toy", "gpt2"])
def test_ladder_with_and_without_mask(inputs, heads, causal):
    diffs = ex06_ladder.ladder(inputs, num_heads=heads, causal=causal)
    assert len(diffs) == 4
    assert all(d < TOLERANCE for d in diffs.values()), diffs


def test_a_missing_mask_is_caught():
    """The comparison can fail: the same weights without the mask are far off."""
    open_mha = MultiHeadAttention(24, num_heads=4, causal=False)
    open_mha.load_state_dict(ex01_loop_equals_module.mha.state_dict())
    assert max_diff(open_mha(x), reference) > 1e3 * TOLERANCE


def test_concatenation_then_wo_is_a_sum_over_heads():
    torch.manual_seed(4)
    h, e, d = 4, 6, 24
    contexts = torch.randn(h, 10, e)
    W_o = torch.randn(d, h * e)  # nn.Linear layout: (d_model, h * d_head)
    concatenated = torch.cat(list(contexts), dim=-1) @ W_o.T
    summed = sum(contexts[i] @ W_o[:, i * e : (i + 1) * e].T for i in range(h))
    assert torch.allclose(concatenated, summed, atol=TOLERANCE)


def test_cpu_runs_a_fused_flash_kernel():
    q = k = v = torch.randn(1, 2, 64, 8)
    with profile() as prof:
        F.scaled_dot_product_attention(q, k, v, is_causal=True)
    names = {event.name for event in prof.events()}
    assert any("flash_attention" in name for name in names), names


def test_boolean_mask_conventions_are_opposite():
    torch.manual_seed(5)
    q, k, v = torch.randn(3, 1, 2, 10, 6)
    causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    keep = torch.ones(10, 10, dtype=torch.bool).tril()  # SDPA: True = takes part
    kept = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    assert max_diff(kept, causal) < TOLERANCE
    ours = causal_mask(10)  # True = may not attend
    assert torch.equal(ours, ~keep)
    wrong = F.scaled_dot_product_attention(q, k, v, attn_mask=ours)
    assert not torch.allclose(wrong, causal)  # the other convention: wrong


def test_causality():
    before, after = ex07_causality.before, ex07_causality.after
    assert torch.equal(before[:, :6], after[:, :6])
    assert not torch.equal(before[:, 6:], after[:, 6:])
    open_mha, changed = ex07_causality.open_mha, ex07_causality.changed
    assert not torch.equal(open_mha(x)[:, :6], open_mha(changed)[:, :6])
    assert torch.equal(changed[:, :6], x[:, :6])


def test_sdpa_module_changes_only_attend():
    fused = SDPAMultiHeadAttention(24, num_heads=4)
    assert set(fused.state_dict()) == set(ex01_loop_equals_module.mha.state_dict())


def test_exercises():
    exercise = ex08_exercise_weights
    assert exercise.torch_weights.shape == (2, 4, 10, 10)
    assert max_diff(exercise.torch_weights, exercise.our_weights) < TOLERANCE
    wrong_out = ex09_exercise_wrong_mask.out
    per_token = (wrong_out - reference).abs().amax(dim=(0, 2))  # (t,)
    assert (per_token > TOLERANCE).all()
    assert max_diff(wrong_out, reference) > 1e4 * TOLERANCE  # nowhere near


def test_prose_numbers():
    check_prose_numbers(
        "checking-against-pytorch.md",
        computed={},
        definitions={"0", "1", "2", "3", "4", "5", "6", "10", "24"},
    )
