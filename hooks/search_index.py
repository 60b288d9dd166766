"""MkDocs hook: three kinds of collapsed block, the output blocks and the code's
docstrings stay out of the search index.

- "From earlier pages (run this first)": that code is indexed on the page it
  comes from. Indexed again on every page that reruns it, it was the index's
  largest repetition.
- The data that `make seeds` and `make bench` write ("The records, as `make seeds`
  wrote them"): hundreds of lines of numbers that nobody searches for.
- "The code that draws this figure": matplotlib calls; the figure's alt text and
  the prose around it are indexed.
- Output blocks (what a code block prints, which the tests compare with it):
  numbers and tables; the code that prints them and the prose that reads them
  are indexed.
- Docstrings in the code (Pygments' class "sd"): what a function does, which the
  prose around the block says too; the code itself and its comments are indexed.

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
EXCLUDED = '<details class="example" data-search-exclude="run-first">'
EXCLUDED_DATA = '<details class="example" data-search-exclude="data">'
# an output block keeps its marker comment in the HTML, before its fence's div
OUTPUT = re.compile(
    r'(<!--pytest-codeblocks:expected-output-->\s*<div class="language-text highlight")'
)
EXCLUDED_OUTPUT = r'\1 data-search-exclude="output"'
DOCSTRING = '<span class="sd">'
EXCLUDED_DOCSTRING = '<span class="sd" data-search-exclude="docstring">'


def exclude_run_first(html: str) -> str:
    """The page's HTML with its run-this-first blocks, the data blocks that
    `make` writes, the code that draws its figures, its output blocks and its
    docstrings marked for search to skip."""
    html = MADE_DATA.sub(EXCLUDED_DATA, RUN_FIRST.sub(EXCLUDED, html))
    html = OUTPUT.sub(EXCLUDED_OUTPUT, html)
    return html.replace(DOCSTRING, EXCLUDED_DOCSTRING)


def on_page_content(html, page, config, files):
    return exclude_run_first(html)
