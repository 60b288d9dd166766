"""The site built (`mkdocs build --strict` into a folder) and served as GitHub Pages
serves it, for the tests, the scripts and the benchmarks. Not a hook.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from tools.pages import ROOT, config

# What `mkdocs build` reads.
SOURCES = ["mkdocs.yml", "docs", "snippets", "includes", "overrides", "hooks", "tools"]
BUILT = ".heads-build-succeeded"  # written last: a failed build leaves no site


# A page's first load: its HTML and everything it loads, as a host sends it. Search
# is not part of it: its index and worker load when the reader first opens search
# (hooks/page_load.py's patches; tests/browser/test_behaviour.py), once a visit, so
# they have a budget of their own that grows with the site. The index holds every
# page's text: about 6 KB a page, gzipped, on average when it was set (17 pages,
# 105 KB), the longest pages about twice that.
BUDGET_KB = 200  # per page
SEARCH_BUDGET_KB = 30  # the worker (12 KB), and room
SEARCH_KB_PER_PAGE = 8  # and this much more for each page built
GZIP_TYPES = (".html", ".css", ".js", ".json", ".svg")  # text: sent compressed
REFERENCES = [  # what a browser fetches when it opens a page
    r'<link rel="(?:stylesheet|icon|preload)" href="([^"]+)"',
    r'<script[^>]*src="([^"]+)"',
    r'<img[^>]*src="([^"]+)"',
]


def transfer_size(path: Path) -> int:
    """The bytes a host like GitHub Pages sends: gzip for text, as is otherwise."""
    data = path.read_bytes()
    return len(gzip.compress(data, mtime=0)) if path.suffix in GZIP_TYPES else len(data)


NOSCRIPT = re.compile(r"<noscript>.*?</noscript>", re.S)


def page_config(html: str) -> dict:
    return json.loads(re.search(r'id="__config"[^>]*>(.*?)</script>', html, re.S)[1])


def page_assets(site: Path, page: str, javascript: bool = True) -> set[Path]:
    """The files the page loads as it opens: its HTML (its math's fonts inline),
    stylesheets, scripts, images and icon. With JavaScript, not what is inside
    <noscript>; without, that and no script."""
    folder = site / page
    html = (folder / "index.html").read_text(encoding="utf-8")
    if javascript:
        html = NOSCRIPT.sub("", html)
    urls = [u for pattern in REFERENCES for u in re.findall(pattern, html)]
    if not javascript:
        urls = [u for u in urls if not u.endswith(".js")]
    assets = {folder / "index.html"}
    for url in urls:
        if url.startswith("data:"):
            continue
        assert "//" not in url, f"{page}: {url} is on another host"
        assets.add((folder / url.split("#")[0]).resolve())
    return assets


def search_assets(site: Path, page: str = ".") -> set[Path]:
    """What a page loads when the reader opens search: the worker and the index."""
    folder = site / page
    config = page_config((folder / "index.html").read_text(encoding="utf-8"))
    urls = [config["search"], f"{config['base']}/search/search_index.json"]
    return {(folder / url).resolve() for url in urls}


def page_weights(site: Path, javascript: bool = True) -> dict[str, dict[str, int]]:
    return {
        page: {
            str(a.relative_to(site.resolve())): transfer_size(a)
            for a in sorted(page_assets(site, page, javascript))
        }
        for page in built_page_folders(site)
    }


def weight_report(site: Path) -> list[str]:
    """Each budget, what it holds and the room left (make page prints it)."""
    lines = []
    for javascript in (True, False):
        weights = {
            p: sum(a.values()) for p, a in page_weights(site, javascript).items()
        }
        heaviest = max(weights, key=weights.get)
        lines.append(
            f"the heaviest page {'with' if javascript else 'without'} JavaScript, "
            f"{heaviest}: {weights[heaviest] / 1024:.0f} KB of {BUDGET_KB} KB, "
            f"{BUDGET_KB - weights[heaviest] / 1024:.0f} KB left"
        )
    search = sum(transfer_size(a) for a in search_assets(site)) / 1024
    allowed = search_budget_kb(site)
    lines.append(
        f"search (its worker and index, loaded when opened): {search:.0f} KB of "
        f"{allowed} KB ({SEARCH_BUDGET_KB} + {SEARCH_KB_PER_PAGE} a page), "
        f"{allowed - search:.0f} KB left"
    )
    return lines


def search_budget_kb(site: Path) -> int:
    return SEARCH_BUDGET_KB + SEARCH_KB_PER_PAGE * len(built_page_folders(site))


def built_page_folders(site: Path) -> list[str]:
    """Each built page's folder under the site ("." for the start page)."""
    return [str(p.parent.relative_to(site)) for p in sorted(site.glob("**/index.html"))]


def build(out: Path, root: Path = ROOT) -> Path:
    """`mkdocs build --strict` of the site at `root` into `out`."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    if result.returncode != 0:
        output = result.stdout + result.stderr
        raise RuntimeError(f"mkdocs build --strict failed:\n{output}")
    (out / BUILT).touch()
    return out


def copy_sources(root: Path, names: list[str] = SOURCES) -> Path:
    """A copy of what `mkdocs build` reads (or of `names`), to plant faults in,
    linked to .cache/ (its entries are keyed on the code) and node_modules: its
    build does not train or draw again."""
    root.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", ".ruff_cache")
    for name in names:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, root / name, ignore=ignore)
        elif (ROOT / name).exists():
            shutil.copy(ROOT / name, root / name)
    (ROOT / ".cache").mkdir(exist_ok=True)
    (root / ".cache").symlink_to(ROOT / ".cache")
    if (ROOT / "node_modules").is_dir():
        (root / "node_modules").symlink_to(ROOT / "node_modules")
    return root


@functools.cache
def site_prefix() -> str:
    """The path of site_url ("/heads/"): the hosted site lives under it."""
    return urlsplit(config()["site_url"]).path.rstrip("/") + "/"


def site_pages(site: Path) -> list[str]:
    """Every page of a built site, as paths under the site ("", "one-head/")."""
    sitemap = ET.parse(site / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    pages = []
    for loc in sitemap.getroot().iterfind("s:url/s:loc", ns):
        path = urlsplit(loc.text.strip()).path
        assert path.startswith(site_prefix()), f"{loc.text} is not under site_url"
        pages.append(path.removeprefix(site_prefix()))
    assert pages, "the sitemap lists no page"
    return pages


def page_id(path: str) -> str:
    """A page's name in reports and screenshots: "" -> "index", "cost/" -> "cost"."""
    return path.strip("/") or "index"


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site under site_url's path; a missing path gets the site's
    404.html with status 404; with `gzip`, text is sent compressed to a client that
    accepts it (with Pages' Cache-Control)."""

    prefix, gzip = "/", False
    TEXT = ("text/", "application/javascript", "application/json", "image/svg")

    def translate_path(self, path: str) -> str:
        path = urlsplit(path).path
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_the_site__")
        return super().translate_path("/" + path.removeprefix(self.prefix))

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        kind = self.guess_type(str(path))
        compress = self.gzip and path.is_file() and kind.startswith(self.TEXT)
        if not (compress and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # what GitHub Pages sends
        self.end_headers()
        return io.BytesIO(body)

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

    def log_message(self, format, *args):  # a quiet test run
        pass


def serve(site: Path, handler=SiteHandler, quiet=False, **attributes):
    """Serve `site` on an ephemeral port of 127.0.0.1 (`attributes` set on the
    handler; `quiet`: no report of a connection broken on purpose). Returns its
    address under site_url's path, and the server (`.shutdown()` stops it)."""
    attributes = {"prefix": site_prefix(), **attributes}
    handler = partial(type("Handler", (handler,), attributes), directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    if quiet:
        server.handle_error = lambda request, client_address: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}{site_prefix()}", server
