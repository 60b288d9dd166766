"""Claims of docs/cost.md: counts by code, the measured tables, what splitting costs."""

import pytest
import torch
from torch.overrides import TorchFunctionMode
from torch.utils.flop_counter import FlopCounterMode

from benchmarks import bench_attention
from snippets.checking_against_pytorch.ex03_sdpa_module import SDPAMultiHeadAttention
from snippets.cost.bench_results import bench
from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import ROOT, check_prose_numbers, on_page

# Read from the page's own run, before this file's first test (tests/pages.py)
ex02_flops = on_page("cost.md", "snippets.cost.ex02_flops")
ex03_softmax_work = on_page("cost.md", "snippets.cost.ex03_softmax_work")
ex04_vaswani_heads = on_page("cost.md", "snippets.cost.ex04_vaswani_heads")
ex05_score_rank = on_page("cost.md", "snippets.cost.ex05_score_rank")
ex06_bench_table = on_page("cost.md", "snippets.cost.ex06_bench_table")
ex07_causal_share = on_page("cost.md", "snippets.cost.ex07_causal_share")
ex08_sweep_table = on_page("cost.md", "snippets.cost.ex08_sweep_table")
ex09_per_head_work = on_page("cost.md", "snippets.cost.ex09_per_head_work")
ex10_exercise_fixed_width = on_page(
    "cost.md", "snippets.cost.ex10_exercise_fixed_width"
)
ex11_exercise_gpt2_maps = on_page("cost.md", "snippets.cost.ex11_exercise_gpt2_maps")


T = 1024  # ex02_flops.T, asserted in test_flop_formula
PAGE = (ROOT / "docs/cost.md").read_text(encoding="utf-8")
PROSE = " ".join(PAGE.split())  # a phrase may run over a line break


def test_sweep_and_width():
    assert d_model == 768
    assert heads_sweep == [1, 2, 4, 8, 12]
    assert all(d_model % h == 0 for h in heads_sweep)


@pytest.mark.parametrize("h", heads_sweep)
def test_parameters_do_not_depend_on_heads(h):
    mha = MultiHeadAttention(d_model, num_heads=h)
    assert sum(p.numel() for p in mha.parameters()) == 4 * d_model**2


def test_flop_formula():
    d = d_model
    assert T == ex02_flops.T == 1024
    assert ex02_flops.formula == 2 * (4 * T * d**2 + 2 * T**2 * d)
    assert ex02_flops.formula == 8_053_063_680


@pytest.mark.parametrize("h", [1, 12])
def test_flops_do_not_depend_on_heads(h):
    torch.manual_seed(0)
    x = torch.randn(1, 64, d_model)
    with torch.no_grad():
        flops = ex02_flops.matmul_flops(MultiHeadAttention(d_model, num_heads=h), x)
    assert flops == 2 * (4 * 64 * d_model**2 + 2 * 64**2 * d_model)


# -- what grows with h: scores, exponentials, maps -----------------------------------


class Outputs(TorchFunctionMode):
    """Records every torch function's output, with the function."""

    def __init__(self):
        super().__init__()
        self.outputs = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.outputs.append((func, out))
        return out

    def exps(self) -> int:
        """How many exponentials were taken."""
        exp = (torch.exp, torch.Tensor.exp)
        return sum(out.numel() for func, out in self.outputs if func in exp)

    def maps(self, t: int) -> list[torch.Size]:
        """The shapes of the tensors made with a (t, t) attention map at the end."""
        tensors = [out for _, out in self.outputs if isinstance(out, torch.Tensor)]
        return [x.shape for x in tensors if x.dim() == 4 and x.shape[-2:] == (t, t)]


class HandSoftmax(MultiHeadAttention):
    """The textbook module with its softmax spelled out, to count exponentials."""

    def attend(self, q, k, v):
        scores = q @ k.transpose(-2, -1) / self.d_head**0.5
        scores = scores - scores.amax(dim=-1, keepdim=True)
        weights = scores.exp()
        return (weights / weights.sum(dim=-1, keepdim=True)) @ v


@pytest.mark.parametrize("h", heads_sweep)
def test_exponentials_are_h_t_squared_and_matmul_flops_stay_constant(h):
    t = 32
    torch.manual_seed(0)
    x = torch.randn(2, t, d_model)
    module = HandSoftmax(d_model, num_heads=h, causal=False)
    with torch.no_grad(), Outputs() as outputs, FlopCounterMode(display=False) as flops:
        module(x)
    assert outputs.exps() == 2 * h * t**2  # b h T^2: grows with h
    assert flops.get_total_flops() == 2 * 2 * (4 * t * d_model**2 + 2 * t**2 * d_model)


def test_softmax_recorder_counts_h_t_squared_and_the_maps():
    recorder = ex03_softmax_work.SoftmaxRecorder()
    with torch.no_grad(), recorder:
        MultiHeadAttention(d_model, num_heads=12)(ex02_flops.x)
    (shape,) = recorder.shapes
    assert tuple(shape) == (1, 12, T, T)
    assert 4 * T * T == 4 * 2**20  # 4 MiB per head and sequence
    assert 12 * 4 * T * T == 48 * 2**20
    assert ex02_flops.formula // T**2 == 7_680  # matmul FLOPs per exp, one head
    assert ex02_flops.formula // (12 * T**2) == 640


def test_textbook_writes_four_maps_and_fused_none():
    torch.manual_seed(0)
    x = torch.randn(2, 16, 24)
    maps = []
    for module in (MultiHeadAttention, SDPAMultiHeadAttention):
        with torch.no_grad(), Outputs() as outputs:
            module(24, num_heads=4)(x)
        maps.append(outputs.maps(16))
    assert maps[0] == [(2, 4, 16, 16)] * 4  # raw, scaled, masked, normalised
    assert maps[1] == []


def one_head_work(h, t=256):
    e = d_model // h
    q, k, v = torch.randn(3, 1, 1, t, e)
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        MultiHeadAttention(d_model, num_heads=h).attend(q, k, v)
    flops = counter.get_total_flops()
    return flops, flops / (3 * t * e), flops / t**2


@pytest.mark.parametrize("h", heads_sweep)
def test_per_head_flops_per_loaded_number_do_not_depend_on_width(h):
    """4 T^2 e FLOPs on 3 T e numbers: 4T/3 for every width; 4e per score."""
    flops, per_number, per_score = one_head_work(h)
    e = d_model // h
    assert flops == 4 * 256**2 * e
    assert per_number == pytest.approx(4 * 256 / 3)
    assert per_score == 4 * e


def test_per_head_table_on_the_page():
    """At the page's T: 1,365 FLOPs per q, k, v number for every h; 4e per score."""
    rows = [one_head_work(h, t=T) for h in heads_sweep]
    assert {f"{per_number:,.0f}" for _, per_number, _ in rows} == {"1,365"}
    assert [per_score for *_, per_score in rows] == [3072, 1536, 768, 384, 256]
    assert ex09_per_head_work.per_score == 4 * 64  # the page's last row: h = 12


# -- the measured tables -------------------------------------------------------------


def test_bench_results_describe_their_environment_and_setup():
    env, setup = bench["environment"], bench["setup"]
    assert set(env) >= {"torch", "threads", "cpu", "python", "date"}
    assert env["torch"] == torch.__version__  # measured with this site's PyTorch
    assert setup == {
        "batch": bench_attention.BATCH,
        "tokens": bench_attention.TOKENS,
        "width": bench_attention.WIDTH,
        "heads": bench_attention.HEADS,
        "dtype": "float32",
        "causal": True,
        "warmup_rounds": setup["warmup_rounds"],
        "timed_rounds": setup["timed_rounds"],
    }
    assert (setup["width"], setup["tokens"]) == (d_model, T)
    assert list(bench["forward_ms"]) == [
        "loop of heads",
        "batched module",
        "module with scaled_dot_product_attention",
        "nn.MultiheadAttention",
        "nn.MultiheadAttention, returning weights",
    ]
    assert [row["heads"] for row in bench["sweep"]] == bench_attention.SWEEP
    assert bench_attention.SWEEP == heads_sweep


def test_tables_are_printed_from_the_results():
    assert ex06_bench_table.forward == bench["forward_ms"]
    assert ex08_sweep_table.sweep == bench["sweep"]
    # the 12-head rows of the sweep are the main table's two modules
    last, forward = bench["sweep"][-1], bench["forward_ms"]
    assert last["textbook_ms"] == forward["batched module"]
    assert last["sdpa_ms"] == forward["module with scaled_dot_product_attention"]


def test_the_page_reads_no_file_and_the_results_are_a_literal():
    """A reader who copies the blocks gets the same tables: no file is read."""
    assert "bench.json" not in PAGE and "read_text" not in PAGE
    source = (ROOT / "snippets/cost/bench_results.py").read_text()
    assert "import" not in source
    assert '--8<-- "snippets/cost/bench_results.py"' in PAGE


def test_bench_writes_the_results_as_the_snippet_the_page_includes(tmp_path):
    out = tmp_path / "bench_results.py"
    bench_attention.write_results(bench, out)
    namespace = {}
    exec(out.read_text(), namespace)
    assert namespace["bench"] == bench
    assert bench_attention.OUTPUT == ROOT / "snippets/cost/bench_results.py"


def test_make_bench_rewrites_the_pages_output_blocks():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nbench:")[1].split("\n\n")[0]
    assert "-m benchmarks.bench_attention" in recipe
    assert "pytest docs/cost.md --update-outputs" in recipe


def test_prose_claims_hold_for_the_committed_measurement():
    """The page's sentences about the tables describe bench_results (no timing)."""
    forward = bench["forward_ms"]
    assert forward["loop of heads"] == max(forward.values())
    assert forward["batched module"] == sorted(forward.values())[-2]  # "comes next"
    for fused in ("module with scaled_dot_product_attention", "nn.MultiheadAttention"):
        assert forward[fused] < forward["batched module"]
        assert forward[fused] < forward["nn.MultiheadAttention, returning weights"]
    ours = forward["module with scaled_dot_product_attention"]
    theirs = forward["nn.MultiheadAttention"]
    assert max(ours, theirs) / min(ours, theirs) < 1.25  # "about as fast"
    sweep = bench["sweep"]
    textbook = [row["textbook_ms"] / sweep[0]["textbook_ms"] for row in sweep]
    fused = [row["sdpa_ms"] / sweep[0]["sdpa_ms"] for row in sweep]
    assert textbook[-1] > 1.5  # "noticeably dearer the textbook way"
    assert fused[-1] < 1.5  # "cheap in time with a fused kernel"
    assert textbook[-1] - 1 > 2 * (fused[-1] - 1)  # "much more than the fused one"


# -- what splitting costs ------------------------------------------------------------


def test_vaswani_table_3_rows_a():
    bleu = ex04_vaswani_heads.bleu
    assert bleu[8] == max(bleu.values())
    assert round(bleu[8] - bleu[1], 1) == 0.9  # one head: 0.9 BLEU worse
    assert round(bleu[8] - bleu[32], 1) == 0.4  # too many heads hurt too
    assert all(512 % h == 0 for h in bleu)


@pytest.mark.parametrize("h, t", [(1, 16), (4, 16), (12, 128), (24, 16), (48, 128)])
def test_a_heads_scores_have_rank_at_most_its_width(h, t):
    torch.manual_seed(h)
    mha = MultiHeadAttention(d_model, num_heads=h)
    x = torch.randn(1, t, d_model)
    with torch.no_grad():
        q = mha.split(mha.W_q(x))[0]  # (h, t, e)
        k = mha.split(mha.W_k(x))[0]
    ranks = torch.linalg.matrix_rank(q @ k.transpose(-2, -1))  # one per head
    assert ranks.max().item() <= d_model // h
    assert (ranks == min(t, d_model // h)).all()  # generic: exactly min(t, e)


def test_the_pages_rank_table(capsys):
    assert ex05_score_rank.n == 128
    with torch.no_grad():
        for h in heads_sweep:
            mha = MultiHeadAttention(d_model, num_heads=h)
            q = mha.split(mha.W_q(ex05_score_rank.tokens))[0, 0]
            k = mha.split(mha.W_k(ex05_score_rank.tokens))[0, 0]
            rank = torch.linalg.matrix_rank(q @ k.T).item()
            assert rank == min(128, d_model // h)
            assert (rank == 128) == (d_model // h >= 128)  # full rank iff wide


def test_the_rank_example_meets_the_condition_of_theorem_1():
    """Bhojanapalli et al.'s Theorem 1 needs the d x T input to have full column
    rank ("T token vectors linearly independent"), which needs T <= d."""
    tokens = ex05_score_rank.tokens[0]  # (T, d): the page's 128 tokens
    assert tokens.shape == (ex05_score_rank.n, d_model)
    assert torch.linalg.matrix_rank(tokens) == ex05_score_rank.n <= d_model
    torch.manual_seed(0)
    too_many = torch.randn(d_model + 1, d_model)  # T = d + 1 tokens
    assert torch.linalg.matrix_rank(too_many) == d_model  # < T: not independent


def test_softmax_of_low_rank_scores_can_have_full_rank():
    """The bound is on the scores; the weights after softmax need not be low rank."""
    torch.manual_seed(0)
    q, k = torch.randn(16, 1), torch.randn(16, 1)
    scores = q @ k.T
    assert torch.linalg.matrix_rank(scores) == 1
    assert torch.linalg.matrix_rank(torch.softmax(scores.double(), dim=-1)) > 1


def test_exercises():
    assert ex11_exercise_gpt2_maps.layers * ex11_exercise_gpt2_maps.heads == 144
    assert 12 * 12 * ex11_exercise_gpt2_maps.map_bytes == 576 * 2**20


@pytest.mark.parametrize("h", heads_sweep)
def test_heads_of_a_fixed_width_cost_in_proportion_to_their_number(h):
    """Exercise 1: with d_head fixed at 64, parameters and matmul FLOPs grow
    linearly in h, and 12 heads of 64 are GPT-2's module, with its counts."""
    mha = MultiHeadAttention(d_model, num_heads=h, d_head=64)
    params = sum(p.numel() for p in mha.parameters())
    assert params == 4 * d_model * 64 * h  # W_q, W_k, W_v and W_o
    assert ex10_exercise_fixed_width.mha.d_head == 64
    with torch.no_grad():
        x = torch.randn(1, 32, d_model)
        flops = ex02_flops.matmul_flops(mha, x)
    assert flops == 2 * h * (4 * 32 * d_model * 64 + 2 * 32**2 * 64)
    if h == 12:
        assert params == 4 * d_model**2  # the table's 2,359,296
        assert 12 * 64 == d_model


def test_exercise_1_shows_the_fixed_width_table():
    """The printed last row is the page's earlier counts: 12 heads of 64."""
    mha = ex10_exercise_fixed_width.mha  # the last one built: 12 heads
    assert mha.num_heads * mha.d_head == d_model
    assert ex10_exercise_fixed_width.flops == ex02_flops.formula
    assert ex10_exercise_fixed_width.params == 4 * d_model**2


# -- what the page claims about its sources and its scope -----------------------------


def test_the_causal_kernel_skips_a_fifth_of_the_arithmetic():
    """Above the diagonal lie T(T-1)/2 of each map's T^2 scores, in Q K^T and
    in weights @ V: about half of that work, 20% of all multiply-adds at T = 1024,
    width 768. Worked out exactly: (T - 1) / (4 d_model + 2 T)."""
    share = ex07_causal_share.skipped / ex07_causal_share.macs
    assert share == pytest.approx((T - 1) / (4 * d_model + 2 * T))
    assert f"{share:.0%}" == "20%"
    assert ex07_causal_share.above / T**2 == pytest.approx(0.5, abs=1e-3)
    assert (ex07_causal_share.T, ex07_causal_share.d_model) == (T, d_model)


def test_the_page_says_the_benchmark_is_causal_only():
    assert bench["setup"]["causal"] is True
    assert "The benchmark times the causal case only" in PROSE
    assert "Its matrix products are those of the fused versions" not in PROSE


def test_vaswani_table_3_is_read_with_its_cautions():
    """Section 3.2.2 is the design's motivation; section 6.2 reports the rows
    without a reason; the paper reports one score per row, on the development set."""
    assert "The paper's own reason" not in PROSE
    assert "(section 6.2) without giving a reason" in PROSE
    assert "is the motivation of its design (section 3.2.2)" in PROSE
    assert "the paper reports one score per row, on the development set" in PROSE
    source = (ROOT / "snippets/cost/ex04_vaswani_heads.py").read_text()
    assert "development set (newstest2013)" in source


def test_the_systems_material_is_an_optional_part_after_the_core():
    """The timings and the per-score table come after what splitting costs,
    under a heading and a box that mark them optional."""
    core = PAGE.index("## What splitting does cost")
    optional = PAGE.index("## Optional depth: measured time")
    exercises = PAGE.index("## Exercises")
    assert core < optional < exercises
    assert '!!! tip "Optional: how fast, on one machine"' in PAGE[optional:]
    for snippet in ("ex06_bench_table", "ex07_causal_share", "ex09_per_head_work"):
        assert optional < PAGE.index(f"snippets/cost/{snippet}.py") < exercises


def test_the_exercises_are_about_heads():
    exercises = PAGE[PAGE.index("## Exercises") :]
    assert "FlopCounterMode" not in exercises
    assert 'Exercise 1: heads that keep their width"' in exercises


def test_prose_numbers():
    causal_share = f"{ex07_causal_share.skipped / ex07_causal_share.macs:.0%}"
    bleu = ex04_vaswani_heads.bleu
    check_prose_numbers(
        "cost.md",
        computed={
            "MiB per head": [
                f"head's map takes {4 * T**2 // 2**20} MiB",
                f"one head holds {4 * T**2 // 2**20}.",
            ],
            "MiB for 12 heads": str(12 * 4 * T**2 // 2**20),
            "matmul FLOPs per exp, 1 head": f"{ex02_flops.formula // T**2:,}",
            "matmul FLOPs per exp, 12 heads": f"{ex02_flops.formula // (12 * T**2):,}",
            "FLOPs per score, 1 head": f"{4 * d_model:,}",
            "FLOPs per score, 12 heads": str(4 * d_model // 12),
            "one head vs 8 (BLEU)": f"{bleu[8] - bleu[1]:.1f}",
            "32 heads vs 8 (BLEU)": f"{bleu[8] - bleu[32]:.1f}",
            "rank example tokens": str(ex05_score_rank.n),
            "maps in GPT-2 small": str(12 * 12),
            "MiB of GPT-2 maps": f"{ex11_exercise_gpt2_maps.total / 2**20:.0f}",
            "multiply-adds above the diagonal": f"is {causal_share} of all the",
        },
        # inputs: heads, widths, T, 4 bytes a float, 4T/3, 4 d_model^2, 4 d_head, 16
        # (the width of 32 heads in Vaswani's table); BLEU's scale, 0 to 100; facts of
        # papers: Vaswani et al.'s sections, Michel et al.'s §3 and §4 (20% of WMT's
        # and 40% of BERT's heads pruned), years, NeurIPS volumes 30, 32 and 35
        definitions={"0", "1", "2", "3", "4", "8", "12", "16", "32", "64", "768"}
        | {"1024", "100", "3.2.2", "6.2", "20%", "40%", "30", "35"}
        | {"2017", "2019", "2020", "2022"},
        # BLEU against 8 heads, which the table prints negative: "below" is the sign
        magnitudes={"0.9 BLEU below", "0.4 below"},
    )
