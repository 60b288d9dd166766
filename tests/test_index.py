"""docs/index.md and everything that lists the pages agree with mkdocs.yml's nav,
which is the one list of pages (tools/pages.py): the index's lists, its core
path, the README's runs-with table, the citations' pages, the pages' Next
buttons and nav labels. And the index's own claims: its sources, its notation
box, what it says is computed."""

import re
import tomllib

import pytest

from snippets.how_many_heads.ex02_designs import WIDTH
from snippets.how_many_heads.staircase_results import staircase_results
from snippets.random_heads.ex05_measure import pairs
from snippets.training.ex05_train import STEPS
from snippets.training.ex13_claims import TWO_HEADS_MIN_ACCURACY
from snippets.training.seed_results import seed_results
from tests.pages import check_listed, check_prose_numbers, pages
from tests.test_citations import CITATIONS
from tools.pages import (
    DOCS,
    NUMBER,
    PACKAGES,
    README_TABLE,
    ROOT,
    WEIGHTS,
    core_path,
    nav,
    nav_pages,
    page_with_runs_with,
    readme_table,
    runs_with,
    title,
)

INDEX = (DOCS / "index.md").read_text(encoding="utf-8")
NEXT_BUTTON = re.compile(r"\[Next: [^\]]+? →\]\(([\w-]+\.md)\)")
# The pages of the core argument, each ending with a link onward.
OWNED = ["index.md", "one-head.md", "second-head.md", "try-it.md", "explorer.md"]
# A Next button leads to the page after it in the nav, or past a side trip
# whose own Next button comes back to the same page.
SIDE_TRIPS = {  # explorers beside the path: the Next button skips them
    "real-model.md": "your-sentence.md",
    "how-many-heads.md": "train-it.md",
}
ALL_PAGES = [p.relative_to(DOCS).as_posix() for p in pages()]


# -- the pages, listed -----------------------------------------------------------


@pytest.mark.parametrize("page", ALL_PAGES)
def test_page_is_in_the_nav_and_on_the_index(page):
    check_listed(page)


@pytest.mark.parametrize("page", nav_pages())
def test_nav_label_is_the_pages_title(page):
    (entry,) = [e for e in nav() if e.page == page]
    assert entry.label == title(page), f"mkdocs.yml: label {page} {title(page)!r}"


def index_lists() -> dict[str, list[tuple[str, str]]]:
    """Each list of the index by the bold words above it: the (text, page) of
    the first link of each item."""
    lists = {}
    for head, body in re.findall(
        r"^\*\*([^*]+?)\.\*\*(.*?)(?=^\*\*|^#)", INDEX, re.M | re.S
    ):
        item = r"^(?:- |\d\. ).*?\[([^\]]+)\]\(([\w-]+\.md)(?:#[^)]*)?\)"
        lists[head] = re.findall(item, body, re.M)
    return lists


def test_the_index_lists_each_section_of_the_nav_in_order_by_title():
    lists = index_lists()
    for section in dict.fromkeys(entry.section for entry in nav() if entry.section):
        pages = [(title(e.page), e.page) for e in nav() if e.section == section]
        assert lists.get(section) == pages, (
            f"docs/index.md: under **{section}.**, list {pages}: the nav's pages "
            "in its order, each linked by its title"
        )


def test_the_core_path_is_the_index_list_in_nav_order():
    listed = [page for _, page in index_lists()["The core path"]]
    assert listed == core_path(), "mkdocs.yml's extra.core_path: the index's list"
    assert listed == [p for p in nav_pages() if p in listed]  # in reading order


def test_each_next_button_leads_to_the_next_page():
    order = nav_pages()
    for page, following in zip(order, order[1:], strict=False):
        last = (DOCS / page).read_text(encoding="utf-8").rstrip().rsplit("\n", 1)[-1]
        button = NEXT_BUTTON.fullmatch(last.removesuffix("{ .md-button }").strip())
        assert button or page not in OWNED, f"docs/{page} should end with a Next button"
        if SIDE_TRIPS.get(page) == following:
            following = order[order.index(following) + 1]
        assert not button or button[1] == following, (
            f"docs/{page}: its Next button leads to {button[1]}, the next page is "
            f"{following}"
        )


@pytest.mark.parametrize("page", ALL_PAGES)
def test_each_page_says_what_it_runs_with(page):
    needed = runs_with(page)
    if not needed:
        return  # a page without Python code (the index)
    paragraphs = [
        p for p in (DOCS / page).read_text(encoding="utf-8").split("\n\n") if p.strip()
    ]
    line = " ".join(paragraphs[1].split())  # the paragraph under the title
    assert line.startswith("*Runs with ") and line.endswith("*"), (
        f"docs/{page}: the paragraph under the title should be '*Runs with ...*'"
    )
    named = [name for name in [*PACKAGES.values(), WEIGHTS] if name in line]
    assert named == needed, (
        f"docs/{page}: runs with {named}, but needs {needed}: `make page "
        f"PAGE={page.removesuffix('.md')} UPDATE=1` rewrites the line under its title"
    )
    notebook = page.removesuffix(".md") + ".ipynb"
    assert f"](notebooks/{notebook})" in line, f"docs/{page}: link its notebook"


def test_the_readme_says_what_each_page_runs_with():
    start, end = README_TABLE
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.split(start, 1)[1].split(end, 1)[0] == readme_table(), (
        "README.md's runs-with table is out of date: `make page PAGE=... UPDATE=1` "
        "rewrites it; it should read:\n" + readme_table()
    )


def test_the_citations_list_only_pages_of_the_nav():
    assert set(CITATIONS) <= set(nav_pages()), "tests/test_citations.py: CITATIONS"


# -- the index's own claims ------------------------------------------------------


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
    """Typed-in facts from papers and configurations, and the benchmark's
    timings, are not computed: the index says which numbers are."""
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


def notation_rows() -> dict[str, tuple[int, ...]]:
    """The notation box's sizes (toy, GPT-2 small), read from the modules the pages
    build, by the words that end each row's meaning column."""
    from snippets.attention_inputs import inputs
    from snippets.multi_head_attention.ex05_run_module import mha
    from snippets.multi_head_attention.ex06_gpt2_small import gpt2_attn

    return {
        "per token": (inputs.shape[1], gpt2_attn.W_o.weight.shape[0]),  # d_model
        "one layer": (mha.num_heads, gpt2_attn.num_heads),  # h
        "/h$": (mha.d_head, gpt2_attn.d_head),  # d_head
        "$W_o$": (mha.W_q.weight.shape[0], gpt2_attn.W_q.weight.shape[0]),
        "in a sequence": (inputs.shape[0],),  # T, the toy's only
    }


def test_the_notation_box_shows_the_modules_sizes():
    rows = [line for line in INDEX.split("\n") if line.startswith("| $")]
    cells = [[c.strip() for c in row.strip("|").split("|")][2:] for row in rows]
    sizes = [[str(n) for n in row] for row in notation_rows().values()]
    assert cells == [row + [""] * (2 - len(row)) for row in sizes]  # T: GPT-2's blank


def staircase_found(cells: dict, k: int, h: int) -> tuple[int, int]:
    """In how many seeds a (k, h) cell of make staircase learned all k lookups."""
    lookups = [cells[k, h][f"lookup {i + 1}"] for i in range(k)]
    worst = [min(seed) for seed in zip(*lookups, strict=True)]
    return sum(a >= TWO_HEADS_MIN_ACCURACY for a in worst), len(worst)


def test_prose_numbers():
    computed = {name: pinned(name) for name in ("torch", "matplotlib", "transformers")}
    for words, sizes in notation_rows().items():  # each row, tied to its words
        computed[f"{words} row"] = f"{words} | " + " | ".join(map(str, sizes)) + " |"
    computed["fresh seeds"] = f"{len(seed_results['runs'])} fresh seeds (which"
    computed["random pairs on the toy"] = f"over {pairs:,} random"
    cells = staircase_results["cells"]
    diagonal = [staircase_found(cells, k, k) for k in range(1, 5)]
    fewer = [staircase_found(cells, k, h) for k, h in cells if h < k]
    spare = [staircase_found(cells, k, h) for k, h in cells if h > k]
    assert all(f == n for f, n in spare)  # spare heads: "enough"
    found_few = [(k, h) for k, h in cells if h < k and staircase_found(cells, k, h)[0]]
    assert len(found_few) == 1  # "all in one cell"
    exception = staircase_found(cells, 4, 3)
    assert found_few == [(4, 3)]  # "the one cell where two lookups can share a head"
    assert sum(f for f, _ in fewer) == exception[0]  # "in no seed but"
    from hooks.trainer import lookups_data

    live = lookups_data()  # the live trainer's PyTorch runs of the cells
    live_n = live["seeds"][1] - live["seeds"][0]
    computed["staircase"] = (
        f"in {min(f for f, _ in diagonal)} or more of "
        f"{min(n for _, n in diagonal)} runs from fresh seeds; with fewer, in none "
        "but {} of\n{} in one cell ({} of {} in other runs of it), though one "
        "head often carried two lookups by\nposition".format(
            *exception, live["pytorch"]["4,3"], live_n
        )
    )
    computed["the staircase's scope"] = f"(width {WIDTH}, {STEPS} training steps)"
    computed["staircase's exception"] = "but for {} of {} with four".format(*exception)
    # the numbers in the pages' titles, which the index links by title (each
    # page registers its own)
    titles = {n for page in nav_pages() for n in NUMBER.findall(title(page))}
    check_prose_numbers(
        "index.md",
        computed=computed,
        # GPT-2, chapter 3, 8 heads of width 64, publication years; the core
        # path's six steps; heads counted from 1, code from 0; the hand-set
        # head's widths 1 and 2; Vaswani et al. 2017, sections 3.2.1 and 3.2.2;
        # AVX-512, the instructions of the CPU the site was checked on
        definitions=titles
        | {"0", "1", "2", "3", "4", "5", "6", "7", "8", "64", "512"}
        | {"2017", "2019", "2024", "3.2.1", "3.2.2"},
    )


def test_update_names_what_a_page_runs_with_under_its_title():
    """`make page UPDATE=1` (scripts/check_page.py): a plain line is rewritten, one
    with words of its own (the weights package's install note) is left as it is."""
    text = (DOCS / "second-head.md").read_text(encoding="utf-8")
    stale = text.replace("*Runs with PyTorch and matplotlib:", "*Runs with PyTorch:")
    assert stale != text and page_with_runs_with("second-head.md", stale) == text
    ablation = (DOCS / "ablation.md").read_text(encoding="utf-8")
    assert page_with_runs_with("ablation.md", ablation.replace(", matplotlib", "")) == (
        ablation.replace(", matplotlib", "")
    )
