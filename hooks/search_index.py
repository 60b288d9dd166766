"""MkDocs hook: three kinds of collapsed block stay out of the search index.

- "From earlier pages (run this first)": that code is indexed on the page it
  comes from. Indexed again on every page that reruns it, it was the index's
  largest repetition.
- The data that `make seeds` and `make bench` write ("The records, as `make seeds`
  wrote them"): hundreds of lines of numbers that nobody searches for.
- "The code that draws this figure": matplotlib calls; the figure's alt text and
  the prose around it are indexed.
- What the code prints, the output blocks under it (`<!--pytest-codeblocks:
  expected-output-->`): numbers, which the prose around them says in words. (A
  ninth of the index, gzipped: it pays for the live trainer's page.)

The index is loaded by every page (it counts in each page's weight budget,
tests/test_site_build.py). Material's search skips any element with a
`data-search-exclude` attribute and removes the attribute from the page it writes,
so the reader's HTML is unchanged.
"""

from __future__ import annotations

import re

# pymdownx.details writes `??? example "... (run this first)"` as the first, and
# `??? example "The records, as `make seeds` wrote them ..."` as the second
RUN_FIRST = re.compile(
    r'<details class="example">(?=\s*<summary>[^<]*\(run this first\)</summary>)'
)
MADE_DATA = re.compile(
    r'<details class="example">'
    r"(?=\s*<summary>(?:[^<]*<code>make \w+</code> wrote them[^<]*"
    r"|The code that draws (?:this|the) figure[^<]*)</summary>)"
)
# an output block, as pymdownx.highlight writes it after the marker
OUTPUT = re.compile(
    r'(<!--\s*pytest-codeblocks:expected-output\s*-->\s*<div class="language-text '
    r'highlight")'
)
EXCLUDED = '<details class="example" data-search-exclude="run-first">'
EXCLUDED_DATA = '<details class="example" data-search-exclude="data">'


def exclude_run_first(html: str) -> str:
    """The page's HTML with its run-this-first blocks, the data blocks that
    `make` writes, the code that draws its figures and its output blocks marked
    for search to skip."""
    html = OUTPUT.sub(r'\1 data-search-exclude="output"', html)
    return MADE_DATA.sub(EXCLUDED_DATA, RUN_FIRST.sub(EXCLUDED, html))


def on_page_content(html, page, config, files):
    return exclude_run_first(html)
