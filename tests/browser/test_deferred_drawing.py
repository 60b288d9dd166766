"""The two explorers that the script draws (docs/explorer.md's maps and plane,
docs/your-sentence.md's 72 thumbnails and large map) are not built as the page
loads (issue 31: they were a long task of every load, below the first screen).
Each is built a part at a time when the browser is idle, and whatever is left at
once when a part it draws comes within a quarter of a screen of the screen, when
the explorer gets the focus, or before the page is printed. These tests take the
idle moments away (requestIdleCallback never calls back) to see each of the other
ways on its own, and give them back to see the idle one; in each, everything is
drawn, as the suite's other tests of the two explorers check in detail."""

from __future__ import annotations

import pytest

from tests.browser.browser_kit import TIMEOUT_MS, Problems

PHONE = {"width": 412, "height": 823}  # Lighthouse's mobile screen: both below it
NO_IDLE = "window.requestIdleCallback = () => 0;"  # the browser is never idle
EXPLORERS = {
    # page: (the explorer, a part the script draws, what is drawn when it is whole)
    "explorer/": (
        "#explorer",
        "[data-part='maps']",
        """() => document.querySelectorAll('#explorer .heads-map__cell[fill-opacity]')
            .length === 108 && document.querySelectorAll(
            '#explorer .heads-explorer__map-table td[data-value]').length === 108
            && document.querySelector('.heads-plane__handle[transform]') !== null""",
    ),
    "your-sentence/": (
        "#your-sentence",
        ".heads-live__grid",
        """() => [...document.querySelectorAll('.heads-live__thumb canvas')]
            .filter((c) => c.width > 0).length === 72 &&
            document.querySelector('.heads-live__map').width > 0 &&
            document.querySelectorAll('.heads-live__token').length > 0""",
    ),
}
PAGES = list(EXPLORERS)


@pytest.fixture
def phone(browser, browser_context_args, base_url):
    """A new page at a phone's size, watched for errors (checked at the end)."""
    contexts = []

    def open_page(reduced_motion: str = "no-preference", idle: bool = True):
        context = browser.new_context(
            **{**browser_context_args, "base_url": base_url},
            viewport=PHONE,
            reduced_motion=reduced_motion,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        if not idle:
            page.add_init_script(NO_IDLE)
        problems = Problems(base_url)
        problems.watch(page)
        return page, problems

    yield open_page
    for context in contexts:
        context.close()


def loaded_and_not_drawn(page, name: str) -> None:
    """The page loaded, its scripts ran, and the explorer is not built."""
    root, part, drawn = EXPLORERS[name]
    page.goto(name)
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.locator(f"{root}[data-ready]").count() == 0
    assert not page.evaluate(drawn)
    top = page.evaluate(
        f"() => document.querySelector({part!r}).getBoundingClientRect().top"
    )
    assert top > 1.25 * PHONE["height"]  # further than the margin: not yet near


def wait_drawn(page, name: str) -> None:
    root, _, drawn = EXPLORERS[name]
    page.locator(f"{root}[data-ready='true']").wait_for(state="attached")
    assert page.evaluate(drawn)


@pytest.mark.parametrize("name", PAGES)
def test_drawn_when_idle_without_scrolling(phone, name):
    """At load, below the first screen, each explorer is built in the browser's
    idle moments, with no scrolling: its tables are there for a screen reader and
    for find in page. With reduced motion (nothing here moves, nothing waits for
    it); the other tests of the two explorers load them without it."""
    page, problems = phone(reduced_motion="reduce")
    page.goto(name)
    wait_drawn(page, name)
    assert page.evaluate("() => scrollY") == 0
    problems.assert_none()


@pytest.mark.parametrize("name", PAGES)
def test_drawn_as_it_nears_the_screen(phone, name):
    """With no idle moment, nothing is built until the reader scrolls: then the
    whole explorer is, before its first drawn part reaches the screen."""
    page, problems = phone(idle=False)
    loaded_and_not_drawn(page, name)
    _, part, _ = EXPLORERS[name]
    page.evaluate(  # the part a tenth of a screen below the bottom of the screen
        f"""() => window.scrollBy(0, document.querySelector({part!r})
            .getBoundingClientRect().top - 1.1 * innerHeight)"""
    )
    wait_drawn(page, name)
    top = page.evaluate(
        f"() => document.querySelector({part!r}).getBoundingClientRect().top"
    )
    assert top > PHONE["height"]  # drawn before it is on the screen
    problems.assert_none()


@pytest.mark.parametrize("name", PAGES)
def test_drawn_for_printing_and_on_focus(phone, name):
    """With no idle moment and no scrolling: printing (a PDF) builds the explorer
    before the page is printed, and so does moving the focus into it with the
    keyboard."""
    page, problems = phone(idle=False)
    loaded_and_not_drawn(page, name)
    root, _, drawn = EXPLORERS[name]
    page.evaluate(  # what the page held as it was printed
        f"""() => addEventListener("afterprint", () => window.printed =
            document.querySelector({root!r}).dataset.ready === "true" &&
            ({drawn})())"""
    )
    page.pdf()
    assert page.evaluate("() => window.printed") is True
    problems.assert_none()

    page, problems = phone(idle=False)
    loaded_and_not_drawn(page, name)
    page.locator(f"{root} select, {root} button").first.focus()
    wait_drawn(page, name)
    problems.assert_none()
