"""Read the site's pages the way the site shows them.

A page's Markdown is expanded with pymdownx.snippets' own preprocessor, configured
from mkdocs.yml, so the tests see exactly the code a reader sees. Code blocks are then
extracted with pytest-codeblocks' extractor, and every line of the expanded text is
mapped back to the line of the page it came from, so failures name the page's line.
"""

from __future__ import annotations

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
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": options},
    )
    return md.preprocessors["snippet"]


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


SITE_SOURCES = ["mkdocs.yml", "docs", "snippets", "overrides", "hooks"]


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
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*%?(?![\w])")


def prose_lines(path: Path) -> list[str]:
    """The page's lines, with code blocks, inline code, comments, link targets and
    HTML removed (blanked, so line i of the result is line i + 1 of the page).
    Everything else is prose: headings, lists, tables, admonitions, and math."""
    kept, fence = [], None
    for line in path.read_text(encoding="utf-8").split("\n"):
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


def check_prose_numbers(page: str, computed: dict[str, str], definitions: set[str]):
    """Every number in a page's prose is either computed or a stated definition.

    `computed` maps a label to the string the code produces ("60%"); each must appear
    in the prose. `definitions` are numbers that are inputs or facts, not results
    (a seed, a width, a year). Any other number in the prose fails the test, so a
    number restating a result cannot be typed by hand and drift. Prose is all of the
    page but its code blocks, inline code, HTML comments, link targets and tags:
    math counts (`$d_k = 128$` needs "128"). A failure names each number's lines.
    """
    __tracebackhide__ = True  # pytest shows the message, not this function
    path = DOCS / page
    caller = Path(inspect.stack()[1].filename)
    where = (
        caller.relative_to(ROOT).as_posix()
        if ROOT in caller.parents
        else "the page's test file"
    )
    found = prose_number_lines(path)
    missing = {label: s for label, s in computed.items() if s not in found}
    assert not missing, (
        f"docs/{page}: computed numbers not in the prose: {missing}. The prose "
        f"must contain each exactly as the code formats it (or drop it from "
        f"`computed` in {where})."
    )
    unexplained = sorted(set(found) - set(computed.values()) - definitions)
    source = path.read_text(encoding="utf-8").split("\n")
    listed = [
        f"  docs/{page}:{line}: {number!r} in: {source[line - 1].strip()[:90]}"
        for number in unexplained
        for line in found[number]
    ]
    assert not unexplained, (
        f"docs/{page}: numbers in the prose that no test computes and that are not "
        f"declared definitions: {unexplained}\n"
        + "\n".join(listed)
        + f"\nRegister each in {where}: check_prose_numbers(..., computed={{label: "
        "the string the code produces}) for a result, definitions={...} for an "
        "input or a fact (a width, a seed, a year). See CONTRIBUTING.md."
    )
