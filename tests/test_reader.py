"""What a reader copies runs: every page of the built site, as the reader gets it.

A reader has PyTorch, not this repository. For each page of the strict build, the
code of each block as the copy button copies it, and the notebook the page offers
(`notebooks/<page>.ipynb`): the notebook's code cells and saved outputs are the
page's blocks and output blocks; and run in a fresh Jupyter kernel, in an empty
folder outside the repository (no `snippets` to import), every block prints
exactly its output block in the HTML (nothing, if it has none). A failure names
the page, the block's line in docs/ and the difference.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup, Comment
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from hooks.notebooks import notebook_path, plain_markdown, validate
from tests import cpu_sets
from tests.pages import pages
from tools.pages import DOCS, EXPECTED_OUTPUT, PYTHON, glossary, read

ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours in IPython's tracebacks
PAGES = [p.relative_to(DOCS).as_posix() for p in pages()]

# Run before the page's first block, not part of the notebook: the reader's
# situation, checked rather than assumed; one thread (the pages' own tests run on
# every core, and a thread count must not show in a printed digit); every float
# another CPU could round differently printed one ulp lower (tests/last_bit.py).
# The machine's own kernels: `make cpu-sets` runs every page under the lowest
# instruction set and under AVX2 (tests/cpu_sets.py). In a function, so that it
# leaves no name a page could use without defining it.
LAST_BIT = (Path(__file__).parent / "last_bit.py").read_text(encoding="utf-8")
ISOLATION_CHECK = f"""\
def check_and_shift():
    import importlib.util, os, sys
    assert importlib.util.find_spec("snippets") is None, "snippets is importable"
    here = [p for p in sys.path if p and os.path.exists(os.path.join(p, "mkdocs.yml"))]
    assert not here, here
    import torch
    assert torch.get_num_threads() == 1, torch.get_num_threads()
    last_bit = {{}}
    exec({LAST_BIT!r}, last_bit)
    last_bit["shift_printed_values"](-1)

check_and_shift()
del check_and_shift
"""


@dataclass
class Block:
    code: str  # as the copy button copies it
    output: str | None = None  # the output block shown after it, if any
    line: int = 0  # the block's line in docs/


@dataclass
class Result:
    outputs: list[str] = field(default_factory=list)  # what each block printed
    error: str = ""


def html_blocks(html: str, page: str) -> list[Block]:
    """The page's Python blocks, each with the output block shown after it."""
    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article")
    blocks: list[Block] = []
    last = None  # the last code block, Python or shell: an output block's owner
    for div in article.find_all("div", class_="highlight"):
        classes = set(div.get("class", []))
        if "language-text" in classes:
            before = div.find_previous_sibling(string=lambda s: s.strip())
            marker = EXPECTED_OUTPUT.removeprefix("<!--").removesuffix("-->")
            assert isinstance(before, Comment) and before.strip() == marker, (
                f"{page}: a text block that is not an output block"
            )
            assert last is not None and last.output is None, (
                f"{page}: an output block with no code block before it"
            )
            text = div.find("code").get_text()
            last.output = text if text.endswith("\n") or not text else text + "\n"
            continue
        last = Block(div.find("code").get_text().rstrip())  # the copy button's
        if {f"language-{lang}" for lang in PYTHON} & classes:
            blocks.append(last)
    lines = [block.start for block in read(page).python()]
    assert len(lines) == len(blocks), (
        f"docs/{page}: {len(lines)} Python blocks in the Markdown, "
        f"{len(blocks)} in the built HTML"
    )
    for block, line in zip(blocks, lines, strict=True):
        block.line = line
    return blocks


def run_notebook(nb, folder: Path) -> Result:
    """Execute a notebook's code cells in order in a fresh kernel started in
    `folder`, with no PYTHONPATH and the Hugging Face hub offline."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "MPLBACKEND": "Agg"}
    env |= cpu_sets.ONE_THREAD
    check = nbformat.v4.new_code_cell(ISOLATION_CHECK)
    cells = [check] + [c for c in nb.cells if c.cell_type == "code"]
    run = nbformat.v4.new_notebook(cells=cells, metadata=nb.metadata)
    resources = {"metadata": {"path": str(folder)}}
    client = NotebookClient(
        run, timeout=600, kernel_name="python3", resources=resources
    )
    result = Result()
    if len(cells) == 1:
        return result  # no code on the page (the index): no kernel to start
    # the kernel's own log (its cells' output comes as messages): shown on failure
    with (
        tempfile.TemporaryFile("w+") as log,
        client.setup_kernel(env=env, cwd=str(folder), stderr=log),
    ):
        for index, cell in enumerate(run.cells):
            try:
                client.execute_cell(cell, index)
            except CellExecutionError as error:
                message = ANSI.sub("", str(error))
                result.error = f"block {index}: {message}" if index else message
                log.seek(0)
                result.error += f"\nthe kernel's log:\n{log.read()}"
                return result
            if index:
                result.outputs.append(printed(cell))
    return result


def printed(cell) -> str:
    """What a reader sees under a cell as text: its stdout, and the value of a last
    expression (which `print` would not show, so a page must not rely on it)."""
    text = ""
    for output in cell.outputs:
        if output.output_type == "stream" and output.name == "stdout":
            text += output.text
        elif output.output_type == "execute_result":
            text += f"[the value of the last line]: {output.data.get('text/plain')}\n"
    return text


# The runs (every page in its own kernel) take a while: they start in the
# background with this file's first test (first under xdist: tests/conftest.py),
# two at a time, slowest pages first; each test waits for its page.
_RUNS: dict[str, Future] = {}
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="reader")
SLOWEST = ["training.md", "ablation.md", "real-model.md", "random-heads.md"]


@pytest.fixture(scope="module")
def site(built_site, request) -> Path:
    """The built site, with the reader runs of every selected page started."""
    selected = {
        item.callspec.params["page"]
        for item in request.session.items
        if getattr(item, "originalname", "")
        == "test_the_page_runs_as_the_reader_copies_it"
    }
    for page in sorted(selected, key=lambda p: SLOWEST.index(p) if p in SLOWEST else 9):
        _RUNS[page] = _POOL.submit(run_page, page, built_site)
    return built_site


def run_page(page: str, site: Path) -> Result:
    nb = nbformat.read(site / notebook_path(page), as_version=4)
    with tempfile.TemporaryDirectory(prefix="heads-reader-") as folder:
        return run_notebook(nb, Path(folder))


def page_html(site: Path, page: str) -> str:
    folder = "" if page == "index.md" else page.removesuffix(".md") + "/"
    return (site / folder / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_the_notebook_is_the_page(site, page):
    blocks = html_blocks(page_html(site, page), page)
    nb = nbformat.read(site / notebook_path(page), as_version=4)
    nbformat.validate(nb)
    cells = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.source.rstrip() for c in cells] == [b.code for b in blocks], (
        f"docs/{page}: the notebook's code cells differ from the page's blocks"
    )
    for cell, block in zip(cells, blocks, strict=True):
        assert printed(cell) == (block.output or ""), (
            f"docs/{page}:{block.line}: the notebook's saved output differs"
        )


@pytest.mark.parametrize("page", PAGES)
def test_the_page_runs_as_the_reader_copies_it(site, page):
    blocks = html_blocks(page_html(site, page), page)
    result = _RUNS[page].result()
    failures = []
    for number, (block, actual) in enumerate(
        zip(blocks, result.outputs, strict=False), start=1
    ):
        expected = block.output or ""
        if actual != expected:
            diff = "".join(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    actual.splitlines(keepends=True),
                    fromfile=f"docs/{page}:{block.line} block {number}, on the page",
                    tofile="what the reader's copy prints",
                )
            )
            failures.append(diff or f"block {number}: {actual!r} != {expected!r}")
    if result.error:
        ran = len(result.outputs)
        at = f"docs/{page}:{blocks[ran].line}" if ran < len(blocks) else f"docs/{page}"
        failures.append(f"{at} raised, run outside the repository:\n{result.error}")
    assert not failures, "\n".join(failures)


# -- the checks themselves --------------------------------------------------------


def test_an_import_from_the_repository_fails_outside_it_naming_the_block(tmp_path):
    """The pytest process can import `snippets`; the reader's kernel cannot."""
    cells = [
        "import torch\nprint(1, torch.tensor([0.25, 0.75]).sum())",
        "from snippets.attention_inputs import inputs",
    ]
    nb = nbformat.v4.new_notebook(cells=[*map(nbformat.v4.new_code_cell, cells)])
    result = run_notebook(nb, tmp_path)
    # and a sum of fractions that is exactly 1 prints one ulp lower there
    assert result.outputs == ["1 tensor(1.0000)\n"]
    assert result.error.startswith("block 2:")
    assert "No module named 'snippets'" in result.error


def test_an_invalid_notebook_fails_naming_the_page():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    del nb.cells[0]["outputs"]  # a code cell must have outputs
    with pytest.raises(ValueError, match="one-head.md: the generated notebook is"):
        validate(nb, "one-head.md")


SITE_URL = "https://h.io/heads/"


def test_prose_and_syntax_become_plain_markdown():
    page = """\
??? example "From earlier pages"

    ```python
    x = 1
    ```

[Next](second-head.md#a-hand-set-head){ .md-button }
![A figure](assets/figures/f.svg){ .heads-figure }
*a [notebook](notebooks/p.ipynb){ download="p.ipynb" }.*
<!--pytest.mark.skip(reason='x')-->
```bash
make serve
```"""
    text, outputs, n_python = plain_markdown(page, SITE_URL, ".")
    assert n_python == 1 and outputs == {}
    assert (
        text
        == """\
**From earlier pages**


```python
x = 1
```

[Next](https://h.io/heads/second-head/#a-hand-set-head)
![A figure](https://h.io/heads/assets/figures/f.svg)
*a [notebook](https://h.io/heads/notebooks/p.ipynb).*
```console
make serve
```"""
    )


def test_the_glossary_becomes_a_list_of_the_terms_a_notebook_uses():
    """A notebook cannot show the abbreviations' hover titles: the terms of the
    glossary (includes/glossary.md) its prose uses (not its code) close it."""
    text = "Heads are scored in BLEU.\n```python\nFLOPs = 2  # code, not prose\n```\n"
    text, _, n_python = plain_markdown(text, SITE_URL, ".")
    assert n_python == 1
    assert text == (
        "Heads are scored in BLEU.\n```python\nFLOPs = 2  # code, not prose\n```\n"
        f"\n**Terms used on this page**\n\n- **BLEU**: {glossary()['BLEU']}"
    )
