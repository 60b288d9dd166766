"""Claims of docs/cost.md: counts by code, and the table read from bench.json."""

import json

import pytest
import torch
from torch.overrides import TorchFunctionMode

from snippets.checking_against_pytorch.ex03_sdpa_module import (
    SDPAMultiHeadAttention,
)
from snippets.cost import (
    ex02_flops,
    ex03_softmax_rows,
    ex04_bench_table,
    ex05_sweep_table,
    ex06_exercise_fused_flops,
    ex07_exercise_gpt2_maps,
)
from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.multi_head_attention.ex04_module import MultiHeadAttention
from tests.pages import ROOT, check_prose_numbers

BENCH = json.loads((ROOT / "docs/assets/data/bench.json").read_text())


def test_sweep_and_width():
    assert d_model == 768
    assert heads_sweep == [1, 2, 4, 8, 12]
    assert all(d_model % h == 0 for h in heads_sweep)


@pytest.mark.parametrize("h", heads_sweep)
def test_parameters_do_not_depend_on_heads(h):
    mha = MultiHeadAttention(d_model, d_model, h)
    assert sum(p.numel() for p in mha.parameters()) == 4 * d_model**2


def test_flop_formula():
    T, d = ex02_flops.T, d_model
    assert T == 1024
    assert ex02_flops.formula == 2 * (4 * T * d**2 + 2 * T**2 * d)
    assert ex02_flops.formula == 8_053_063_680


@pytest.mark.parametrize("h", [1, 12])
def test_flops_do_not_depend_on_heads(h):
    torch.manual_seed(0)
    x = torch.randn(1, 64, d_model)
    with torch.no_grad():
        flops = ex02_flops.matmul_flops(MultiHeadAttention(d_model, d_model, h), x)
    assert flops == 2 * (4 * 64 * d_model**2 + 2 * 64**2 * d_model)


class MapRecorder(TorchFunctionMode):
    """Every tensor produced with a (t, t) attention-map shape at the end."""

    def __init__(self, t):
        super().__init__()
        self.t, self.maps = t, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if isinstance(out, torch.Tensor) and out.dim() == 4:
            if tuple(out.shape[-2:]) == (self.t, self.t):
                self.maps.append(out.shape)
        return out


def test_softmax_rows_and_map_memory():
    T = ex02_flops.T
    recorder = ex03_softmax_rows.SoftmaxRecorder()
    with torch.no_grad(), recorder:
        MultiHeadAttention(d_model, d_model, 12)(ex02_flops.x)
    (shape,) = recorder.shapes
    assert tuple(shape) == (1, 12, T, T)
    assert 4 * T * T == 4 * 2**20  # 4 MiB per head and sequence
    assert 12 * 4 * T * T == 48 * 2**20


def test_textbook_writes_four_maps_and_fused_none():
    torch.manual_seed(0)
    x = torch.randn(2, 16, 24)
    textbook = MultiHeadAttention(24, 24, 4)
    fused = SDPAMultiHeadAttention(24, 24, 4)
    counts = []
    for module in (textbook, fused):
        recorder = MapRecorder(16)
        with torch.no_grad(), recorder:
            module(x)
        counts.append(recorder.maps)
    assert counts[0] == [(2, 4, 16, 16)] * 4  # raw, scaled, masked, normalised
    assert counts[1] == []


def test_bench_json_describes_its_environment():
    env, setup = BENCH["environment"], BENCH["setup"]
    assert set(env) >= {"torch", "threads", "cpu", "python", "date"}
    assert env["torch"].startswith("2.13.0")
    assert setup == {
        "batch": 2,
        "tokens": 1024,
        "width": 768,
        "heads": 12,
        "dtype": "float32",
        "causal": True,
        "warmup_rounds": setup["warmup_rounds"],
        "timed_rounds": setup["timed_rounds"],
    }
    names = [row["name"] for row in BENCH["forward"]]
    assert names == [
        "loop of heads",
        "batched module",
        "module with scaled_dot_product_attention",
        "nn.MultiheadAttention",
        "nn.MultiheadAttention, returning weights",
    ]
    assert [row["heads"] for row in BENCH["sweep"]] == heads_sweep


def test_tables_are_read_from_the_json():
    assert ex04_bench_table.bench == BENCH
    assert ex05_sweep_table.sweep == BENCH["sweep"]
    # the 12-head rows of the sweep are the main table's two modules
    forward = {row["name"]: row["median_ms"] for row in BENCH["forward"]}
    last = BENCH["sweep"][-1]
    assert last["textbook_ms"] == forward["batched module"]
    assert last["sdpa_ms"] == forward["module with scaled_dot_product_attention"]


def test_exercises():
    T = ex02_flops.T
    fused = ex06_exercise_fused_flops.fused_flops
    assert fused == 2 * 4 * T * d_model**2 != ex02_flops.formula
    assert ex07_exercise_gpt2_maps.layers * ex07_exercise_gpt2_maps.heads == 144
    assert 12 * 12 * ex07_exercise_gpt2_maps.map_bytes == 576 * 2**20


def ratio(name):
    forward = {row["name"]: row["median_ms"] for row in BENCH["forward"]}
    return f"{forward[name] / min(forward.values()):.2f}"


def sweep_ratio(key):
    return f"{BENCH['sweep'][-1][key] / BENCH['sweep'][0][key]:.2f}"


def test_prose_numbers():
    check_prose_numbers(
        "cost.md",
        computed={
            "loop": ratio("loop of heads"),
            "textbook": ratio("batched module"),
            "sdpa module": ratio("module with scaled_dot_product_attention"),
            "nn.MultiheadAttention": ratio("nn.MultiheadAttention"),
            "with weights": ratio("nn.MultiheadAttention, returning weights"),
            "textbook 12 vs 1 head": sweep_ratio("textbook_ms"),
            "fused 12 vs 1 head": sweep_ratio("sdpa_ms"),
            "MiB per head": str(4 * 1024**2 // 2**20),
            "MiB for 12 heads": str(12 * 4 * 1024**2 // 2**20),
            "maps in GPT-2 small": str(12 * 12),
            "MiB of GPT-2 maps": f"{ex07_exercise_gpt2_maps.total / 2**20:.0f}",
        },
        definitions={"1", "2", "8", "12", "64", "768", "1024", "2017"},
    )


def test_prose_claims_hold_for_the_committed_measurement():
    """The page's sentences about the table describe bench.json (nothing is timed)."""
    forward = {row["name"]: row["median_ms"] for row in BENCH["forward"]}
    assert forward["loop of heads"] == max(forward.values())
    for fused in ("module with scaled_dot_product_attention", "nn.MultiheadAttention"):
        assert forward[fused] < forward["batched module"]
        assert forward[fused] < forward["nn.MultiheadAttention, returning weights"]
    assert float(sweep_ratio("sdpa_ms")) < float(sweep_ratio("textbook_ms"))
