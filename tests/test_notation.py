"""One notation, one glossary and one marked core path on every page, so that a
reader who moves between pages never meets a name used two ways: the widths are
d_model, d_head and h heads (docs/index.md#notation), in the prose and in the code a
page shows; heads are counted from 1; the glossary defines the terms a reader who
knows only matrix multiplication would meet undefined; the navigation stars the core
path and every "Optional depth" section opens with its box."""

import io
import re
import tokenize

import pytest

from tests.pages import DOCS, prose_lines
from tools.pages import (
    INLINE_CODE,
    config,
    core_path,
    fenced_lines,
    glossary,
    nav_pages,
    read,
)

PAGES = list(nav_pages())

# -- retired names -------------------------------------------------------------------

RETIRED_NAMES = {"d_out", "d_all", "d_in"}  # in code and in the prose
RETIRED_LETTERS = {"d", "e"}  # as names in code and as symbols in formulas
_LETTER = r"(?<![A-Za-z_.\\])({})(?![\w.])"
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
_MATH_WORDS = re.compile(r"\\(?:text|mathrm|operatorname|mathbb|mathbf)\{[^}]*\}")
_COMMAND = re.compile(r"\\[A-Za-z]+")


def prose_matches(page: str, pattern: re.Pattern) -> list[tuple[int, re.Match]]:
    """(line, match) for every match of `pattern` in the page's prose."""
    text = "\n".join(prose_lines(DOCS / page))
    return [(text.count("\n", 0, m.start()) + 1, m) for m in pattern.finditer(text)]


def bare_symbols(formula: str, letters: set[str]) -> list[str]:
    """The letters that stand alone in a formula (d, not d_k, d_\\text{model})."""
    formula = _COMMAND.sub(" ", _MATH_WORDS.sub(" ", formula))
    pattern = re.compile(_LETTER.format("|".join(sorted(letters))))
    return pattern.findall(formula)


def retired_in_prose(page: str) -> list[str]:
    found = []
    for number, line in enumerate(prose_lines(DOCS / page), start=1):
        for name in RETIRED_NAMES:
            if re.search(rf"\b{name}\b", line):
                found.append(f"docs/{page}:{number}: {name}")
    for number, match in prose_matches(page, _MATH):
        formula = match.group(1) or match.group(2)
        for letter in bare_symbols(formula, RETIRED_LETTERS):
            found.append(f"docs/{page}:{number}: {letter} in ${formula.strip()}$")
        if re.search(r"n_\\text\{heads\}", formula):
            found.append(f"docs/{page}:{number}: n_heads for h in ${formula.strip()}$")
    text = (DOCS / page).read_text(encoding="utf-8")
    fenced = fenced_lines(text)
    for number, line in enumerate(text.split("\n"), start=1):
        for code in [] if number - 1 in fenced else INLINE_CODE.findall(line):
            found.extend(
                f"docs/{page}:{number}: {name} in `{code}`"
                for name in retired_in_code(code)
            )
    return found


def retired_in_code(code: str) -> list[str]:
    """Retired names among the names and in the comments of a piece of code."""
    found = []
    names = RETIRED_NAMES | RETIRED_LETTERS
    # in a comment, as in code, 1e-5 is a number: no letter or digit before
    comment_word = re.compile(rf"(?<![\w.\\])({'|'.join(sorted(names))})(?![\w.])")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        tokens = []  # inline code that is not Python: its words are checked below
        found.extend(comment_word.findall(code))
    for token in tokens:
        if token.type == tokenize.NAME and token.string in names:
            found.append(token.string)
        elif token.type == tokenize.COMMENT:
            found.extend(comment_word.findall(token.string))
    return found


@pytest.mark.parametrize("page", PAGES)
def test_the_prose_uses_no_retired_name(page):
    found = retired_in_prose(page)
    assert not found, (
        "retired names (the notation is d_model, d_head and h, docs/index.md#notation):"
        "\n" + "\n".join(found)
    )


@pytest.mark.parametrize("page", PAGES)
def test_the_code_a_page_shows_uses_no_retired_name(page):
    found = [
        f"docs/{page}:{block.start}: {name}"
        for block in read(page).python()
        for name in retired_in_code(block.code)
    ]
    assert not found, "retired names in the code shown:\n" + "\n".join(found)


def test_the_glossary_uses_no_retired_name():
    for term, definition in glossary().items():
        assert not bare_symbols(definition, RETIRED_LETTERS | RETIRED_NAMES), term


@pytest.mark.parametrize(
    "text, found",
    [
        ("the width $d = 768$", ["d"]),
        ("$4 T^2 e$ FLOPs", ["e"]),
        ("$d_\\text{model} \\times d_\\text{head}$, $d_k$, $e_3$", []),
        ("`d_out` and `nn.Linear(d_in, d_head)`", ["d_out", "d_in"]),
        ("$\\mathrm{head}_h$", []),  # not a retired name: the counting rule catches it
    ],
)
def test_the_rules_catch_what_they_should(tmp_path, monkeypatch, text, found):
    """The checks can fail: planted retired names are found, the notation's not."""
    monkeypatch.setattr(f"{__name__}.DOCS", tmp_path)
    (tmp_path / "planted.md").write_text(f"# Planted\n\n{text}\n", encoding="utf-8")
    names = [
        line.rsplit(": ", 1)[1].split()[0] for line in retired_in_prose("planted.md")
    ]
    assert names == found


def test_a_retired_name_in_code_is_found():
    code = "h, e = mha.num_heads, mha.d_head  # (h, e, d_in)\nd = x.shape[-1]\n"
    assert sorted(retired_in_code(code)) == ["d", "d_in", "e", "e"]
    assert retired_in_code("width = h * d_head  # (b, t, d_model); 1e-5\n") == []


# -- heads counted from 1 -------------------------------------------------------

_ZERO_BASED = re.compile(r"\b(?:[Hh]ead|[Ll]ayer)s? 0\b|counted from 0")
# "head $h$", W^{(h)}, head_h: h as the number of a head in general. (The last of
# h heads is head h, as in c_1, ..., c_h: that is h as a count, and allowed.)
_HEAD_INDEX_H = re.compile(r"\bhead \$h\$|\^\{\(h\)\}|\\mathrm\{head\}_h")


def zero_based_heads(page: str) -> list[str]:
    found = []
    for number, line in enumerate(prose_lines(DOCS / page), start=1):
        if _ZERO_BASED.search(line):
            found.append(f"docs/{page}:{number}: {line.strip()[:80]}")
    for number, match in prose_matches(page, _HEAD_INDEX_H):
        found.append(f"docs/{page}:{number}: a head's number written h: {match[0]}")
    return found


@pytest.mark.parametrize("page", PAGES)
def test_heads_are_counted_from_1_and_never_numbered_h(page):
    found = zero_based_heads(page)
    assert not found, (
        "the prose counts heads and layers from 1, and a head's number is i, not h "
        "(docs/index.md#notation):\n" + "\n".join(found)
    )


def test_the_index_states_the_notation():
    text = " ".join((DOCS / "index.md").read_text(encoding="utf-8").split())
    assert "## Notation and terms { #notation }" in text
    for name in ("`d_model`", "`num_heads`", "`d_head`"):
        assert name in text
    assert "**Heads are counted from 1** in the prose" in text
    assert "head 1 is entry `[0]` of a heads axis" in text
    # tokens and positions have their rule too, and the two words are defined,
    # here and where a reader of the core path first meets them
    assert "**Tokens and positions are numbered from 0**, as in the code" in text
    assert "a sequence of *tokens*, words or pieces of words" in text
    assert "a vector of numbers, its *embedding*" in text
    first = " ".join((DOCS / "one-head.md").read_text(encoding="utf-8").split())
    assert "split into six *tokens*, one per word" in first
    assert "a vector of numbers, the token's *embedding*" in first
    assert first.index("*embedding*") < first.index("embedding of")


# -- the glossary ------------------------------------------------------------------

# Terms a page used before any page defined them, and their glossary
# entries. Rank is defined in the prose where it is first used (second-head.md).
UNDEFINED_BEFORE = {
    "LayerNorm": "random-heads.md",
    "SVD": None,
    "singular values": "second-head.md",
    "BLEU": "cost.md",
    "Adam": "training.md",
    "cosine-decaying learning rate": "training.md",
    "mean squared error": "training.md",
    "fused": "try-it.md",
    "flash attention": "checking-against-pytorch.md",
}


@pytest.mark.parametrize("term", UNDEFINED_BEFORE)
def test_the_glossary_defines_each_term_used_before_its_definition(term):
    assert term in glossary(), f"includes/glossary.md does not define {term!r}"
    page = UNDEFINED_BEFORE[term]
    if page:  # where it was found used: it is still used there, now hovered
        words = r"\s+".join(map(re.escape, term.split()))
        assert re.search(rf"\b{words}\b", "\n".join(prose_lines(DOCS / page)))


def test_every_glossary_term_is_used_somewhere():
    prose = "\n".join("\n".join(prose_lines(DOCS / page)) for page in PAGES)
    unused = [t for t in glossary() if not re.search(rf"\b{re.escape(t)}\b", prose)]
    assert not unused, f"includes/glossary.md: terms no page uses: {unused}"


def test_the_glossary_is_appended_to_every_page_and_holds_no_number():
    assert "abbr" in config()["markdown_extensions"]
    snippets = config()["mdx_configs"]["pymdownx.snippets"]
    assert snippets["auto_append"] == ["includes/glossary.md"]
    for term, definition in glossary().items():
        assert not re.search(r"\d", term + definition), f"a number in {term!r}"


def test_the_index_lists_the_glossary():
    """Hover titles need a mouse: the index shows every definition as text."""
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    terms = " ".join(text[text.index("**Terms.**") :].split()).lower()
    for term, definition in glossary().items():
        assert term.lower() in terms, f"the index's Terms list lacks {term!r}"
        assert " ".join(definition.split()).lower() in terms, term


def test_rank_and_the_svd_are_defined_where_they_are_first_used():
    text = " ".join((DOCS / "second-head.md").read_text(encoding="utf-8").split())
    assert "its rank, the number of independent directions its rows span" in text
    assert "The singular value decomposition (SVD) says" in text
    # why u and v are positive: in a box that first says what an eigenvector is
    box = text[text.index('??? info "Why $u$ and $v$ are all-positive"') :]
    assert box.index("An *eigenvector*") < box.index("Perron–Frobenius theorem")


# -- the core path ---------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_an_optional_section_opens_with_its_box(page):
    lines = (DOCS / page).read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        if line.startswith("## Optional depth"):
            following = [x for x in lines[number + 1 :] if x.strip()]
            assert following[0].startswith('!!! tip "Optional'), (
                f"docs/{page}:{number + 1}: an optional section without its box"
            )


# -- in the built site ---------------------------------------------------------------


def page_html(site, page: str) -> str:
    folder = "" if page == "index.md" else page.removesuffix(".md") + "/"
    return (site / folder / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_every_page_links_to_the_notation(built_site, page):
    html = page_html(built_site, page)
    target = "#notation" if page == "index.md" else "../#notation"
    links = re.findall(r'<a href="([^"]+)"\s[^>]*heads-notation-link', html)
    assert [link.removeprefix("./") for link in links] == [target], links


def test_the_navigation_stars_the_core_path(built_site):
    html = page_html(built_site, "cost.md")  # any page: the navigation is the same
    starred = []
    for item in re.split(r'<li class="md-nav__item', html)[1:]:
        link = re.search(r'<a href="\.\./([\w-]+)/"', item)
        if link and "md-status--core" in item:
            starred.append(f"{link[1]}.md")
    assert list(dict.fromkeys(starred)) == core_path()


def test_a_glossary_term_has_its_definition_on_hover(built_site):
    html = page_html(built_site, "cost.md")
    bleu = glossary()["BLEU"].replace("'", "&#x27;")
    assert re.search(rf'<abbr title="{re.escape(bleu)}">BLEU</abbr>', html) or (
        f'<abbr title="{glossary()["BLEU"]}">BLEU</abbr>' in html
    )
