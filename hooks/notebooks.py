"""MkDocs hook: every Markdown page can be downloaded as a Jupyter notebook.

At build time each page is expanded (`--8<--` includes, by pymdownx.snippets' own
preprocessor with mkdocs.yml's options), turned into plain Markdown, and converted by
jupytext: prose becomes Markdown cells, Python blocks become code cells, and the
output block shown under a block on the page becomes that cell's output (the tests
check that the code prints exactly that, on the page and in the notebook run from a
folder outside the repository). The notebook is validated with nbformat; an invalid
one fails the build, naming the page. Nothing is written into docs/.

What "plain Markdown" means here: admonitions, collapsible blocks and content tabs
become a bold title over their (dedented) content, so the code inside them becomes
code cells too; attribute lists, icons and test markers are dropped; links to other
pages and images point at the hosted site; terminal commands stay as Markdown. The
glossary's abbreviations (`*[term]: definition`, appended to every page), which a
notebook cannot show on hover, become a list of the terms the page uses, at its end.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePosixPath

import markdown
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

NOTEBOOKS = "notebooks"  # site folder of the generated .ipynb files
EXPECTED_OUTPUT_MARKER = "<!--pytest-codeblocks:expected-output-->"
PYTHON = {"python", "py"}


def snippet_preprocessor(options: dict):
    """pymdownx.snippets' preprocessor, configured as mkdocs.yml configures it."""
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": options},
    )
    return md.preprocessors["snippet"]


def notebook_path(src_uri: str) -> str:
    """docs/one-head.md -> notebooks/one-head.ipynb (a site path)."""
    return f"{NOTEBOOKS}/{PurePosixPath(src_uri).with_suffix('.ipynb')}"


# -- pymdownx syntax to plain Markdown ------------------------------------------------

_BLOCK_TITLE = re.compile(
    r"^(?P<indent>\s*)(?:(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)|===)"
    r'(?:\s+"(?P<title>[^"]*)")?\s*$'
)
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
_ATTR_LIST = re.compile(r'\s*\{:?\s*(?:(?:[.#][\w-]+|[\w-]+="[^"]*")\s*)+\}')
_ICON = re.compile(r"\s*:(?:material|octicons|fontawesome|simple)-[\w-]+:")
_SKIP_MARK = re.compile(r"^\s*<!--\s*pytest\.mark\.[^>]*-->\s*$")
_LINK = re.compile(r"(\]\()(?!https?://|#|mailto:)([^)\s]+)(\))")
_ABBREVIATION = re.compile(r"^\*\[(?P<term>[^\]]+)\]:\s*(?P<definition>.+)$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _fence_step(line: str, fence: str | None) -> tuple[str | None, bool]:
    """Fenced code, line by line: the fence still open after `line` (None when
    outside one), and whether `line` is outside every fence (a fence's own
    opening and closing lines are not)."""
    match = _FENCE.match(line)
    if match and fence is None:
        return match.group("fence"), False
    if fence is not None and line.strip() == fence:
        return None, False
    return fence, fence is None


def flatten_blocks(lines: list[str]) -> list[str]:
    """Admonitions, collapsible blocks and tabs -> a bold title, body dedented."""
    out: list[str] = []
    i = 0
    fence = None
    while i < len(lines):
        line = lines[i]
        fence, outside = _fence_step(line, fence)
        title = _BLOCK_TITLE.match(line) if outside else None
        if not title:
            out.append(line)
            i += 1
            continue
        indent = len(title.group("indent"))
        name = title.group("title")
        if name is None:
            name = (title.group("kind") or "").replace("-", " ").capitalize()
        if name:
            out.extend([" " * indent + f"**{name}**", ""])
        body = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
            body.append(lines[i])
            i += 1
        dedented = [
            b[4:] if b.startswith(" " * (indent + 4)) else b.lstrip() for b in body
        ]
        out.extend(flatten_blocks(dedented))
    return out


def plain_markdown(lines: list[str], site_url: str, page_dir: str):
    """The page as plain Markdown, and the output blocks, keyed by the index of the
    Python block they belong to."""
    lines, terms = _split_glossary(flatten_blocks(lines))
    kept: list[str] = []
    outputs: dict[int, str] = {}
    python_blocks = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if line.strip() == EXPECTED_OUTPUT_MARKER:
            i += 1
            while not lines[i].strip():
                i += 1
            opening = _FENCE.match(lines[i])
            close = next(
                j
                for j in range(i + 1, len(lines))
                if lines[j].strip() == opening.group("fence")
            )
            text = "\n".join(lines[i + 1 : close])
            outputs[python_blocks - 1] = text + "\n" if text else ""
            i = close + 1
            continue
        if fence:
            close = next(
                j
                for j in range(i + 1, len(lines))
                if lines[j].strip() == fence.group("fence")
            )
            language = (fence.group("info").split() or [""])[0].lower()
            if language in PYTHON:
                python_blocks += 1
                kept.append(fence.group("indent") + fence.group("fence") + "python")
            else:  # terminal commands and plain text stay Markdown, not cells
                kept.append(fence.group("indent") + fence.group("fence") + "console")
            kept.extend(lines[i + 1 : close + 1])
            i = close + 1
            continue
        if _SKIP_MARK.match(line) or line.strip() in ("{ .annotate }", "{.annotate}"):
            i += 1
            continue
        line = _ICON.sub("", _ATTR_LIST.sub("", line))
        line = _LINK.sub(
            lambda m: m[1] + _absolute(m[2], site_url, page_dir) + m[3], line
        )
        kept.append(line)
        i += 1
    return "\n".join(kept + _terms_used(kept, terms)), outputs, python_blocks


def _split_glossary(lines: list[str]) -> tuple[list[str], dict[str, str]]:
    """The lines without the abbreviation definitions, and those definitions."""
    kept, terms, fence = [], {}, None
    for line in lines:
        fence, outside = _fence_step(line, fence)
        abbreviation = _ABBREVIATION.match(line) if outside else None
        if abbreviation:
            terms[abbreviation["term"]] = abbreviation["definition"]
        else:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return kept, terms


def _terms_used(lines: list[str], terms: dict[str, str]) -> list[str]:
    """A closing list of the glossary's terms that the prose uses."""
    prose, fence = [], None
    for line in lines:
        fence, outside = _fence_step(line, fence)
        if outside:  # lines inside a code block are not prose
            prose.append(re.sub(r"`[^`]*`", "", line))
    text = "\n".join(prose)
    used = [t for t in terms if re.search(rf"\b{re.escape(t)}\b", text)]
    if not used:
        return []
    return ["", "**Terms used on this page**", ""] + [
        f"- **{term}**: {terms[term]}" for term in used
    ]


def _absolute(target: str, site_url: str, page_dir: str) -> str:
    """A relative link of the page -> an address on the hosted site."""
    path, _, anchor = target.partition("#")
    path = str(PurePosixPath(page_dir, path)) if path else ""
    if path.endswith(".md"):
        path = path.removesuffix(".md")
        path = "" if path in ("index", ".") else path.removesuffix("/index") + "/"
    path = re.sub(r"^\./", "", path)
    return site_url + path + (f"#{anchor}" if anchor else "")


def page_notebook(source: str, src_uri: str, config) -> dict:
    """The notebook of one page, as an nbformat NotebookNode."""
    import jupytext
    import nbformat

    options = config["mdx_configs"].get("pymdownx.snippets", {})
    lines = snippet_preprocessor(options).run(source.split("\n"))
    site_url = config["site_url"] or "/"
    page_dir = str(PurePosixPath(src_uri).parent)
    text, outputs, n_python = plain_markdown(lines, site_url, page_dir)
    nb = jupytext.reads(text, fmt="md")
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    if len(code) != n_python:
        raise ValueError(
            f"{src_uri}: {n_python} Python blocks became {len(code)} code cells"
        )
    for number, cell in enumerate(code):
        cell.execution_count = number + 1
        cell.outputs = []
        if outputs.get(number):
            cell.outputs.append(
                nbformat.v4.new_output("stream", name="stdout", text=outputs[number])
            )
    page_url = _absolute(PurePosixPath(src_uri).name, site_url, page_dir)
    intro = (
        f"*This notebook is the page <{page_url}> of "
        f"{config['site_name']}, cell for cell. Run the cells in order; "
        "every output shown is what the code printed when the site was built.*"
    )
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(intro))
    for cell in nb.cells:
        cell.metadata = {}
        cell.pop("id", None)
    nb.metadata = {
        "kernelspec": {
            "display_name": "Python 3",
            "language": "python",
            "name": "python3",
        },
        "language_info": {"name": "python"},
    }
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb = nbformat.from_dict(nb)
    for cell_number, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{cell_number}"  # stable ids: same page, same bytes
    validate(nb, src_uri)
    return nb


def validate(nb, src_uri: str) -> None:
    """nbformat's schema check; an invalid notebook fails the build, naming the
    page it was made from."""
    import nbformat

    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as error:
        message = f"{src_uri}: the generated notebook is invalid: {error}"
        raise ValueError(message) from error


_written: dict[str, str] = {}  # under `mkdocs serve`: expanded page -> notebook


@event_priority(50)  # before htmlproofer takes its list of files
def on_files(files, config):
    import nbformat

    options = config["mdx_configs"].get("pymdownx.snippets", {})
    for file in list(files.documentation_pages()):
        if not file.src_uri.endswith(".md"):
            continue
        source = file.content_string
        # The same page with the same snippets makes the same notebook: a rebuild
        # converts only the pages an edit changed.
        expanded = "\n".join(snippet_preprocessor(options).run(source.split("\n")))
        key = hashlib.sha256(
            f"{file.src_uri}\0{config['site_url']}\0{expanded}".encode()
        ).hexdigest()
        if key not in _written:
            nb = page_notebook(source, file.src_uri, config)
            _written[key] = nbformat.writes(nb) + "\n"
        content = _written[key]
        files.append(
            File.generated(config, notebook_path(file.src_uri), content=content)
        )
    return files


def on_page_markdown(markdown_text, page, config, files):
    """The page template shows a download button for `page.notebook`."""
    path = notebook_path(page.file.src_uri)
    if files.get_file_from_path(path) is not None:
        page.notebook = get_relative_url(path, page.file.url)
    return markdown_text
