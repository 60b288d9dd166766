"""The site built (`mkdocs build --strict` into a folder) and served as GitHub Pages
serves it, for the tests, the scripts and the benchmarks. Not a hook.
"""

from __future__ import annotations

import functools
import gzip
import io
import os
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from hooks.pages import ROOT, config

# What `mkdocs build` reads.
SOURCES = ["mkdocs.yml", "docs", "snippets", "includes", "overrides", "hooks"]
BUILT = ".heads-build-succeeded"  # written last: a failed build leaves no site


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
