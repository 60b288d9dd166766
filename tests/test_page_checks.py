"""The page checks themselves: a drifted digit fails with a diff that names the page
and line; `--update-outputs` repairs it; the numbers do not depend on thread count."""

import os
import shutil
import subprocess
import sys

import pytest

from tests.pages import ROOT

COPY = [
    "pyproject.toml",
    "mkdocs.yml",
    "docs",
    "snippets",
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
    for name in COPY:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(source, tmp_path / name)
    return tmp_path


def test_a_changed_digit_fails_with_a_diff_then_update_outputs_repairs_it(copy_of_repo):
    page = copy_of_repo / "docs" / "one-head.md"
    original = page.read_text(encoding="utf-8")
    drifted = original.replace("tensor([0.3061, 0.8210])", "tensor([0.3061, 0.8211])")
    assert drifted != original
    page.write_text(drifted, encoding="utf-8")
    line = (
        drifted.split("\n").index('```python title="snippets/one_head/ex04_context.py"')
        + 1
    )

    result = run_pytest(copy_of_repo, "docs/one-head.md")
    assert result.returncode == 1, result.stdout
    assert (
        f"docs/one-head.md:{line}: the page's output block does not match"
        in result.stdout
    )
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


def test_pages_give_the_same_output_on_one_thread():
    result = run_pytest(ROOT, "docs", HEADS_THREADS="1", OMP_NUM_THREADS="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "outputs checked" in result.stdout
