# Written by `make bench` (benchmarks/bench_attention.py): one machine's
# timings of one forward pass, in milliseconds. Yours will differ.
bench = {
    "environment": {
        "torch": "2.13.0+cpu",
        "threads": 2,
        "cpu": "AMD EPYC",
        "python": "3.11.7",
        "date": "2026-11-29",
    },
    "setup": {
        "batch": 2,
        "tokens": 1024,
        "width": 768,
        "heads": 12,
        "dtype": "float32",
        "causal": True,
        "warmup_rounds": 2,
        "timed_rounds": 15,
    },
    "forward_ms": {
        "loop of heads": 976.42,
        "batched module": 579.89,
        "module with scaled_dot_product_attention": 228.36,
        "nn.MultiheadAttention": 242.21,
        "nn.MultiheadAttention, returning weights": 510.67,
    },
    "sweep": [
        {"heads": 1, "textbook_ms": 254.42, "sdpa_ms": 183.26},
        {"heads": 2, "textbook_ms": 274.49, "sdpa_ms": 192.0},
        {"heads": 4, "textbook_ms": 322.32, "sdpa_ms": 187.66},
        {"heads": 8, "textbook_ms": 473.77, "sdpa_ms": 215.8},
        {"heads": 12, "textbook_ms": 579.89, "sdpa_ms": 228.36},
    ],
}
