"""The explorer's JavaScript agrees with PyTorch (snippets/explorer/ex01_two_heads.py)
to 1e-4 for several settings, and works with the keyboard alone."""

from __future__ import annotations

import pytest

from tests.pages import lazy

two_heads = lazy("snippets.explorer.ex01_two_heads")  # imported by the fixture below


TOLERANCE = 1e-4  # the page shows four decimals: rounding is at most 5e-5

SETTINGS = [
    # token, head 2's query reads, key reads, query scale, key scale, head 2 = head 1
    ("journey", 3, 3, 3.0, 3.0, False),  # the page's own head 2
    ("one", 1, 2, 1.5, 2.0, False),
    ("step", 2, 2, -2.0, 2.5, False),  # one negative scale: the head turns around
    ("starts", 3, 1, -2.0, -2.5, False),  # two: the signs cancel
    ("Your", 3, 3, 0.0, 3.0, False),  # a scale of 0: uniform attention
    (
        "with",
        1,
        3,
        4.5,
        -1.0,
        True,
    ),  # a copy of head 1: the other controls do not count
]


def numbers(text: str) -> list[float]:
    return [float(x) for x in text.strip().strip("[]").split(",")]


def shown(page) -> dict[str, list[float]]:
    """The numbers the explorer shows, read from the page as a reader sees them."""
    root = page.locator("#explorer")

    def column(n):
        cells = root.locator(f"td[data-head='{n}'] .heads-explorer__value")
        return [float(x) for x in cells.all_inner_texts()]

    def out(name):
        return numbers(root.locator(f"[data-out='{name}']").inner_text())

    return {
        "weights1": column(1),
        "weights2": column(2),
        "context1": out("context1"),
        "context2": out("context2"),
        "concatenated": out("concatenated"),
    }


def expected(token, q_reads, k_reads, q_scale, k_scale, same) -> dict[str, list]:
    row1, row2, c1, c2, both = two_heads.explore(
        token, q_reads, k_reads, q_scale, k_scale, same
    )
    names = ["weights1", "weights2", "context1", "context2", "concatenated"]
    return {
        n: t.tolist() for n, t in zip(names, [row1, row2, c1, c2, both], strict=True)
    }


def assert_close(got, want):
    assert got.keys() == want.keys()
    for name in want:
        assert len(got[name]) == len(want[name]), name
        for g, w in zip(got[name], want[name], strict=True):
            assert g == pytest.approx(w, abs=TOLERANCE), (name, got[name], want[name])


@pytest.fixture
def explorer(page, problems):
    page.goto("explorer/")
    page.locator("#explorer[data-ready='true']").wait_for()
    return page


def test_explorer_agrees_with_pytorch(explorer):
    page = explorer
    form = page.locator("#explorer form")
    assert_close(shown(page), expected("journey", 3, 3, 3.0, 3.0, False))  # defaults
    for token, q, k, q_scale, k_scale, same in SETTINGS:
        switch = form.locator("input[name='same_as_head_1']")
        switch.set_checked(False)
        form.locator("select[name='token']").select_option(token)
        form.locator("select[name='query_reads']").select_option(str(q))
        form.locator("select[name='key_reads']").select_option(str(k))
        form.locator("input[name='query_scale']").fill(str(q_scale))
        form.locator("input[name='key_scale']").fill(str(k_scale))
        switch.set_checked(same)
        assert_close(shown(page), expected(token, q, k, q_scale, k_scale, same))


def test_a_copy_of_head_1_gives_identical_outputs(explorer):
    page = explorer
    verdict = page.locator("[data-out='verdict']")
    assert "differ" in verdict.inner_text()
    page.locator("input[name='same_as_head_1']").check()
    numbers = shown(page)
    assert numbers["weights1"] == numbers["weights2"]
    assert numbers["context1"] == numbers["context2"]
    assert numbers["concatenated"] == numbers["context1"] * 2
    assert "identical" in verdict.inner_text()
    for name in ["select[name='query_reads']", "input[name='key_scale']"]:
        assert page.locator(name).is_disabled()


def test_the_keyboard_alone_drives_the_explorer(explorer):
    page = explorer
    token = page.locator("select[name='token']")
    page.locator("h1").click()  # start from the page, not from a control
    for _ in range(40):  # Tab through the page until the first control has focus
        page.keyboard.press("Tab")
        if token.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the explorer's first control")
    page.keyboard.press("ArrowDown")  # journey -> starts
    assert token.input_value() == "starts"
    assert_close(shown(page), expected("starts", 3, 3, 3.0, 3.0, False))

    for _ in range(5):  # to the switch: two coordinates, two scales
        page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator("input[name='same_as_head_1']").is_checked()
    assert_close(shown(page), expected("starts", 3, 3, 3.0, 3.0, True))
