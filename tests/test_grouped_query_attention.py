"""Claims of docs/grouped-query-attention.md: the cache, the module, the arithmetic."""

import pytest
import torch

from snippets.grouped_query_attention.ex01_decode_step import decode, step
from snippets.grouped_query_attention.ex03_cache_per_token import (
    BYTES_PER_NUMBER,
    kv_cache_bytes_per_token,
)
from snippets.grouped_query_attention.ex04_gqa_module import GroupedQueryAttention
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import DOCS, check_prose_numbers, on_page

# Imported before this file's first test, not while collecting (tests/pages.py)
PAGE = "grouped-query-attention.md"
ex02_decode_mha = on_page(PAGE, "snippets.grouped_query_attention.ex02_decode_mha")
ex05_six_tokens = on_page(PAGE, "snippets.grouped_query_attention.ex05_six_tokens")
ex06_equals_mha = on_page(PAGE, "snippets.grouped_query_attention.ex06_equals_mha")
ex07_sdpa_gqa = on_page(PAGE, "snippets.grouped_query_attention.ex07_sdpa_gqa")
ex08_decode_gqa = on_page(PAGE, "snippets.grouped_query_attention.ex08_decode_gqa")
ex10_real_models = on_page(PAGE, "snippets.grouped_query_attention.ex10_real_models")
ex11_what_if = on_page(PAGE, "snippets.grouped_query_attention.ex11_what_if")
ex12_bandwidth = on_page(PAGE, "snippets.grouped_query_attention.ex12_bandwidth")
ex13_mean_pool = on_page(
    PAGE, "snippets.grouped_query_attention.ex13_exercise_mean_pool"
)
ex14_exercise_batch = on_page(
    PAGE, "snippets.grouped_query_attention.ex14_exercise_batch"
)
ex15_pipeline = on_page(PAGE, "snippets.grouped_query_attention.ex15_pipeline")


TOLERANCE = 1e-5
GiB = 2**30
MODELS = ex10_real_models.MODELS


def max_diff(a, b):
    return (a - b).abs().max().item()


# -- the cache loop ------------------------------------------------------------------

MODULES = [
    ("MHA", lambda: MultiHeadAttention(48, num_heads=6)),
    ("GQA", lambda: GroupedQueryAttention(48, num_heads=6, num_kv_heads=2)),
    ("MQA", lambda: GroupedQueryAttention(48, num_heads=6, num_kv_heads=1)),
    (
        "GQA, h * d_head != d_model",
        lambda: GroupedQueryAttention(20, num_heads=6, num_kv_heads=3, d_head=8),
    ),
]


@pytest.mark.parametrize("name, make", MODULES, ids=[m[0] for m in MODULES])
def test_each_cached_step_equals_the_uncached_pass_at_its_position(name, make):
    torch.manual_seed(11)
    attn = make()
    d_in = attn.W_q.weight.shape[1]
    x = torch.randn(3, 10, d_in)  # (b, t, d_in)
    with torch.no_grad():
        full = attn(x)  # causal, all positions at once
    cache = {}
    for t in range(x.shape[1]):
        out = step(attn, x[:, t : t + 1], cache)
        torch.testing.assert_close(out, full[:, t : t + 1])
        kv_heads = attn.W_k.weight.shape[0] // attn.d_head
        assert cache["k"].shape == cache["v"].shape == (3, kv_heads, t + 1, 8)


def test_the_step_attends_over_the_cache_not_just_the_new_token():
    """Dropping the cache changes every step after the first: the test can fail."""
    torch.manual_seed(11)
    attn = GroupedQueryAttention(48, num_heads=6, num_kv_heads=2)
    x = torch.randn(1, 5, 48)
    with torch.no_grad():
        full = attn(x)
    forgetful = [step(attn, x[:, t : t + 1], {}) for t in range(5)]
    torch.testing.assert_close(forgetful[0], full[:, :1])
    later = enumerate(forgetful[1:], start=1)
    assert all(max_diff(o, full[:, t : t + 1]) > 1e-3 for t, o in later)


def test_a_batched_step_shares_the_weights_and_reads_each_cache_alone():
    """A step reads the weights once, shared by every sequence in the batch, but
    each sequence's cache for that sequence alone: one set of projections serves
    the whole batch, and changing one sequence's cache changes only its output."""
    torch.manual_seed(11)
    attn = GroupedQueryAttention(48, num_heads=6, num_kv_heads=2)
    x = torch.randn(3, 5, 48)
    cache = {}
    for t in range(4):
        step(attn, x[:, t : t + 1], cache)
    weights = sum(p.numel() for p in attn.parameters())
    assert weights == 48 * 48 * 2 + 2 * 48 * 16  # W_q, W_o; narrower W_k, W_v
    assert cache["k"].shape[0] == 3  # one cache per sequence
    changed = {name: c.clone() for name, c in cache.items()}
    changed["k"][1] += 1.0  # only the second sequence's cached keys
    before = step(attn, x[:, 4:5], cache)
    after = step(attn, x[:, 4:5], changed)
    assert torch.equal(before[[0, 2]], after[[0, 2]])
    assert max_diff(before[1], after[1]) > 1e-3


def test_the_pages_loops_match_the_uncached_pass(capsys):
    for module, batch in [(ex02_decode_mha.mha, ex02_decode_mha.batch)] + [
        (ex08_decode_gqa.mqa, ex05_six_tokens.batch)
    ]:
        with torch.no_grad():
            torch.testing.assert_close(decode(module, batch), module(batch))
    lines = capsys.readouterr().out.splitlines()
    assert lines[5] == "token 6: cached keys (1, 2, 6, 2)"  # MHA: 2 kv heads
    assert lines[11] == "token 6: cached keys (1, 1, 6, 2)"  # MQA: 1 kv head
    assert ex02_decode_mha.cached.shape == ex08_decode_gqa.cached.shape == (1, 6, 3)


# -- the size of the cache -----------------------------------------------------------


@pytest.mark.parametrize("d", [768, 4096, 4544])
def test_mha_cache_is_the_same_for_every_number_of_heads_at_fixed_width(d):
    heads = [h for h in range(1, d + 1) if d % h == 0]
    sizes = {kv_cache_bytes_per_token(32, h, d // h) for h in heads}
    assert sizes == {2 * 32 * d * BYTES_PER_NUMBER}  # one full-width head's


def test_mha_module_caches_one_full_width_head():
    """The module's own key and value tensors, whatever h: b * t * d numbers."""
    x = torch.randn(1, 7, 24)
    for h in [1, 2, 3, 4, 6, 8, 12, 24]:
        mha = MultiHeadAttention(24, num_heads=h)
        with torch.no_grad():
            k = mha.split(mha.W_k(x))
        assert k.shape == (1, h, 7, 24 // h) and k.numel() == 7 * 24
    gqa = GroupedQueryAttention(24, num_heads=6, num_kv_heads=2)
    with torch.no_grad():
        assert gqa.split(gqa.W_k(x)).numel() == 7 * 24 // 3  # below it


def test_mqa_on_six_tokens():
    mqa = ex05_six_tokens.mqa
    assert mqa(ex05_six_tokens.batch).shape == (1, 6, 3)
    assert mqa.W_q.weight.shape == (4, 3)
    assert mqa.W_k.weight.shape == mqa.W_v.weight.shape == (2, 3)
    assert mqa.group == 2


# -- the module ----------------------------------------------------------------------


@pytest.mark.parametrize("causal", [True, False])
def test_as_many_kv_heads_as_heads_is_multi_head_attention(causal):
    x = ex06_equals_mha.x
    mha = MultiHeadAttention(768, num_heads=12, causal=causal)
    gqa = GroupedQueryAttention(768, num_heads=12, num_kv_heads=12, causal=causal)
    gqa.load_state_dict(mha.state_dict())
    assert max_diff(gqa(x), mha(x)) < TOLERANCE
    assert max_diff(ex06_equals_mha.gqa(x), ex06_equals_mha.mha(x)) < TOLERANCE


def test_each_query_head_uses_its_groups_kv_head():
    """GQA equals MHA whose key and value heads are the kv heads, repeated."""
    torch.manual_seed(7)
    x = torch.randn(2, 9, 24)
    gqa = GroupedQueryAttention(24, num_heads=6, num_kv_heads=2)  # groups of 3
    mha = MultiHeadAttention(24, num_heads=6)
    with torch.no_grad():
        mha.W_q.weight.copy_(gqa.W_q.weight)
        mha.W_o.weight.copy_(gqa.W_o.weight)
        for name in ("W_k", "W_v"):
            kv = getattr(gqa, name).weight.view(2, 4, 24)  # (kv heads, e, d)
            heads = kv.repeat_interleave(3, dim=0)  # heads 0-2 -> kv 0, 3-5 -> kv 1
            getattr(mha, name).weight.copy_(heads.reshape(24, 24))
    assert max_diff(gqa(x), mha(x)) < TOLERANCE


def test_agrees_with_sdpa_enable_gqa():
    assert ex07_sdpa_gqa.k.shape == (2, 4, 16, 64)
    assert ex07_sdpa_gqa.context.shape == (2, 12, 16, 64)
    out = ex07_sdpa_gqa.gqa(ex06_equals_mha.x)
    assert max_diff(ex07_sdpa_gqa.out, out) < TOLERANCE


def test_groups_must_be_equal():
    with pytest.raises(AssertionError):
        GroupedQueryAttention(768, num_heads=12, num_kv_heads=5)


@pytest.mark.parametrize(
    "kv_heads, params", [(12, 2_359_296), (4, 1_572_864), (1, 1_277_952)]
)
def test_parameters(kv_heads, params):
    gqa = GroupedQueryAttention(768, num_heads=12, num_kv_heads=kv_heads)
    assert sum(p.numel() for p in gqa.parameters()) == params
    assert params == 2 * 768**2 + 2 * 768 * kv_heads * 64


# -- real models ---------------------------------------------------------------------


def test_configs_are_consistent_with_their_sources():
    hidden = {  # hidden_size in each config.json; Falcon's d_model in its card
        "Llama-2-7B": 4096,
        "Llama-3-8B": 4096,
        "Llama-3.1-8B": 4096,
        "Falcon-7B": 4544,
    }
    for name, (layers, heads, kv_heads, head_dim, _) in MODELS.items():
        assert hidden[name] == heads * head_dim
        assert layers == 32
        assert heads % kv_heads == 0
    assert MODELS["Llama-3.1-8B"][:4] == MODELS["Llama-3-8B"][:4]  # same shapes


def per_token(name, kv_heads=None):
    layers, heads, published, head_dim, _ = MODELS[name]
    kv = published if kv_heads is None else kv_heads
    return kv_cache_bytes_per_token(layers, kv, head_dim)


def full_context(name):
    return per_token(name) * MODELS[name][4]


def test_every_row_is_within_the_models_own_context():
    """The table computes each cache at the model's context, never beyond it:
    the sizes a model's own context gives (full_context is per_token times it)."""
    assert full_context("Llama-2-7B") == 2 * GiB
    assert full_context("Llama-3-8B") == 1 * GiB
    assert full_context("Llama-3.1-8B") == 16 * GiB
    assert full_context("Falcon-7B") == 16 * 2**20
    assert ex11_what_if.context == MODELS["Llama-3.1-8B"][4]  # its own context


def test_kv_cache_arithmetic():
    assert per_token("Llama-2-7B") == 2 * 32 * 32 * 128 * 2 == 512 * 2**10
    assert per_token("Llama-3-8B") == per_token("Llama-2-7B") // 4
    assert per_token("Falcon-7B") == 2 * 32 * 1 * 64 * 2
    assert per_token("Falcon-7B", kv_heads=71) == 71 * per_token("Falcon-7B")
    context = MODELS["Llama-3.1-8B"][4]
    assert per_token("Llama-3.1-8B", 32) * context == 64 * GiB
    assert per_token("Llama-3.1-8B", 1) * context == 2 * GiB


def test_weight_count_from_the_config():
    """The formula gives the published sizes: Llama 3.1 8B has 8.03B weights and
    Llama 2 7B 6.74B (their Hugging Face model pages); per layer, Llama 2 7B's
    attention holds 4 d^2 weights and its MLP 3 d d_ff."""
    weights = ex12_bandwidth.llama_weights
    assert ex12_bandwidth.n == 8_030_261_248
    assert round(ex12_bandwidth.n / 1e9, 2) == 8.03
    llama2 = weights(32, 4096, 32, 32, d_ff=11_008, vocab=32_000)
    assert round(llama2 / 1e9, 2) == 6.74
    per_layer = 4 * 4096**2 + 3 * 4096 * 11_008 + 8192
    assert llama2 == 2 * 32_000 * 4096 + 32 * per_layer + 4096


def bandwidth_ratio(context, kv_heads):
    read = kv_cache_bytes_per_token(32, kv_heads, 128) * context
    return read / ex12_bandwidth.weights_read


def test_bandwidth_claims():
    long = MODELS["Llama-3.1-8B"][4]
    short = MODELS["Llama-3-8B"][4]
    assert bandwidth_ratio(short, 8) < 0.1  # "adds little"
    assert 1 < bandwidth_ratio(long, 8) < bandwidth_ratio(long, 32)
    assert bandwidth_ratio(long, 32) > 1  # "most of what each step reads"
    embedding = 128_256 * 4096
    assert ex12_bandwidth.weights_read == 2 * (ex12_bandwidth.n - embedding)


def test_batch_threshold_exercise():
    w = ex12_bandwidth.weights_read
    thresholds = []
    for kv_heads in (32, 8, 1):
        per_sequence = kv_cache_bytes_per_token(32, kv_heads, 128) * 8_192
        b = w // per_sequence + 1
        assert b * per_sequence > w >= (b - 1) * per_sequence
        thresholds.append(b)
    assert ex14_exercise_batch.batch == thresholds[-1]  # one kv head
    assert thresholds == sorted(thresholds) and thresholds[0] < thresholds[-1]


def test_mean_pool_exercise():
    assert ex13_mean_pool.shared is not ex06_equals_mha.mha
    x = ex06_equals_mha.x
    mha = ex06_equals_mha.mha
    pooled = ex13_mean_pool.mha_to_gqa(mha, num_kv_heads=4)
    assert max_diff(pooled(x), mha(x)) > 1e3 * TOLERANCE
    shared = ex13_mean_pool.shared
    exact = ex13_mean_pool.mha_to_gqa(shared, num_kv_heads=4)
    assert max_diff(exact(x), shared(x)) < TOLERANCE
    assert exact.W_k.weight.shape == (4 * 64, 768)


def shape(step: str) -> str:
    """A tensor's shape as the alt text writes it: (2, 12, 16, 64)."""
    return str(tuple(ex15_pipeline.seen[step].shape))


def test_prose_numbers():
    pipe = ex15_pipeline
    assert shape("K") == shape("V") and shape("scores") == shape("weights")
    long, short = MODELS["Llama-3.1-8B"][4], MODELS["Llama-3-8B"][4]
    fewer = per_token("Llama-2-7B") // per_token("Llama-3-8B")
    falcon = per_token("Falcon-7B", MODELS["Falcon-7B"][1]) // per_token("Falcon-7B")
    check_prose_numbers(
        "grouped-query-attention.md",
        computed={
            "Llama 3.1 context / Llama 3 context": str(long // short),
            "MHA / GQA cache, twice": f"dividing the key-value heads by {fewer} lets "
            f"it hold {fewer} times",
            "Falcon's query heads": f"Falcon 7B's {MODELS['Falcon-7B'][1]} query heads",
            "Falcon MHA / MQA cache": f"cache per token is {falcon}",
            "short context": [f"{short:,}"] * 2,  # the text, exercise 2
            "GQA cache / weights at full context": f"{bandwidth_ratio(long, 8):.2f}",
            "MHA cache / weights at full context": f"{bandwidth_ratio(long, 32):.2f}",
            # the pipeline's alt text (tests/test_figures.py checks its shapes)
            "alt: heads": f"with {pipe.h} query heads and {pipe.h_kv} key-value",
            "alt: kv tiles": f"{pipe.h_kv} wide tiles",
            "alt: query heads per kv head": f"the {pipe.h // pipe.h_kv} query heads",
            "alt: queries": shape("Q"),
            "alt: keys and values": shape("K"),
            "alt: scores": shape("scores"),
            "alt: concatenation and output": [shape("concatenated"), shape("out")],
            "alt: W_o": shape("W_o"),
        },
        # one group, one kv head; bytes per number, heads of width 2, Exercise 2;
        # groups of three, Llama 3.1; Llama 3 8B's kv heads; GPT-2 small's 12 heads;
        # Llama's 32 query heads; Falcon-7B's sequence length (its model card);
        # NeurIPS 30; the papers' years and Shazeer's arXiv number
        definitions={"1", "2", "3", "3.1", "8", "12", "32", "2048", "30"}
        | {"2017", "2019", "2023", "1911.02150"},
    )


def test_the_serving_material_is_marked_optional():
    """Decode bandwidth and server batching are systems material,
    in a section and an exercise marked optional, after the page's own question."""
    text = (DOCS / "grouped-query-attention.md").read_text(encoding="utf-8")
    optional = text.index("## Optional depth: why the cache's size is also its speed")
    assert text.index("## The key-value cache of real models") < optional
    assert '!!! tip "Optional: serving systems"' in text[optional:]
    assert optional < text.index("snippets/grouped_query_attention/ex12_bandwidth.py")
    assert "Exercise 2 (optional depth): when do the caches outweigh" in text
