"""The live explorer's weight and speed, in headless Chromium on this machine: a
benchmark that prints figures against the goals (GOALS below), not a test.

    .venv/bin/python -m benchmarks.bench_live_model [--site DIR] [--runs N]

It serves a strict build (or the site in DIR) on 127.0.0.1 as a real host does,
text gzip-compressed (tools/build.py's SiteHandler), opens docs/your-sentence.md,
presses "Load the model" and measures:

- the bytes fetched on Load: as files, and as sent (with gzip where the host
  compresses);
- the time from the end of the download to the first map drawn (the runtime's
  start, the model's session, the tokenizer, one forward pass, the drawing);
- the time per sentence at 8, 16, 32 and 64 tokens: the forward pass and the
  drawing of all 72 maps, the median of N runs (as `data-ms` on the page).

Goals: at most 40 MB fetched; the first map within 3 s of the download; an update
within 100 ms at 32 tokens.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from hooks.live_model import SITE
from scripts.find_chromium import CHROMIUM_ARGS, chromium
from tools.build import build, serve

GOALS = {"fetched MB": 40, "first map s": 3, "32 tokens ms": 100}
LENGTHS = [8, 16, 32, 64]


def sentence(tokens: int, shift: int = 0) -> str:
    """A text the tokenizer splits into exactly `tokens` tokens, [CLS] and [SEP]
    included: one common word per token (`shift` gives another such text)."""
    words = "the cat sat on a mat and then it ran to see my dog".split()
    return " ".join(words[(i + shift) % len(words)] for i in range(tokens - 2))


def measure(url: str, runs: int) -> dict:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium()), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        responses = []
        page.on("requestfinished", lambda r: responses.append(r))
        page.goto(url + "your-sentence/")
        page.locator("#your-sentence[data-ready='true']").wait_for()
        page.wait_for_load_state("networkidle")
        before = len(responses)
        page.locator("[data-action='load']").click()
        page.locator("#your-sentence[data-state='ready']").wait_for(timeout=120_000)
        page.wait_for_function(
            "() => performance.getEntriesByName('heads-first-map').length > 0"
        )
        after = responses[before:]
        sizes = [r.sizes() for r in after]
        sent = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes)
        files = {r.url.split(f"/{SITE}")[-1]: r.response().headers for r in after}
        first_map = page.evaluate(
            """() => performance.getEntriesByName('heads-first-map')[0].startTime -
                     performance.getEntriesByName('heads-downloaded')[0].startTime"""
        )
        textarea = page.locator("textarea[name='text']")
        page.locator("input[name='other']").fill("")
        per_length = {}
        for n in LENGTHS:
            times = []
            for run in range(runs + 1):  # the first run warms up
                text = sentence(n, shift=run)  # another text each time
                textarea.fill(text)
                page.wait_for_function(
                    """(text) => {
                        const root = document.getElementById('your-sentence');
                        return root.dataset.busy === 'false' &&
                            JSON.parse(root.dataset.shown)[0] === text;
                    }""",
                    arg=text,
                )
                t = page.evaluate(
                    "() => document.getElementById('your-sentence').heads.T"
                )
                assert t == n, (n, t, text)
                if run:
                    root = page.locator("#your-sentence")
                    times.append(
                        [
                            float(root.get_attribute(f"data-{a}"))
                            for a in ("ms", "forward-ms")
                        ]
                    )
            per_length[n] = [statistics.median(t) for t in zip(*times, strict=True)]
        browser.close()
    return {"files": files, "sent": sent, "first_map_ms": first_map, "per": per_length}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site already built there")
    parser.add_argument("--runs", type=int, default=5, help="runs per length")
    args = parser.parse_args()
    site = args.site or build(Path(tempfile.mkdtemp(prefix="heads-bench-")))
    url, _ = serve(site, gzip=True)
    result = measure(url, args.runs)
    on_disk = {
        name: (site / SITE / name).stat().st_size
        for name in result["files"]
        if (site / SITE / name).exists()
    }
    fetched = sum(on_disk.values())
    print("Fetched on Load:")
    for name, size in sorted(on_disk.items(), key=lambda x: -x[1]):
        print(f"  {name:34} {size / 1e6:7.2f} MB")
    print(
        f"  {'all of it':34} {fetched / 1e6:7.2f} MB as files, "
        f"{result['sent'] / 1e6:.2f} MB as sent (gzip where the host compresses)"
        f"   goal <= {GOALS['fetched MB']} MB"
    )
    print(
        f"First map {result['first_map_ms'] / 1000:.2f} s after the download"
        f"   goal <= {GOALS['first map s']} s"
    )
    print(f"Per sentence, median of {args.runs}: the update (forward pass, all 72 maps")
    print("drawn, the roles), and of it the forward pass alone:")
    for n, (ms, forward) in result["per"].items():
        goal = f"   goal <= {GOALS['32 tokens ms']} ms" if n == 32 else ""
        print(f"  {n:3d} tokens {ms:7.1f} ms (forward {forward:5.1f} ms){goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
