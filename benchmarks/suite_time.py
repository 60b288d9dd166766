"""Where `make test`'s time goes: a benchmark that prints figures, not a test.

    make bench-suite
    python -m benchmarks.suite_time [--collect-only] [--top N]

It runs, as `make test` does (pytest-xdist over every core, a file at a time):

1. pytest's collection alone, in one process: every xdist worker collects every
   test file, so what a test file computes when it is imported (rather than in a
   `lazy` module, tests/pages.py) is paid once per worker;
2. unless --collect-only, the whole suite, with pytest's `--durations`.

It prints the wall-clock and CPU seconds of each, the load average before and
after, and the N slowest test phases. CPU is counted two ways: the processes the
run waited for (getrusage: pytest, its workers and what they waited for), and the
whole machine's busy time over the run (Linux's /proc/stat), which also holds
Chromium's and the Jupyter kernels' processes that getrusage never sees. On an
idle machine the second is the suite's real cost: when it is near 100% of the
cores, the suite is bound by its CPU work, and no other order of the files can
make it faster. The budget (docs: about 3 minutes of pytest on an idle 2-core
machine) is a goal, checked here, never in a timed test: the times depend on the
machine and on what else it is running.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from tools.pages import ROOT

BUDGET_S = 200  # make test's wall-clock on an idle 2-core machine
XDIST = ["-n", "auto", "--dist", "loadfile", "--no-loadscope-reorder"]


def machine_busy() -> float | None:
    """Core-seconds the whole machine has been busy since it booted, from the
    first line of /proc/stat (user nice system idle iowait irq softirq steal);
    None where there is no /proc/stat."""
    try:
        line = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0]
    except OSError:
        return None
    ticks = [int(field) for field in line.split()[1:9]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")


def run(args: list[str]) -> tuple[float, float, float | None, str]:
    """Wall-clock seconds of a pytest run, the CPU seconds (user + system) of the
    processes it waited for, and the machine's busy core-seconds meanwhile."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy_before = machine_busy()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    busy_after = machine_busy()
    busy = None if busy_before is None else busy_after - busy_before
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
    if done.returncode not in (0, 5):
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        sys.exit(f"pytest exited with {done.returncode}")
    return wall, cpu, busy, done.stdout


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def machine(wall: float, busy: float | None) -> str:
    if busy is None:
        return "the machine's busy time: not measured (no /proc/stat)"
    cores = os.cpu_count() or 1
    return (
        f"the machine was busy {busy:.0f} core-seconds, {busy / (wall * cores):.0%} "
        f"of its {cores} cores (every process: Chromium's and the kernels' too)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collect-only", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(f"load average before: {load()}  ({os.cpu_count()} cores)")
    wall, cpu, _, out = run(["--co", "-q", "--no-cov"])
    tests = re.search(r"(\d+) tests? collected", out)
    print(
        f"collection, one process: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({tests[1] if tests else '?'} tests); paid by each xdist worker"
    )
    if args.collect_only:
        return
    wall, cpu, busy, out = run([*XDIST, "--no-cov", f"--durations={args.top}"])
    summary = out.strip().rsplit("\n", 1)[-1]
    slowest = re.search(r"=+ slowest .*? =+\n(.*?)\n(?:=|\n)", out, re.S)
    print(f"\nthe {args.top} slowest test phases:")
    print(slowest[1] if slowest else "(none reported)")
    print(f"\n{summary}")
    verdict = "within" if wall <= BUDGET_S else "OVER"
    print(
        f"the suite: {wall:.0f} s wall, {cpu:.0f} s CPU in the processes it waited "
        f"for; {verdict} the budget of {BUDGET_S} s on an idle 2-core machine"
    )
    print(machine(wall, busy))
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
