"""The live trainer's speed (docs/train-it.md), in headless Chromium on this machine:
a benchmark that prints figures against the goal (issue 29), not a test.

    make bench-trainer
    python -m benchmarks.bench_trainer [--site DIR] [--runs N]

It serves a strict build (or the site in DIR) on 127.0.0.1, as scripts/audit.py
does, opens the trainer's page and presses Train, with the frames drawn as a
reader sees them, for:

- the page's default: two heads of width 2 and one head of width 4, side by side
  (one Web Worker each), 800 steps each;
- each design alone (one worker);
- how-many-heads' cells alone: one head and four at width 12, with four lookups
  (the largest of them), and three heads with three;

and prints, the median of N runs after one that warms up, the seconds from Train
to the last frame and the measures (as the page reports them), and the steps per
second: the steps of every design trained, over those seconds. It also records the
main thread's long tasks (over 50 ms) while the runs train: there should be none.

Wall-clock seconds on a shared machine move with its load, so it also prints each
design's CPU seconds for 800 steps in Node (the same trainer.js, one thread, the
median of 5 seeds): a figure that moves far less with the load, though on a shared
virtual machine still by a quarter from one run to the next (compare two versions
of the trainer in alternation).

Goals: 800 steps of the two designs side by side in at most 1 s (issue 29), and
800 steps of one cell of how-many-heads alone in at most 1 s (issue 49).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from scripts.find_chromium import CHROMIUM_ARGS, chromium
from tools.build import build, serve
from tools.pages import ROOT

GOAL_S = 1.0
STEPS = 800
CASES = [["2x2", "1x4"], ["2x2"], ["1x4"], ["4x1"], ["1L"], ["2L"]]
CELLS = [["k4h1"], ["k4h4"], ["k3h3"]]  # k lookups, h heads: the select and a box
DONE = "() => document.getElementById('train-it').dataset.state === 'done'"
LONG_TASKS = """
window.heads_long_tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.heads_long_tasks.push(e.duration);
}).observe({ type: "longtask", buffered: true });
"""


def measure(url: str, runs: int) -> dict:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium()), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.add_init_script(LONG_TASKS)
        page.goto(url + "train-it/")
        page.locator("#train-it[data-ready='true']").wait_for()
        page.wait_for_load_state("networkidle")
        page.evaluate("() => { window.heads_long_tasks.length = 0; }")
        found = {}
        for designs in CASES + CELLS:
            boxes = set(designs)
            for k, h in [d[1:].split("h") for d in designs if d.startswith("k")]:
                page.locator("select[name='lookups']").select_option(k)
                boxes.add(f"h{h}")
            for box in page.locator("input[name='design']").all():
                box.set_checked(box.get_attribute("value") in boxes)
            times = []
            for run in range(runs + 1):  # the first warms up
                page.locator("input[name='seed']").fill(str(run))
                page.locator("[data-action='train']").click()
                page.wait_for_function(DONE, timeout=120_000)
                if run:
                    times.append(
                        float(page.locator("#train-it").get_attribute("data-seconds"))
                    )
            found[",".join(designs)] = statistics.median(times)
        long_tasks = page.evaluate("() => window.heads_long_tasks")
        browser.close()
    return {"seconds": found, "long tasks": long_tasks}


# 800 steps of each design in Node, as a worker trains them; CPU seconds, median of 5
NODE_CPU = """
const t = require(process.argv[1]);
const rates = { "4,1": 0.1, "4,4": 0.1, "3,3": 0.1 };  // no matter to the speed
const lookups = { width: 12, rates };
const config = { steps: 800, batch: 256, lr: 0.1, tol: 0.1, lookups };
const designs = [["2x2", 2], ["1x4", 1], ["4x1", 4], ["1L", -1], ["2L", -2],
                 ["k4h1", 1, 4], ["k4h4", 4, 4], ["k3h3", 3, 3]];
for (const [design, heads, k] of designs) {  // heads < 0: layers of one head
  const times = [];
  for (let seed = 0n; seed < 5n; seed += 1n) {
    const start = process.cpuUsage();
    const r = k ? t.lookupsRun(config, k, heads, seed)
      : heads > 0 ? t.run(config, heads, seed) : t.depthRun(config, -heads, seed);
    const data = t.mersenneTwister(seed);
    const batch = t.batchOf(config.batch);
    for (let step = 1; step <= config.steps; step += 1) {
      t.trainStep(config, r, t.drawBatch(batch, data));
    }
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1e6);
  }
  console.log(design, times.sort((a, b) => a - b)[2]);
}
"""


def node_cpu() -> dict[str, float]:
    """Each design's CPU seconds for 800 steps in Node: design -> seconds."""
    trainer = ROOT / "docs" / "assets" / "js" / "trainer.js"
    out = subprocess.run(["node", "-e", NODE_CPU, str(trainer)], check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    rows = [line.split() for line in out.splitlines()]
    return {design: float(seconds) for design, seconds in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site already built there")
    parser.add_argument("--runs", type=int, default=5, help="runs per case")
    args = parser.parse_args()
    site = args.site or build(Path(tempfile.mkdtemp(prefix="heads-bench-")))
    url, server = serve(site)
    result = measure(url, args.runs)
    server.shutdown()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"The live trainer in headless Chromium, median of {args.runs} runs "
          f"(load average {load}, {os.cpu_count()} cores):")  # fmt: skip
    for case, seconds in result["seconds"].items():
        designs = case.split(",")
        steps = STEPS * len(designs)
        goal = f"   goal <= {GOAL_S} s" if len(designs) == 2 or case[0] == "k" else ""
        print(f"  {' and '.join(designs):10} {seconds:5.2f} s for {STEPS} steps each, "
              f"{steps / seconds:6.0f} steps/s{goal}")  # fmt: skip
    cpu = ", ".join(f"{design} {s:.2f} s" for design, s in node_cpu().items())
    print(f"CPU time in Node, 800 steps, median of 5 seeds: {cpu}")
    tasks = result["long tasks"]
    print(
        f"Main thread: {len(tasks)} long tasks while training"
        + (f" (longest {max(tasks):.0f} ms)" if tasks else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
