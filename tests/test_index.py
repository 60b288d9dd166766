"""docs/index.md: the route through the site, the sources, and the nav's labels."""

import re
import tomllib
from functools import cache

import pytest
from mkdocs.config import load_config

from tests.pages import DOCS, ROOT, check_prose_numbers

# The pages of the core argument, each ending with a link onward.
OWNED = ["index.md", "one-head.md", "second-head.md", "try-it.md", "explorer.md"]
NEXT_BUTTON = re.compile(r"\[Next: ([^\]]+?) :material-arrow-right:\]\(([^)]+)\)")


@cache
def nav() -> list[tuple[str, str]]:
    """(label, page) for every page in mkdocs.yml's nav, in reading order."""

    def walk(entries):
        for entry in entries:
            for label, target in entry.items():
                if isinstance(target, list):
                    yield from walk(target)
                else:
                    yield label, target

    return list(walk(load_config(str(ROOT / "mkdocs.yml"))["nav"]))


def h1(page: str) -> str:
    first = (DOCS / page).read_text(encoding="utf-8").split("\n", 1)[0]
    assert first.startswith("# "), f"{page} does not open with its H1"
    return first[2:].strip()


MARKDOWN_PAGES = [(label, page) for label, page in nav() if page.endswith(".md")]


@pytest.mark.parametrize(("label", "page"), MARKDOWN_PAGES)
def test_nav_label_is_the_pages_title(label, page):
    assert label == h1(page)


def test_index_links_every_page_with_its_title():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    links = dict(
        (page, label)
        for label, page in re.findall(r"^- \[([^\]]+)\]\(([\w-]+\.md)\)", text, re.M)
    )
    assert set(links) == {page for _, page in MARKDOWN_PAGES if page != "index.md"}
    for page, label in links.items():
        assert label == h1(page), page


@pytest.mark.parametrize("page", OWNED)
def test_page_ends_with_a_link_to_the_next_page(page):
    order = [p for _, p in nav()]
    following = order[order.index(page) + 1]
    last = (DOCS / page).read_text(encoding="utf-8").rstrip().rsplit("\n", 1)[-1]
    match = NEXT_BUTTON.fullmatch(last.removesuffix("{ .md-button }").strip())
    assert match, f"{page} should end with a Next button, not {last!r}"
    assert match.group(2) == following


def test_sources_section_introduces_the_article_the_book_and_michel():
    text = " ".join((DOCS / "index.md").read_text(encoding="utf-8").split())
    assert "## Where this comes from { #sources }" in text
    article = "*Transformer Attention: Why does Attention need more than one head?*"
    assert "**The article.**" in text and article in text
    assert "Other pages call it *the article*." in text
    assert "**The book.** Sebastian Raschka, *Build a Large Language Model" in text
    assert "(From Scratch)* (Manning, 2024)" in text
    assert "Other pages call it *the book*." in text
    assert "*Are Sixteen Heads Really Better than One?* (NeurIPS 2019)" in text


def test_other_pages_do_call_them_the_article_and_the_book():
    """ "Other pages call it *the article*" (*the book*): some page other than the
    index does, with a link to the sources section."""
    for name in ("article", "book"):
        link = re.compile(rf"\[the {name}\]\(index\.md#sources\)", re.I)
        users = [
            p.name
            for p in DOCS.glob("*.md")
            if p.name != "index.md" and link.search(p.read_text(encoding="utf-8"))
        ]
        assert users, f"no page calls it [the {name}](index.md#sources)"


def pinned(package: str) -> str:
    """The version pyproject.toml pins for `package`."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        groups = tomllib.load(f)["dependency-groups"]
    pins = [p for g in groups.values() for p in g if isinstance(p, str)]
    return next(p.split("==")[1] for p in pins if p.split("==")[0] == package)


def test_prose_numbers():
    check_prose_numbers(
        "index.md",
        computed={
            name: pinned(name) for name in ("torch", "matplotlib", "transformers")
        },
        # GPT-2, chapter 3, 8 heads of width 64, publication years
        definitions={"2", "3", "8", "64", "2017", "2019", "2024", "72"},
    )
