"""Every citation names its section, table or figure, so that a reader can check it.

CITATIONS lists, page by page, the places (section, table, figure, abstract,
chapter) the prose cites in each author's work. Each sentence that names an
author (listed, or any "Name et al." or "Name (2019)") names one of its places,
and each listed place is still cited. Bibliographies ("## References") are not
checked."""

import re

import pytest

from tests.pages import DOCS, nav_pages, prose_lines

# page -> author -> what each sentence that names the author cites of that work,
# in the page's order: a place, or the places one sentence cites together. The one
# home of every citation's place: a section changed on the page fails, naming the
# line, even where the page cites that place again elsewhere. (A page that cites
# no one is not listed; tests/test_index.py checks each is a page.)
CITATIONS = {
    "how-many-heads.md": {
        "Vaswani": ["Table 3", "section 3.2.2"],
        "Young": ["pages 211 to 218", "pages 211 to 218"],  # Eckart and Young
        "Jaggi": ["section 3"],  # Cordonnier, Loukas and Jaggi
        "Hsieh": ["abstract"],  # Li, Chen, He and Hsieh: a lower bound on heads
        "Fan": ["Theorem 1", "Theorem 1"],  # Ky Fan: the largest eigenvalues' sum
    },
    "index.md": {
        "Vaswani": ["section 3.2.1", "section 3.2.2"],
        "Clark": ["sections 3 and 4"],
        "Michel": ["sections 3 and 4"],
        "Neubig": ["sections 3 and 4"],  # Michel, Levy and Neubig
        "Raschka": ["chapter 3"],
    },
    "one-head.md": {
        "Vaswani": ["section 3.2.1", "section 3.2.2", "section 3.5"],
        "Su": ["abstract"],
    },
    "second-head.md": {
        "Clark": [("section 3.1", "sections 4.2 and 4.3, Figure 5")],
        "Vaswani": ["section 3.1"],
        "Radford": ["section 2.3"],  # GPT-2: the norm at each block's input
        "Elhage": [
            'section "Transformer Overview"',
            'section "Attention Heads are Independent and Additive"',
            (
                'section "One-Layer Attention-Only Transformers"',
                'section "Attention Heads as Information Movement"',
            ),
            (
                'section "One-Layer Attention-Only Transformers"',
                'section "Attention Heads as Information Movement"',
            ),
            'section "Attention Heads are Independent and Additive"',
        ],
    },
    "random-heads.md": {
        "Radford": [("section 4.1", "the code released"), "section 2.3", "Table 2"],
    },
    "multi-head-attention.md": {
        "Devlin": ["§3"],
        "Vaswani": ["section 3.2.2"],
    },
    "cost.md": {
        "Vaswani": ["section 3.2.2", "Table 3"],
        "Bhojanapalli": ["abstract"],
        "Michel": ["§3 and §4"],
        "Dao": ["abstract"],
    },
    "grouped-query-attention.md": {
        "Shazeer": ["abstract", "abstract"],
        "Ainslie": ["abstract", "§2.1 and §2.2"],
    },
    "train-it.md": {
        "Nishimura": ["section 2"],  # Matsumoto and Nishimura: the Mersenne Twister
        "Kingma": ["Algorithm 1"],  # Adam
        "Hutter": ["section 3"],  # Loshchilov and Hutter: the cosine schedule
    },
    "training.md": {
        "Radford": [("section 4.1", "section 2.3")],  # GPT, then GPT-2
        "Kingma": ["Algorithm 1"],  # Adam
        "Vaswani": ["§3.2.2"],
        "Elhage": ['section "Attention Heads as Information Movement"'],
    },
    "width-and-depth.md": {
        "Vaswani": ["Table 3, rows (A)"],
        "Bhojanapalli": ["abstract"],
        "Elhage": ['section "Three Kinds of Composition"'],
    },
    "real-text.md": {
        "Vaswani": [
            "Table 3, rows (A)",
            "Table 3, rows (B)",
            ("Table 3, rows (A)", "section 6.2"),
            "Table 3, rows (A)",
        ],
        "Bhojanapalli": ["abstract", "abstract", "abstract"],
        "Karpathy": [
            'chapter "multi-headed self-attention"',
            'chapter "multi-headed self-attention"',
        ],
    },
    "real-model.md": {
        "Clark": [
            "§3",
            "§3.2",
            "§3",
            "§3",
            "§3.2",
        ],  # the list items after §3 cite §3.1
        "Wang": ["abstract"],  # MiniLM
        "Xiao": ["§3.1"],
        "Elhage": ['section "Two-Layer Attention-Only Transformers"'],
        "Olsson": ['section "Key Concepts"'],
        "Wallace": ["abstract and Figure 1"],  # Jain and Wallace
        "Pinter": ["abstract"],  # Wiegreffe and Pinter
    },
    "ablation.md": {
        "Michel": [
            "§3",
            "§2.3",
            "§3.3",
            "§4.1",
            "§4.2",
            "§3.1",
            "§3.2",
            "§3",
            "§4.2",
            "abstract",
        ],
        "Neubig": ["§3"],  # Michel, Levy and Neubig
        "Voita": ["§4 and §6", "§3", "§4 and §5"],
        "Clark": ["§3.2"],  # the no-op reading, tested on [SEP]
    },
}

KNOWN = {author for authors in CITATIONS.values() for author in authors}


def places(cited: list) -> list[str]:
    """An author's places on a page, each once, from CITATIONS' sentences."""
    flat = [p for each in cited for p in ([each] if isinstance(each, str) else each)]
    return list(dict.fromkeys(flat))


_ET_AL = re.compile(r"\b([A-Z][\w’'-]+)\s+et\s+al\.")
_YEAR = re.compile(r"(?<!\()\b([A-Z][a-z][\w’'-]+),?\s+\(?((?:19|20)\d\d)\b")
_NOT_AUTHORS = {"NeurIPS", "ICML", "EMNLP", "BlackboxNLP", "Manning", "GPT", "BERT"}
_LIST_ITEM = re.compile(r"(?<=\n)\s*(?:[-*]|\d+\.)\s")
_SENTENCE_END = re.compile(
    r"(?<!\bal)(?<!e\.g)(?<!i\.e)(?<!\bFig)[.!?](?=\s+[A-Z*(\[“\"])"
)


def sentences(page: str) -> list[tuple[int, str]]:
    """(first line, text) of every sentence of the page's prose, outside its
    bibliography, with line breaks folded."""
    kept, skipping = [], False
    for line in prose_lines(DOCS / page):
        if line.startswith("## "):
            skipping = line.strip() in ("## References", "## Further reading")
        kept.append("" if skipping else line)
    text = "\n".join(kept)
    found = []
    for paragraph in re.finditer(r"(?:[^\n]+\n?)+", text):
        start = paragraph.start()
        # a title in italics (*What Does BERT Look At?*) does not end a sentence
        chunk = re.sub(
            r"\*[^*]+\*",
            lambda m: re.sub(r"[!?]", "\u2024", m[0]),
            paragraph[0].replace("**", "  "),  # bold is not italics
        )
        cut = 0
        ends = [m.end() for m in _SENTENCE_END.finditer(chunk)]
        ends += [m.start() for m in _LIST_ITEM.finditer(chunk)]  # an item starts one
        for end in sorted(set(ends)) + [len(chunk)]:
            piece = chunk[cut:end]
            if piece.strip():
                line = text[: start + cut].count("\n") + 1
                found.append((line, " ".join(piece.split())))
            cut = end
    return found


def authors_in(sentence: str) -> set[str]:
    named = {a for a in KNOWN if re.search(rf"\b{re.escape(a)}\b", sentence)}
    named |= set(_ET_AL.findall(sentence))
    named |= {name for name, _ in _YEAR.findall(sentence)} - _NOT_AUTHORS
    return named


def cites(sentence: str, place: str) -> bool:
    """The sentence names the place: "§3" is not found in "§3.2"."""
    return re.search(re.escape(place) + r"(?![\d]|\.\d)", sentence) is not None


def problems(page: str) -> list[str]:
    listed = CITATIONS.get(page, {})
    found, seen = [], {author: [] for author in listed}  # seen: (line, what it cites)
    for line, sentence in sentences(page):
        for author in sorted(authors_in(sentence)):
            if author not in listed:
                found.append(
                    f"docs/{page}:{line}: {author} is cited but not in CITATIONS "
                    f"(tests/test_citations.py): add {page!r}: {{{author!r}: "
                    '["§3.2"]} there, with the place the sentence cites'
                )
                continue
            cites_here = [p for p in places(listed[author]) if cites(sentence, p)]
            if not cites_here:
                found.append(
                    f"docs/{page}:{line}: {author} cited without its section, table "
                    f"or figure ({' or '.join(places(listed[author]))}): "
                    f"{sentence[:90]}"
                )
                continue
            one = cites_here[0] if len(cites_here) == 1 else tuple(cites_here)
            seen[author].append((line, one))
    for author, cited in listed.items():
        for k, (line, one) in enumerate(seen[author]):
            want = cited[k] if k < len(cited) else "nothing more"
            if one != want:
                found.append(
                    f"docs/{page}:{line}: {author} cited for {one!r}; CITATIONS "
                    f"(tests/test_citations.py) has {want!r} for this sentence, "
                    f"the {k + 1}th that names {author}"
                )
                break
        else:
            if len(seen[author]) < len(cited):
                found.append(
                    f"docs/{page}: CITATIONS lists {author}, "
                    f"{cited[len(seen[author])]!r}: not cited"
                )
    return found


@pytest.mark.parametrize("page", list(nav_pages()))
def test_every_citation_names_its_place(page):
    found = problems(page)
    assert not found, "\n".join(found)


def test_a_citation_without_its_place_is_caught(tmp_path, monkeypatch):
    import tests.test_citations as here

    monkeypatch.setattr(here, "DOCS", tmp_path)
    monkeypatch.setitem(here.CITATIONS, "planted.md", {"Vaswani": ["section 3.2.2"]})
    text = (
        "# Planted\n\nVaswani et al. (2017, section 3.2.2) wrote it. Vaswani et al."
        " (2017) wrote it again. Smith et al. (2020) too.\n"
    )
    (tmp_path / "planted.md").write_text(text, encoding="utf-8")
    found = problems("planted.md")
    assert len(found) == 2
    assert "Vaswani cited without its section" in found[0]
    assert "Smith is cited but not in CITATIONS" in found[1]
    assert """add 'planted.md': {'Smith': ["§3.2"]}""" in found[1]


def test_a_place_changed_where_the_page_cites_it_again_is_caught(tmp_path, monkeypatch):
    """ablation.md cites Michel et al.'s §4.2 twice: changing one of them to
    another place the page cites (§4.1) still fails, naming the line."""
    import tests.test_citations as here

    monkeypatch.setattr(here, "DOCS", tmp_path)
    cited = {"Michel": ["§4.1", "§4.2", "§4.2"]}
    monkeypatch.setitem(here.CITATIONS, "planted.md", cited)
    text = (
        "# Planted\n\nMichel et al. (§4.1) scored heads.\n\nThat order is one "
        "Michel et al. (§4.2) tried.\n\nMichel et al. (§4.2) found it again.\n"
    )
    (tmp_path / "planted.md").write_text(text, encoding="utf-8")
    assert problems("planted.md") == []
    (tmp_path / "planted.md").write_text(text.replace("(§4.2) tried", "(§4.1) tried"))
    (found,) = problems("planted.md")
    assert found.startswith("docs/planted.md:5: Michel cited for '§4.1'")


def test_a_section_is_not_found_inside_a_subsection():
    assert cites("Michel et al. (2019, §3), on heads", "§3")
    assert cites("as they found (§3).", "§3")
    assert not cites("Michel et al. (§3.2) removed one head", "§3")
    assert not cites("Michel et al. (§32)", "§3")
