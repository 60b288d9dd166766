"""The strict build passes, shows the article's numbers, and fails loudly on faults."""

import base64
import io
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont
from mkdocs.exceptions import PluginError

from hooks import katex, page_load
from hooks.generated import FIGURES
from hooks.search_index import exclude_run_first
from tests import raw_markup
from tools.build import (
    BUDGET_KB,
    build,
    built_page_folders,
    copy_sources,
    page_weights,
    search_assets,
    search_budget_kb,
    transfer_size,
    weight_report,
)
from tools.pages import DOCS, ROOT

ARTICLES_NUMBERS = {
    "one-head": ["0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820", "0.3061, 0.8210"],
    "second-head": [
        "0.6026, 0.1537, 0.1365, 0.0216, 0.0055, 0.0800",
        "0.4345, 0.4181",
        "0.3061, 0.8210, 0.4345, 0.4181",
    ],
}


@pytest.mark.parametrize("page, numbers", ARTICLES_NUMBERS.items())
def test_built_site_shows_the_articles_numbers(built_site, page, numbers):
    html = (built_site / page / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    for number in numbers:
        assert number in text, f"{page}: {number} missing from the built page"


# -- no raw markup reaches a reader (tests/raw_markup.py) -------------------------


def test_no_page_shows_its_markdown_source(built_site):
    found = []
    for page, html in built_pages(built_site).items():
        name = "index" if page == "." else page
        markdown = Path("docs") / f"{name}.md"
        found += raw_markup.find(
            html, page, markdown if (ROOT / markdown).exists() else None
        )
    assert found == [], "unrendered Markdown on the built pages:\n" + "\n".join(found)


PLANTED = {  # one of each kind of raw markup, as a page would show it
    "an icon or emoji shortcode": "Next: the explorer :material-arrow-right:",
    "an attribute list": "A figure { .heads-figure }",
    "a snippet marker": '--8<-- "snippets/one_head/ex01_projections.py:page"',
    "a footnote marker": "as Vaswani et al. say[^1]",
    "an admonition marker": '!!! note "Aside"',
    "a test marker": "<!--pytest-codeblocks:expected-output-->",
    "a Markdown link": "see [the training page](training.md)",
    "Markdown emphasis": "the **one-hot code** of six numbers",
    "a backtick": "the `page` section",
    "TeX that KaTeX did not typeset": "a score of $q \\cdot k$",
    "a Jinja or macro tag": "{{ config.site_name }}",
}


@pytest.mark.parametrize("kind, planted", PLANTED.items())
def test_each_kind_of_raw_markup_is_found_with_its_page_and_line(
    kind, planted, tmp_path
):
    """Planted in a page's text, or in an image's alt text: found, with the
    Markdown line where the page's source has it, and the page's name."""
    escaped = planted.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    html = f"<html><body>\n<p>Fine text.</p>\n<p>{escaped}</p>\n</body></html>"
    markdown = tmp_path / "demo.md"
    markdown.write_text(f"# Demo\n\nFine text.\n\n{planted}\n", encoding="utf-8")
    (found,) = raw_markup.find(html, "demo", markdown)
    assert found.startswith(f"{markdown.as_posix()}:5: {kind}"), found
    alt = f'<html><body>\n<img alt="{escaped.replace(chr(34), "&quot;")}" src="x.svg">'
    (found,) = raw_markup.find(alt, "demo")
    assert found.startswith(f"demo (HTML line 2): {kind}"), found


def test_a_list_item_that_fell_out_of_its_list_is_found():
    """A line under-indented in a collapsed block ends the block there: the list
    items after it show as one paragraph, their markers as text."""
    html = (
        "<html><body>\n<ul><li>Fine.</li></ul>\n<p>of 0.1, and the schedule\n"
        "- <strong>The verdicts.</strong> In those runs</p>\n</body></html>"
    )
    (found,) = raw_markup.find(html, "demo")
    assert found.startswith("demo (HTML line 3): a list marker inside a paragraph")


def test_rendered_markup_and_code_are_not_raw():
    html = """<html><body><p>A ratio of 3:2, a time of 10:30, <em>stress</em>, a
    <a href="x/">link</a>, <code>`code` {{ x }}</code>, <span class="arithmatex">
    \\(x\\)</span>, a sum over {i, j} and 50% more.</p><pre>--8<-- $x$</pre>
    <script>var a = "**b**";</script></body></html>"""
    assert raw_markup.find(html, "demo") == []


# -- math, typeset at build time (hooks/katex.py) ---------------------------------


def visible_text(page_html: str) -> str:
    """A page's text outside code, scripts, styles and typeset math."""
    soup = BeautifulSoup(page_html, "html.parser")
    for hidden in soup.select("script, style, pre, code, svg, .arithmatex"):
        hidden.decompose()
    return soup.get_text(" ")


def built_pages(site: Path) -> dict[str, str]:
    return {
        page: (site / page / "index.html").read_text(encoding="utf-8")
        for page in built_page_folders(site)
    }


def test_no_page_loads_katex_javascript(built_site):
    assert not (built_site / "assets/katex/katex.min.js").exists()
    assert not (built_site / "assets/katex/contrib").exists()
    for page, text in built_pages(built_site).items():
        scripts = re.findall(r"<script[^>]*src=\"([^\"]+)\"", text)
        assert not [s for s in scripts if "katex" in s], page
        assert "renderMathInElement" not in text, page


def test_every_formula_is_typeset_at_build_time(built_site):
    with_math = set()
    for page, text in built_pages(built_site).items():
        formulas = len(re.findall(r'class="arithmatex"', text))
        done = len(re.findall(r'class="arithmatex"><span class="katex', text))
        assert done == formulas, f"{page}: {formulas - done} formulas left as TeX"
        assert "katex-error" not in text, page
        # TeX delimiters outside code mean a formula nobody typeset
        leftover = re.findall(r".{0,30}(?:\$|\\\(|\\\[).{0,30}", visible_text(text))
        assert leftover == [], f"{page}: {leftover}"
        stylesheet = '/katex/katex.min.css">' in text
        assert stylesheet == bool(formulas), f"{page}: KaTeX's CSS iff math"
        if formulas:
            with_math.add(page)
    assert {".", "one-head", "cost", "training", "real-model"} <= with_math
    assert "explorer" not in with_math


@pytest.fixture(scope="module")
def renderer():
    renderer = katex.Katex(ROOT / "docs" / katex.KATEX_JS)
    yield renderer
    renderer.close()


def test_typeset_keeps_the_tex_and_its_escapes(renderer):
    page = '<p>If <span class="arithmatex">\\(a &lt; b\\)</span> then</p>'
    page += '<div class="arithmatex">\\[\n\\sqrt{d_k}\n\\]</div>'
    out, rendered = katex.typeset(page, renderer)
    assert len(rendered) == 2
    assert '<span class="arithmatex"><span class="katex">' in out
    assert '<div class="arithmatex"><span class="katex-display">' in out
    # KaTeX keeps the source in the MathML annotation (escaped again)
    assert '<annotation encoding="application/x-tex">a &lt; b</annotation>' in out
    assert re.search(r'x-tex">\s*\\sqrt\{d_k\}\s*</annotation>', out)
    assert "\\(" not in out and "\\[" not in out


INLINE_FACE = re.compile(
    r"@font-face\{font-family:(\w+);font-style:(\w+);font-weight:(\d+);"
    r"src:url\(data:font/woff2;base64,([^)]+)\) format\(\"woff2\"\);"
    r"unicode-range:([^}]+)\}"
)


def inline_faces(page_html: str) -> set[tuple[str, str, str]]:
    return {(f, w, s) for f, s, w, _, _ in INLINE_FACE.findall(page_html)}


def test_each_inline_font_has_the_characters_math_draws_in_it(renderer, built_site):
    """FontSubsets: one face per font the math uses, holding exactly the characters
    drawn in it that the font has (its unicode-range says which), with their
    shapes; the site serves no other KaTeX face."""
    formula = '<div class="arithmatex">\\[\\sqrt{d_k} = \\mathbf{W}_q\\]</div>'
    _, rendered = katex.typeset(formula, renderer)
    subsets = katex.FontSubsets(ROOT / "docs" / katex.KATEX_CSS)
    css = subsets.css("".join(rendered))
    faces = INLINE_FACE.findall(css)
    assert {(f, s, w) for f, s, w, _, _ in faces} == {
        ("KaTeX_Main", "normal", "400"),  # the root sign's bar, "="
        ("KaTeX_Main", "normal", "700"),  # bold W
        ("KaTeX_Math", "italic", "400"),  # d, k, q
    } | {(f, s, w) for f, s, w, _, _ in faces if f.startswith("KaTeX_Size")}
    drawn = subsets.fonts.characters("".join(rendered))
    for family, style, weight, data, ranges in faces:
        chars = {chr(int(r.removeprefix("U+"), 16)) for r in ranges.split(",")}
        url = subsets.fonts.faces[family, weight, style]
        # all it draws there, but what the font itself lacks (a zero-width space)
        assert chars == drawn[url] & subsets.characters_of(url), family
        font = TTFont(io.BytesIO(base64.b64decode(data)))
        assert {ord(c) for c in chars if c.strip()} <= set(font.getBestCmap()), family
        assert font.flavor == "woff2"
    math = {c for url, cs in drawn.items() if "Math-Italic" in url for c in cs}
    assert {"d", "k", "q"} <= math
    assert "\u200b" in drawn["fonts/KaTeX_Main-Regular.woff2"]  # KaTeX's own
    assert "\u200b" not in subsets.characters_of("fonts/KaTeX_Main-Regular.woff2")
    # the site as built: KaTeX's stylesheet with no @font-face, and no font file
    css = (built_site / katex.KATEX_CSS).read_text(encoding="utf-8")
    assert "@font-face" not in css
    assert not list(built_site.glob("**/*.woff2"))
    # a character the subset leaves out has no shape in it
    font = TTFont(io.BytesIO(subsets.subset("fonts/KaTeX_Math-Italic.woff2", "dk")))
    assert ord("d") in font.getBestCmap() and ord("q") not in font.getBestCmap()


def test_a_math_page_makes_its_fonts_as_its_head_is_read(built_site):
    """A page with math makes its fonts right after its inline faces, before any
    stylesheet would hold the parser up (tests/browser/test_behaviour.py checks
    that they are loaded when the body starts)."""
    with_math = 0
    for page, html in built_pages(built_site).items():
        head = html[: html.index("</head>")]
        faces = re.search(
            r"<style>(@font-face.*?)</style>\s*<script>(.*?)</script>", head
        )
        if inline_faces(head):
            assert faces is not None and faces[2] == katex.LOAD_FONTS, page
            assert faces.end() < head.index('<link rel="stylesheet"'), page
            with_math += 1
        else:
            assert katex.LOAD_FONTS not in html, page
    assert with_math >= 10


def test_invalid_tex_is_an_error_not_red_text(renderer):
    with pytest.raises(katex.InvalidMath, match=r"\\frac\{a"):
        katex.typeset('<span class="arithmatex">\\(\\frac{a\\)</span>', renderer)


# -- page weight ------------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False])
def test_every_page_stays_within_its_weight_budget(built_site, javascript):
    weights = page_weights(built_site, javascript)
    assert set(weights) >= {".", "one-head", "cost", "explorer", "training"}
    for page, assets in weights.items():
        assert all(size > 0 for size in assets.values()), page
        total = sum(assets.values())
        assert total <= BUDGET_KB * 1024, (
            f"{page} ({'with' if javascript else 'without'} JavaScript): "
            f"{total / 1024:.0f} KB > {BUDGET_KB} KB: {assets}"
        )


def test_search_stays_within_its_budget_that_grows_with_the_site(built_site):
    """Every page loads the same worker and index when search opens, and they
    weigh no more than the search budget for this many pages."""
    found = {page: search_assets(built_site, page) for page in built_pages(built_site)}
    assert len({frozenset(a) for a in found.values()}) == 1  # one index for all
    (assets,) = {frozenset(a) for a in found.values()}
    assert all(a.exists() for a in assets), assets
    names = {a.name for a in assets}
    assert "search_index.json" in names
    assert [n for n in names if n.startswith("search.") and n.endswith(".js")]
    total = sum(transfer_size(a) for a in assets)
    assert total <= search_budget_kb(built_site) * 1024, weight_report(built_site)


def test_the_weight_counts_noscript_images_only_without_javascript(built_site):
    """your-sentence shows its first example's maps in <noscript>: a browser with
    JavaScript never fetches that figure, one without fetches it and no script."""
    with_js, without = (
        {Path(a).name for a in page_weights(built_site, js)["your-sentence"]}
        for js in (True, False)
    )
    assert "your-sentence-heads.svg" in without - with_js
    assert "your-sentence.js" in with_js - without
    assert not [n for n in without if n.endswith(".js")]


def test_the_weight_counts_what_a_math_page_loads(built_site):
    """The budget's reckoning on one page: no KaTeX font file (they are inline) and
    nothing of KaTeX's JavaScript."""
    names = {Path(a).name for a in page_weights(built_site)["one-head"]}
    page = {"index.html", "heads.css", "one-head-heatmap.svg", "favicon.png"}
    assert page | {"katex.min.css"} <= names
    assert "search_index.json" not in names  # loaded when search opens
    assert {n for n in names if n.startswith("KaTeX_")} == set()
    html = (built_site / "one-head" / "index.html").read_text(encoding="utf-8")
    assert inline_faces(html) == {
        ("KaTeX_Main", "400", "normal"),
        ("KaTeX_Math", "400", "italic"),
        ("KaTeX_Size1", "400", "normal"),
    }
    assert any(n.startswith("bundle.") for n in names)
    assert not any(n.startswith("search.") and n.endswith(".js") for n in names)
    assert not [n for n in names if n.startswith("katex") and n.endswith(".js")]


# -- the search index (hooks/search_index.py) ---------------------------------------


def search_index(site: Path) -> dict[str, str]:
    docs = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    return {d["location"]: d["text"] for d in docs}


def test_code_rerun_from_earlier_pages_is_indexed_once(built_site):
    """A run-this-first block's code is found on the page it comes from, not again on
    every page that reruns it; the reader's HTML does not carry the marker."""
    text = search_index(built_site)
    on = [where for where, t in text.items() if "def make_batch(n, generator)" in t]
    assert on == ["training/#the-task-two-lookups-per-position"]  # ablation reruns it
    pages = sorted(built_site.glob("*/index.html"))
    run_first = [p for p in pages if "(run this first)</summary>" in p.read_text()]
    assert len(run_first) >= 8
    assert not [p for p in pages if "data-search-exclude" in p.read_text()]


def test_only_run_first_blocks_made_data_and_figure_code_are_marked():
    blocks = {
        "From earlier pages (run this first)": True,
        "The code that draws this figure": True,
        "The records, as <code>make seeds</code> wrote them (run this before the "
        "next blocks)": True,
        "The measurements, as <code>make bench</code> wrote them": True,
        "The records, as <code>make twin-tuned</code> wrote them (run this before "
        "the next block)": True,
        "The record, as <code>make staircase</code> wrote it (run this before the "
        "next block)": True,
        "Exercise 1: heads that keep their width": False,
        "How the weights are found and checked: <code>ex01_weights.py</code>": False,
    }
    for summary, excluded in blocks.items():
        html = f'<details class="example">\n<summary>{summary}</summary><pre>a</pre>'
        marked = exclude_run_first(html)
        assert ("data-search-exclude" in marked) == excluded, summary
        assert marked.count("data-search-exclude") <= 1
    output = '<div class="language-text highlight"><pre><code>1</code></pre></div>'
    marked = exclude_run_first("<!--pytest-codeblocks:expected-output-->\n" + output)
    assert marked.count('data-search-exclude="output"') == 1
    assert "data-search-exclude" not in exclude_run_first(output)  # code, not output
    code = '<span class="k">def</span> <span class="sd">"""Doc."""</span>'
    assert exclude_run_first(code).count('data-search-exclude="docstring"') == 1


def test_the_records_that_make_writes_are_not_indexed(built_site):
    """Every record a page shows (snippets/*/*_results.py but the pages' own ex*
    blocks), by its first line of data; the cost page's measurements too."""
    text = " ".join(search_index(built_site).values())
    shown = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    records = [
        p.stem
        for p in ROOT.glob("snippets/*/*_results.py")
        if not p.stem.startswith("ex") and f"{p.parent.name}/{p.name}" in shown
    ]
    assert len(records) >= 8
    for data in (*(f"{r} = {{" for r in records), "bench = {"):
        assert data not in text, data
    assert "fig.subplots" not in text  # the code that draws the figures
    assert "d_head = 64: 117,479 parameters" not in text  # an output block
    assert "def count_parameters(model)" in text  # the code that prints it
    assert "def validation_loss(model, context)" in text  # the code is indexed,
    assert "Mean cross-entropy, in nats per character" not in text  # its docstring not
    assert "def where_heads_look" in text  # other code is indexed
    pages = sorted(built_site.glob("*/index.html"))
    with_records = {
        p.parent.name for p in pages if "make seeds</code> wrote" in p.read_text()
    }
    assert with_records == {"training", "width-and-depth"}  # the marker is still there


# -- less work as a page loads (hooks/page_load.py) ---------------------------------


def test_page_load_edits_make_figures_lazy():
    """A figure that says nothing of its loading; not a logo, nor an eager figure."""
    figure = '<img alt="a &gt; b" class="heads-figure" src="f.svg" />'
    html = (
        f'<html><body dir="ltr" data-md-color-scheme="default"><p>{figure}'
        '<img alt="logo" src="logo.png" />'
        '<img class="heads-figure" loading="eager" src="g.svg" /></p></body></html>'
    )
    lazy = figure.replace("<img ", '<img loading="lazy" ')
    assert page_load.page_load_edits(html) == html.replace(figure, lazy)


def test_the_palette_marks_the_body_only_when_a_colour_changes(built_site):
    """Material's stylesheet restyles everything under the attribute (else the
    patches that keep a load from setting it are moot); no page starts with it."""
    assets = built_site / "assets"
    palette = next((assets / "stylesheets").glob("palette.*.min.css")).read_text()
    assert f"[{page_load.SWITCHING}] *" in palette
    figures = 0
    for page, html in built_pages(built_site).items():
        body = re.search(r"<body\b[^>]*>", html)[0]
        assert page_load.SWITCHING not in body, f"{page}: {body}"
        for img in re.findall(r"<img\b[^>]*>", html):
            # the front page's staircase is on its first screen (test_behaviour.py)
            first_screen = page == "." and "how-many-heads-staircase.svg" in img
            loading = "eager" if first_screen else "lazy"
            assert f'loading="{loading}"' in img, f"{page}: {img}"
            figures += 1
    assert figures >= len(FIGURES)


def test_page_load_edits_make_code_focusable_and_wrap_tables():
    """Code blocks' code, not inline code; Material's tables, not a classed one."""
    table = "<table>\n<thead><tr><th>a</th></tr></thead></table>"
    html = (
        '<body><div class="language-python highlight"><span class="filename">'
        "a.py</span><pre><span></span><code>x = 1\n</code></pre></div>"
        '<div class="language-text highlight"><pre><span></span><code>1</code></pre>'
        f"</div><p>Inline <code>x</code> stays.</p>{table}"
        '<table class="own"><tr><td>b</td></tr></table></body>'
    )
    focusable = html.replace("<span></span><code>", '<span></span><code tabindex="0">')
    wrap = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">{}</div>'
    assert page_load.page_load_edits(html) == focusable.replace(
        table, wrap.format(table) + "</div>"
    )


def test_only_the_explorers_page_is_marked_as_such():
    edit = page_load.page_load_edits
    explorer = '<body><div id="explorer" class="heads-explorer"></div></body>'
    assert edit(explorer).startswith(f"<body {page_load.EXPLORER}>")
    assert page_load.EXPLORER not in edit('<body><p id="explorers">')
    with pytest.raises(PluginError, match="no <body>"):
        edit('<html><div id="explorer"></div></html>')


def test_the_first_screen_ends_after_the_block_that_reaches_its_text(monkeypatch):
    """The mark goes after the top-level block whose end brings the text a reader
    sees to SCREEN_TEXT characters: a closed <details> counts its summary only, a
    script nothing, an open <details> all of it; a shorter page gets it at its end."""
    monkeypatch.setattr(page_load, "SCREEN_TEXT", 10)
    mark = f'<span id="{page_load.FIRST_SCREEN}" hidden></span>'
    closed = "<details><summary>ab</summary><p>hidden text</p></details>"
    script = '<script type="application/json">{"a": 1234567890}</script>'
    html = f"<p>abcd<br>e</p>\n{closed}\n{script}<hr>\n<div><p>fgh</p></div>\n<p>i</p>"
    cut = html.index("\n<p>i")
    assert page_load.first_screen_mark(html) == html[:cut] + mark + html[cut:]
    opened = closed.replace("<details>", "<details open>")
    assert page_load.first_screen_mark(f"{opened}<p>x</p>") == f"{opened}{mark}<p>x</p>"
    assert page_load.first_screen_mark("<p>short</p>") == f"<p>short</p>{mark}"


def test_every_page_waits_for_its_first_screen(built_site):
    """overrides/main.html's link names the mark, which every page has once."""
    for page, html in built_pages(built_site).items():
        link = f'<link rel="expect" href="#{page_load.FIRST_SCREEN}" blocking="render">'
        assert link in html.split("</head>")[0], page
        assert html.count(f'id="{page_load.FIRST_SCREEN}"') == 1, page


def test_a_patch_to_materials_script_applies_once_or_stops_the_build():
    patch = page_load.Patch(why="the reason", old="f(1);", new="f(2);")
    script = "a();f(1);b();\n//# sourceMappingURL=bundle.min.js.map\n"
    assert page_load.patch_bundle(script, [patch]) == "a();f(2);b();\n"
    for count in (0, 2):
        found = f"(?s){count} copies.*the reason.*f\\(1\\)"
        with pytest.raises(PluginError, match=found):
            page_load.patch_bundle("a();" + "f(1);" * count, [patch])


def test_materials_script_is_found_once_or_not_at_all():
    """Two bundles stop the build; none (the hooks run on the docs alone, as
    tests/test_dependencies.py runs them) leaves the files as they are."""

    class Bundle:
        src_uri = "assets/javascripts/bundle.0123abcd.min.js"

    with pytest.raises(PluginError, match="2 files match"):
        page_load.on_files([Bundle(), Bundle()], config={})
    assert page_load.on_files([], config={}) == []


def test_the_site_serves_materials_script_patched(built_site):
    """Every patch of hooks/page_load.py is in the script the site serves, and no
    longer what it replaced; the theme's own copy is as Material ships it."""
    from material import templates

    name = "assets/javascripts/bundle.*.min.js"
    served = next(built_site.glob(name)).read_text(encoding="utf-8")
    shipped = next(Path(templates.__file__).parent.glob(name)).read_text("utf-8")
    for patch in page_load.THEME_PATCHES:
        assert patch.new in served and patch.old not in served, patch.why
        assert patch.old in shipped
    assert "sourceMappingURL" not in served
    assert 'name:"color-scheme"' not in served  # the palette's meta, see the patch


def test_every_page_has_its_code_focusable_and_its_tables_wrapped(built_site):
    tables = 0
    for page, html in built_pages(built_site).items():
        assert not re.search(r"<pre\b[^>]*>(<span></span>)?<code>", html), page
        for table in re.finditer(r"<table>", html):  # Material's table:not([class])
            before = html[: table.start()]
            assert before.endswith('<div class="md-typeset__table">'), page
            tables += 1
        marked = page_load.EXPLORER in re.search(r"<body\b[^>]*>", html)[0]
        assert marked == (page == "explorer"), page
    assert tables >= 2  # the index's notation and the cost page's table


SCORES = '--8<-- "snippets/one_head/ex02_scores.py:page"'
NEXT = "[Next: a second head →](second-head.md)"
FAULTS = {  # fault: (text on one-head.md, what replaces it, what the error names)
    "missing snippet file": (SCORES, SCORES.replace("scores", "gone"), "ex02_gone.py"),
    "missing snippet section": (SCORES, SCORES.replace(":page", ":gone"), "gone"),
    "broken page link": (NEXT, "[Next: a second head](second-hed.md)", "second-hed.md"),
    "broken anchor": (
        NEXT,
        "[Next: a second head](second-head.md#no-such-heading)",
        "no-such-heading",
    ),
    "invalid formula": (
        "them by $\\sqrt{d_k}$ and applies",
        "them by $\\sqrt{d_k$ and applies",
        "\\sqrt{d_k",
    ),
    "broken raw html link": (
        NEXT + "{ .md-button }",
        '<a href="../no-such-page/">Next</a>',
        "no-such-page",
    ),
}


def test_a_template_edited_between_builds_is_compiled_again(tmp_path, monkeypatch):
    """hooks/templates.py keeps the compiled templates between builds (each build
    has a new Jinja environment); a template edited since is compiled again."""
    from jinja2 import Environment, FileSystemLoader

    from hooks import templates

    monkeypatch.setattr(templates, "CACHE", tmp_path / "cache")
    (tmp_path / "main.html").write_text("one {{ 1 + 1 }}", encoding="utf-8")

    def render() -> str:
        env = Environment(loader=FileSystemLoader(tmp_path))
        env = templates.on_env(env, config=None, files=None)
        return env.get_template("main.html").render()

    assert render() == "one 2"
    assert len(list((tmp_path / "cache").iterdir())) == 1  # the compiled code, kept
    assert render() == "one 2"  # from the cache
    (tmp_path / "main.html").write_text("two {{ 1 + 1 }}", encoding="utf-8")
    assert render() == "two 2"


def minimal_site(root: Path) -> Path:
    """The site with one real page, one-head.md (where the faults go), and stubs of
    the pages it links to: it builds in seconds."""
    copy_sources(root)
    for page in (root / "docs").glob("*.md"):
        if page.name != "one-head.md":
            page.unlink()
    (root / "docs" / "index.md").write_text("# Stub\n", encoding="utf-8")
    stubs = {  # page -> its title and the headings one-head.md links to
        "second-head.md": ("A second head",
                           ["A hand-set head", "What each head asks, as one matrix"]),
        "width-and-depth.md": ("Heads against width and depth",
                               ["Two values in two input numbers"]),
    }  # fmt: skip
    for name, (title, headings) in stubs.items():
        stub = f"# {title}\n" + "".join(f"\n### {h}\n" for h in headings)
        (root / "docs" / name).write_text(stub, encoding="utf-8")
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.search(r"^nav:\n(?:[ -].*\n)+", config, re.M)
    pages = "nav:\n  - index.md\n  - one-head.md\n" + "".join(
        f"  - {name}\n" for name in stubs
    )
    (root / "mkdocs.yml").write_text(config.replace(nav[0], pages), encoding="utf-8")
    return root


def test_the_minimal_site_builds(tmp_path):
    """The planted-fault builds below fail because of their fault, not the copy."""
    root = minimal_site(tmp_path / "src")
    build(root / "out", root)
    assert (root / "out/one-head/index.html").exists()
    assert (root / "out/assets/figures/one-head-heatmap.svg").exists()


@pytest.fixture(scope="module")
def planted_builds(tmp_path_factory):
    """Each fault planted in its own minimal copy of the site, all built side by
    side (the builds wait on subprocesses, so threads let them share the cores)."""

    def plant_and_build(fault):
        old, new, _ = FAULTS[fault]
        root = minimal_site(tmp_path_factory.mktemp("planted"))
        page = root / "docs" / "one-head.md"
        text = page.read_text(encoding="utf-8")
        assert old in text, f"{fault}: the text to break is no longer on the page"
        page.write_text(text.replace(old, new), encoding="utf-8")
        try:
            build(root / "out", root)
        except RuntimeError as error:
            return str(error)
        return f"{fault}: the build passed"

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(FAULTS, pool.map(plant_and_build, FAULTS), strict=True))


@pytest.mark.parametrize("fault", FAULTS)
def test_planted_fault_fails_the_build_naming_the_file(planted_builds, fault):
    output = planted_builds[fault]
    _, _, named = FAULTS[fault]
    assert "mkdocs build --strict failed" in output, output
    assert named in output, output
    assert "one-head.md" in output or fault.startswith("missing snippet"), output
