"""MkDocs hook: less work for the browser as a page loads (found in Lighthouse's
traces, `scripts/audit.py --keep`).

Edits to each page's HTML (`page_load_edits`):

1. The figures load when the reader scrolls near them (`loading="lazy"`), not with
   the page: every one is far below the first screen, and the three of the
   training page (18 KB) were fetched alongside the stylesheets the first paint
   waits for.
2. Every code block's `<code>` is focusable from the start (`tabindex="0"`), so
   that a keyboard can scroll one that is wider than the page. Material makes a
   block that scrolls focusable, and takes the focus back from one that does not,
   only as it sets the block up, when the block comes into view (`content.lazy`,
   mkdocs.yml); until then axe found the blocks below it unreachable. This was a
   script's loop over every block at load; written into the HTML it costs nothing.
3. Every table comes in Material's scrolling wrapper
   (`div.md-typeset__scrollwrap > div.md-typeset__table`), which Material's
   script put around it as the page loaded: moving the table restyled it and the
   article around it (the cost page's table and its math: 25 ms of CPU in one task,
   a fifth of what the page's load restyled). Material's script skips a table that
   is already wrapped (THEME_PATCHES).
4. The explorer's page says so on its body (`data-heads-explorer`), for the two
   rules of heads.css that are the explorer's. They were `:has(#explorer)`
   selectors, which Chromium re-checks on every element the parser inserts into
   the article and the main area, on every page.

And edits to Material's own script (`patch_bundle`, THEME_PATCHES, each with its
reason and what it bought): the site serves a copy of Material's bundle with them,
and the build stops, naming the patch, when Material's code for one is not there
exactly once (after an upgrade of Material: look at the patch again). The other
edit to what Material does at load is in overrides/main.html (its classes on
<html>, set before the first style).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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
    """The page with its figures lazy, its code blocks focusable, its tables
    wrapped, and its body marked as the explorer's on that page."""
    if 'id="explorer"' in html:
        html, bodies = BODY.subn(f"<body {EXPLORER}", html, count=1)
        if bodies != 1:
            raise PluginError("the explorer's page has no <body> to mark")
    html = FIGURE.sub('<img loading="lazy"', html)
    html = TABLE.sub(lambda table: WRAPPER.format(table[0]), html)
    return CODE.sub(r'\1<code tabindex="0">', html)


def on_post_page(output, page, config):
    return page_load_edits(output)


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
            "Material's palette set data-md-color-switching on the body each time "
            "it applied a palette, at every load too, and removed it a frame later; "
            "its stylesheet's `[data-md-color-switching] *` (transitions off while "
            "colours change) made both restyle every element of the page (the "
            "removal was a task of 10 to 13 ms of CPU on training; writing the "
            "attribute into the HTML had spared only the setting). With the "
            "next patch, the palette sets it only when one of the body's colours "
            "changes, so that a load restyles nothing, and removing an attribute "
            "that is not there changes nothing. This one: no setting regardless."
        ),
        old=(
            'if(document.body.setAttribute("data-md-color-switching",""),'
            's.color.media==="(prefers-color-scheme)")'
        ),
        new='if(s.color.media==="(prefers-color-scheme)")',
    ),
    Patch(
        why=(
            "With the previous patch: the attribute is set just before a colour of "
            "the body changes (the reader switches, or a first visit in a dark "
            "scheme); the palette's media, which no stylesheet reads, does not count."
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
            "Material's palette appends a <meta name=color-scheme> and writes the "
            "header's colour scheme into it on every load. Each change to that meta "
            "makes Chromium restyle the whole page (PlatformColorChange), twice, "
            "inside the evaluation of Material's script: about 30 ms of the 60 ms of "
            "CPU that task took on the training page. The palette now writes the "
            "same value into the root element's own color-scheme, which gives the "
            "page's scroll bars and canvas that scheme as the meta did, and "
            "restyles only the root (the body has its own, from the palette)."
        ),
        old='let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);',
        new="let o={set content(c){document.documentElement.style.colorScheme=c}};",
    ),
    Patch(
        why=(
            "The search index (330 KB, 100 KB sent) was fetched, parsed and handed "
            "to the search worker on every page load, and the worker spent about "
            "200 ms of CPU indexing it while the page was starting up. Material "
            "already waits for the reader to open search before loading the index "
            "when the site is opened from a file; this makes that the rule: the "
            "index loads when the search field is first opened (the results say "
            "'Initializing search' until it is ready)."
        ),
        old='L($(location.protocol!=="file:"),Je("search"))',
        new='L($(!1),Je("search"))',
    ),
    Patch(
        why=(
            "Material's search started its worker (a thread, and its script "
            "fetched and compiled) on every page load, inside the task that "
            "evaluates Material's script, though it only ever receives messages "
            "once the reader opens search (with the previous patch). The worker "
            "is now created with the first message sent to it; until then the "
            "listeners the search component adds wait in a list."
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
            "search.highlight subscribed to the index on every page, to highlight "
            "the terms of a search result's link (?h=...). It now subscribes only on "
            "a page opened with such a link, so that no other page fetches it."
        ),
        old='return z([t,r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")))])',
        new=(
            'return r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")),'
            "b(n=>t.pipe(m(o=>[o,n]))))"
        ),
    ),
    Patch(
        why=(
            "Material wraps each table in its scrolling wrapper as the page loads, "
            "moving the table into it (a restyle of the table and the article). The "
            "build writes the wrapper into the HTML (page_load_edits): a table "
            "already in it is left where it is."
        ),
        old="function ti(e){return e.replaceWith(ei),ei.replaceWith(Un(e)),$({ref:e})}",
        new=(
            'function ti(e){return e.parentElement.matches(".md-typeset__table")||'
            "(e.replaceWith(ei),ei.replaceWith(Un(e))),$({ref:e})}"
        ),
    ),
    Patch(
        why=(
            "Material sets each annotation up (docs/one-head.md's `{ .annotate }`: "
            "the numbered note becomes a button with a tooltip) as the page loads, "
            "and measures where its marker is, which made Chromium restyle and lay "
            "out the paragraph and draw the marker's icon: 35 to 40 ms of CPU in one "
            "task, the one-head page's longest. An annotation is now set up when it "
            "comes within a screen's height of the screen, as code blocks are "
            "(content.lazy), before the reader can see it."
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
    """Material's bundle, replaced by its patched copy (nothing in the theme's
    folder changes). Files without the theme's (tests/test_dependencies.py runs the
    hooks on the docs alone) are left as they are; that the site serves the patched
    bundle is tests/test_site_build.py's to check."""
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
