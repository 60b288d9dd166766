"""docs/index.md: the route through the site, the sources, and the nav's labels."""

import re
import tomllib
from functools import cache

import pytest
from mkdocs.config import load_config

from snippets.training.seed_results import seed_results
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


def test_the_index_claims_code_only_for_computed_numbers():
    """Review 3, M6: typed-in facts from papers and configurations, and the
    benchmark's timings, are not computed; the index says which numbers are."""
    text = " ".join((DOCS / "index.md").read_text(encoding="utf-8").split())
    assert "every number, table and claim" not in text
    assert "every computed number, table and figure" in text
    assert "Facts from papers and published model configurations are typed in" in text
    assert "Timings were measured once, on one machine" in text


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


def notation_table() -> dict[str, str]:
    """The notation box's sizes, read from the modules the pages build."""
    from snippets.attention_inputs import inputs
    from snippets.multi_head_attention.ex05_run_module import mha
    from snippets.multi_head_attention.ex06_gpt2_small import gpt2_attn

    return {
        "toy d_model": str(inputs.shape[1]),
        "toy h": str(mha.num_heads),
        "toy d_head": str(mha.d_head),
        "toy h * d_head": str(mha.W_q.weight.shape[0]),
        "toy T": str(inputs.shape[0]),
        "GPT-2 d_model": str(gpt2_attn.W_o.weight.shape[0]),
        "GPT-2 h": str(gpt2_attn.num_heads),
        "GPT-2 d_head": str(gpt2_attn.d_head),
        "GPT-2 h * d_head": str(gpt2_attn.W_q.weight.shape[0]),
    }


def notation_rows() -> dict[str, str]:
    """check_prose_numbers' registration of the box: each row's sizes, tied to
    the words of its row (test_the_notation_box_shows_the_modules_sizes checks
    each cell)."""
    n = notation_table()
    return {
        "d_model row": f"per token | {n['toy d_model']} | {n['GPT-2 d_model']} |",
        "h row": f"one layer | {n['toy h']} | {n['GPT-2 h']} |",
        "d_head row": f"/h$ | {n['toy d_head']} | {n['GPT-2 d_head']} |",
        "h * d_head row": f"$W_o$ | {n['toy h * d_head']} | {n['GPT-2 h * d_head']} |",
        "T row": f"in a sequence | {n['toy T']} |",
    }


def test_the_notation_box_shows_the_modules_sizes():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    sizes = notation_table()
    rows = [line for line in text.split("\n") if line.startswith("| $")]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    assert [c[2:] for c in cells] == [
        [sizes["toy d_model"], sizes["GPT-2 d_model"]],
        [sizes["toy h"], sizes["GPT-2 h"]],
        [sizes["toy d_head"], sizes["GPT-2 d_head"]],
        [sizes["toy h * d_head"], sizes["GPT-2 h * d_head"]],
        [sizes["toy T"], ""],
    ]


def test_prose_numbers():
    computed = {name: pinned(name) for name in ("torch", "matplotlib", "transformers")}
    computed.update(notation_rows())
    computed["fresh seeds"] = f"{len(seed_results['runs']['seeds'])} seeds that nobody"
    check_prose_numbers(
        "index.md",
        computed=computed,
        # GPT-2, chapter 3, 8 heads of width 64, publication years; the core path's
        # six steps; heads counted from 1, code from 0; the hand-set head's widths
        # 1 and 2; Vaswani et al. 2017, sections 3.2.1 and 3.2.2
        definitions={
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "8",
            "64",
            "2017",
            "2019",
            "2024",
            "72",
        }
        | {"3.2.1", "3.2.2"},
    )
