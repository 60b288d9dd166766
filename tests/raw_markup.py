"""Markdown that did not render: what a reader would see of the page's source in
the built HTML. tests/test_site_build.py runs `find` over every built page.

Only what a reader sees is read: text outside code, scripts, styles, SVG and the
typeset math, and the alt, title and aria-label attributes. Each finding names the
page's Markdown line where the same text is found there, else the HTML's line.
"""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup, Comment, NavigableString

# what it is -> how it looks in the text a reader sees
PATTERNS = {
    "an icon or emoji shortcode (:name:)": (
        r"(?<![\w:/]):[a-z][a-z0-9_]*(?:[-+][a-z0-9_]+)*:(?![\w/])"
    ),
    "an attribute list ({ .class }, { #id })": r"\{:?\s*[.#][\w-][^{}]*\}",
    "a snippet marker (--8<--)": r"--8<--",
    "a footnote marker ([^1])": r"\[\^[^\]\s]+\]",
    "an admonition marker (!!!, ???)": r"(?:^|\s)(?:!!!|\?\?\?\+?)(?=\s)",
    "a test marker (<!--pytest)": r"<!--\s*pytest",
    "a Markdown link ([text](target))": r"\]\([^)\s]*\)",
    "Markdown emphasis (**bold**)": r"\*\*\S[^*]*\*\*",
    "a backtick (`code`)": r"`[^`]*`|`",
    "TeX that KaTeX did not typeset ($x$, \\(x\\))": r"\$[^$\s][^$]*\$|\\\(|\\\[",
    "a Jinja or macro tag ({{ }}, {% %})": r"\{\{|\{%",
    # a list item that fell out of its list (a line under-indented in a collapsed
    # block ends the block there, and the items after it show as one paragraph)
    "a list marker inside a paragraph (\\n- item)": r"\n[ \t]*[-*+][ \t]+(?=\S|$)",
}
FOUND = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(PATTERNS.values())))
HIDDEN = "script, style, pre, code, svg, .arithmatex, .katex, template"
ATTRIBUTES = ("alt", "title", "aria-label")


def visible(html: str):
    """(HTML line, text) for each piece of text a reader sees."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup.select(HIDDEN):
        hidden.decompose()
    for node in soup.descendants:
        if isinstance(node, Comment):
            continue
        if isinstance(node, NavigableString):
            yield node.parent.sourceline or 0, str(node)
        elif getattr(node, "attrs", None):
            for name in ATTRIBUTES:
                if isinstance(node.attrs.get(name), str):
                    yield node.sourceline or 0, node.attrs[name]


def find(html: str, page: str, markdown: Path | None = None) -> list[str]:
    """Each piece of unrendered source in a built page, as "where: what: text";
    `page` names it, `markdown` is its source (for the line there)."""
    source = markdown.read_text(encoding="utf-8").split("\n") if markdown else []
    found = []
    for line, text in visible(html):
        for match in FOUND.finditer(text):
            what = list(PATTERNS)[int(match.lastgroup[1:])]
            raw = match.group()
            where = f"{page} (HTML line {line})"
            at = [i for i, s in enumerate(source, 1) if raw in s]
            if at:
                where = f"{markdown.as_posix()}:{at[0]}"
            context = text[max(0, match.start() - 30) : match.end() + 30].strip()
            found.append(f"{where}: {what}: {' '.join(context.split())!r}")
    return found
