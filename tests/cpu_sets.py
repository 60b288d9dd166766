"""The instruction sets every page's code runs under, so that what a page prints
does not depend on the reader's CPU.

MKL (matrix products) and ATen (softmax, exp, sums) choose their kernels by the
CPU's instruction set, and two sets' kernels may round a result differently in
its last bit (with AVX-512 a row of one-head's weights sums to 0.99999994, with
AVX2 to exactly 1). `make test` runs every page twice against its output blocks,
under the machine's own set: in the pytest process (page_plugin), and as the
reader copies it, one thread, printed floats one ulp down (tests/last_bit.py,
tests/test_reader.py). `make cpu-sets` (and .ci/run) runs every page twice more,
each in a process of its own (below): under `AVX2`, printed floats one ulp up, and
under `LOWEST`, one ulp down, on one thread; `make page` runs its page both ways.
A page that trains trains again in each run, and must print the same digits.

`MKL_ENABLE_INSTRUCTIONS` restricts MKL on Intel CPUs only (on an AMD EPYC with
AVX-512 it changed no result); `MKL_CBWR=COMPATIBLE` (MKL's SSE2 branch) applies
on any x86-64; `ATEN_CPU_CAPABILITY=default`: ATen without vector instructions.
On Arm, MKL is absent and these do nothing; the one-ulp shifts still apply.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor

from tools.pages import ROOT

LOWEST = {
    "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
    "MKL_CBWR": "COMPATIBLE",
    "ATEN_CPU_CAPABILITY": "default",
}
AVX2 = {"MKL_ENABLE_INSTRUCTIONS": "AVX2", "ATEN_CPU_CAPABILITY": "avx2"}
# What torch.backends.cpu.get_cpu_capability() reports under each.
CAPABILITY = {"LOWEST": "DEFAULT", "AVX2": "AVX2"}


# Every retrain-and-compare check of the suite, under kernel sets that give each
# setting each of its values at least once (the suite itself runs the machine's
# own: no setting, OMP's threads). train_model and the real-text train set one
# thread themselves, so OMP_NUM_THREADS changes only the twin's PyTorch run.
KERNEL_SETS = {
    "the records' own": {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE",
                         "OMP_NUM_THREADS": "1"},
    "AVX2": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "AVX2",
             "OMP_NUM_THREADS": "2"},
    "AVX-512": {"ATEN_CPU_CAPABILITY": "avx512", "MKL_CBWR": None,
                "OMP_NUM_THREADS": "1"},
}  # fmt: skip


def cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            line = next((x for x in info if x.startswith("flags")), "")
    except OSError:  # not Linux: no flags to read, no set to restrict to
        return set()
    return set(line.partition(":")[2].split())


ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# For each run: its instruction set, the shift of its printed floats, its threads.
RUNS = {
    "AVX2, one ulp up": (AVX2, +1, {}),
    "the lowest set, one ulp down": (LOWEST, -1, ONE_THREAD),
}


def run_pages(pages: list[str], run: str) -> subprocess.CompletedProcess:
    """The pages' blocks, in order, compared with their output blocks, in a new
    process (the sets are read when torch loads), as RUNS[run] says (the shift
    is read by tests/page_plugin.py)."""
    instruction_set, shift, threads = RUNS[run]
    env = {k: v for k, v in os.environ.items() if not k.startswith("COV_CORE")}
    env |= instruction_set | threads | {"HEADS_LAST_BIT": str(shift)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", *pages, "-q", "--no-cov",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip


# Started by tests/test_cpu_sets.py's first test (early: tests/conftest.py), to
# overlap the other files' tests.
_STARTED: dict[str, Future] = {}
_POOL = ThreadPoolExecutor(2)


def start(pages: list[str], run: str) -> Future:
    if run not in _STARTED:
        _STARTED[run] = _POOL.submit(run_pages, pages, run)
    return _STARTED[run]
