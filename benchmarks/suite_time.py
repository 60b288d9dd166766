"""Where `make test`'s time goes: a benchmark that prints figures, not a test.

    make bench-suite
    python -m benchmarks.suite_time [--collect-only] [--top N]

It runs, as `make test` does (pytest-xdist over every core, a file at a time):

1. pytest's collection alone, in one process: every xdist worker collects every
   test file, so what a test file computes when it is imported (rather than in a
   `lazy` module, tests/pages.py) is paid once per worker;
2. unless --collect-only, the whole suite, with pytest's `--durations`.

It prints the wall-clock and CPU seconds of each (the CPU of every process the
run started: workers, kernels, Chromium, builds), the load average before and
after, and the N slowest test phases. The budget (docs: about 3 minutes of
pytest on an idle 2-core machine) is a goal, checked here, never in a timed
test: the times depend on the machine and on what else it is running.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time

from hooks.pages import ROOT

BUDGET_S = 200  # make test's wall-clock on an idle 2-core machine
XDIST = ["-n", "auto", "--dist", "loadfile", "--no-loadscope-reorder"]


def run(args: list[str]) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds (children's user + system) of a pytest run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
    if done.returncode not in (0, 5):
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        sys.exit(f"pytest exited with {done.returncode}")
    return wall, cpu, done.stdout


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collect-only", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(f"load average before: {load()}  ({os.cpu_count()} cores)")
    wall, cpu, out = run(["--co", "-q", "--no-cov"])
    tests = re.search(r"(\d+) tests? collected", out)
    print(
        f"collection, one process: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({tests[1] if tests else '?'} tests); paid by each xdist worker"
    )
    if args.collect_only:
        return
    wall, cpu, out = run([*XDIST, "--no-cov", f"--durations={args.top}"])
    summary = out.strip().rsplit("\n", 1)[-1]
    slowest = re.search(r"=+ slowest .*? =+\n(.*?)\n(?:=|\n)", out, re.S)
    print(f"\nthe {args.top} slowest test phases:")
    print(slowest[1] if slowest else "(none reported)")
    print(f"\n{summary}")
    verdict = "within" if wall <= BUDGET_S else "OVER"
    print(
        f"the suite: {wall:.0f} s wall, {cpu:.0f} s CPU; {verdict} the budget of "
        f"{BUDGET_S} s on an idle 2-core machine"
    )
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
