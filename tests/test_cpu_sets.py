"""What a page prints does not depend on the reader's CPU (tests/cpu_sets.py):
every page under AVX2 kernels with printed floats one ulp up, and under the
lowest instruction set on one thread, one ulp down (minutes of one core each:
`make cpu-sets` runs them, and .ci/run; `make page` its own page, both ways);
and the shift moves exactly what another CPU could round otherwise."""

import os

import pytest
import torch

from tests import cpu_sets
from tests.last_bit import shift_printed_values
from tests.pages import DOCS


def pytest_generate_tests(metafunc):
    if "run" in metafunc.fixturenames:  # every page, or `make page`'s, both ways
        metafunc.parametrize("run", list(cpu_sets.RUNS))


def test_every_page_prints_the_same_under_another_instruction_set(request, run):
    page = request.config.getoption("page")
    if not (page or os.environ.get("HEADS_CPU_SETS")):
        pytest.skip("every page: `make cpu-sets` runs it, and .ci/run calls that")
    done = cpu_sets.start([f"docs/{page}"] if page else ["docs"], run).result()
    instruction_set, shift, _ = cpu_sets.RUNS[run]
    assert done.returncode == 0, (
        f"Run with {instruction_set}, with every printed float that another CPU "
        f"could round differently moved {shift:+} ulp (tests/last_bit.py), a page "
        "prints something other than its output block: print fewer digits, or a "
        "value that holds at any rounding (a rounded sum, torch.allclose).\n\n"
        + done.stdout[-20_000:]
        + done.stderr[-5_000:]
    )
    capability = cpu_sets.CAPABILITY["LOWEST"]
    if instruction_set is cpu_sets.AVX2:
        capability = "AVX2" if "avx2" in cpu_sets.cpu_flags() else "DEFAULT"
    shown = f"printed floats shifted {shift} ulp; torch's CPU capability: {capability}"
    assert shown in done.stdout, done.stdout[-3000:]


def test_the_shift_moves_what_another_cpu_could_round_otherwise():
    weights = torch.tensor([0.3, 0.7])  # sums to exactly 1 here
    counts = torch.tensor([2.0, 3.0])
    boundary = torch.nextafter(torch.tensor(0.125), torch.tensor(1.0))  # 0.12500001
    hits = torch.tensor([1.0, 1, 1, 0, 1, 1, 1, 1])  # 7 right of 8: 0.875

    def show():
        return [
            str(weights.sum()),  # a sum of fractions: another CPU may give 0.99999994
            str(counts.sum()),  # whole numbers add up exactly everywhere
            str(torch.zeros(2)),
            f"{boundary.item():.2f}",
            str(weights.tolist()),
            f"{hits.mean().item():.2f}",  # a mean of whole numbers: exact everywhere
        ]

    assert show() == [
        "tensor(1.)", "tensor(5.)", "tensor([0., 0.])", "0.13",
        "[0.30000001192092896, 0.699999988079071]", "0.88",
    ]  # fmt: skip
    for direction, boundary_shown in ((+1, "0.13"), (-1, "0.12")):
        restore = shift_printed_values(direction)
        try:
            shown = show()
        finally:
            restore()
        assert shown[0] == "tensor(1.0000)"
        assert shown[1:3] == ["tensor(5.)", "tensor([0., 0.])"]
        assert shown[3] == boundary_shown
        assert shown[4] != "[0.30000001192092896, 0.699999988079071]"
        assert shown[5] == "0.88"
    assert show()[0] == "tensor(1.)"  # restored


def test_the_index_says_which_sets_the_pages_are_checked_under():
    text = " ".join((DOCS / "index.md").read_text(encoding="utf-8").split())
    assert "the tests run every page's code three times" in text
    assert cpu_sets.AVX2["MKL_ENABLE_INSTRUCTIONS"] == "AVX2"
    assert "the machine's own, AVX2, and the plain code that every x86-64" in text
    assert cpu_sets.LOWEST["MKL_CBWR"] == "COMPATIBLE"
    assert cpu_sets.LOWEST["ATEN_CPU_CAPABILITY"] == "default"
    assert "(MKL's compatible branch, and PyTorch's kernels without vector" in text
    assert "up in one run and down in the other" in text
