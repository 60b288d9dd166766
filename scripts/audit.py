"""Lighthouse on every page of a fresh build: `make audit` prints a table.

The site is built strictly (as the browser suite builds it) and served on 127.0.0.1
under site_url's path, gzip-compressed as any real host (GitHub Pages included)
serves it. Lighthouse 12.2.3 (node_modules, pinned in package-lock.json) drives
the browser suite's Chromium (browser_kit.find_chromium) with the mobile profile,
its default. Goal, on every page: accessibility, best practices and SEO 100,
performance at least 95.

    .venv/bin/python scripts/audit.py [--desktop] [--check] [--keep DIR]
                                      [--runs N] [--page PATH ...] [--site DIR]

--check exits 1 when a page misses the goal; --keep saves Lighthouse's JSON reports;
--runs N audits each page N times and shows the run with the median performance
(Lighthouse's own advice: one run on a busy machine is noisy); --page audits only
the pages given ("" is the start page, "one-head/" another); --site audits a site
already built there (to try a change to the HTML or CSS by hand) instead of building.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import statistics
import subprocess
import sys
import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.browser_kit import (  # noqa: E402
    CHROMIUM_ARGS,
    NoChromium,
    SiteHandler,
    built_site,
    chromium,
    page_id,
    site_pages,
    site_prefix,
)

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
GOAL = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg")


class GzipHandler(SiteHandler):
    """SiteHandler, gzip-compressing text when the client accepts it."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        ctype = self.guess_type(str(path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (path.is_file() and accepts and ctype.startswith(COMPRESSIBLE)):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # what GitHub Pages sends
        self.end_headers()
        return io.BytesIO(body)


def serve(site: Path) -> str:
    handler = type("Handler", (GzipHandler,), {"prefix": site_prefix()})
    handler = partial(handler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}{site_prefix()}"


def lighthouse(url: str, desktop: bool) -> dict:
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    command = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
    ]
    if desktop:
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": str(chromium())}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout)


def summary(report: dict) -> dict:
    scores = {c: round(100 * report["categories"][c]["score"]) for c in CATEGORIES}
    audits = report["audits"]
    # what keeps a category below its goal: its weighted audits that did not pass
    reasons = []
    for c in CATEGORIES:
        if scores[c] >= GOAL[c]:
            continue
        for ref in report["categories"][c]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                shown = audit.get("displayValue", "")
                reasons.append(f"{c}: {audit['title']} {shown}".strip())
    return {
        **scores,
        "bytes": audits["total-byte-weight"]["numericValue"],
        "requests": len(audits["network-requests"]["details"]["items"]),
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "reasons": reasons,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--desktop", action="store_true", help="desktop profile")
    parser.add_argument("--check", action="store_true", help="exit 1 below goal")
    parser.add_argument("--keep", type=Path, help="save the JSON reports here")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median)")
    parser.add_argument("--page", action="append", help="only this page (repeatable)")
    parser.add_argument("--site", type=Path, help="audit this built site, unbuilt")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` (make does it)")
    try:
        chromium()
    except NoChromium as error:
        sys.exit(str(error))

    site = args.site or built_site()
    base = serve(site)
    profile = "desktop" if args.desktop else "mobile"
    runs = f", median of {args.runs} runs" if args.runs > 1 else ""
    print(f"Lighthouse 12.2.3, {profile} profile, gzip{runs}, {base}\n")
    header = f"{'page':<26}{'perf':>6}{'a11y':>6}{'best':>6}{'seo':>6}"
    header += f"{'transfer':>11}{'requests':>10}{'LCP s':>7}"
    print(header)
    print("-" * len(header))
    below = []
    for path in site_pages(site) if args.page is None else args.page:
        reports = [lighthouse(base + path, args.desktop) for _ in range(args.runs)]
        scores = [r["categories"]["performance"]["score"] for r in reports]
        report = reports[scores.index(statistics.median_low(scores))]
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / f"{page_id(path)}.json").write_text(json.dumps(report))
        s = summary(report)
        print(
            f"{page_id(path):<26}{s['performance']:>6}{s['accessibility']:>6}"
            f"{s['best-practices']:>6}{s['seo']:>6}{s['bytes'] / 1024:>8.0f} KB"
            f"{s['requests']:>10}{s['lcp']:>7.1f}",
            flush=True,
        )
        if s["reasons"]:
            below.append((page_id(path), s["reasons"]))
    print()
    if not below:
        print("Goal met on every page: performance >= 95, the other three 100.")
        return 0
    print("Below goal:")
    for page, reasons in below:
        for reason in reasons:
            print(f"  {page}: {reason}")
    return 1 if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
