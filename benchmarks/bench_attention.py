"""Time the forward pass of every attention implementation on the site, side by side.

    make bench        (or: python -m benchmarks.bench_attention)

Batch 2 x 1024 tokens x width 768, causal, float32, on the CPU: the five ways of
computing 12-head attention, and the textbook and fused modules for 1 to 12 heads.
Every variant is timed once per round, round after round, in one process, so that a
slow spell of a shared machine hits all of them alike; each gets its median. The
results and the environment go to snippets/cost/bench_results.py, as a Python
literal that the cost page includes and prints its tables from; `make bench` then
rewrites the page's output blocks, so the tests agree with the new numbers.
This is a script, not a test: timings are never asserted.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import torch
from torch import nn

from snippets.checking_against_pytorch.ex03_sdpa_module import SDPAMultiHeadAttention
from snippets.multi_head_attention.ex01_loop_of_heads import LoopOfHeads, causal_mask
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "snippets" / "cost" / "bench_results.py"
HEADER = """\
# Written by `make bench` (benchmarks/bench_attention.py): one machine's
# timings of one forward pass, in milliseconds. Yours will differ.
"""

BATCH, TOKENS, WIDTH, HEADS = 2, 1024, 768, 12
SWEEP = [1, 2, 4, 8, 12]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def torch_mha_call(module, with_weights):
    mask = causal_mask(TOKENS)

    def run(x):
        if with_weights:  # the explicit path: it must build and return the maps
            return module(x, x, x, attn_mask=mask, need_weights=True)[0]
        return module(x, x, x, attn_mask=mask, is_causal=True, need_weights=False)[0]

    return run


def time_rounds(variants: dict, x, warmup: int, repeats: int) -> dict[str, float]:
    """Median milliseconds per forward pass for each variant, interleaved."""
    with torch.inference_mode():
        for _ in range(warmup):
            for run in variants.values():
                run(x)
        samples = {name: [] for name in variants}
        for _ in range(repeats):
            for name, run in variants.items():
                start = time.perf_counter()
                run(x)
                samples[name].append(1000 * (time.perf_counter() - start))
    return {name: statistics.median(s) for name, s in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()

    torch.manual_seed(0)
    x = torch.randn(BATCH, TOKENS, WIDTH)  # (b, t, d_model)
    torch_mha = nn.MultiheadAttention(WIDTH, HEADS, bias=False, batch_first=True)
    variants = {"loop of heads": LoopOfHeads(WIDTH, num_heads=HEADS)}
    for h in SWEEP:  # the 12-head entries are also the main table's modules
        variants[f"textbook, {h} heads"] = MultiHeadAttention(WIDTH, num_heads=h)
        variants[f"sdpa, {h} heads"] = SDPAMultiHeadAttention(WIDTH, num_heads=h)
    variants["nn.MultiheadAttention"] = torch_mha_call(torch_mha, False)
    variants["nn.MultiheadAttention, returning weights"] = torch_mha_call(
        torch_mha, True
    )
    print(
        f"forward pass, batch {BATCH} x {TOKENS} tokens x width {WIDTH}, "
        f"causal, float32, {torch.get_num_threads()} threads, "
        f"{args.repeats} rounds of {len(variants)} variants"
    )
    ms = time_rounds(variants, x, args.warmup, args.repeats)

    forward_ms = {
        "loop of heads": ms["loop of heads"],
        "batched module": ms[f"textbook, {HEADS} heads"],
        "module with scaled_dot_product_attention": ms[f"sdpa, {HEADS} heads"],
        "nn.MultiheadAttention": ms["nn.MultiheadAttention"],
        "nn.MultiheadAttention, returning weights": ms[
            "nn.MultiheadAttention, returning weights"
        ],
    }
    print(f"\n{HEADS} heads")
    report(forward_ms)

    rows = [
        {
            "heads": h,
            "textbook_ms": ms[f"textbook, {h} heads"],
            "sdpa_ms": ms[f"sdpa, {h} heads"],
        }
        for h in SWEEP
    ]
    print(f"\nheads sweep at width {WIDTH}")
    print(
        f"{'heads':>5}  {'textbook ms':>11}  {'x 1 head':>8}  {'sdpa ms':>8}  "
        f"{'x 1 head':>8}"
    )
    for row in rows:
        print(
            f"{row['heads']:>5}  {row['textbook_ms']:>11.1f}  "
            f"{row['textbook_ms'] / rows[0]['textbook_ms']:>8.2f}  "
            f"{row['sdpa_ms']:>8.1f}  {row['sdpa_ms'] / rows[0]['sdpa_ms']:>8.2f}"
        )

    result = {
        "environment": {
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
            "cpu": cpu_model(),
            "python": platform.python_version(),
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        },
        "setup": {
            "batch": BATCH,
            "tokens": TOKENS,
            "width": WIDTH,
            "heads": HEADS,
            "dtype": "float32",
            "causal": True,
            "warmup_rounds": args.warmup,
            "timed_rounds": args.repeats,
        },
        "forward_ms": {k: round(v, 2) for k, v in forward_ms.items()},
        "sweep": [
            {k: (round(v, 2) if k != "heads" else v) for k, v in row.items()}
            for row in rows
        ],
    }
    write_results(result, args.output)
    print(f"\nwrote {args.output}")


def write_results(result: dict, path: Path) -> None:
    """`bench = {...}`: a Python literal, formatted as ruff formats snippets."""
    path.write_text(HEADER + f"bench = {result!r}\n", encoding="utf-8")
    ruff = [sys.executable, "-m", "ruff", "format", "--quiet", str(path)]
    subprocess.run(ruff, check=True, cwd=ROOT)


def report(ms: dict[str, float]) -> None:
    fastest = min(ms.values())
    width = max(len(name) for name in ms)
    print(f"{'variant':<{width}}  {'median ms':>9}  {'x fastest':>9}")
    for name, value in ms.items():
        print(f"{name:<{width}}  {value:>9.1f}  {value / fastest:>9.2f}")


if __name__ == "__main__":
    main()
