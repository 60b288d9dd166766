"""Every snippet file is shown on some page and runs on its own."""

import runpy

import pytest

from hooks.pages import ROOT, read
from tests.pages import SNIPPETS, pages

FILES = sorted(p for p in SNIPPETS.rglob("*.py") if p.name != "__init__.py")


def module_name(path):
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def included_files():
    return {
        file.resolve()
        for page in pages()
        for b in read(page).blocks
        for file in b.includes
    }


@pytest.mark.parametrize("path", FILES, ids=module_name)
def test_snippet_is_used_by_a_page(path):
    assert path.resolve() in included_files(), f"{path} is not included by any page"


@pytest.mark.parametrize("path", FILES, ids=module_name)
def test_snippet_runs_on_its_own(path):
    runpy.run_path(str(path), run_name="__main__")


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
