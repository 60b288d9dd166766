"""The figures: drawn from the weights the pages compute, saying what their alt text
says, and written by the build as self-contained, deterministic SVG."""

import contextlib
import io
import re
import runpy

import pytest
import torch

from hooks.generated import FIGURES, figure_svg, saved_draw
from snippets.attention_inputs import tokens
from snippets.one_head.ex03_weights import weights
from snippets.random_heads.ex01_init_schemes import inits
from snippets.second_head.ex01_hand_set_head import w2
from tests.pages import DOCS, ROOT, lazy

# The figures' modules: imported before this file's first test (tests/pages.py)
one_head = lazy("snippets.one_head.ex05_heatmap")
two_heads = lazy("snippets.second_head.ex06_heatmaps")
random_heads = lazy("snippets.random_heads.ex03_heatmaps")
real_heads = lazy("snippets.real_model.ex06_heatmaps")
real_token = lazy("snippets.real_model.ex08_token_rows")
one_token = lazy("snippets.real_model.ex07_one_token")


TOP_TWO = {tokens.index("journey"), tokens.index("starts")}


def drawn(ax, x=tokens, y=tokens, labelled=True) -> torch.Tensor:
    """The numbers a heatmap panel was drawn from, its image; its ticks name `x`
    and `y`, and (if `labelled`) each cell is labelled with its number."""
    image = torch.tensor(ax.images[0].get_array().tolist())
    if labelled:
        labels = [t.get_text() for t in ax.texts]
        assert labels == [f"{v:.2f}" for v in image.flatten().tolist()]
    assert [t.get_text() for t in ax.get_xticklabels()] == x
    assert [t.get_text() for t in ax.get_yticklabels()] == y
    return image


def test_one_head_figure_is_drawn_from_head_1s_weights():
    (ax,) = one_head.fig.axes
    assert torch.allclose(drawn(ax), weights, atol=1e-7)


def test_alt_one_head_pale_and_journey_starts_on_top():
    assert weights.max() < 0.25  # "no weight reaches a quarter"
    assert all(set(r) == TOP_TWO for r in weights.topk(2, dim=-1).indices.tolist())


def test_two_heads_figure_is_drawn_from_both_heads_weights():
    left, right = two_heads.fig.axes
    assert torch.allclose(drawn(left), weights, atol=1e-7)
    assert torch.allclose(drawn(right), w2, atol=1e-7)
    assert "head 1" in left.get_title() and "head 2" in right.get_title()


def test_random_heads_figure_is_drawn_from_each_inits_pair():
    panels = random_heads.fig.axes
    assert len(panels) == 2 * len(inits)
    for k, (name, (head_a, head_b)) in enumerate(random_heads.pairs.items()):
        a, b = panels[2 * k], panels[2 * k + 1]
        assert torch.allclose(drawn(a), head_a, atol=1e-7)
        assert torch.allclose(drawn(b), head_b, atol=1e-7)
        assert a.get_title() == f"{name}: random head A"


def test_the_pairs_are_the_pages_pair_under_torch_rand():
    from snippets.random_heads.ex02_one_pair import head_a, head_b

    assert torch.equal(random_heads.pairs["torch.rand"][0], head_a)
    assert torch.equal(random_heads.pairs["torch.rand"][1], head_b)


def alt_text(path: str) -> str:
    """The alt text of the figure `path`, on the one page that shows it."""
    pages = "\n".join(p.read_text() for p in sorted(DOCS.glob("*.md")))
    (alt,) = re.findall(r"!\[([^\]]+)\]\(" + re.escape(path) + r"\)", pages)
    return " ".join(alt.split())


def test_alt_two_heads_head1_pale_head2_favours_your_from_073_to_023():
    alt = alt_text("assets/figures/second-head-heatmaps.svg")
    assert weights.max() < 0.5  # pale cells with black labels, all of them
    your, one = tokens.index("Your"), tokens.index("one")
    assert (w2.argmax(dim=-1) == your).all()  # "more weight than any other token"
    column = w2[:, your]
    assert column.argmax() == your and column.argmin() == one  # "from ... down to"
    assert f"from {column[your]:.2f} when Your asks" in alt
    assert f"down to {column[one]:.2f} when one asks" in alt
    assert column.min() < 0.5  # so "mostly" would overstate: not in the alt text
    assert "mostly" not in alt


def test_alt_random_heads():
    for head in random_heads.pairs["torch.rand"]:
        assert all(set(row) == TOP_TWO for row in head.topk(2, dim=-1).indices.tolist())
    for head in random_heads.pairs["nn.Linear"]:
        assert (head - 1 / 6).abs().max() < 0.05  # close to uniform
    for head in random_heads.pairs["N(0, 0.02)"]:
        labels = {f"{v:.2f}" for v in head.flatten().tolist()}
        assert labels == {f"{1 / 6:.2f}"}  # one sixth, to two decimals


def test_real_model_heads_figure_is_drawn_from_the_picked_heads():
    tokens, weights, picks = real_heads.tokens, real_heads.weights, real_heads.picks
    panels = real_heads.fig.axes
    assert len(panels) == len(picks) == 3
    for ax, (name, (layer, head)) in zip(panels, picks.items(), strict=True):
        panel = drawn(ax, tokens, tokens, labelled=False)  # no cell labels
        assert torch.allclose(panel, weights[layer, head])
        assert ax.get_title() == f"{name}\nlayer {layer + 1}, head {head + 1}"


def test_alt_real_model_heads():
    w = real_heads.weights
    t = w.shape[-1]
    previous = w[real_heads.picks["previous token"]]
    rows = torch.arange(1, t)  # "a sharp dark stripe just below the diagonal"
    assert previous[rows, rows - 1].min() > 0.95
    following = w[real_heads.picks["next token"]]
    words = torch.arange(1, t - 1)
    top = following[words].argmax(-1)
    assert (top == words + 1).sum() > len(words) / 2  # a stripe above the diagonal
    assert (top == 0).any()  # broken: some rows fall back on [CLS]
    assert following[words, words + 1].mean() < previous[rows, rows - 1].mean()
    sink = w[real_heads.picks["[CLS] sink"]]
    assert sink[:, 0].min() > 0.8  # a single dark column on [CLS]
    assert (sink[:, 1:] < 0.1).all()
    alt = alt_text("assets/figures/real-model-heads.svg")
    assert real_heads.sentences[7].lower().rstrip(".") in alt


def test_real_model_token_figure_is_drawn_from_its_rows():
    (ax,) = real_token.fig.axes
    heads = [f"head {h + 1}" for h in real_token.picked]  # from 1
    shown = drawn(ax, real_token.tokens, heads)
    assert torch.allclose(shown, real_token.rows[real_token.picked])
    assert f"layer {real_token.layer + 1}" in ax.get_title()


def test_alt_real_model_token_heads():
    tokens, rows = real_token.tokens, real_token.rows
    alt = alt_text("assets/figures/real-model-token-heads.svg")
    sink, animal, tired = real_token.picked  # in sentence order of what they look at
    for head, token in [(sink, "[CLS]"), (animal, "animal"), (tired, "tired")]:
        assert tokens[rows[head].argmax()] == token
        weight = re.escape(f"{rows[head].max():.2f}")
        found = rf"Head {head + 1} .*?{weight},? on {token.strip('[]')}"  # from 1
        assert re.search(found, alt), head
    assert rows[sink, 1:].max() < 0.15  # "spreads the rest"
    assert rows[tired].max() < 0.5  # head 10 "spreads its weight"
    assert f"three heads of layer {real_token.layer + 1}" in alt
    assert one_token.sentence.rstrip(".") in alt


# The front page's answer in one picture: also shown, small, on the index.
ON_THE_INDEX = {"assets/figures/how-many-heads-staircase.svg"}


@pytest.mark.parametrize("path", sorted(FIGURES))
def test_each_figure_is_on_a_page_with_alt_text(path):
    image = re.compile(r"!\[([^\]]{40,})\]\(" + re.escape(path) + r"\)", re.S)
    pages = {p.name for p in DOCS.glob("*.md") if image.search(p.read_text())}
    on_index = {"index.md"} if path in ON_THE_INDEX else set()
    assert on_index <= pages and len(pages - on_index) == 1, (
        f"{path} should be shown by exactly one page"
        + (" and the index" if on_index else "")
    )


def fresh_figure(module: str):
    """The figure as a build draws it: the snippet's code run anew (quietly)."""
    with contextlib.redirect_stdout(io.StringIO()):
        path = ROOT / (module.replace(".", "/") + ".py")
        return runpy.run_path(str(path))["fig"]


@pytest.mark.parametrize("module", sorted(FIGURES.values()))
def test_svg_is_self_contained_and_deterministic(module):
    first = figure_svg(fresh_figure(module))
    # same code, same bytes: drawn again here, it is the SVG a build saved, drawn
    # in another process (saved_draw, keyed on the code; it draws if none is saved)
    assert first == saved_draw(module, ROOT)
    assert "<text" in first  # text stays text
    external = re.findall(r'(?:href|src)="(?!#|data:)([^"]+)"', first)
    assert external == []
    assert "url(http" not in first and "@import" not in first


# -- the pipeline diagrams: every label is a shape that the code made -------------

pipeline_toy = lazy("snippets.second_head.ex10_pipeline")
pipeline_mha = lazy("snippets.multi_head_attention.ex10_pipeline")
pipeline_gqa = lazy("snippets.grouped_query_attention.ex15_pipeline")


def drawn_pipeline(fig):
    """What a pipeline figure shows: its texts in drawing order, the number of
    lanes, and per tile the lanes it covers (those whose middle lies inside it)."""
    from matplotlib.patches import FancyBboxPatch

    (ax,) = fig.axes
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    lanes = [p.get_x() + p.get_width() / 2 for p in boxes if p.get_zorder() == 0]
    covered = [
        [i for i, m in enumerate(lanes) if p.get_x() < m < p.get_x() + p.get_width()]
        for p in boxes
        if p.get_zorder() > 0
    ]
    return [t.get_text() for t in ax.texts], len(lanes), covered


def meant(title, heads, steps):
    """What a pipeline figure should show, from the steps it was given."""
    texts, covered = [title, *heads], []
    for label, _, tiles in steps:
        texts += [label, *(text for *_, text in tiles)]
        covered += [list(range(first, first + span)) for first, span, _ in tiles]
    n_lanes = max(first + span for _, _, tiles in steps for first, span, _ in tiles)
    return texts, n_lanes, covered


def tile_texts(steps) -> dict[str, list[str]]:
    """A step's first word -> the texts of its tiles."""
    return {label.split()[0]: [t for *_, t in tiles] for label, _, tiles in steps}


def test_the_toy_pipeline_draws_the_shapes_of_the_pages_tensors():
    from snippets.attention_inputs import inputs
    from snippets.one_head.ex01_projections import keys, queries, values
    from snippets.one_head.ex02_scores import scores
    from snippets.one_head.ex04_context import context
    from snippets.second_head.ex01_hand_set_head import keys2, queries2, values2
    from snippets.second_head.ex02_context import context2
    from snippets.second_head.ex04_concatenate import concatenated
    from snippets.second_head.ex05_output_projection import W_o, out

    toy = pipeline_toy
    heads = ["head 1", "head 2"]
    assert drawn_pipeline(toy.fig) == meant(toy.title, heads, toy.steps)
    tiles, shape = tile_texts(toy.steps), toy.shape
    assert tiles["input"] == [shape(inputs)] == ["(6, 3)"]
    assert tiles["queries"] == [shape(queries), shape(queries2)] == ["(6, 2)", "(6, 1)"]
    assert tiles["keys"] == [shape(keys), shape(keys2)]
    assert tiles["values"] == [shape(values), shape(values2)] == ["(6, 2)"] * 2
    assert tiles["scores"] == tiles["weights:"] == [shape(scores), shape(w2)]
    assert tiles["weights:"] == [shape(weights), shape(w2)] == ["(6, 6)"] * 2
    assert tiles["context:"] == [shape(context), shape(context2)]
    assert tiles["concatenate"] == [shape(concatenated)] == ["(6, 4)"]
    assert tiles["times"] == [shape(W_o)] and tiles["output"] == [shape(out)]


def test_alt_toy_pipeline():
    alt = alt_text("assets/figures/second-head-pipeline.svg")
    tiles = tile_texts(pipeline_toy.steps)
    (x,), (q1, q2), (k1, k2), (v1, v2) = (
        tiles[k] for k in ("input", "queries", "keys", "values")
    )
    assert f"The input x, {x}, runs across both lanes" in alt
    assert q1 == k1 == v1 and f"Head 1's queries, keys and values are {q1} each" in alt
    assert q2 == k2 and f"head 2's queries and keys are {q2} and its values {v2}" in alt
    (s1, s2), (w1, w2_), (c1, c2) = (
        tiles[k] for k in ("scores", "weights:", "context:")
    )
    assert s1 == s2 == w1 == w2_ and c1 == c2
    assert f"the scores and the weights are {s1} and the context is {c1}" in alt
    (cat,), (w_o,), (y,) = (tiles[k] for k in ("concatenate", "times", "output"))
    assert f"the concatenation is {cat}, W_o is {w_o} and the output is {y}" in alt


def labelled_shapes(module, attn) -> dict[str, tuple]:
    """A step's first word -> the shape its label states, which its axis names
    must spell with the sizes of the module `attn` and its input."""
    b, t, d_model = module.x.shape
    h, d_head, h_kv = attn.num_heads, attn.d_head, attn.W_k.out_features // attn.d_head
    sizes = dict(b=b, t=t, d_model=d_model, h=h, d_head=d_head, h_kv=h_kv)
    shapes = {}
    for label, _, _ in module.steps_of(module.seen):
        what, axes = label.split("\n")
        names, numbers = re.fullmatch(r"\((.*)\) = \((.*)\)", axes).groups()
        stated = tuple(int(n) for n in numbers.split(", "))
        spelled = tuple(
            torch.tensor([sizes[f] for f in name.split("·")]).prod().item()
            for name in names.split(", ")
        )
        assert stated == spelled, label
        shapes[what.split()[0]] = stated
    return shapes


def check_module_pipeline(module, attn):
    """The figure draws its steps, whose labels are the module's shapes, checked
    here step by step; returns the shapes and the size of the groups."""
    x, seen = module.x, module.seen
    steps = module.steps_of(seen)
    assert drawn_pipeline(module.fig) == meant(module.title, [], steps)
    shapes = labelled_shapes(module, attn)
    with torch.no_grad():
        q, k, v = (attn.split(layer(x)) for layer in (attn.W_q, attn.W_k, attn.W_v))
        group = attn.num_heads // k.shape[1]
        context = attn.attend(
            q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
        )
        out = attn(x)
    b, t, _ = x.shape
    assert shapes == {
        "input": tuple(x.shape),
        "queries": tuple(q.shape),
        "keys": tuple(k.shape),
        "values": tuple(v.shape),
        "scores": (b, attn.num_heads, t, t),
        "weights:": (b, attn.num_heads, t, t),
        "context:": tuple(context.shape),
        "concatenate": (b, t, attn.W_o.in_features),
        "W_o": (attn.W_o.in_features, attn.W_o.out_features),
        "output": tuple(out.shape),
    }
    # what record() kept is what the module computed, and it leaves no hook behind
    assert torch.equal(seen["out"], out) and torch.equal(seen["context"], context)
    assert torch.allclose(seen["weights"], seen["scores"].softmax(-1))
    assert torch.allclose(seen["weights"].sum(-1), torch.ones(b, attn.num_heads, t))
    assert all(not layer._forward_hooks for layer in attn.children())
    return shapes, group


def test_the_module_pipeline_draws_the_shapes_of_one_run_of_gpt2_attn():
    shapes, group = check_module_pipeline(pipeline_mha, pipeline_mha.gpt2_attn)
    assert group == 1 and shapes["input"] == (2, 64, 768)  # the page's x
    assert shapes["queries"] == (2, 12, 64, 64)  # GPT-2 small: 12 heads of 64


def test_the_gqa_pipeline_draws_each_kv_head_across_the_query_heads_that_use_it():
    import copy

    gqa = pipeline_gqa.gqa
    shapes, group = check_module_pipeline(pipeline_gqa, gqa)
    assert shapes["keys"][1] * group == shapes["queries"][1] and group > 1
    steps = pipeline_gqa.steps_of(pipeline_gqa.seen)
    kv = tile_texts(steps)
    assert len(kv["keys"]) == len(kv["values"]) == shapes["keys"][1]
    # The module decides which query heads share a kv head: silence one kv head's
    # values, and exactly the query heads whose lanes its tile covers go quiet.
    tiles = next(tiles for label, _, tiles in steps if label.startswith("values"))
    for g, (first, span, _) in enumerate(tiles):
        silent = copy.deepcopy(gqa)
        with torch.no_grad():
            silent.W_v.weight[g * gqa.d_head : (g + 1) * gqa.d_head] = 0
        context = pipeline_gqa.record(silent, pipeline_gqa.x)["context"]
        quiet = [i for i in range(gqa.num_heads) if not context[:, i].any()]
        assert quiet == list(range(first, first + span))
    keys = next(tiles for label, _, tiles in steps if label.startswith("keys"))
    assert keys == tiles  # keys are shared the same way (the same repeat)


def module_shapes(module, attn) -> dict[str, str]:
    return {step: str(shape) for step, shape in labelled_shapes(module, attn).items()}


def test_alt_mha_pipeline():
    mha = module_shapes(pipeline_mha, pipeline_mha.gpt2_attn)
    alt = alt_text("assets/figures/multi-head-attention-pipeline.svg")
    assert f"one grey lane for each of the {pipeline_mha.h} heads" in alt
    assert f"The input x, {mha['input']}, spans all the lanes" in alt
    assert mha["queries"] == mha["keys"] == mha["values"] == mha["context:"]
    assert f"split into heads, are {mha['queries']}, one tile per lane" in alt
    assert mha["scores"] == mha["weights:"] == mha["queries"]  # "as well"
    assert (
        f"the scores and the weights, of axes (b, h, t, t), are {mha['scores']}" in alt
    )
    t, d_head = pipeline_mha.t, pipeline_mha.d_head
    assert t == d_head and f"because here t and d_head are both {t}" in alt
    assert (
        f"The concatenation, {mha['concatenate']}, W_o, {mha['W_o']}, and the "
        f"output, {mha['output']}, span all the lanes again" in alt
    )


def test_alt_gqa_pipeline():
    gqa = module_shapes(pipeline_gqa, pipeline_gqa.gqa)
    alt = alt_text("assets/figures/grouped-query-attention-pipeline.svg")
    h, h_kv = pipeline_gqa.h, pipeline_gqa.h_kv
    assert f"with {h} query heads and {h_kv} key-value heads" in alt
    assert f"The queries are {gqa['queries']}, one tile per lane" in alt
    assert gqa["keys"] == gqa["values"]
    assert f"the keys and the values are {gqa['keys']}: {h_kv} wide tiles" in alt
    assert f"the lanes of the {h // h_kv} query heads that share it" in alt
    assert f"From the scores on, {gqa['scores']}, every lane" in alt
    rest = [gqa[step] for step in ("concatenate", "W_o", "output")]
    assert "as in multi-head attention: {}, {} and {}".format(*rest) in alt
