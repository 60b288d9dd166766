"""MkDocs hook: two edits to each page's HTML that spare the browser work while the
page loads (found in Lighthouse's traces, `scripts/audit.py --keep`).

1. The body starts out with Material's `data-md-color-switching` attribute.
   Material's palette sets it on every load (while it is there, transitions are
   off, so that colours do not fade as a scheme is applied) and removes it a
   moment later. Its stylesheet has the rule `[data-md-color-switching] *`, so
   setting the attribute made Chromium restyle every element of the page and its
   ::before and ::after, inside Material's longest task, the evaluation of its
   script: on a long page (cost, training) a large share of that task, and
   Lighthouse's mobile run counts it four times over. When the attribute is
   already there, setting it again changes nothing; Material removes it as before
   (a restyle in a task of its own), and toggling the scheme works as it did.
2. The figures load when the reader scrolls near them (`loading="lazy"`), not with
   the page: every one is far below the first screen, and the three of the
   training page (18 KB) were fetched alongside the stylesheets the first paint
   waits for.
"""

from __future__ import annotations

import re

from mkdocs.exceptions import PluginError

SWITCHING = "data-md-color-switching"  # Material's name for it, in its palette code
BODY = re.compile(r"<body\b")
FIGURE = re.compile(r'<img\b(?![^>]*\bloading=)(?=[^>]*\bclass="[^"]*\bheads-figure\b)')


def page_load_edits(html: str) -> str:
    """The page with its body marked as switching and its figures lazy."""
    html, bodies = BODY.subn(f"<body {SWITCHING}", html, count=1)
    if bodies != 1:
        raise PluginError("the page has no <body> to mark")
    return FIGURE.sub('<img loading="lazy"', html)


def on_post_page(output, page, config):
    return page_load_edits(output)
