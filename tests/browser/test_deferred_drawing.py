"""The two explorers that the script draws (docs/explorer.md's maps and plane,
docs/your-sentence.md's 72 thumbnails and large map) are built not as the page
loads (a long task, below the first screen) but a part at a time when the browser
is idle, and whatever is left at once when a part it draws comes within a quarter
of a screen of the screen, when the explorer gets the focus, or before the page
is printed. The first test leaves the idle moments; the others take them away
(requestIdleCallback never calls back) to see each other way on its own."""

import pytest

from tests.browser.browser_kit import Problems

PHONE = {"width": 412, "height": 823}  # Lighthouse's mobile screen: both below it
pytestmark = pytest.mark.browser_context_args(viewport=PHONE)
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


@pytest.fixture
def idle_less(new_context, base_url):
    """A new page at a phone's size where the browser is never idle, watched."""

    def open_page():
        page = new_context().new_page()
        page.add_init_script(NO_IDLE)
        return page, Problems(base_url).watch(page)

    return open_page


def part_top(name: str) -> str:
    """JavaScript: where the explorer's drawn part is, from the top of the screen."""
    return f"document.querySelector({EXPLORERS[name][1]!r}).getBoundingClientRect().top"


def loaded_and_not_drawn(page, name: str) -> None:
    """The page loaded, its scripts ran, and the explorer is not built."""
    root, _, drawn = EXPLORERS[name]
    page.goto(name)
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.locator(f"{root}[data-ready]").count() == 0
    assert not page.evaluate(drawn)
    # further than the margin: not yet near the screen
    assert page.evaluate(f"() => {part_top(name)}") > 1.25 * PHONE["height"]


def wait_drawn(page, name: str) -> None:
    root, _, drawn = EXPLORERS[name]
    page.locator(f"{root}[data-ready='true']").wait_for(state="attached")
    assert page.evaluate(drawn)


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_drawn_when_idle_without_scrolling(page, problems, name):
    """At load, below the first screen, each explorer is built in the browser's
    idle moments, with no scrolling: its tables are there for a screen reader and
    for find in page. With reduced motion (nothing here moves, nothing waits for
    it); the other tests of the two explorers load them without it."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(name)
    wait_drawn(page, name)
    assert page.evaluate("() => scrollY") == 0
    problems.assert_none()


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_drawn_as_it_nears_the_screen(idle_less, name):
    """With no idle moment, nothing is built until the reader scrolls: then the
    whole explorer is, before its first drawn part reaches the screen."""
    page, problems = idle_less()
    loaded_and_not_drawn(page, name)
    # the part a tenth of a screen below the bottom of the screen
    page.evaluate(f"() => window.scrollBy(0, {part_top(name)} - 1.1 * innerHeight)")
    wait_drawn(page, name)
    top = page.evaluate(f"() => {part_top(name)}")
    assert top > PHONE["height"]  # drawn before it is on the screen
    problems.assert_none()


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_drawn_for_printing_and_on_focus(idle_less, name):
    """With no idle moment and no scrolling: printing (a PDF) builds the explorer
    before the page is printed, and so does moving the focus into it with the
    keyboard."""
    root, _, drawn = EXPLORERS[name]
    page, problems = idle_less()
    loaded_and_not_drawn(page, name)
    page.evaluate(  # what the page held as it was printed
        f"""() => addEventListener("afterprint", () => window.printed =
            document.querySelector({root!r}).dataset.ready === "true" &&
            ({drawn})())"""
    )
    page.pdf()
    assert page.evaluate("() => window.printed") is True
    problems.assert_none()

    page, problems = idle_less()
    loaded_and_not_drawn(page, name)
    page.locator(f"{root} select, {root} button").first.focus()
    wait_drawn(page, name)
    problems.assert_none()
