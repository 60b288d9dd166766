"""Claims of docs/multi-head-attention.md, checked against its snippets."""

import pytest
import torch

from snippets.multi_head_attention import (
    ex02_run_loop,
    ex03_split_heads,
    ex05_run_module,
    ex06_gpt2_small,
    ex07_exercise_merge,
    ex08_exercise_parameters,
)
from snippets.multi_head_attention.ex01_loop_of_heads import (
    Head,
    LoopOfHeads,
    causal_mask,
)
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import check_prose_numbers


def test_causal_mask_hides_exactly_the_future():
    mask = causal_mask(4)
    assert mask.tolist() == [
        [False, True, True, True],
        [False, False, True, True],
        [False, False, False, True],
        [False, False, False, False],
    ]


def test_masked_weights_are_exactly_zero():
    torch.manual_seed(0)
    head = Head(3, 2)
    x = ex02_run_loop.batch
    q, k = head.W_q(x), head.W_k(x)
    scores = (q @ k.transpose(-2, -1)).masked_fill(causal_mask(6), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    assert torch.all(weights[0][causal_mask(6)] == 0)
    assert torch.allclose(weights.sum(-1), torch.ones(1, 6))


def test_loop_and_module_have_the_articles_shape():
    assert ex02_run_loop.out.shape == (1, 6, 4)
    assert len(ex02_run_loop.loop.heads) == 2
    assert ex05_run_module.mha(ex02_run_loop.batch).shape == (1, 6, 4)
    assert ex05_run_module.mha.d_head == 2


def test_first_token_sees_only_itself():
    batch = ex02_run_loop.batch
    for module in (ex02_run_loop.loop, ex05_run_module.mha):
        with torch.no_grad():
            assert torch.allclose(module(batch)[:, :1], module(batch[:, :1]))


def test_split_is_bookkeeping():
    q, q_heads = ex03_split_heads.q, ex03_split_heads.q_heads
    assert q_heads.shape == (1, 2, 6, 2)
    assert q_heads.data_ptr() == q.data_ptr()  # view and transpose copy nothing
    for i in range(2):
        assert torch.equal(q_heads[0, i], q[0, :, 2 * i : 2 * i + 2])


def test_view_refuses_a_transposed_context():
    context = torch.randn(1, 2, 6, 2).transpose(1, 2)  # (b, t, h, d_head)
    with pytest.raises(RuntimeError):
        context.view(1, 6, 4)
    assert torch.equal(context.contiguous().view(1, 6, 4), context.reshape(1, 6, 4))


def test_module_rejects_a_width_that_does_not_split():
    with pytest.raises(AssertionError):
        MultiHeadAttention(d_in=3, d_out=5, num_heads=2)


def test_gpt2_small_sizes():
    assert ex06_gpt2_small.gpt2_attn.d_head == 64
    params = sum(p.numel() for p in ex06_gpt2_small.gpt2_attn.parameters())
    assert params == 4 * 768**2 == 2_359_296
    for h in (1, 12):  # the number of heads does not change the count
        assert sum(p.numel() for p in MultiHeadAttention(768, 768, h).parameters()) == (
            params
        )


def test_exercises():
    assert torch.equal(ex07_exercise_merge.merged, ex03_split_heads.q)
    count = ex08_exercise_parameters.count
    loop, mha = ex02_run_loop.loop, ex05_run_module.mha
    assert count(loop) == count(mha) == 2 * 3 * 2 * 3 + 4 * 4 == 52
    assert count(LoopOfHeads(768, 768, 12)) == count(MultiHeadAttention(768, 768, 12))


def test_prose_numbers():
    check_prose_numbers(
        "multi-head-attention.md",
        computed={
            "parameters at width 768": f"{4 * 768**2:,}",
            "parameters of the six-token modules": str(
                ex08_exercise_parameters.count(ex05_run_module.mha)
            ),
        },
        definitions={
            "0",
            "1",
            "2",
            "3",
            "4",
            "6",
            "12",
            "64",
            "768",
            "2017",
        },
    )
