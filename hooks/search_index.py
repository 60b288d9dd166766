"""MkDocs hook: what nobody searches for stays out of the search index, which
every page loads (its weight budget, tests/test_site_build.py):

- "From earlier pages (run this first)": indexed on the page it comes from; on
  every page that reruns it, it was the index's largest repetition;
- the data `make seeds` and `make bench` write, and the code that draws a figure
  (the figure's alt text and the prose around it are indexed);
- output blocks (numbers; the code that prints them and the prose are indexed);
- docstrings in the code (Pygments' "sd"), which the prose says too.

Material's search skips an element with `data-search-exclude` and removes the
attribute from the page it writes: the reader's HTML is unchanged.
"""

from __future__ import annotations

import re

# pymdownx.details' `??? example "title"` blocks, found by their titles
RUN_FIRST = re.compile(
    r'<details class="example">(?=\s*<summary>[^<]*\(run this first\)</summary>)'
)
MADE_DATA = re.compile(
    r'<details class="example">'
    r"(?=\s*<summary>(?:[^<]*<code>make [\w-]+</code> wrote (?:them|it)[^<]*"
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
    """The page's HTML with the blocks above marked for search to skip."""
    html = MADE_DATA.sub(EXCLUDED_DATA, RUN_FIRST.sub(EXCLUDED, html))
    html = OUTPUT.sub(EXCLUDED_OUTPUT, html)
    return html.replace(DOCSTRING, EXCLUDED_DOCSTRING)


def on_page_content(html, page, config, files):
    return exclude_run_first(html)
