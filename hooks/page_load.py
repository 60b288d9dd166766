"""MkDocs hook: less work for the browser as a page loads (found in Lighthouse's
traces, `scripts/audit.py --keep`).

`page_load_edits` writes into each page's HTML what a script would do at load:
1. Figures load lazily: all are far below the first screen, and the training
   page's three (18 KB) were fetched beside the stylesheets the first paint waits on.
2. Every code block's `<code>` is focusable (`tabindex="0"`), so a keyboard can
   scroll a wide one; Material does it only as a block comes into view
   (`content.lazy`), so axe found the blocks further down unreachable.
3. Every table comes in Material's scrolling wrapper: Material's script moved each
   table into it at load, restyling the article (25 ms of CPU on the cost page).
4. The explorer's page marks its body (`data-heads-explorer`) for heads.css: the
   `:has(#explorer)` selectors it replaces were re-checked by Chromium on every
   element the parser inserted, on every page.

`patch_bundle` edits Material's own script (THEME_PATCHES, each with its reason);
the build stops, naming the patch, when Material's code for one is not there
exactly once (after an upgrade of Material). overrides/main.html sets Material's
classes on <html> before the first style.
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
            "Material's palette set and, a frame later, removed "
            "data-md-color-switching on the body at every load; its "
            "`[data-md-color-switching] *` rule restyled every element both times (10 "
            "to 13 ms of CPU on training). With the next patch it is set only when a "
            "colour changes; this one drops the setting."
        ),
        old=(
            'if(document.body.setAttribute("data-md-color-switching",""),'
            's.color.media==="(prefers-color-scheme)")'
        ),
        new='if(s.color.media==="(prefers-color-scheme)")',
    ),
    Patch(
        why=(
            "With the previous patch: the attribute is set just before a colour of the "
            "body changes; the palette's media, which no stylesheet reads, does not "
            "count."
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
            "Material's palette wrote the colour scheme into a <meta "
            "name=color-scheme> at every load, and each write restyled the whole page, "
            "twice (about 30 of the 60 ms of its task on training). The root's own "
            "color-scheme gives the scroll bars and canvas the same scheme and "
            "restyles only the root."
        ),
        old='let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);',
        new="let o={set content(c){document.documentElement.style.colorScheme=c}};",
    ),
    Patch(
        why=(
            "The search index (330 KB, 100 KB sent) was fetched on every page load and "
            "indexed by the worker (about 200 ms of CPU) as the page started; it now "
            "loads when the search field is first opened, as Material already does for "
            "a site opened from a file."
        ),
        old='L($(location.protocol!=="file:"),Je("search"))',
        new='L($(!1),Je("search"))',
    ),
    Patch(
        why=(
            "Material started the search worker (a thread, its script fetched and "
            "compiled) on every load, though it gets messages only once search is "
            "opened: it is now created with the first message, the listeners waiting "
            "in a list until then."
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
            "search.highlight subscribed to the index on every page; it now does only "
            "on a page opened from a search result (?h=...), so no other page fetches "
            "it."
        ),
        old='return z([t,r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")))])',
        new=(
            'return r.pipe(Q(we()),g(o=>!!o.searchParams.get("h")),'
            "b(n=>t.pipe(m(o=>[o,n]))))"
        ),
    ),
    Patch(
        why=(
            "Material moved each table into its scrolling wrapper at load (a restyle); "
            "the build writes the wrapper into the HTML (page_load_edits), so a table "
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
            "Material set each annotation up at load (`{ .annotate }` on one-head) and "
            "measured its marker: a restyle, a layout and an icon drawn, 35 to 40 ms "
            "of CPU, the page's longest task. It is now set up when it comes within a "
            "screen's height of the screen, as code blocks are (content.lazy)."
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
