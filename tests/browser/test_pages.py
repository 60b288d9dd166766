"""Every page of the built site, in Chromium: it loads cleanly, offline and
privately, its math (typeset at build time) and images render in their own fonts
(inline, fetching no KaTeX font), axe finds nothing in either scheme (switched with
the palette toggle), its full-page screenshot shows every block, and its copy
button copies the code."""

import functools
import re

import pytest

from hooks import live_model, trainer
from hooks.generated import EXPLORER_SCRIPT
from hooks.katex import KATEX_CSS, FontSubsets
from tests.browser import browser_kit as kit
from tests.test_reader import html_blocks
from tools.build import page_id, site_pages
from tools.pages import ROOT, config

# TeX left in the page's text (outside code): a formula nobody typeset.
RAW_TEX = r"""() => {
    const copy = document.querySelector(".md-content").cloneNode(true);
    copy.querySelectorAll("pre, code, script, style, .arithmatex")
        .forEach((e) => e.remove());
    return copy.textContent.match(/.{0,30}(\$|\\\(|\\\[).{0,30}/g) || [];
}"""
# Typeset math that draws nothing: KaTeX's HTML with no width, or text drawn in a
# colour other than the page's (invisible in one of the schemes).
UNSEEN_MATH = """() => [...document.querySelectorAll(".arithmatex .katex-html")]
    .filter((m) => !m.closest("details:not([open])"))
    .filter((m) => m.getBoundingClientRect().width === 0 ||
        getComputedStyle(m).color !==
        getComputedStyle(m.closest(".arithmatex").parentElement).color)
    .map((m) => m.closest(".arithmatex").textContent.slice(0, 40))"""
# The KaTeX faces the page has loaded: (family, weight, style).
LOADED_KATEX_FACES = """() => [...document.fonts]
    .filter((f) => f.family.startsWith("KaTeX_") && f.status === "loaded")
    .map((f) => [f.family, f.weight, f.style])"""


@functools.cache
def font_subsets() -> FontSubsets:
    return FontSubsets(ROOT / "docs" / KATEX_CSS)


@functools.cache
def katex_characters() -> frozenset[str]:
    """Every character some KaTeX font has a shape for."""
    subsets = font_subsets()
    return frozenset().union(*map(subsets.characters_of, subsets.fonts.faces.values()))


def math_in_system_fonts(page) -> list[str]:
    """The math text Chromium drew (partly) in a system font although a KaTeX font
    has every one of its characters: a character the page's font subsets lack.
    It draws all of the page first, and leaves it so."""
    # everything drawn: off-screen blocks, collapsed solutions and every tab
    kit.draw_whole_page(page)
    page.add_style_tag(
        content=".md-typeset .tabbed-block { display: block !important; }"
    )
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = 1)")
    page.evaluate(
        """() => new Promise((done) => requestAnimationFrame(() =>
            document.fonts.ready.then(() => done(document.body.offsetHeight))))"""
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]
    own_text, nodes = {}, [root]  # each element's own text nodes' text
    while nodes:
        node = nodes.pop()
        children = node.get("children", [])
        own_text[node["nodeId"]] = "".join(
            c.get("nodeValue", "") for c in children if c["nodeType"] == 3
        )
        nodes += children
    found = cdp.send(
        "DOM.querySelectorAll", {"nodeId": root["nodeId"], "selector": ".katex-html *"}
    )
    wrong, asked, answered = [], 0, 0
    for node in found["nodeIds"]:
        text = own_text.get(node, "").strip()
        if not text or set(text) - katex_characters():
            continue  # nothing drawn, or a character no KaTeX font has
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        asked, answered = asked + 1, answered + bool(fonts)
        if any(not font["isCustomFont"] for font in fonts):
            wrong.append(text)
    cdp.detach()
    # every element asked about was drawn (an unlaid-out one names no font)
    assert answered == asked, f"Chromium named fonts for {answered} of {asked}"
    return wrong


def check_math(page) -> None:
    """Every formula arrived typeset (no KaTeX script runs here) and is seen."""
    # counted in one go: Material moves an annotation's text (math too) out of the
    # page when it sets the annotation up, which can fall between two counts
    maths, typeset = page.evaluate(
        """() => [".arithmatex",
                  ".arithmatex > :is(.katex, .katex-display) .katex-html"]
            .map((selector) => document.querySelectorAll(selector).length)"""
    )
    assert typeset == maths
    assert page.locator(".katex-error").count() == 0
    assert page.evaluate(RAW_TEX) == []
    assert page.evaluate(UNSEEN_MATH) == []


def test_a_block_drawn_blank_in_a_screenshot_is_named(tmp_path):
    """What full_page_screenshot checks, on an image with one block drawn (a line
    of dark text) and one left blank inside its border, as Chromium leaves a
    block that content-visibility skips."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(image)
    draw.text((20, 30), "tensor([0.3061, 0.8210])", fill="black")
    draw.rectangle((10, 150, 390, 250), outline="grey", width=2)  # its border only
    image.save(tmp_path / "shot.jpg", quality=80)
    boxes = [[10, 20, 390, 60, "P: drawn"], [10, 150, 390, 250, "DETAILS: blank"]]
    assert kit.blank_blocks(tmp_path / "shot.jpg", 400, boxes) == ["DETAILS: blank"]


def test_the_pages_tested_are_the_pages_built(built_site):
    assert sorted(site_pages(built_site)) == kit.docs_pages()


@pytest.mark.parametrize("path", kit.docs_pages(), ids=page_id)
def test_page(page, problems, path, built_site):
    page.goto(path)  # "load"; requests after it are caught by the final check
    assert page.locator("h1").count() >= 1
    canonical = page.locator("link[rel='canonical']").get_attribute("href")
    assert canonical == config()["site_url"].rstrip("/") + "/" + path

    # tables come wrapped in Material's scroll wrapper (hooks/page_load.py), once
    wrapped = page.evaluate(
        """() => [...document.querySelectorAll(".md-content table:not([class])")]
            .map((t) => t.parentElement.matches(".md-typeset__table") &&
                !t.closest(".md-typeset__scrollwrap").parentElement
                    .closest(".md-typeset__scrollwrap"))"""
    )
    assert all(wrapped), wrapped

    scripts = page.evaluate("() => [...document.scripts].map((s) => s.src)")
    assert [src for src in scripts if "katex" in src] == []
    check_math(page)  # in the light scheme

    # Images: every one loads when scrolled to (figures are lazy: a broken image has
    # no natural width) and has alt text.
    images = page.evaluate(
        """async () => {
            const images = [...document.images];
            for (const img of images) {
                img.scrollIntoView();
                await img.decode().catch(() => {});
            }
            window.scrollTo(0, 0);
            return images.map(img => ({
                src: img.currentSrc || img.src,
                ok: img.complete && img.naturalWidth > 0,
                alt: img.getAttribute("alt") }));
        }"""
    )
    assert [i["src"] for i in images if not i["ok"]] == []
    assert [i["src"] for i in images if not (i["alt"] or "").strip()] == []

    # a dark-scheme screenshot too where there are figures, to see them on dark
    shot = kit.ARTIFACTS / page_id(path)
    found = kit.axe_both_schemes(page, screenshot=shot, dark_screenshot=bool(images))
    assert found == {}, f"axe violations: {found}"
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    check_math(page)  # and in the dark one, where axe_both_schemes leaves the page

    # Fonts: the page's own subsets (inline) draw all its math: no KaTeX font is
    # fetched (none is served), no math character is drawn in a system font, and
    # the faces loaded are those of the fonts that have a shape for some
    # character the math draws.
    page.evaluate("() => document.fonts.ready.then(() => true)")
    fetched = {u.split("/katex/")[-1] for u in problems.requests("/katex/")}
    built = (built_site / path / "index.html").read_text(encoding="utf-8")
    assert fetched == ({"katex.min.css"} if "katex.min.css" in built else set())
    assert math_in_system_fonts(page) == []
    subsets = font_subsets()
    drawn = subsets.fonts.characters(built)
    faces = {
        face
        for face, url in subsets.fonts.faces.items()
        if drawn.get(url, set()) & subsets.characters_of(url)
    }
    assert set(map(tuple, page.evaluate(LOADED_KATEX_FACES))) == faces

    # On a page with code: the copy button copies the code, and exactly the text
    # that tests/test_reader.py runs as the reader's copy of that block.
    copied = kit.check_copy_button(page)
    if copied is not None and copied[0] >= 0:
        index, text = copied
        assert text == html_blocks(built, page_id(path) + ".md")[index].code

    page.wait_for_load_state("networkidle")  # long since reached, as a rule
    problems.assert_none()  # offline, private, without errors, start to end


@pytest.mark.parametrize("script", [EXPLORER_SCRIPT, live_model.SCRIPT, trainer.SCRIPT])
def test_a_widget_is_accessible_before_its_script_runs(
    page, problems, built_site, script
):
    """What a reader meets while a page's own script loads, or runs late on a busy
    phone: the widget's markup as built, before the script fills it, is axe-clean
    too. (An ARIA name on an element whose role takes none fails only while the
    element is empty: axe's aria-prohibited-attr.)"""
    loads = re.compile(rf'<script[^>]*\ssrc="[^"]*{re.escape(script)}"')
    (path,) = [
        p
        for p in site_pages(built_site)
        if loads.search((built_site / p / "index.html").read_text(encoding="utf-8"))
    ]
    page.route(
        f"**/{script}", lambda r: r.fulfill(body="", content_type="text/javascript")
    )
    page.goto(path)
    assert problems.requests(script), f"{path}: {script} was never asked for"
    found = kit.run_axe(page)
    assert found == [], f"axe violations before {script} runs: {found}"
    problems.assert_none()
