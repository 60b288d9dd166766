"""Read the site's pages the way the site shows them.

A page's Markdown is expanded with pymdownx.snippets' own preprocessor, configured
from mkdocs.yml, so the tests see exactly the code a reader sees. Code blocks are then
extracted with pytest-codeblocks' extractor, and every line of the expanded text is
mapped back to the line of the page it came from, so failures name the page's line.
"""

from __future__ import annotations

import bisect
import importlib
import inspect
import io
import re
import shutil
import types
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown
from mkdocs.config import load_config
from pytest_codeblocks import CodeBlock, extract_from_buffer

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"


class lazy:  # used like a module
    """The module `name`, imported when one of its names is first used, not now.

    A snippet module computes when imported (it is a page's script). A test file
    that imports snippets this way costs nothing to collect: under pytest-xdist
    every worker collects every file, and only the worker that runs it pays.
    (Not importlib's LazyLoader: collecting looks at every name in a test file,
    which would import it then, and an error there leaves a half-run module.)"""

    __test__ = False  # pytest: no tests in here

    def __init__(self, name: str):
        self.lazy_name = name  # names no snippet module uses

    def lazy_module(self) -> types.ModuleType:
        return importlib.import_module(self.lazy_name)

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):  # pytest's questions while collecting
            raise AttributeError(attribute)
        return getattr(self.lazy_module(), attribute)


def import_lazy(namespace: dict) -> None:
    """Import every lazy module in `namespace` (a test file's globals), in order.

    tests/conftest.py calls it before each test file's first test."""
    for value in list(namespace.values()):
        if isinstance(value, lazy):
            value.lazy_module()


PYTHON = {"python", "py"}
SHELL = {"bash", "sh", "shell", "console"}
OUTPUT = {"text"}
EXPECTED_OUTPUT_MARKER = "<!--pytest-codeblocks:expected-output-->"


@cache
def snippet_preprocessor():
    """pymdownx.snippets' preprocessor with the options mkdocs.yml gives it."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    options = {}
    for entry in config["markdown_extensions"]:
        if entry == "pymdownx.snippets":
            options = config["mdx_configs"].get(entry, {})
    assert options.get("check_paths"), "mkdocs.yml must set check_paths: true"
    # Pages are expanded one include line at a time (`expand`), and auto_append
    # would append the glossary after every include, inside the code blocks. The
    # glossary holds only abbreviations, read by `glossary()`.
    options = {k: v for k, v in options.items() if k != "auto_append"}
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": options},
    )
    return md.preprocessors["snippet"]


_ABBREVIATION = re.compile(r"^\*\[(?P<term>[^\]]+)\]:\s*(?P<definition>.+)$")


@cache
def glossary() -> dict[str, str]:
    """term -> definition, from the files mkdocs.yml appends to every page
    (pymdownx.snippets' auto_append): the abbreviations the `abbr` extension
    turns into hover definitions."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    files = config["mdx_configs"].get("pymdownx.snippets", {}).get("auto_append", [])
    terms = {}
    for name in files:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            match = _ABBREVIATION.match(line)
            assert match or not line.strip(), f"{name}: not an abbreviation: {line}"
            if match:
                terms[match["term"]] = match["definition"]
    return terms


@dataclass
class ExpandedPage:
    path: Path
    source: list[str]  # the page as written
    lines: list[str]  # after snippet expansion
    origin: list[int]  # origin[i] = 1-based page line of expanded line i + 1

    @property
    def name(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    def page_line(self, expanded_lineno: int) -> int:
        return self.origin[expanded_lineno - 1]


def expand(path: Path) -> ExpandedPage:
    """Expand `--8<--` includes line by line, remembering where each line came from.

    Raises pymdownx's SnippetMissingError (naming the file or section) when an include
    cannot be resolved, as `mkdocs build --strict` does.
    """
    preprocessor = snippet_preprocessor()
    source = path.read_text(encoding="utf-8").split("\n")
    lines, origin = [], []
    for number, line in enumerate(source, start=1):
        expanded = preprocessor.run([line]) if "--8<--" in line else [line]
        lines.extend(expanded)
        origin.extend([number] * len(expanded))
    return ExpandedPage(path, source, lines, origin)


def language(block: CodeBlock) -> str:
    """`python title="x.py" hl_lines="2"` -> `python`."""
    words = (block.syntax or "").strip().lstrip("{").split()
    return words[0].lstrip(".").lower() if words else ""


def code_blocks(page: ExpandedPage) -> list[CodeBlock]:
    return extract_from_buffer(io.StringIO("\n".join(page.lines) + "\n"))


SITE_SOURCES = ["mkdocs.yml", "docs", "snippets", "includes", "overrides", "hooks"]


def copy_sources(root: Path, names: list[str] = SITE_SOURCES) -> Path:
    """A copy of what `mkdocs build` reads (or of `names`), to plant faults in.

    The saved training runs and figures (.cache/, keyed on the code, which the copy
    shares) are linked, not copied: a copy's build does not train or draw again.
    So is node_modules (hooks/live_model.py serves files from it).
    """
    root.mkdir(parents=True, exist_ok=True)
    for name in names:
        source = ROOT / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", ".ruff_cache")
            shutil.copytree(source, root / name, ignore=ignore)
        elif source.exists():
            shutil.copy(source, root / name)
    (ROOT / ".cache").mkdir(exist_ok=True)
    (root / ".cache").symlink_to(ROOT / ".cache")
    if (ROOT / "node_modules").is_dir():  # the runtime the live explorer serves
        (root / "node_modules").symlink_to(ROOT / "node_modules")
    return root


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


# -- where a failure points ---------------------------------------------------------

_CODE_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def output_block_lines(page: ExpandedPage, code_line: int) -> tuple[int, int] | None:
    """The page lines of the output block shown after the code block whose opening
    fence is on `code_line`: (its first line of text, its closing fence), 1-based;
    None if the code block has no output block."""
    lines = page.source
    fence = _CODE_FENCE.match(lines[code_line - 1]).group(1)
    end = next(
        i for i in range(code_line, len(lines)) if lines[i].lstrip().startswith(fence)
    )
    after = end + 1
    while after < len(lines) and not lines[after].strip():
        after += 1
    if after == len(lines) or lines[after].strip() != EXPECTED_OUTPUT_MARKER:
        return None
    opening = after + 1
    while not lines[opening].strip():
        opening += 1
    fence = _CODE_FENCE.match(lines[opening]).group(1)
    close = next(
        i for i in range(opening + 1, len(lines)) if lines[i].lstrip().startswith(fence)
    )
    return opening + 2, close + 1


@cache
def nav_pages() -> tuple[str, ...]:
    """The pages in mkdocs.yml's nav, in reading order, as paths under docs/."""

    def walk(entries):
        for entry in entries:
            target = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(target, list):
                yield from walk(target)
            elif isinstance(target, str) and target.endswith(".md"):
                yield target

    return tuple(walk(load_config(str(ROOT / "mkdocs.yml"))["nav"]))


def index_links() -> set[str]:
    """The pages docs/index.md links to (relative links to a .md file)."""
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    return set(re.findall(r"\]\(([^)\s#]+\.md)(?:#[^)]*)?\)", text))


def title(page: str) -> str:
    """The page's H1 (its first line, `# Title`)."""
    first = (DOCS / page).read_text(encoding="utf-8").split("\n", 1)[0]
    return first.removeprefix("# ").strip()


def check_listed(page: str) -> None:
    """A page is in the nav (mkdocs.yml) and, unless it is the index, linked from
    docs/index.md, which lists every page. A failure says what to add where."""
    __tracebackhide__ = True
    assert page in nav_pages(), (
        f"docs/{page} is not in the site's navigation. Edit mkdocs.yml: add "
        f"`- {title(page)}: {page}` to `nav:`, where it falls in reading order."
    )
    if page != "index.md":
        assert page in index_links(), (
            f"docs/{page} is not linked from the index, which lists every page. "
            f"Edit docs/index.md: add `- [{title(page)}]({page}): what it shows.` "
            "to its list, in the nav's order."
        )


# -- prose numbers ------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_STRIP = [
    re.compile(r"<!--.*?-->", re.S),  # HTML comments (test markers)
    re.compile(r"`[^`\n]*`"),  # inline code
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"\[\^[^\]]*\]"),  # footnote references
    re.compile(r"\{[#.][^}]*\}"),  # attribute lists
    re.compile(r"<[^>]+>"),  # HTML tags and their attributes
    re.compile(r"https?://\S+"),  # bare addresses
]
# A section sign's number (§3.2) is a place, which tests/test_citations.py checks.
_NUMBER = re.compile(r"(?<![\w.])(?<!§)\d+(?:[.,]\d+)*%?(?![\w])")


def prose_lines(path: Path, text: str | None = None) -> list[str]:
    """The page's lines, with code blocks, inline code, comments, link targets and
    HTML removed (blanked, so line i of the result is line i + 1 of the page).
    Everything else is prose: headings, lists, tables, admonitions, and math.
    `text`: check this instead of what the file holds (a planted fault)."""
    kept, fence = [], None
    page = path.read_text(encoding="utf-8") if text is None else text
    for line in page.split("\n"):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            kept.append("")
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            kept.append("")
        else:
            kept.append(line)
    text = "\n".join(kept)
    for pattern in _STRIP:  # a match across lines keeps its line breaks
        text = pattern.sub(lambda m: " " + "\n" * m.group().count("\n"), text)
    return text.split("\n")


def prose(path: Path) -> str:
    """The page's text without code blocks, inline code, comments and link targets."""
    return "\n".join(prose_lines(path))


def prose_numbers(path: Path) -> set[str]:
    return set(_NUMBER.findall(prose(path)))


def prose_number_lines(path: Path) -> dict[str, list[int]]:
    """Each number in the prose -> the page lines it is on (1-based)."""
    found: dict[str, list[int]] = {}
    for number, line in enumerate(prose_lines(path), start=1):
        for match in _NUMBER.findall(line):
            if number not in found.setdefault(match, []):
                found[match].append(number)
    return found


_ANY_NUMBER = _NUMBER.pattern.removeprefix(r"(?<![\w.])").removesuffix(r"(?![\w])")


def _words_pattern(
    phrase: str, numbers: str | None = None, blanks: bool = False
) -> re.Pattern:
    """`phrase` as the prose may write it: a space in it is any run of spaces and
    line breaks, and it neither starts nor ends inside a word or a number.
    `numbers`: what each of its numbers may be instead (a near miss), if not itself.
    `blanks`: "{}" in the phrase is a number, captured."""
    parts, at = [], 0
    blank = r"|\{\}" if blanks else ""
    for match in re.finditer(_NUMBER.pattern + blank, phrase):
        parts.append(re.escape(phrase[at : match.start()]))
        if match.group() == "{}":
            parts.append(f"({_ANY_NUMBER})")
        else:
            parts.append(numbers or re.escape(match.group()))
        at = match.end()
    parts.append(re.escape(phrase[at:]))
    body = re.sub(r"(\\\s|\s)+", r"\\s+", "".join(parts))
    edge = r"\w" + blank  # a phrase that starts or ends with a word or a number
    before = r"(?<![\w.])" if re.match(edge, phrase) else ""
    after = r"(?!\w)" if re.search(f"(?:{edge})$", phrase) else ""
    return re.compile(before + body + after)


@dataclass
class _Prose:
    """A page's prose as one text: its numbers, and the page line of an offset."""

    page: str
    source: list[str]  # the page as written
    text: str  # its prose, lines joined

    def __post_init__(self):
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.numbers = list(_NUMBER.finditer(self.text))

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def words(self, offset: int) -> str:
        """The number at `offset` with the words either side of it."""
        before = self.text[:offset].split()[-1:]
        after = self.text[offset:].split()[:2]
        return " ".join(before + after).rstrip(".,;:")

    def at(self, offset: int, what: str) -> str:
        """`  docs/page.md:12: 'what' in: the line as written`"""
        line = self.line(offset)
        return (
            f"  docs/{self.page}:{line}: {what!r} in: "
            f"{self.source[line - 1].strip()[:90]}"
        )


def _entries(computed: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """(label, value) once per occurrence a computed value accounts for, and the
    problems with values that are not strings."""
    entries, problems = [], []
    for label, value in computed.items():
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, (list, tuple)) or not all(
            isinstance(v, str) for v in values
        ):
            problems.append(
                f"computed[{label!r}] is {value!r}: give the string the code "
                'formats (f"{x:.2f}"), or a list of them, one per occurrence.'
            )
            continue
        entries.extend((label, v) for v in values)
    return entries, problems


def _one_digit_apart(a: str, b: str) -> bool:
    """ "0.16" and "0.15": the same but for one digit (a planted or a slipped one)."""
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(differ) == 1 and differ[0][0].isdigit() and differ[0][1].isdigit()


def _labels(labels: list[str]) -> str:
    return ", ".join(repr(label) for label in labels)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _in_prose(n: int) -> str:
    return "is not in the prose" if n == 0 else f"is in the prose {_times(n)}"


def prose_number_problems(
    page: str,
    computed: dict[str, str | list[str]],
    definitions: set[str],
    text: str | None = None,
    where: str = "the page's test file",
) -> list[str]:
    """What check_prose_numbers reports for docs/`page` (or for `text` in its
    place): one paragraph per problem, naming its lines; [] if none."""
    path = DOCS / page
    source = path.read_text(encoding="utf-8") if text is None else text
    prose = _Prose(page, source.split("\n"), "\n".join(prose_lines(path, source)))
    entries, problems = _entries(computed)
    definitions = set(definitions)
    bare: dict[str, list[str]] = {}  # number -> the labels giving it
    phrases: dict[str, list[str]] = {}  # a number with its words -> labels
    for label, value in entries:
        if _NUMBER.fullmatch(value):
            bare.setdefault(value, []).append(label)
        elif _NUMBER.search(value):
            phrases.setdefault(value, []).append(label)
        else:
            problems.append(
                f"computed[{label!r}] is {value!r}, which has no number in it: "
                "give the number as the code formats it, alone or with a few "
                "words of its sentence."
            )

    # A phrase accounts for the numbers inside it, at each place it is found.
    spans = []
    for phrase, labels in phrases.items():
        found = list(_words_pattern(phrase).finditer(prose.text))
        spans += [m.span() for m in found]
        if len(found) < len(labels):
            near = []  # the phrase with other numbers: at the first that differs
            numbers = _NUMBER.findall(phrase)
            for m in _words_pattern(phrase, f"({_ANY_NUMBER})").finditer(prose.text):
                differ = [i for i, n in enumerate(m.groups()) if n != numbers[i]]
                if differ:
                    near.append(
                        f"  docs/{page}:{prose.line(m.start(differ[0] + 1))}: the "
                        f"prose says {' '.join(m.group().split())!r}"
                    )
            problems.append(
                f"{phrase!r} (computed {_labels(labels)}) {_in_prose(len(found))}"
                f", computed= has it {_times(len(labels))}:\n"
                + "".join(f"{n}\n" for n in near)
                + "  The prose must say each result as the code formats it: "
                "correct the page; or, if the words around the number changed, "
                f"the phrase in {where}."
            )
        elif len(found) > len(labels):
            problems.append(
                f"{phrase!r} (computed {_labels(labels)}) {_in_prose(len(found))}"
                f", computed= has it {_times(len(labels))}:\n"
                + "".join(f"{prose.at(m.start(), phrase)}\n" for m in found)
                + "  Lengthen the phrase so that it names one place, or give "
                "each occurrence its own entry."
            )
    unclaimed: dict[str, list[int]] = {}  # number -> its offsets outside phrases
    for match in prose.numbers:
        if not any(a <= match.start() and match.end() <= b for a, b in spans):
            unclaimed.setdefault(match.group(), []).append(match.start())

    def one_digit_from(number: str, most: int = 30) -> list[str]:
        """Where the prose has a number one digit from `number`: where it may
        have been changed. Only a count, if more than `most`."""
        near = [
            f"  one digit from {number!r}: docs/{page}:{prose.line(at)}: {other!r}"
            for other, offsets in unclaimed.items()
            if _one_digit_apart(other, number)
            for at in offsets
        ]
        if len(near) > most:
            return [f"  ({len(near)} numbers in the prose are one digit from it)"]
        return near

    for number, labels in bare.items():
        offsets = unclaimed.get(number, [])
        if number in definitions:
            problems.append(
                f"{number!r} is computed ({_labels(labels)}) and also in "
                "definitions=, which accept it any number of times: a changed "
                "occurrence of the result would go unnoticed.\n"
                "  Tie the result to its words, computed={"
                f'{labels[0]!r}: f"... {number} ..."}} with a few words of its '
                "sentence as the page writes them, and keep "
                f"{number!r} in definitions= for its other occurrences."
            )
        elif len(offsets) < len(labels):
            problems.append(
                f"{number!r} is in computed= {_times(len(labels))} "
                f"({_labels(labels)}) but {_in_prose(len(offsets))}:\n"
                + "".join(f"{prose.at(at, number)}\n" for at in offsets)
                + "".join(f"{line}\n" for line in one_digit_from(number))
                + "  The prose must say each result as the code formats it: "
                "correct the occurrence that changed, or remove the entry whose "
                "sentence is gone."
            )
        elif len(offsets) > len(labels):
            problems.append(
                f"{number!r} is in the prose {_times(len(offsets))}, in computed= "
                f"{_times(len(labels))} ({_labels(labels)}); each occurrence "
                "needs its own entry:\n"
                + "".join(f"{prose.at(at, number)}\n" for at in offsets)
                + "  If one was changed by hand, correct it. If each restates a "
                "result, give each its own label (or a list, {label: [s, s]}), or "
                "tie each to a few words of its sentence, as the page writes "
                f"them (e.g. {{label: {prose.words(offsets[0])!r}}})."
            )
    for number, offsets in sorted(unclaimed.items()):
        if number not in bare and number not in definitions:
            problems.append(
                f"{number!r} is in the prose, but no test computes it and it is "
                "not a definition:\n"
                + "".join(f"{prose.at(at, number)}\n" for at in offsets)
                + "  A result: add {label: the string the code produces} to "
                "computed=. An input or a fact (a width, a seed, a year, a number "
                "from a paper): add it to definitions=."
            )
    for number in sorted(definitions - set(unclaimed) - set(bare)):
        problems.append(
            f"{number!r} is in definitions= but not in the prose (outside the "
            "phrases of computed=):\n"
            + "".join(f"{line}\n" for line in one_digit_from(number, most=5))
            + "  If it was changed by hand, correct it; else remove it from "
            "definitions=."
        )
    return problems


def check_prose_numbers(
    page: str,
    computed: dict[str, str | list[str]],
    definitions: set[str] = frozenset(),
    text: str | None = None,
):
    """Every occurrence of a number in a page's prose is accounted for: by its own
    entry in `computed`, or as a definition.

    `computed` maps a label to the string the code produces ("60%"), or to a list
    of them, one per occurrence. A value that is a number alone accounts for one
    occurrence of it anywhere in the prose, and the prose must have it exactly as
    often as `computed` gives it; a value with words ("by 0.15 bits") must be
    found in the prose exactly that often, and accounts for the numbers in it
    there. `definitions` are numbers that are inputs or facts, not results (a
    seed, a width, a year), allowed any number of times; each must be in the
    prose, and none may also be a bare computed value (tie that one to its
    words). Any other number fails the test. Prose is all of the page but its
    code blocks, inline code, HTML comments, link targets and tags: math counts
    (`$d_k = 128$` needs "128"). A failure names each number's lines and says
    what to do. `text`: check it in place of the page's file (a planted fault).
    """
    __tracebackhide__ = True  # pytest shows the message, not this function
    caller = next(
        Path(frame.filename)
        for frame in inspect.stack()[1:]
        if Path(frame.filename) != Path(__file__)
    )
    where = (
        caller.relative_to(ROOT).as_posix()
        if ROOT in caller.parents
        else "the page's test file"
    )
    problems = prose_number_problems(page, computed, definitions, text, where)
    assert not problems, (
        f"docs/{page}: the numbers in its prose do not match what {where} "
        "registers with check_prose_numbers (each occurrence of a result needs "
        "its own entry in computed=; definitions= are inputs and facts; see "
        'CONTRIBUTING.md, "Numbers in the prose"):\n\n' + "\n\n".join(problems)
    )


def prose_value(page: str, phrase: str) -> str:
    """The number the prose of docs/`page` gives where it says `phrase`, "{}" marking
    the number: prose_value("real-model.md", "by {} bits or more") -> "0.15". For a
    claim's test to compare the code's result with what the page prints."""
    __tracebackhide__ = True
    text = prose(DOCS / page)
    found = _words_pattern(phrase, blanks=True).findall(text)
    assert len(found) == 1, (
        f"docs/{page}: the prose says {phrase!r} {_times(len(found))}, a test "
        "reads its number from there and needs it once: update the phrase in the "
        "test to the page's words (a space matches any line break)."
    )
    return found[0]


def digit_changes(page: str):
    """Every number in the prose of docs/`page` with one digit changed, one change
    at a time (the digit up one and down one, modulo 10), as a held-out mutation
    check plants them. Yields (page line, number, changed number, the page's text
    with the change)."""
    path = DOCS / page
    text = path.read_text(encoding="utf-8")
    source, prose = text.split("\n"), prose_lines(path)
    for index, line in enumerate(source):
        if not _NUMBER.search(prose[index]):
            continue
        for match in _NUMBER.finditer(line):
            for at in range(match.start(), match.end()):
                if not line[at].isdigit():
                    continue
                for step in (1, 9):
                    digit = str((int(line[at]) + step) % 10)
                    changed = line[:at] + digit + line[at + 1 :]
                    new = changed[match.start() : match.end()]
                    planted = "\n".join(
                        [*source[:index], changed, *source[index + 1 :]]
                    )
                    if prose_lines(path, planted)[index] == prose[index]:
                        continue  # in inline code or a link: not prose
                    yield index + 1, match.group(), new, planted


def check_digit_changes(page: str, computed: dict, definitions: set[str]) -> dict:
    """Plant every one-digit change of a prose number on a copy of docs/`page`
    (digit_changes) and check each with the page's registration: each fails
    naming its line, but where a definition becomes another definition (a width
    of 2 made 3 reads as another width, which no registration can tell: that
    passes, or fails without a line where it was the definition's last
    occurrence). Returns the counts: {"planted", "failed naming the line",
    "failed", "definition to definition"}."""
    __tracebackhide__ = True
    assert not prose_number_problems(page, computed, definitions), (
        f"docs/{page}: its own prose fails check_prose_numbers"
    )
    counts = dict.fromkeys(
        ["planted", "failed naming the line", "failed", "definition to definition"], 0
    )
    wrong = []
    for line, number, new, planted in digit_changes(page):
        counts["planted"] += 1
        problems = prose_number_problems(page, computed, definitions, planted)
        if any(f"docs/{page}:{line}:" in problem for problem in problems):
            counts["failed naming the line"] += 1
        elif problems and number in definitions and new in definitions:
            counts["failed"] += 1  # the definition's last occurrence
        elif not problems and number in definitions and new in definitions:
            counts["definition to definition"] += 1
        else:
            wrong.append(
                f"  docs/{page}:{line}: {number!r} -> {new!r}: "
                + ("passed" if not problems else "failed without naming the line")
            )
    assert not wrong, (
        f"docs/{page}: one-digit changes that check_prose_numbers misses or does "
        "not place:\n" + "\n".join(wrong)
    )
    return counts
