"""Every page of the built site, in Chromium: it loads cleanly, offline and
privately, its math and images render, axe finds nothing in either scheme (switched
with the palette toggle), and its copy button copies the code."""

from __future__ import annotations

import pytest

from tests.browser.browser_kit import (
    ARTIFACTS,
    axe_both_schemes,
    check_copy_button,
    page_id,
    site_pages,
    site_url,
)
from tests.test_reader import html_blocks


@pytest.mark.parametrize("path", site_pages(), ids=page_id)
def test_page(page, problems, path, site_root):
    page.goto(path)  # "load"; requests after it are caught by the final check
    assert page.locator("h1").count() >= 1
    canonical = page.locator("link[rel='canonical']").get_attribute("href")
    assert canonical == site_url() + path

    # Math: every arithmatex span or div was typeset by KaTeX, with no error.
    maths = page.locator(".arithmatex")
    assert page.locator(".arithmatex .katex").count() >= maths.count()
    assert page.locator(".arithmatex:not(:has(.katex))").count() == 0
    assert page.locator(".katex-error").count() == 0

    # Images: every one loaded (a broken image has no natural width) and has alt text.
    images = page.evaluate(
        """() => [...document.images].map(img => ({
            src: img.currentSrc || img.src, ok: img.complete && img.naturalWidth > 0,
            alt: img.getAttribute("alt") }))"""
    )
    assert [i["src"] for i in images if not i["ok"]] == []
    assert [i["src"] for i in images if not (i["alt"] or "").strip()] == []

    # a dark-scheme screenshot too where there are figures, to see them on dark
    shot = ARTIFACTS / page_id(path)
    found = axe_both_schemes(page, screenshot=shot, dark_screenshot=bool(images))
    assert found == {}, f"axe violations: {found}"

    # On a page with code: the copy button copies the code, and exactly the text
    # that tests/test_reader.py runs as the reader's copy of that block.
    copied = check_copy_button(page)
    if copied is not None and copied[0] >= 0:
        index, text = copied
        source = "index.md" if not path else path.strip("/") + ".md"
        html = (site_root / path / "index.html").read_text(encoding="utf-8")
        assert text == html_blocks(html, source)[index].code

    page.wait_for_load_state("networkidle")  # long since reached, as a rule
    problems.assert_none()  # offline, private, without errors, start to end
