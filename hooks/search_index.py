"""MkDocs hook: the blocks that bring code from earlier pages, "From earlier pages
(run this first)", stay out of the search index, and so do the records a `make`
target wrote for a page to read, "The records, ... (run this before the next
block)".

That code is indexed on the page it comes from. Indexed again on every page that
reruns it, it was the index's largest repetition, and the index is loaded by every
page (it counts in each page's weight budget, tests/test_site_build.py). The
records are numbers, one line per seed, that nobody searches for. Material's
search skips any element with a `data-search-exclude` attribute and removes the
attribute from the page it writes, so the reader's HTML is unchanged.
"""

from __future__ import annotations

import re

# pymdownx.details writes `??? example "... (run this first)"` as this
RUN_FIRST = re.compile(
    r'<details class="example">(?=\s*<summary>(?:(?!</summary>).)*'
    r"\(run this (?:first|before the next block)\)</summary>)",
    re.S,
)
EXCLUDED = '<details class="example" data-search-exclude="run-first">'


def exclude_run_first(html: str) -> str:
    """The page's HTML with its run-this-first blocks marked for search to skip."""
    return RUN_FIRST.sub(EXCLUDED, html)


def on_page_content(html, page, config, files):
    return exclude_run_first(html)
