"""Claims of docs/grouped-query-attention.md: the module, and the cache arithmetic."""

import pytest
import torch

from snippets.grouped_query_attention import (
    ex02_six_tokens,
    ex03_equals_mha,
    ex04_sdpa_gqa,
    ex06_kv_cache,
    ex07_exercise_mean_pool,
    ex08_exercise_budget,
)
from snippets.grouped_query_attention.ex01_gqa_module import GroupedQueryAttention
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import check_prose_numbers

TOLERANCE = 1e-5
GiB = 2**30


def max_diff(a, b):
    return (a - b).abs().max().item()


def test_mqa_on_six_tokens():
    mqa = ex02_six_tokens.mqa
    assert mqa(ex02_six_tokens.batch).shape == (1, 6, 4)
    assert mqa.W_q.weight.shape == (4, 3)
    assert mqa.W_k.weight.shape == mqa.W_v.weight.shape == (2, 3)
    assert mqa.group == 2


@pytest.mark.parametrize("causal", [True, False])
def test_as_many_kv_heads_as_heads_is_multi_head_attention(causal):
    x = ex03_equals_mha.x
    mha = MultiHeadAttention(768, 768, 12, causal=causal)
    gqa = GroupedQueryAttention(768, 768, 12, num_kv_heads=12, causal=causal)
    gqa.load_state_dict(mha.state_dict())
    assert max_diff(gqa(x), mha(x)) < TOLERANCE
    assert max_diff(ex03_equals_mha.gqa(x), ex03_equals_mha.mha(x)) < TOLERANCE


def test_each_query_head_uses_its_groups_kv_head():
    """GQA equals MHA whose key and value heads are the kv heads, repeated."""
    torch.manual_seed(7)
    x = torch.randn(2, 9, 24)
    gqa = GroupedQueryAttention(24, 24, num_heads=6, num_kv_heads=2)  # groups of 3
    mha = MultiHeadAttention(24, 24, num_heads=6)
    with torch.no_grad():
        mha.W_q.weight.copy_(gqa.W_q.weight)
        mha.W_o.weight.copy_(gqa.W_o.weight)
        for name in ("W_k", "W_v"):
            kv = getattr(gqa, name).weight.view(2, 4, 24)  # (kv heads, e, d)
            heads = kv.repeat_interleave(3, dim=0)  # heads 0-2 -> kv 0, 3-5 -> kv 1
            getattr(mha, name).weight.copy_(heads.reshape(24, 24))
    assert max_diff(gqa(x), mha(x)) < TOLERANCE


def test_agrees_with_sdpa_enable_gqa():
    assert ex04_sdpa_gqa.k.shape == (2, 4, 16, 64)
    assert ex04_sdpa_gqa.context.shape == (2, 12, 16, 64)
    assert max_diff(ex04_sdpa_gqa.out, ex04_sdpa_gqa.gqa(ex03_equals_mha.x)) < (
        TOLERANCE
    )


def test_groups_must_be_equal():
    with pytest.raises(AssertionError):
        GroupedQueryAttention(768, 768, num_heads=12, num_kv_heads=5)


@pytest.mark.parametrize(
    "kv_heads, params", [(12, 2_359_296), (4, 1_572_864), (1, 1_277_952)]
)
def test_parameters(kv_heads, params):
    gqa = GroupedQueryAttention(768, 768, 12, num_kv_heads=kv_heads)
    assert sum(p.numel() for p in gqa.parameters()) == params
    assert params == 2 * 768**2 + 2 * 768 * kv_heads * 64


def test_configs_are_consistent_with_their_sources():
    hidden = {"Llama-2-7B": 4096, "Llama-3-8B": 4096, "Falcon-7B": 4544}
    for name, (layers, heads, kv_heads, head_dim) in ex06_kv_cache.MODELS.items():
        assert hidden[name] == heads * head_dim
        assert layers == 32
        assert heads % kv_heads == 0


def per_token(name, kv_heads=None):
    layers, heads, published, head_dim = ex06_kv_cache.MODELS[name]
    kv = published if kv_heads is None else kv_heads
    return ex06_kv_cache.kv_cache_bytes_per_token(layers, kv, head_dim)


def test_kv_cache_arithmetic():
    assert per_token("Llama-2-7B") == 2 * 32 * 32 * 128 * 2 == 512 * 2**10
    assert per_token("Llama-3-8B") == per_token("Llama-2-7B") // 4
    assert per_token("Falcon-7B") == 2 * 32 * 1 * 64 * 2
    context = ex06_kv_cache.CONTEXT
    assert per_token("Llama-2-7B") * context == 16 * GiB
    assert per_token("Llama-3-8B") * context == 4 * GiB
    assert per_token("Falcon-7B") * context == GiB // 4


def test_exercises():
    assert ex07_exercise_mean_pool.shared is not ex03_equals_mha.mha
    x = ex03_equals_mha.x
    mha = ex03_equals_mha.mha
    pooled = ex07_exercise_mean_pool.mha_to_gqa(mha, num_kv_heads=4)
    assert max_diff(pooled(x), mha(x)) > 1e3 * TOLERANCE
    shared = ex07_exercise_mean_pool.shared
    exact = ex07_exercise_mean_pool.mha_to_gqa(shared, num_kv_heads=4)
    assert max_diff(exact(x), shared(x)) < TOLERANCE
    assert exact.W_k.weight.shape == (4 * 64, 768)
    budget = ex08_exercise_budget.budget
    tokens = [budget // per_token("Llama-3-8B", kv) for kv in (32, 16, 8, 4, 2, 1)]
    assert tokens[0] == 32_768
    assert all(b == 2 * a for a, b in zip(tokens, tokens[1:], strict=False))


def test_prose_numbers():
    context = ex06_kv_cache.CONTEXT
    check_prose_numbers(
        "grouped-query-attention.md",
        computed={
            "Llama 2 cache, GiB": f"{per_token('Llama-2-7B') * context / GiB:.0f}",
            "Llama 3 cache, GiB": f"{per_token('Llama-3-8B') * context / GiB:.0f}",
            "Falcon cache, GiB": f"{per_token('Falcon-7B') * context / GiB:.2f}",
            "ratio": str(per_token("Llama-2-7B") // per_token("Llama-3-8B")),
            "context": f"{context:,}",
        },
        definitions={
            "0",
            "1",
            "2",
            "3",
            "8",
            "12",
            "30",
            "32",
            "2017",
            "2019",
            "2023",
            "1911.02150",
        },
    )
