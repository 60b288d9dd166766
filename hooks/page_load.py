"""MkDocs hook: less work for the browser as a page loads (found in Lighthouse's
traces, `scripts/audit.py --keep`).

`page_load_edits` writes into each page's HTML what a script would do at load:
1. Figures load lazily, but for one that names its own `loading` (the front page's
   staircase, on the first screen): the others are far below the first screen, and
   the training page's three (18 KB) were fetched beside the stylesheets the first
   paint waits on.
2. Every code block's `<code>` is focusable (`tabindex="0"`), so a keyboard can
   scroll a wide one; Material does it only as a block comes into view
   (`content.lazy`), so axe found the blocks further down unreachable.
3. Every table comes in Material's scrolling wrapper: Material's script moved each
   table into it at load, restyling the article (25 ms of CPU on the cost page).
4. The explorer's page marks its body (`data-heads-explorer`) for heads.css: the
   `:has(#explorer)` selectors it replaces were re-checked by Chromium on every
   element the parser inserted, on every page.

`first_screen_mark` ends each page's first screen with an empty element, and
overrides/main.html's `<link rel=expect>` keeps the browser from drawing until the
parser has passed it. On a busy machine Chromium drew a first frame with the first
screen half parsed, then moved what it had drawn as the rest came (a layout shift:
training's centred display formula moved sideways as its second half arrived, the
search box as the header's last part did; 3 loads in 160 under load). Waiting for
the whole page instead delayed the first paint by a third on cost.

`patch_bundle` edits Material's own script (THEME_PATCHES, each with its reason);
the build stops, naming the patch, when Material's code for one is not there
exactly once (after an upgrade of Material). overrides/main.html sets Material's
classes on <html> before the first style.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

SWITCHING = "data-md-color-switching"  # Material's name for it, in its palette code
EXPLORER = "data-heads-explorer"  # on the body of the page with the explorer
BODY = re.compile(r"<body\b")
FIGURE = re.compile(r'<img\b(?![^>]*\bloading=)(?=[^>]*\bclass="[^"]*\bheads-figure\b)')
# a code block as pymdownx.highlight writes it, with or without a title
CODE = re.compile(
    r'(<div class="(?:language-[^"]* )?highlight">(?:<span class="filename">[^<]*'
    r"</span>)?<pre\b[^>]*>(?:<span></span>)?)<code>"
)
# a table Material would wrap (`table:not([class])`); Markdown tables do not nest
TABLE = re.compile(r"<table>.*?</table>", re.S)
WRAPPER = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">{}</div>'
WRAPPER += "</div>"


def page_load_edits(html: str) -> str:
    """The page with the four edits above."""
    if 'id="explorer"' in html:
        html, bodies = BODY.subn(f"<body {EXPLORER}", html, count=1)
        if bodies != 1:
            raise PluginError("the explorer's page has no <body> to mark")
    html = FIGURE.sub('<img loading="lazy"', html)
    html = TABLE.sub(lambda table: WRAPPER.format(table[0]), html)
    return CODE.sub(r'\1<code tabindex="0">', html)


def on_post_page(output, page, config):
    return page_load_edits(output)


FIRST_SCREEN = "heads-first-screen"  # the id overrides/main.html's link waits for
# Characters of text past which a block is below the first screen on any screen:
# 2560 x 1440 showed at most 3520 (train-it), a phone at most 1639 (measured with
# the built pages; tests/browser/test_behaviour.py checks the mark is below it).
SCREEN_TEXT = 6000
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class _Blocks(HTMLParser):
    """Where each top-level block of a page's content ends, and how much text the
    reader sees up to there: not a script's or a style's, nor what a closed
    <details> hides beyond its summary."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.text, self.ends = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append((tag, tag == "details" and "open" not in dict(attrs)))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass  # an element the Markdown left open ends with its parent
        if not self.open:
            self.ends.append((self.getpos(), self.text))

    def handle_data(self, data):
        if any(tag in ("script", "style") for tag, _ in self.open):
            return
        pairs = pairwise([*self.open, (None, False)])  # each element, the one inside it
        if all(inner == "summary" for (_, closed), (inner, _) in pairs if closed):
            self.text += len(data.strip())  # in no closed <details>, or in its summary


def first_screen_mark(html: str) -> str:
    """A page's content with an empty element after the first top-level block that
    ends SCREEN_TEXT characters in (after the last, on a shorter page)."""
    blocks = _Blocks()
    blocks.feed(html)
    blocks.close()
    lines = html.splitlines(keepends=True)
    at = len(html)
    for (line, column), text in blocks.ends:
        if text >= SCREEN_TEXT:
            start = sum(map(len, lines[: line - 1])) + column
            at = html.index(">", start) + 1
            break
    return f'{html[:at]}<span id="{FIRST_SCREEN}" hidden></span>{html[at:]}'


def on_page_content(html, page, config, files):
    return first_screen_mark(html)


# -- Material's script, patched where it made every page do work for nothing -------


@dataclass(frozen=True)
class Patch:
    why: str
    old: str  # Material's code, exactly as its bundle has it, once
    new: str


BUNDLE = "assets/javascripts/bundle.*.min.js"  # Material 9.8.2's is bundle.a5f9d56c
THEME_PATCHES = [
    Patch(
        why=(
            "The palette set and removed data-md-color-switching at every load, "
            "restyling every element twice (10 to 13 ms on training)."
        ),
        old=(
            'if(document.body.setAttribute("data-md-color-switching",""),'
            's.color.media==="(prefers-color-scheme)")'
        ),
        new='if(s.color.media==="(prefers-color-scheme)")',
    ),
    Patch(
        why=(
            "data-md-color-switching is set only just before a colour of the body "
            "changes (not for the media, which no stylesheet reads)."
        ),
        old=(
            "for(let[a,c]of Object.entries(s.color))"
            "document.body.setAttribute(`data-md-color-${a}`,c);"
        ),
        new=(
            'for(let[a,c]of Object.entries(s.color))a!=="media"&&'
            "document.body.getAttribute(`data-md-color-${a}`)!==c&&"
            'document.body.setAttribute("data-md-color-switching",""),'
            "document.body.setAttribute(`data-md-color-${a}`,c);"
        ),
    ),
    Patch(
        why=(
            "Each load's write to <meta name=color-scheme> restyled the page twice (30 "
            "of 60 ms on training); the root's color-scheme restyles the root alone."
        ),
        old='let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);',
        new="let o={set content(c){document.documentElement.style.colorScheme=c}};",
    ),
    Patch(
        why=(
            "The search index (100 KB sent, 200 ms of the worker's CPU) loads when the "
            "search field is first opened, not with every page."
        ),
        old='L($(location.protocol!=="file:"),Je("search"))',
        new='L($(!1),Je("search"))',
    ),
    Patch(
        why=(
            "The search worker (a thread, its script fetched and compiled) starts with "
            "the first message to it, not at every load; its listeners wait in a list."
        ),
        old="function Mn(e,t=new Worker(e)){",
        new=(
            "function Mn(e,t=(()=>{let w,q=[];return{addEventListener(...a){"
            "w?w.addEventListener(...a):q.push(a)},removeEventListener(...a){"
            "w?w.removeEventListener(...a):q=q.filter(([n,f])=>n!==a[0]||f!==a[1])},"
            "postMessage(m){if(!w){w=new Worker(e);for(let a of q)"
            "w.addEventListener(...a)}w.postMessage(m)}}})()){"
        ),
    ),
    Patch(
        why=(
            "search.highlight fetches the index only on a page opened from a search "
            "result (?h=...), not on every page."
        ),
        old='return z([t,r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")))])',
        new=(
            'return r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")),'
            "b(n=>t.pipe(m(o=>[o,n]))))"
        ),
    ),
    Patch(
        why=(
            "A table the build already put in Material's scrolling wrapper "
            "(page_load_edits) is not moved into a new one at load (a restyle)."
        ),
        old="function ti(e){return e.replaceWith(ei),ei.replaceWith(Un(e)),$({ref:e})}",
        new=(
            'function ti(e){return e.parentElement.matches(".md-typeset__table")||'
            "(e.replaceWith(ei),ei.replaceWith(Un(e))),$({ref:e})}"
        ),
    ),
    Patch(
        why=(
            "An annotation (`{ .annotate }`) is set up as it comes within a screen of "
            "the screen, not at load (35 to 40 ms, one-head's longest task)."
        ),
        old='...M(".annotate:not(.highlight)",e).map(i=>zn(i,{target$:o,print$:n}))',
        new=(
            '...M(".annotate:not(.highlight)",e).map(i=>new F(s=>{let a=new '
            "IntersectionObserver(([c])=>{c.isIntersecting&&s.next()},"
            '{rootMargin:"100% 0px"});return a.observe(i),()=>a.disconnect()})'
            ".pipe(Ee(1),b(()=>zn(i,{target$:o,print$:n}))))"
        ),
    ),
]
SOURCE_MAP = re.compile(r"\n//# sourceMappingURL=\S+\s*$")


def patch_bundle(js: str, patches: list[Patch] = THEME_PATCHES) -> str:
    """Material's script with each patch applied; PluginError, naming the patch,
    when its code is not in the script exactly once (Material changed: look at the
    patch again). The source map, which no longer matches, is unlinked."""
    for patch in patches:
        found = js.count(patch.old)
        if found != 1:
            raise PluginError(
                f"hooks/page_load.py: Material's script has {found} copies of the "
                f"code a patch replaces, not 1; Material may have changed. The "
                f"patch: {patch.why}\nIts code: {patch.old}"
            )
        js = js.replace(patch.old, patch.new)
    return SOURCE_MAP.sub("\n", js)


def on_files(files, config):
    """Material's bundle replaced by its patched copy; files without it (the hooks
    run on the docs alone, tests/test_dependencies.py) are left as they are."""
    bundles = [f for f in files if Path(f.src_uri).match(BUNDLE)]
    if not bundles:
        return files
    if len(bundles) > 1:
        raise PluginError(f"hooks/page_load.py: {len(bundles)} files match {BUNDLE}")
    bundle = bundles[0]
    patched = patch_bundle(Path(bundle.abs_src_path).read_text(encoding="utf-8"))
    files.remove(bundle)
    files.append(File.generated(config, bundle.src_uri, content=patched))
    return files
