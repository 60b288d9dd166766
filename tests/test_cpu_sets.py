"""What a page prints does not depend on the reader's CPU (tests/cpu_sets.py):
every page under AVX2 kernels with printed floats one ulp up; and the shift
itself changes exactly the values that another CPU could round differently."""

import torch

from tests import cpu_sets
from tests.last_bit import shift_printed_values
from tests.pages import DOCS


def test_every_page_prints_the_same_under_avx2_and_one_ulp_up():
    run = cpu_sets.start().result()
    assert run.returncode == 0, (
        "Run under AVX2 kernels (MKL_ENABLE_INSTRUCTIONS=AVX2, "
        "ATEN_CPU_CAPABILITY=avx2), with every printed float that another CPU "
        "could round differently moved one ulp up (tests/last_bit.py), a page "
        "prints something other than its output block: print fewer digits, or a "
        "value that holds at any rounding (a rounded sum, torch.allclose).\n\n"
        + run.stdout[-20_000:]
        + run.stderr[-5_000:]
    )
    expected = "AVX2" if "avx2" in cpu_sets.cpu_flags() else "DEFAULT"
    assert f"printed floats shifted 1 ulp; torch's CPU capability: {expected}" in (
        run.stdout
    ), run.stdout[-3000:]


def printed(*values) -> list[str]:
    return [str(v) for v in values]


def test_the_shift_moves_what_another_cpu_could_round_otherwise():
    weights = torch.tensor([0.25, 0.75])  # sums to exactly 1 here
    counts = torch.tensor([2.0, 3.0])
    boundary = torch.tensor(0.125)  # exactly halfway between 0.12 and 0.13

    def show():
        return printed(
            weights.sum(),  # a sum of fractions: another CPU may give 0.99999994
            counts.sum(),  # whole numbers add up exactly everywhere
            torch.zeros(2),
            f"{boundary.item():.2f}",
            weights.tolist(),
        )

    assert show() == [
        "tensor(1.)", "tensor(5.)", "tensor([0., 0.])", "0.12", "[0.25, 0.75]",
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
        assert shown[4] != [0.25, 0.75]
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
