"""MkDocs hook: every page can be downloaded as a Jupyter notebook.

Each page is read as the tests read it (tools/pages.py), turned into plain
Markdown and converted by jupytext: prose becomes Markdown cells, Python blocks
(their includes expanded) code cells, each with the page's output block as its
output. Admonitions become a bold title over their content, so the code in them
becomes cells too; attribute lists, icons and test markers are dropped; links point
at the hosted site; terminal commands stay Markdown; the glossary's terms, which
a notebook cannot show on hover, are listed at the end. nbformat validates the
notebook: an invalid one fails the build, naming the page.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path, PurePosixPath

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

# MkDocs loads a hook by its path: the package it imports from is put on the path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.pages import INLINE_CODE, PYTHON, blocks, expand, glossary  # noqa: E402

NOTEBOOKS = "notebooks"  # site folder of the generated .ipynb files
_BLOCK_TITLE = re.compile(
    r"^(?P<indent>\s*)(?:(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)|===)"
    r'(?:\s+"(?P<title>[^"]*)")?\s*$'
)
_ATTR_LIST = re.compile(r'\s*\{:?\s*(?:(?:[.#][\w-]+|[\w-]+="[^"]*")\s*)+\}')
_ICON = re.compile(r"\s*:(?:material|octicons|fontawesome|simple)-[\w-]+:")
_MARKER = re.compile(r"^\s*<!--\s*pytest[.-].*-->\s*$")
_LINK = re.compile(r"(\]\()(?!https?://|#|mailto:)([^)\s]+)(\))")


def notebook_path(src_uri: str) -> str:
    """docs/one-head.md -> notebooks/one-head.ipynb (a site path)."""
    return f"{NOTEBOOKS}/{PurePosixPath(src_uri).with_suffix('.ipynb')}"


def _flatten(rows: list, code: set[int]) -> list:
    """Admonitions and collapsible blocks -> a bold title, their body dedented.
    `rows` are (page line, text); a line in `code` is never a title."""
    out, i = [], 0
    while i < len(rows):
        number, line = rows[i]
        title = None if number in code else _BLOCK_TITLE.match(line)
        i += 1
        if not title:
            out.append((number, line))
            continue
        indent = len(title["indent"])
        name = title["title"]
        if name is None:
            name = (title["kind"] or "").replace("-", " ").capitalize()
        if name:
            out += [(None, " " * indent + f"**{name}**"), (None, "")]
        deeper = " " * (indent + 4)
        body = []
        while i < len(rows):
            n, b = rows[i]
            if b.strip() and len(b) - len(b.lstrip()) <= indent:
                break  # the first line not indented under the title
            body.append((n, b[len(deeper) :] if b.startswith(deeper) else b.lstrip()))
            i += 1
        out += _flatten(body, code)
    return out


def plain_markdown(text: str, site_url: str, page_dir: str):
    """The page as plain Markdown, the output blocks by the number of the Python
    block they belong to, and the number of Python blocks."""
    found, lines = blocks(text), text.split("\n")
    starts = {block.start: block for block in found}
    code = set()  # page lines of the code blocks, and from each output marker on
    for block in found:
        code |= set(range(block.start, block.end + 1))
        if block.output:
            marker = next(
                n
                for n in range(block.end + 1, block.output.start)
                if lines[n - 1].strip()
            )
            code |= set(range(marker, block.output.end + 1))
    kept, prose, outputs, n_python = [], [], {}, 0
    for number, line in _flatten(list(enumerate(lines, 1)), code):
        block = starts.get(number)
        if block and block.language in PYTHON:
            kept += ["```python", *block.code.rstrip("\n").split("\n"), "```"]
            if block.output:
                outputs[n_python] = block.output.text
            n_python += 1
        elif block:  # terminal commands and plain text stay Markdown, not cells
            kept += ["```console", *block.text.rstrip("\n").split("\n"), "```"]
        elif number not in code and not _MARKER.match(line):
            if line.strip() in ("{ .annotate }", "{.annotate}"):
                continue
            line = _ICON.sub("", _ATTR_LIST.sub("", line))
            link = lambda m: m[1] + _absolute(m[2], site_url, page_dir) + m[3]  # noqa: E731
            kept.append(_LINK.sub(link, line))
            prose.append(INLINE_CODE.sub("", line))
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept + _terms_used("\n".join(prose))), outputs, n_python


def _terms_used(prose: str) -> list[str]:
    """A closing list of the glossary's terms that the prose uses."""
    terms = glossary()
    used = [t for t in terms if re.search(rf"\b{re.escape(t)}\b", prose)]
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

    site_url = config["site_url"] or "/"
    page_dir = str(PurePosixPath(src_uri).parent)
    text, outputs, n_python = plain_markdown(source, site_url, page_dir)
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
    for number, cell in enumerate(nb.cells):
        cell.metadata = {}
        cell["id"] = f"cell-{number}"  # stable ids: same page, same bytes
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb = nbformat.from_dict(nb)
    validate(nb, src_uri)
    return nb


def validate(nb, src_uri: str) -> None:
    """nbformat's schema check: an invalid notebook fails, naming its page."""
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

    for file in list(files.documentation_pages()):
        if not file.src_uri.endswith(".md"):
            continue
        source = file.content_string
        # same page, same snippets, same notebook: a rebuild converts only the
        # pages an edit changed
        expanded, _ = expand(source)
        key = hashlib.sha256(
            f"{file.src_uri}\0{config['site_url']}\0{expanded}".encode()
        ).hexdigest()
        if key not in _written:
            nb = page_notebook(source, file.src_uri, config)
            _written[key] = nbformat.writes(nb) + "\n"
        path = notebook_path(file.src_uri)
        files.append(File.generated(config, path, content=_written[key]))
    return files


def on_page_markdown(markdown_text, page, config, files):
    """The page template shows a download button for `page.notebook`."""
    path = notebook_path(page.file.src_uri)
    if files.get_file_from_path(path) is not None:
        page.notebook = get_relative_url(path, page.file.url)
    return markdown_text
