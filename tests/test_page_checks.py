"""The page checks themselves: a drifted digit fails with a diff that names the page
and the output block's line; `--update-outputs` repairs it; the numbers do not depend
on thread count; an unregistered prose number is named with its line; every page is
in the nav and on the index, and a page that is not is named with the file to edit."""

import os
import subprocess
import sys

import pytest

from tests import pages
from tests.pages import DOCS, check_listed, check_prose_numbers, copy_sources

COPY = [
    "pyproject.toml",
    "mkdocs.yml",
    "docs",
    "snippets",
    "includes",
    "tests",
    "overrides",
    "hooks",
]


def run_pytest(cwd, *args, **env):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def copy_of_repo(tmp_path):
    return copy_sources(tmp_path, COPY)


def test_a_changed_digit_fails_with_a_diff_then_update_outputs_repairs_it(copy_of_repo):
    page = copy_of_repo / "docs" / "one-head.md"
    original = page.read_text(encoding="utf-8")
    drifted = original.replace("tensor([0.3061, 0.8210])", "tensor([0.3061, 0.8211])")
    assert drifted != original
    page.write_text(drifted, encoding="utf-8")
    lines = drifted.split("\n")
    code = lines.index('```python title="snippets/one_head/ex04_context.py"') + 1
    output = lines.index("tensor([0.3061, 0.8211])") + 1
    assert output > code + 3

    result = run_pytest(copy_of_repo, "docs/one-head.md")
    assert result.returncode == 1, result.stdout
    assert (
        f"docs/one-head.md:{output}: the page's output block does not match what "
        f"the code block at line {code} prints" in result.stdout
    )
    assert f"@@ -{output} +{output} @@" in result.stdout  # the diff in page lines
    assert "-tensor([0.3061, 0.8211])" in result.stdout
    assert "+tensor([0.3061, 0.8210])" in result.stdout

    fixed = run_pytest(copy_of_repo, "docs/one-head.md", "--update-outputs")
    assert fixed.returncode == 0, fixed.stdout
    assert page.read_text(encoding="utf-8") == original


def test_a_printing_block_without_an_output_block_fails(copy_of_repo):
    page = copy_of_repo / "docs" / "one-head.md"
    text = page.read_text(encoding="utf-8")
    marker = "<!--pytest-codeblocks:expected-output-->\n\n"
    marker += "```text\ntensor([0.3061, 0.8210])\n```\n"
    assert marker in text
    page.write_text(text.replace(marker, ""), encoding="utf-8")
    result = run_pytest(copy_of_repo, "docs/one-head.md")
    assert result.returncode == 1
    assert "the block prints, but the page shows no output block" in result.stdout


def test_output_block_lines_are_found_on_the_page():
    page = pages.expand(DOCS / "one-head.md")
    code = page.source.index('```python title="snippets/one_head/ex03_weights.py"') + 1
    first, close = pages.output_block_lines(page, code)
    assert page.source[first - 2] == "```text" and page.source[close - 1] == "```"
    assert page.source[first - 1].startswith("tensor([0.1500")
    assert page.source[first] == "tensor(1.)"  # the block's second line
    figure = '    ```python title="snippets/one_head/ex05_heatmap.py"'
    assert pages.output_block_lines(page, page.source.index(figure) + 1) is None


def test_an_unregistered_prose_number_is_named_with_its_line(tmp_path, monkeypatch):
    (tmp_path / "p.md").write_text(
        "# A page\n\nWidth $d_k = 128$ and `512` in code.\n\n```python\nx = 7\n```\n"
        "\nStill 128, and 60% here.\n<!-- 99 -->\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(pages, "DOCS", tmp_path)
    with pytest.raises(AssertionError) as failure:
        check_prose_numbers("p.md", computed={"share": "60%"}, definitions=set())
    message = str(failure.value)
    assert "['128']" in message  # math counts; inline code, code and comments do not
    assert "docs/p.md:3: '128' in: Width $d_k = 128$" in message
    assert "docs/p.md:9: '128' in: Still 128" in message
    assert "tests/test_page_checks.py" in message  # where to register it
    check_prose_numbers("p.md", computed={"share": "60%"}, definitions={"128"})
    with pytest.raises(AssertionError, match="computed numbers not in the prose"):
        check_prose_numbers("p.md", computed={"share": "61%"}, definitions={"128"})


# The argument is not called `page`: pytest-playwright parametrizes by browser a
# test with a `page` argument.
@pytest.mark.parametrize(
    "name", [p.relative_to(DOCS).as_posix() for p in pages.pages()]
)
def test_page_is_in_the_nav_and_on_the_index(name):
    check_listed(name)


def test_a_page_missing_from_the_nav_or_the_index_names_the_file_to_edit(
    tmp_path, monkeypatch
):
    (tmp_path / "new.md").write_text("# A new page\n", encoding="utf-8")
    monkeypatch.setattr(pages, "DOCS", tmp_path)
    with pytest.raises(AssertionError) as failure:
        check_listed("new.md")
    assert "docs/new.md is not in the site's navigation. Edit mkdocs.yml" in str(
        failure.value
    )
    assert "`- A new page: new.md`" in str(failure.value)
    monkeypatch.setattr(pages, "nav_pages", lambda: ("new.md",))
    (tmp_path / "index.md").write_text("# Home\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="Edit docs/index.md: add `- \\[A new"):
        check_listed("new.md")
    (tmp_path / "index.md").write_text("- [A new page](new.md): it.\n")
    check_listed("new.md")


def test_a_lazy_module_runs_when_first_used_or_imported(tmp_path, monkeypatch):
    """tests/pages.py's lazy: nothing runs while a test file is collected; the
    module runs at its first use, or when import_lazy (tests/conftest.py, before
    the file's first test) imports it, and once."""
    (tmp_path / "lazy_probe.py").write_text("runs = []\nruns.append(1)\n")
    monkeypatch.syspath_prepend(tmp_path)
    monkeypatch.delitem(sys.modules, "lazy_probe", raising=False)
    probe = pages.lazy("lazy_probe")
    assert "lazy_probe" not in sys.modules
    with pytest.raises(AttributeError):
        getattr(probe, "__wrapped__")  # noqa: B009 (as pytest asks, collecting)
    assert "lazy_probe" not in sys.modules
    pages.import_lazy({"probe": probe, "other": 1})
    assert sys.modules["lazy_probe"].runs == [1] and probe.runs == [1]
