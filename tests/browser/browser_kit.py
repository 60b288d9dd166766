"""Helpers for the browser suite: find Chromium, build the site, serve it, watch a
page, run axe.

Chromium (see `find_chromium` for where it comes from) is driven by
pytest-playwright. Every third-party host resolves to nothing, so a request that
leaves the site fails at once and shows up in the page's problem list.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "browser"
TIMEOUT_MS = 5_000  # Playwright's default is 30 s: fail fast instead

# The flags measured in ../shared/notes/browser.md. The resolver rule sends every
# host except 127.0.0.1 to "not found", so a stray request fails in milliseconds.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


# -- Chromium: the first of $CHROMIUM, Playwright's own, a system one, apt-get ---------

SYSTEM_CHROMIUMS = [  # where a system Chromium or Chrome lives, tried in order
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
]
SYSTEM_COMMANDS = [
    "chromium",
    "chromium-browser",
    "google-chrome-stable",
    "google-chrome",
    "chrome",
]  # then these, on PATH
OS_RELEASE = Path("/etc/os-release")
HOW_TO_GET_ONE = (
    "No Chromium for the browser suite. Get one of: "
    "CHROMIUM=/path/to/chromium-or-chrome; "
    "`.venv/bin/playwright install chromium` (downloads Playwright's own); "
    "a system Chromium or Google Chrome; "
    "on Debian or Ubuntu, `apt-get install chromium` as root (`make test` does it)."
)


class NoChromium(RuntimeError):
    pass


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def playwright_chromium() -> Path | None:
    """Playwright's own Chromium, if `playwright install chromium` has put it there.
    (Asked in a subprocess: the sync API cannot start inside pytest-playwright's.)"""
    ask = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    result = subprocess.run(
        [sys.executable, "-c", ask], capture_output=True, text=True, timeout=60
    )
    path = Path(result.stdout.strip()) if result.returncode == 0 else None
    return path if path and _runnable(path) else None


def system_chromium() -> Path | None:
    for candidate in SYSTEM_CHROMIUMS:
        if _runnable(Path(candidate)):
            return Path(candidate)
    for command in SYSTEM_COMMANDS:
        if found := shutil.which(command):
            return Path(found)
    return None


def apt_can_install() -> bool:
    """Debian or Ubuntu, as root, with apt-get."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    try:
        release = OS_RELEASE.read_text(encoding="utf-8")
    except OSError:
        return False
    ids = re.findall(r"^(?:ID|ID_LIKE)=\"?([^\"\n]*)", release, re.M)
    return any(name in ("debian", "ubuntu") for i in ids for name in i.split())


def apt_install_chromium() -> Path:
    print("Installing Chromium for the browser suite (apt-get)...", file=sys.stderr)
    for command in (
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "chromium"],
    ):
        if subprocess.run(command).returncode != 0:
            raise NoChromium(f"`{' '.join(command)}` failed. {HOW_TO_GET_ONE}")
    found = system_chromium()
    if found is None:
        raise NoChromium(f"apt-get installed chromium, but no binary. {HOW_TO_GET_ONE}")
    return found


def find_chromium(install: bool = False) -> Path:
    """The Chromium the suite drives, from the first place that has one:
    1. $CHROMIUM (which must then be a runnable file);
    2. Playwright's own, if `playwright install chromium` has put it there;
    3. a system Chromium or Chrome (SYSTEM_CHROMIUMS, then SYSTEM_COMMANDS);
    4. with `install`, on Debian or Ubuntu as root: apt-get's `chromium`.
    Otherwise NoChromium, saying how to get one."""
    if chosen := os.environ.get("CHROMIUM"):
        if not _runnable(Path(chosen)):
            raise NoChromium(
                f"CHROMIUM={chosen} is not a runnable file. {HOW_TO_GET_ONE}"
            )
        return Path(chosen)
    for finder in (playwright_chromium, system_chromium):
        if found := finder():
            return found
    if install and apt_can_install():
        return apt_install_chromium()
    raise NoChromium(HOW_TO_GET_ONE)


@functools.cache
def chromium() -> Path:
    """find_chromium's answer, once per process."""
    return find_chromium()


# -- the site --------------------------------------------------------------------


@functools.cache
def site_url() -> str:
    """mkdocs.yml's site_url (the Pages workflow sets it from SITE_URL)."""
    from mkdocs.config import load_config

    url = load_config(str(ROOT / "mkdocs.yml"))["site_url"]
    return url if url.endswith("/") else url + "/"


def site_prefix() -> str:
    """The path part of site_url ("/heads/"): the hosted site lives under it."""
    return urlsplit(site_url()).path


_BUILD_LOCK = threading.Lock()  # the reader test's background runs build it too
# Under pytest-xdist (make test), tests/conftest.py sets this in each worker: the
# folder the first worker to need the site builds it into, under a file lock, and
# the others wait for and share. Else each process builds into a folder of its own.
SHARED_SITE: Path | None = None
BUILT = ".heads-build-succeeded"  # written last: a failed build leaves no site


def built_site() -> Path:
    """Build the site once per test run, strict, into a temporary folder."""
    with _BUILD_LOCK:
        return _built_site()


@functools.cache
def _built_site() -> Path:
    if SHARED_SITE is None:
        out = Path(tempfile.mkdtemp(prefix="heads-site-"))
        atexit.register(shutil.rmtree, out, ignore_errors=True)
        return _build(out)
    from filelock import FileLock

    with FileLock(f"{SHARED_SITE}.lock"):
        if (SHARED_SITE / BUILT).exists():
            return SHARED_SITE
        return _build(SHARED_SITE)


def _build(out: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build --strict failed:\n{result.stderr}")
    (out / BUILT).touch()
    return out


def site_pages(site: Path | None = None) -> list[str]:
    """Every page of the built site, as paths relative to the site root ("", "x/")."""
    sitemap = ET.parse((site or built_site()) / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    prefix = site_prefix()
    pages = []
    for loc in sitemap.getroot().iterfind("s:url/s:loc", ns):
        path = urlsplit(loc.text.strip()).path
        assert path.startswith(prefix), f"{loc.text} is not under site_url"
        pages.append(path.removeprefix(prefix))
    assert pages, "the sitemap lists no page"
    return pages


def docs_pages() -> list[str]:
    """The pages in docs/, as site_pages names them: known without a build, so that
    collecting the tests does not wait for one (a test checks the two agree)."""
    docs = ROOT / "docs"
    names = [p.relative_to(docs).with_suffix("").as_posix() for p in docs.rglob("*.md")]
    return sorted("" if n == "index" else n.removesuffix("/index") + "/" for n in names)


def page_id(path: str) -> str:
    return path.strip("/") or "index"


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site under site_url's path and, like GitHub Pages, answers a
    missing path with the site's own 404.html and status 404."""

    prefix = "/"

    def translate_path(self, path: str) -> str:
        path = urlsplit(path).path
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_the_site__")
        return super().translate_path("/" + path.removeprefix(self.prefix))

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args):  # keep the test output quiet
        pass


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

    def watch(self, page) -> None:
        origin = urlsplit(self.base_url)
        own = f"{origin.scheme}://{origin.netloc}/"

        def on_console(msg):
            if msg.type == "error" and msg.location.get("url") not in self.expected:
                self.console_errors.append(f"{msg.text} ({msg.location.get('url')})")

        def on_request(request):
            url = request.url
            self.requested.append(url)
            if not (url.startswith(own) or url.startswith(("data:", "blob:"))):
                self.foreign_requests.append(url)

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

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "console errors": self.console_errors,
            "page errors": self.page_errors,
            "failed requests": self.failed_requests,
            "HTTP status >= 400": self.bad_statuses,
            "requests to another host": self.foreign_requests,
        }

    def assert_none(self) -> None:
        self.checked = True
        found = {name: items for name, items in self.as_dict().items() if items}
        assert not found, f"problems while the page was open: {found}"


# The axe rules whose result can change with the colour scheme.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page, rules: list[str] | None = None) -> list[dict]:
    """Inject axe-core from the npm package and return its violations, compact:
    all of axe's default rules, or only `rules`."""
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (make does it)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    # resultTypes: axe keeps full details for violations only (much faster)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    violations = page.evaluate(
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
    return violations


# Turn transitions off so a colour read right after a scheme switch is final.
NO_MOTION = """*, *::before, *::after {
    transition: none !important; animation: none !important; }"""


def set_scheme(page, scheme: str) -> None:
    """Click Material's palette toggle until the body carries `scheme`."""
    body = page.locator("body")
    for _ in range(3):
        if body.get_attribute("data-md-color-scheme") == scheme:
            return
        page.locator("label.md-header__button[for^='__palette_']:visible").click()
    assert body.get_attribute("data-md-color-scheme") == scheme


# The page's blocks that heads.css gives `content-visibility: auto`: Chromium
# paints one only when it comes near the screen, and a full-page screenshot does
# not bring it there (without this, everything below the first screen is blank).
BLOCKS = ".md-typeset > :is(p, div, ul, ol, table, details, pre, blockquote)"
DRAW_ALL = ".md-typeset > * { content-visibility: visible !important; }"
NEXT_FRAME = """() => new Promise((done) =>
    requestAnimationFrame(() => done(document.body.offsetHeight)))"""


def draw_whole_page(page) -> None:
    """Lay out and paint every block of the page, on screen or not."""
    page.add_style_tag(content=DRAW_ALL)
    page.evaluate(NEXT_FRAME)


def full_page_screenshot(page, path: Path) -> None:
    """A full-page JPEG (quicker to encode than PNG) at `path`, with the whole
    page drawn; every block of the page's content must show in it."""
    draw_whole_page(page)
    path.parent.mkdir(parents=True, exist_ok=True)
    # where each block is on the page, and the page's width, in CSS pixels
    width, boxes = page.evaluate(
        """(selector) => [document.documentElement.scrollWidth,
            [...document.querySelectorAll(selector)]
            .map((e) => [e.getBoundingClientRect(), e])
            .filter(([r]) => r.width > 0 && r.height > 0)
            .map(([r, e]) => [r.left + scrollX, r.top + scrollY, r.right + scrollX,
                              r.bottom + scrollY, e.tagName + ": " +
                              e.textContent.trim().slice(0, 40)])]""",
        BLOCKS,
    )
    page.screenshot(path=path, full_page=True, type="jpeg", quality=80)
    blank = blank_blocks(path, width, boxes)
    assert not blank, f"{path.name}: blocks drawn blank in the screenshot: {blank}"


def blank_blocks(path: Path, width: float, boxes: list) -> list[str]:
    """The boxes (left, top, right, bottom, label, in CSS pixels of a page
    `width` wide) whose inside, a border's width in from their edges, is one
    colour in the image at `path`: nothing drawn there but the block's own
    background."""
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
    too if `dark_screenshot`), the whole page drawn (`full_page_screenshot`).
    Every rule runs in the light scheme; in the dark one, the colour rules again
    (the rest cannot change with the scheme, and axe is the suite's slowest
    step)."""
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
