"""What a reader does with the theme: switch schemes, search, get lost.
(Copying code is checked on every page, in test_pages.py.)"""

import re

import pytest

from hooks import page_load
from tests.browser import browser_kit as kit

ROOT_SCHEME = "() => getComputedStyle(document.documentElement).colorScheme"
SEARCH_INDEX = "search_index.json"
SEARCH_WORKER = "/workers/search."  # the worker's script, fetched as it starts


def test_palette_toggle_switches_schemes(page, problems):
    """The body's scheme, and the page's own (its scroll bars and canvas), which
    Material's palette writes on the root (hooks/page_load.py's patch)."""
    page.goto("")
    for n, (scheme, own) in enumerate(
        [("default", "light"), ("slate", "dark"), ("default", "light")]
    ):
        if n:
            page.locator(kit.PALETTE_TOGGLE).click()
        assert page.locator("body").get_attribute("data-md-color-scheme") == scheme
        assert page.evaluate(ROOT_SCHEME) == own


# Every change of the body's data-md-color-switching from the start of the page:
# "set" or "removed" (a MutationObserver installed before any script runs).
WATCH_SWITCHING = """
    window.switching = [];
    new MutationObserver((records) => records.forEach((r) => window.switching.push(
        r.target.hasAttribute(r.attributeName) ? "set" : "removed")))
        .observe(document, {subtree: true, attributes: true,
                            attributeFilter: ["data-md-color-switching"]});
"""


def test_a_load_does_not_switch_off_transitions_but_a_switch_does(page, problems):
    """Material's palette marks the body as switching (transitions off, a restyle
    of every element) only when a colour changes (hooks/page_load.py's patches):
    not as a page loads, but when the reader switches, and it takes the mark off
    after."""
    page.add_init_script(WATCH_SWITCHING)
    page.goto("cost/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.switching") == []
    page.locator(kit.PALETTE_TOGGLE).click()
    gone = "() => !document.body.hasAttribute('data-md-color-switching')"
    page.wait_for_function(gone)
    assert page.evaluate("() => window.switching") == ["set", "removed"]
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"


@pytest.mark.browser_context_args(color_scheme="dark")
def test_a_first_visit_in_a_dark_scheme_switches_without_transitions(page, problems):
    """A reader whose system is dark gets the slate palette from Material's script
    on a first visit, a change of colours: transitions are off while it happens."""
    page.add_init_script(WATCH_SWITCHING)
    page.goto("cost/")
    page.wait_for_function("() => window.switching.length == 2")
    assert page.evaluate("() => window.switching") == ["set", "removed"]
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"


def test_an_annotation_is_set_up_before_the_reader_reaches_it(page, problems):
    """Material turns an annotation's note into a tooltip behind a button when the
    annotation comes within a screen of the screen (hooks/page_load.py's patch),
    not as the page loads: one-head's is further down, and the reader who scrolls
    there finds it set up, its list hidden and its button in place."""
    page.goto("one-head/")
    page.wait_for_load_state("networkidle")
    annotations = page.locator(".md-annotation")
    assert annotations.count() == 0
    kit.draw_whole_page(page)  # every block at its height: the scrolling below is exact
    assert annotations.count() == 0
    top = "document.querySelector('.annotate').getBoundingClientRect().top"
    # the paragraph four fifths of a screen below the bottom of the screen
    page.evaluate(f"() => window.scrollTo(0, scrollY - 1.8 * innerHeight + {top})")
    annotations.first.wait_for(state="attached")
    # not yet on the screen
    assert page.evaluate(f"() => {top}") > page.evaluate("() => innerHeight")
    note = page.locator(".md-annotation .md-tooltip__inner").first
    assert "variance" in note.inner_text()
    assert page.evaluate("() => document.querySelector('.annotate ~ ol').hidden")


# Every change of <html>'s class, with the value before it, from the start of the
# page (a MutationObserver installed before any script runs).
WATCH_HTML_CLASS = """
    window.classes = [];
    new MutationObserver((records) => records.forEach((r) =>
        r.target === document.documentElement && window.classes.push(r.oldValue)))
        .observe(document, {subtree: true, attributes: true,
                            attributeOldValue: true, attributeFilter: ["class"]});
"""


def test_html_has_materials_classes_before_its_script_sets_them(page, problems):
    """overrides/main.html gives <html> the classes Material's script sets as it
    starts, before the first stylesheet: when Material sets them, nothing changes,
    so nothing is restyled. Were the override gone, or Material to set other
    classes, <html> would change again after the first one."""
    page.add_init_script(WATCH_HTML_CLASS)
    page.goto("cost/")
    page.wait_for_load_state("networkidle")
    final = page.evaluate("() => document.documentElement.className")
    assert final == "js js-focus-visible"
    before = page.evaluate("() => window.classes")
    # the HTML's own class (Material's "no-js"), then only ever the final value
    assert before[0] == "no-js" and set(before[1:]) <= {final}, before
    assert page.evaluate(
        "() => document.documentElement.hasAttribute('data-js-focus-visible')"
    )


# The layout shifts of the page so far (the observer hands over the buffered ones
# at its first callback; none at all means no callback), with what moved.
LAYOUT_SHIFTS = """() => new Promise((done) => {
    const shifts = [];
    const named = (node) => {
        const el = node?.nodeType === 1 ? node : node?.parentElement;
        return el ? `${el.tagName} "${el.textContent.trim().slice(0, 40)}"` : "?";
    };
    new PerformanceObserver((list) => shifts.push(...list.getEntries().map((e) =>
        [+e.value.toFixed(4), e.sources.map((s) => named(s.node))])))
        .observe({type: "layout-shift", buffered: true});
    setTimeout(() => done(shifts), 500);
})"""
# The KaTeX faces and their status when the parser starts the body, before the first
# layout (a face still loading then is one the math is first laid out without).
FACES_AT_BODY = """new MutationObserver((_, observer) => {
    if (!document.body) return;
    observer.disconnect();
    window.facesAtBody = [...document.fonts]
        .filter((f) => f.family.startsWith("KaTeX_")).map((f) => [f.family, f.status]);
}).observe(document, {childList: true, subtree: true});"""
# Lighthouse's mobile screen, and a desktop one, at a phone's pixel density
MOBILE = pytest.mark.browser_context_args(
    viewport={"width": 412, "height": 823}, is_mobile=True, device_scale_factor=1.75
)
DESKTOP = pytest.mark.browser_context_args(device_scale_factor=1.75)
LARGE = pytest.mark.browser_context_args(viewport={"width": 2560, "height": 1440})
# How many screens down the first screen's mark is (hooks/page_load.py): every block
# at its height, not content-visibility's placeholder, for the measure.
MARK_DEPTH = f"""() => {{
    document.querySelectorAll(".md-typeset > *").forEach((e) =>
        e.style.contentVisibility = "visible");
    const mark = document.getElementById("{page_load.FIRST_SCREEN}");
    const before = mark.previousElementSibling ?? mark.parentElement;
    return before.getBoundingClientRect().bottom / innerHeight;
}}"""


@pytest.mark.parametrize(
    "viewport",
    [
        pytest.param("mobile", marks=MOBILE),
        pytest.param("desktop", marks=DESKTOP),
        pytest.param("large", marks=LARGE),
    ],
)
def test_pages_do_not_shift_as_they_load(page, problems, viewport):
    """Nothing moves under the reader as a page loads (Lighthouse's Cumulative
    Layout Shift): the math is laid out in its own fonts from the start, no block
    on the first screen is first laid out at a placeholder height (the
    stylesheet's content-visibility), and nothing is drawn before the first screen
    is parsed (its mark is a screen further down, at least). In Lighthouse's
    mobile viewport too. A shift from a late font, or a half-parsed screen, shows
    only on a busy machine, so the fonts are checked where it starts: each math
    font is loaded when the body starts."""
    page.add_init_script(FACES_AT_BODY)
    shifts, not_loaded = {}, {}
    for path in ["cost/", "training/", "one-head/", "", "train-it/"]:
        page.goto(path)
        if found := page.evaluate(LAYOUT_SHIFTS):
            shifts[path] = found
        assert page.evaluate(MARK_DEPTH) > 1.5, path
        if path == "train-it/":
            continue  # the page the mark is nearest the screen on, without math
        faces = page.evaluate("window.facesAtBody")
        assert faces, path  # each of these pages has math
        loaded = {family for family, status in faces if status == "loaded"}
        if missing := {family for family, _ in faces} - loaded:
            not_loaded[path] = missing
    assert shifts == {}, f"layout shifts (score, what moved): {shifts}"
    assert not_loaded == {}, f"math fonts not loaded at the first layout: {not_loaded}"


@pytest.mark.browser_context_args(viewport={"width": 1280, "height": 800})
def test_the_front_page_shows_its_answer_above_the_fold(page, problems):
    """The staircase of how-many-heads.md, small, with its alt text, whole on the
    first screen of a 1280 x 800 window, and drawn when the page's load event fires:
    it is not lazy (hooks/page_load.py), or Chromium may fire the event before it is
    fetched (CI, 1bbb98a: not yet drawn when the test looked)."""
    page.goto("")
    image = page.locator('img[src$="how-many-heads-staircase.svg"]')
    assert image.get_attribute("loading") == "eager"
    box = image.bounding_box()
    assert box is not None and box["y"] >= 0, box
    assert box["y"] + box["height"] <= 800, box
    assert image.evaluate("i => i.complete && i.naturalWidth > 0")
    assert "lookups at once" in image.get_attribute("alt")


@pytest.mark.parametrize("path", ["", "width-and-depth/"])
def test_search_finds_softmax(page, problems, path):
    """The search index loads, and search's worker starts, when the reader opens
    search, not with every page (hooks/page_load.py's patches), and search finds
    what it should, from the start page and from a page in a folder of its own
    (every page names the same index: tests/test_site_build.py)."""
    page.goto(path)
    page.wait_for_load_state("networkidle")
    assert problems.requests(SEARCH_INDEX) == problems.requests(SEARCH_WORKER) == []
    page.keyboard.press("/")
    page.keyboard.type("softmax")
    results = page.locator(".md-search-result__item")
    results.first.wait_for()
    assert "softmax" in results.first.inner_text().lower()
    assert len(problems.requests(SEARCH_INDEX)) == 1
    assert len(problems.requests(SEARCH_WORKER)) == 1


def test_a_search_results_link_highlights_its_terms(page, problems):
    """A search result links to its page with ?h=: that page loads the index and
    marks the terms (Material's search.highlight)."""
    page.goto("one-head/?h=softmax")
    marks = page.locator(".md-content mark")
    marks.first.wait_for()
    assert marks.first.inner_text().lower() == "softmax"
    assert len(problems.requests(SEARCH_INDEX)) == 1


def test_a_missing_page_gets_the_helpful_404(page, problems, base_url):
    missing = base_url + "no/such/page/"
    problems.expected.add(missing)
    response = page.goto(missing)
    assert response.status == 404
    assert page.locator("h1").inner_text().strip()
    found = kit.axe_both_schemes(page, screenshot=kit.ARTIFACTS / "404")
    assert found == {}, f"axe violations: {found}"
    # every link on it leads somewhere real, and one of them is the start page
    hrefs = page.eval_on_selector_all(
        ".md-content a[href]", "links => links.map(a => a.href)"
    )
    assert base_url in hrefs
    for href in hrefs:
        if href.startswith(base_url):
            assert page.request.get(href).ok, href


def test_a_request_to_another_host_is_caught(page, problems):
    """The watcher itself: a font or script from a third-party host, planted in a
    page, must show up as a problem (and fails fast, since no host resolves)."""
    page.goto("")
    page.evaluate(
        """() => {
            const font = document.createElement("link");
            font.rel = "stylesheet";
            font.href = "https://fonts.googleapis.com/css?family=Roboto";
            document.head.append(font);
            const script = document.createElement("script");
            script.src = "https://cdn.example.com/library.js";
            document.head.append(script);
        }"""
    )
    page.wait_for_load_state("networkidle")
    assert any("fonts.googleapis.com" in url for url in problems.foreign_requests)
    assert any("cdn.example.com" in url for url in problems.foreign_requests)
    with pytest.raises(AssertionError, match=re.escape("requests to another host")):
        problems.assert_none()
