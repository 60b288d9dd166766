"""Claims of docs/multi-head-attention.md, checked against its snippets."""

import pytest
import torch
import transformers

from snippets.attention_inputs import inputs
from snippets.multi_head_attention import (
    ex02_run_loop,
    ex03_split_heads,
    ex05_run_module,
    ex07_biases,
    ex08_exercise_merge,
    ex09_exercise_parameters,
)
from snippets.multi_head_attention.ex01_loop_of_heads import (
    Head,
    LoopOfHeads,
    causal_mask,
)
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import DOCS, check_prose_numbers, on_page

# GPT-2 small's attention and the pipeline figures' runs: in the worker that runs
# this file only, not in every worker that collects it
PAGE = "multi-head-attention.md"
ex06_gpt2_small = on_page(PAGE, "snippets.multi_head_attention.ex06_gpt2_small")
ex10_pipeline = on_page(PAGE, "snippets.multi_head_attention.ex10_pipeline")


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
    assert ex02_run_loop.out.shape == (1, 6, 3)  # back to d_model
    assert len(ex02_run_loop.loop.heads) == 2
    assert ex05_run_module.mha(ex02_run_loop.batch).shape == (1, 6, 3)
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
        MultiHeadAttention(5, num_heads=2)  # no d_head given: 5 must split
    with pytest.raises(AssertionError):
        LoopOfHeads(5, num_heads=2)
    assert MultiHeadAttention(5, num_heads=2, d_head=3).d_head == 3  # given


def test_the_number_of_heads_is_a_keyword():
    """`MultiHeadAttention(768, 768, 12)`, the old (d_in, d_out, num_heads)
    order, fails loudly rather than building 768 heads of width 12."""
    with pytest.raises(TypeError):
        MultiHeadAttention(768, 768, 12)
    with pytest.raises(TypeError):
        LoopOfHeads(768, 768, 12)


def test_gpt2_small_sizes():
    assert ex06_gpt2_small.gpt2_attn.d_head == 64
    params = sum(p.numel() for p in ex06_gpt2_small.gpt2_attn.parameters())
    assert params == 4 * 768**2 == 2_359_296
    for h in (1, 12):  # the number of heads does not change the count
        mha = MultiHeadAttention(768, num_heads=h)
        assert sum(p.numel() for p in mha.parameters()) == params


def test_exercises():
    assert torch.equal(ex08_exercise_merge.merged, ex03_split_heads.q)
    count = ex09_exercise_parameters.count
    loop, mha = ex02_run_loop.loop, ex05_run_module.mha
    assert count(loop) == count(mha) == 2 * 3 * 2 * 3 + 4 * 3 == 48
    gpt2 = dict(d_model=768, num_heads=12)
    assert count(LoopOfHeads(**gpt2)) == count(MultiHeadAttention(**gpt2))


def test_earlier_pages_had_no_mask():
    """One head, the second head, random heads, try-it, explorer: no mask."""
    from snippets.explorer.ex01_two_heads import head as explorer_head
    from snippets.one_head.ex01_projections import W_key, W_query, W_value
    from snippets.one_head.ex03_weights import weights
    from snippets.random_heads.ex02_one_pair import head_a, head_b
    from snippets.second_head.ex01_hand_set_head import w2
    from snippets.try_it.ex01_equal_projections import attention_head

    future = causal_mask(6)
    explorer_weights, _ = explorer_head(inputs, W_query, W_key, W_value)
    for w in (weights, w2, head_a, head_b, explorer_weights):
        assert (w[future] > 0).all()  # every later token gets some weight
    assert weights[0, 5] > 0  # "Your" takes part of its answer from "step"
    changed = inputs.clone()
    changed[5] += 1.0  # move "step" only
    before = attention_head(inputs, W_query, W_key, W_value)
    after = attention_head(changed, W_query, W_key, W_value)
    assert not torch.allclose(before[0], after[0])  # "Your" sees the change


@pytest.fixture(scope="module")
def tiny_gpt2_and_bert():
    torch.manual_seed(0)
    sizes = dict(num_hidden_layers=1, num_attention_heads=2, vocab_size=10)
    gpt2 = transformers.GPT2Model(
        transformers.GPT2Config(
            n_embd=8, n_positions=8, bos_token_id=0, eos_token_id=0, **sizes
        )
    )
    bert = transformers.BertModel(
        transformers.BertConfig(
            hidden_size=8, intermediate_size=16, max_position_embeddings=8, **sizes
        )
    )
    return gpt2.eval(), bert.eval()


def test_decoders_mask_and_bert_does_not(tiny_gpt2_and_bert):
    """Changing the last token moves BERT's earlier outputs, never GPT-2's."""
    gpt2, bert = tiny_gpt2_and_bert
    ids, last_changed = torch.tensor([[1, 2, 3, 4]]), torch.tensor([[1, 2, 3, 5]])
    with torch.no_grad():
        for model, sees_the_future in ((gpt2, False), (bert, True)):
            before = model(ids).last_hidden_state[:, :3]
            after = model(last_changed).last_hidden_state[:, :3]
            assert torch.equal(before, after) is not sees_the_future


def test_gpt2_projections_have_biases(tiny_gpt2_and_bert):
    gpt2, _ = tiny_gpt2_and_bert
    attn = gpt2.h[0].attn
    assert attn.c_attn.bias.shape == (3 * 8,)  # queries, keys and values
    assert attn.c_proj.bias.shape == (8,)  # the output projection


def test_training_model_uses_biases():
    from snippets.training.ex03_model import Attention

    model = Attention(2, 2)  # two heads of width 2
    for layer in (model.W_query, model.W_key, model.W_value, model.W_o):
        assert layer.bias is not None
    assert torch.nn.Linear(3, 2).bias is not None  # nn.Linear's default


def test_module_maps_the_heads_back_to_d_model():
    """h * d_head = 4 numbers per token between W_q and W_o; W_o maps them back
    to d_model = 3, as the second-head page's W_o does, so the output can be
    added to the input."""
    batch, mha = ex02_run_loop.batch, ex05_run_module.mha
    assert batch.shape[-1] == 3  # d_model
    assert mha.W_q.weight.shape == (2 * 2, 3)  # (h * d_head, d_model)
    assert mha.W_o.weight.shape == (3, 4)  # nn.Linear layout: (d_model, h * d_head)
    assert mha(batch).shape == batch.shape
    assert (batch + mha(batch)).shape == batch.shape
    with pytest.raises(AssertionError):  # 3 does not split into two heads
        MultiHeadAttention(3, num_heads=2)


def test_second_head_wo_maps_back_to_the_embedding_width():
    from snippets.second_head.ex05_output_projection import W_o, out

    assert W_o.shape == (4, 3)
    assert out.shape == inputs.shape  # so it could be added to the input


def test_gpt2_output_adds_back_onto_its_input():
    x, out = ex06_gpt2_small.x, ex06_gpt2_small.out
    assert out.shape == x.shape == (2, 64, 768)
    with torch.no_grad():
        assert torch.allclose(out - x, ex06_gpt2_small.gpt2_attn(x), atol=1e-6)


# -- biases ---------------------------------------------------------------------------

TOL = 1e-6


def test_bias_example_is_head_1():
    from snippets.one_head.ex01_projections import W_key, W_query, W_value

    assert torch.equal(ex07_biases.W_q, W_query)
    assert torch.equal(ex07_biases.W_k, W_key)
    assert torch.equal(ex07_biases.W_v, W_value)


def test_query_bias_changes_the_weights():
    assert (ex07_biases.weights_q - ex07_biases.weights).abs().max() > 0.01


def test_key_bias_leaves_the_weights_alone():
    assert torch.allclose(ex07_biases.weights_k, ex07_biases.weights, atol=TOL)
    assert not torch.equal(  # the scores themselves did change
        inputs @ ex07_biases.W_q @ (inputs @ ex07_biases.W_k + ex07_biases.b).T,
        inputs @ ex07_biases.W_q @ (inputs @ ex07_biases.W_k).T,
    )


def test_value_bias_shifts_every_context_vector_by_b():
    shift = ex07_biases.context_v - ex07_biases.context  # (6, 2)
    assert torch.allclose(shift, ex07_biases.b.expand(6, 2), atol=TOL)
    weights_v, _ = ex07_biases.head(inputs, b_v=ex07_biases.b)
    assert torch.equal(weights_v, ex07_biases.weights)


def random_biased_head(d, d_head, t, seed, b_q=False, b_k=False, b_v=False):
    """A head at GPT-2 width, with a causal mask, and chosen biases."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(t, d, generator=g)
    W_q, W_k, W_v = (torch.randn(d, d_head, generator=g) / d**0.5 for _ in "qkv")
    bias = torch.randn(3, d_head, generator=g)
    q = x @ W_q + (bias[0] if b_q else 0)
    k = x @ W_k + (bias[1] if b_k else 0)
    v = x @ W_v + (bias[2] if b_v else 0)
    scores = (q @ k.T / d_head**0.5).masked_fill(causal_mask(t), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights, weights @ v, bias


def test_bias_claims_hold_at_gpt2_width_with_a_mask():
    args = dict(d=768, d_head=64, t=32, seed=7)
    weights, context, bias = random_biased_head(**args)
    weights_q, _, _ = random_biased_head(**args, b_q=True)
    weights_k, _, _ = random_biased_head(**args, b_k=True)
    weights_v, context_v, _ = random_biased_head(**args, b_v=True)
    assert (weights_q - weights).abs().max() > 0.01
    assert torch.allclose(weights_k, weights, atol=TOL)
    assert torch.equal(weights_v, weights)
    assert torch.allclose(context_v - context, bias[2].expand(32, 64), atol=1e-5)


def test_value_bias_after_wo_is_an_output_bias():
    """A value bias b, mixed by W_o, equals an output bias of b W_o."""
    torch.manual_seed(8)
    mha = MultiHeadAttention(24, num_heads=4)
    x = torch.randn(2, 10, 24)
    b_v = torch.randn(24)
    with torch.no_grad():
        with_value_bias = MultiHeadAttention(24, num_heads=4)
        with_value_bias.load_state_dict(mha.state_dict())
        with_value_bias.W_v = torch.nn.Linear(24, 24)
        with_value_bias.W_v.weight.copy_(mha.W_v.weight)
        with_value_bias.W_v.bias.copy_(b_v)
        output_bias = mha.W_o(b_v)  # (24,): b_v mixed by W_o
        assert torch.allclose(with_value_bias(x), mha(x) + output_bias, atol=1e-5)
        assert output_bias.abs().max() > 0.1  # and it is not nothing


def test_the_heads_axis_lives_between_split_and_concatenation():
    """The pipeline's prose: every lane alike, the heads axis only from the split
    to the concatenation, and only scores and weights with the token axis twice.
    On the page t and d_head are both 64, so here a shorter input tells them apart."""
    attn, h = ex06_gpt2_small.gpt2_attn, ex06_gpt2_small.gpt2_attn.num_heads
    t = 10
    seen = ex10_pipeline.record(attn, ex06_gpt2_small.x[:, :t])
    with_heads = [step for step, v in seen.items() if v.dim() == 4]
    assert with_heads == ["Q", "K", "V", "scores", "weights", "context"]
    assert all(seen[step].shape[1] == h for step in with_heads)
    assert attn.d_head * h == seen["x"].shape[-1] == seen["out"].shape[-1]
    twice = [step for step, v in seen.items() if list(v.shape).count(t) == 2]
    assert twice == ["scores", "weights"]


def test_bert_and_the_book_are_cited_where_they_are_used():
    text = " ".join((DOCS / "multi-head-attention.md").read_text().split())
    # BERT's unmasked self-attention is stated in §3's "Model Architecture"
    # paragraph (its §3.1 is the masked language model)
    assert 'Devlin et al. 2019, §3, "Model Architecture"' in text
    assert "of [the book](index.md#sources)" in text  # Raschka's module


def test_prose_numbers():
    count = ex09_exercise_parameters.count
    check_prose_numbers(
        "multi-head-attention.md",
        computed={
            "parameters at width 768": f"{4 * 768**2:,}",
            "parameters of the six-token modules": str(count(ex05_run_module.mha)),
        },
        # widths and counts; 3 is also Devlin et al.'s section "BERT" (NAACL 2019,
        # its "Model Architecture"); 3.2.2 is Vaswani et al.'s on multi-head attention
        definitions={"0", "1", "2", "3", "4", "12", "64", "768"}
        | {"2017", "3.2.2", "2019"},
    )
