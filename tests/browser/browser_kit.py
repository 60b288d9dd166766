"""Helpers for the browser suite: watch a page, run axe, switch schemes, take
screenshots, copy code, move the focus."""

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tools.pages import DOCS, ROOT

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "browser"
TIMEOUT_MS = 5_000  # Playwright's default is 30 s: fail fast instead
PALETTE_TOGGLE = "label.md-header__button[for^='__palette_']:visible"


def docs_pages() -> list[str]:
    """The pages in docs/, as the built sitemap names them ("", "one-head/"):
    known without a build, so that collecting the tests does not wait for one
    (tests/browser/test_pages.py checks the two agree)."""
    names = [p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.rglob("*.md")]
    return sorted("" if n == "index" else n.removesuffix("/index") + "/" for n in names)


@dataclass
class Problems:
    """What went wrong while a page was open; every list must stay empty."""

    base_url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    bad_statuses: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)  # every URL asked for
    # URLs a test asks for on purpose knowing they fail (the 404 page)
    expected: set[str] = field(default_factory=set)
    checked: bool = False  # assert_none ran (in the test, so a problem is a failure)

    def watch(self, page) -> "Problems":
        """Record the page's problems from now on; its waits fail after TIMEOUT_MS."""
        page.set_default_timeout(TIMEOUT_MS)
        page.set_default_navigation_timeout(TIMEOUT_MS)
        origin = urlsplit(self.base_url)
        own = f"{origin.scheme}://{origin.netloc}/"

        def on_console(msg):
            if msg.type == "error" and msg.location.get("url") not in self.expected:
                self.console_errors.append(f"{msg.text} ({msg.location.get('url')})")

        def on_request(request):
            self.requested.append(request.url)
            if not request.url.startswith((own, "data:", "blob:")):
                self.foreign_requests.append(request.url)

        def on_response(response):
            if response.status >= 400 and response.url not in self.expected:
                self.bad_statuses.append(f"{response.status} {response.url}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on(
            "requestfailed",
            lambda r: self.failed_requests.append(f"{r.url}: {r.failure}"),
        )
        page.on("request", on_request)
        page.on("response", on_response)
        return self

    def requests(self, part: str) -> list[str]:
        """The URLs asked for so far that contain `part`."""
        return [url for url in self.requested if part in url]

    def assert_none(self) -> None:
        self.checked = True
        found = {
            "console errors": self.console_errors,
            "page errors": self.page_errors,
            "failed requests": self.failed_requests,
            "HTTP status >= 400": self.bad_statuses,
            "requests to another host": self.foreign_requests,
        }
        found = {name: items for name, items in found.items() if items}
        assert not found, f"problems while the page was open: {found}"


# The axe rules whose result can change with the colour scheme.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's violations (from the npm package), compact: all of axe's
    default rules, or only `rules`. On the whole page laid out: axe scrolls to
    what it checks, and a block that content-visibility had skipped then takes its
    height under axe's feet (the footer, read where a code block had just moved,
    failed for contrast against the code's background)."""
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (make does it)")
    draw_whole_page(page)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    # resultTypes: axe keeps full details for violations only (much faster)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    return page.evaluate(
        """async (options) => {
            const result = await axe.run(document, options);
            return result.violations.map(v => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + ": " +
                                                   n.failureSummary),
            }));
        }""",
        options,
    )


# Turn transitions off so a colour read right after a scheme switch is final.
NO_MOTION = """*, *::before, *::after {
    transition: none !important; animation: none !important; }"""


def set_scheme(page, scheme: str) -> None:
    """Click Material's palette toggle until the body carries `scheme`."""
    body = page.locator("body")
    for _ in range(3):
        if body.get_attribute("data-md-color-scheme") == scheme:
            return
        page.locator(PALETTE_TOGGLE).click()
    assert body.get_attribute("data-md-color-scheme") == scheme


# The page's blocks that heads.css gives `content-visibility: auto`: Chromium
# paints one only when it comes near the screen, and a full-page screenshot does
# not bring it there (without this, everything below the first screen is blank).
BLOCKS = ".md-typeset > :is(p, div, ul, ol, table, details, pre, blockquote)"
DRAW_ALL = ".md-typeset > * { content-visibility: visible !important; }"
# the page's width and where each block is on the page, in CSS pixels
BOXES = """(selector) => [document.documentElement.scrollWidth,
    [...document.querySelectorAll(selector)]
    .map((e) => [e.getBoundingClientRect(), e])
    .filter(([r]) => r.width > 0 && r.height > 0)
    .map(([r, e]) => [r.left + scrollX, r.top + scrollY, r.right + scrollX,
                      r.bottom + scrollY, e.tagName + ": " +
                      e.textContent.trim().slice(0, 40)])]"""
NEXT_FRAME = """() => new Promise((done) =>
    requestAnimationFrame(() => done(document.body.offsetHeight)))"""


def draw_whole_page(page) -> None:
    """Lay out and paint every block of the page, on screen or not."""
    page.add_style_tag(content=DRAW_ALL)
    page.evaluate(NEXT_FRAME)


# A long page takes its time to encode on a loaded machine: a full-page shot gets
# Playwright's own 30 s, not the suite's TIMEOUT_MS for waits on the page.
SHOT_MS = 30_000


def full_page_screenshot(page, path: Path) -> None:
    """A full-page JPEG (quicker to encode than PNG) at `path`, with the whole
    page drawn; every block of the page's content must show in it."""
    draw_whole_page(page)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The explorers build their parts in idle moments, and each part built moves
    # the blocks below it: the blocks are measured before and after the shot, and
    # it is taken again until they held still (else a block measured before a move
    # is judged blank in its old place).
    boxes = page.evaluate(BOXES, BLOCKS)
    for _ in range(10):
        page.screenshot(
            path=path, full_page=True, type="jpeg", quality=80, timeout=SHOT_MS
        )
        boxes, before = page.evaluate(BOXES, BLOCKS), boxes
        if boxes == before:
            break
        page.evaluate(NEXT_FRAME)
    else:
        raise AssertionError(f"{path.name}: the page's layout kept moving")
    blank = blank_blocks(path, *boxes)
    assert not blank, f"{path.name}: blocks drawn blank in the screenshot: {blank}"


def blank_blocks(path: Path, width: float, boxes: list) -> list[str]:
    """The boxes (left, top, right, bottom, label, in CSS pixels of a page
    `width` wide) whose inside, a border's width in from their edges, is one
    colour in the image at `path`: nothing drawn there but a background."""
    from PIL import Image

    image = Image.open(path)
    # decoded at half the size (JPEG can, in a fraction of the time): text still
    # shows as pixels far darker or lighter than the background
    image.draft("L", (image.size[0] // 2, image.size[1] // 2))
    image = image.convert("L")
    scale = image.size[0] / width
    blank = []
    for left, top, right, bottom, label in boxes:
        inset = 6  # past a border (an admonition's is 0.05rem; JPEG blurs it)
        box = (left + inset, top + inset, right - inset, bottom - inset)
        box = tuple(round(x * scale) for x in box)
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            continue
        darkest, lightest = image.crop(box).getextrema()
        # measured: an undrawn block spans 0-4 levels, a drawn one 107 or more
        if lightest - darkest < 48:
            blank.append(label)
    return blank


def axe_both_schemes(
    page, screenshot: Path | None = None, dark_screenshot: bool = True
) -> dict[str, list]:
    """axe violations in the light and the dark scheme ({} when there are none),
    with a full-page screenshot saved as `screenshot`-scheme.jpg (light, and dark
    too if `dark_screenshot`). Every rule runs in the light scheme; in the dark
    one only the colour rules (the rest cannot change with the scheme, and axe is
    the suite's slowest step)."""
    page.add_style_tag(content=NO_MOTION)
    found = {}
    for scheme, rules in (("default", None), ("slate", COLOUR_RULES)):
        set_scheme(page, scheme)
        if screenshot is not None and (scheme == "default" or dark_screenshot):
            full_page_screenshot(page, Path(f"{screenshot}-{scheme}.jpg"))
        violations = run_axe(page, rules)
        if violations:
            found[scheme] = violations
    return found


# The boxes of the element `root` that stick out of it or of the window, and its
# text (`texts`) drawn smaller than 11 px (in an SVG, its font size times the
# drawing's scale); what is inside `hidden` is not drawn.
OVERFLOW = """([root, hidden, texts]) => {
    root = document.querySelector(root);
    const edge = Math.min(root.getBoundingClientRect().right, innerWidth) + 0.5;
    const shown = (e) => !e.closest(hidden);
    const out = [...root.querySelectorAll("*")].filter(shown)
        .filter((e) => e.getBoundingClientRect().right > edge)
        .map((e) => e.tagName + "." + e.getAttribute("class"));
    const small = [...root.querySelectorAll(texts)]
        .filter((e) => shown(e) && e.textContent.trim())
        .map((e) => {
            const svg = e.closest("svg");
            const scale = svg ? svg.getBoundingClientRect().width /
                svg.viewBox.baseVal.width : 1;
            return [e.textContent.trim().slice(0, 20),
                    parseFloat(getComputedStyle(e).fontSize) * scale];
        })
        .filter(([, size]) => size < 11);
    return { out, small, wide: document.documentElement.scrollWidth > innerWidth };
}"""


def assert_fits(
    page,
    root: str,
    where,
    hidden: str = ".heads-visually-hidden",
    texts: str = "svg text, label, td, th, dd, dt, p",
) -> None:
    """Nothing of `root` sticks out and none of its text is tiny (OVERFLOW)."""
    found = page.evaluate(OVERFLOW, [root, hidden, texts])
    assert found == {"out": [], "small": [], "wide": False}, (where, found)


def tab_to(page, selector: str, limit: int = 30) -> None:
    """Press Tab until the element with the focus matches `selector`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"Tab never reached {selector}")


def check_copy_button(page) -> tuple[int, str] | None:
    """Copy the first visible code block with its copy button (a Python block if
    the page shows one); the clipboard must then hold exactly the block's code.
    Returns the block's index among the page's Python blocks (-1 if it is not
    one) and what was copied, or None on a page with no visible code."""
    python = page.locator(".md-content .highlight.language-python:visible")
    blocks = (
        python
        if python.count()
        else page.locator(".md-content .highlight:has(pre code):visible")
    )
    if blocks.count() == 0:
        return None
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    block = blocks.first
    index = block.evaluate(
        """el => [...document.querySelectorAll(
            ".md-content .highlight.language-python")].indexOf(el)"""
    )
    block.hover()
    block.locator("button[data-md-type='copy']").click()
    page.locator(".md-dialog", has_text="Copied").wait_for()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    shown = block.locator("code").inner_text()
    assert copied.strip(), "the copy button copied nothing"
    assert copied.strip() == shown.strip()
    return index, copied
