"""Every snippet file is shown on some page and runs on its own."""

import ast
import functools
import importlib

import pytest

from snippets import sources
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


def imported_by_test_files():
    """The snippet files that test files import, at their top or as `lazy`
    modules (imported before the file's first test, tests/conftest.py), with
    what those import in turn (`sources`). Importing a snippet runs all of its
    code (none waits for `__main__`) without any page's names: on its own."""
    names = set()
    for test in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.parse(test.read_text()).body:
            if isinstance(node, ast.ImportFrom) and node.module.startswith("snippets"):
                names.add(node.module)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                if getattr(node.value.func, "id", None) == "lazy":
                    names.add(node.value.args[0].value)
    return {path.resolve() for name in names for path in sources(name)}


IMPORTED = imported_by_test_files()
NOT_IMPORTED = [p for p in FILES if p.resolve() not in IMPORTED]


@pytest.mark.parametrize("path", NOT_IMPORTED, ids=module_name)
def test_snippet_runs_on_its_own(path):
    """The snippets no test file imports run here, the others where they are
    imported: each runs on its own once, not twice."""
    importlib.import_module(module_name(path))


def test_the_test_files_import_most_snippets():
    assert 0 < len(NOT_IMPORTED) < len(FILES) / 2  # the split is real
    assert SNIPPETS / "ablation" / "ex07b_whole_layers.py" not in NOT_IMPORTED


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
