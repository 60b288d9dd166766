"""Every snippet file is shown on some page and runs on its own."""

import functools
import importlib
import os

import pytest

from tests.pages import SNIPPETS, pages
from tools.pages import ROOT, read

FILES = sorted(p for p in SNIPPETS.rglob("*.py") if p.name != "__init__.py")


def module_name(path):
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@functools.cache
def included_files():
    blocks = [block for page in pages() for block in read(page).blocks]
    return {file.resolve() for block in blocks for file in block.includes}


@pytest.mark.parametrize("path", FILES, ids=module_name)
def test_snippet_is_used_by_a_page(path):
    assert path.resolve() in included_files(), f"{path} is not included by any page"


@pytest.mark.parametrize("path", FILES, ids=module_name)
def test_snippet_runs_on_its_own(request, path):
    """Each snippet file, imported: all of its code runs (none waits for
    `__main__`), the lines no page shows included, without any page's names.
    The pages' runs (`make test`) reach only the lines the pages show, and they
    are what the test files read (tests/pages.py, `on_page`): running every
    snippet again there would double the suite's work. `make cpu-sets` runs
    them all, and `make page` its page's."""
    if not (request.config.getoption("page") or os.environ.get("HEADS_CPU_SETS")):
        pytest.skip("every snippet on its own: `make cpu-sets` runs it, and .ci/run")
    importlib.import_module(module_name(path))


def test_no_snippet_keeps_code_for_when_it_is_run_as_a_script():
    for path in FILES:
        assert "if __name__" not in path.read_text(), path


def test_a_missing_snippet_names_the_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('```python\n--8<-- "snippets/no_such_file.py"\n```\n')
    with pytest.raises(Exception, match="no_such_file.py"):
        read(page)


def test_a_missing_section_names_the_section(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('```python\n--8<-- "snippets/one_head/ex02_scores.py:nope"\n```\n')
    with pytest.raises(Exception, match="nope"):
        read(page)
