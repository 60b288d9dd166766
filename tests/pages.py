"""Read the site's pages the way the site shows them.

A page's Markdown is expanded with pymdownx.snippets' own preprocessor, configured
from mkdocs.yml, so the tests see exactly the code a reader sees. Code blocks are then
extracted with pytest-codeblocks' extractor, and every line of the expanded text is
mapped back to the line of the page it came from, so failures name the page's line.
"""

from __future__ import annotations

import io
import re
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown
from mkdocs.config import load_config
from pytest_codeblocks import CodeBlock, extract_from_buffer

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"

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


def copy_sources(root: Path) -> Path:
    """A copy of everything `mkdocs build` reads, to plant faults in.

    The saved training runs (.cache/training, keyed on the code, which the copy
    shares) are linked, not copied: a copy's build draws the training figures
    without training again.
    """
    root.mkdir(parents=True, exist_ok=True)
    for name in SITE_SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, root / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        elif source.exists():
            shutil.copy(source, root / name)
    (ROOT / ".cache").mkdir(exist_ok=True)
    (root / ".cache").symlink_to(ROOT / ".cache")
    return root


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


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


def prose(path: Path) -> str:
    """The page's text without code blocks, inline code, comments and link targets."""
    kept, fence = [], None
    for line in path.read_text(encoding="utf-8").split("\n"):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            kept.append(line)
    text = "\n".join(kept)
    for pattern in _STRIP:
        text = pattern.sub(" ", text)
    return text


def prose_numbers(path: Path) -> set[str]:
    return set(_NUMBER.findall(prose(path)))


def check_prose_numbers(page: str, computed: dict[str, str], definitions: set[str]):
    """Every number in a page's prose is either computed or a stated definition.

    `computed` maps a label to the string the code produces ("60%"); each must appear
    in the prose. `definitions` are numbers that are inputs or facts, not results
    (a seed, a width, a year). Any other number in the prose fails the test, so a
    number restating a result cannot be typed by hand and drift.
    """
    found = prose_numbers(DOCS / page)
    missing = {label: s for label, s in computed.items() if s not in found}
    assert not missing, f"{page}: computed numbers not in the prose: {missing}"
    unexplained = found - set(computed.values()) - definitions
    assert not unexplained, (
        f"{page}: numbers in the prose that no test computes and that are not "
        f"declared definitions: {sorted(unexplained)}"
    )
