"""ruff (E, W, F, I, B, UP; B015 catches a comparison with no assert) stays clean."""

import subprocess
import sys

from tests.pages import ROOT


def ruff(*args):
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_check():
    result = ruff("check", "snippets", "tests")
    assert result.returncode == 0, result.stdout


def test_ruff_format():
    result = ruff("format", "--check", "snippets", "tests")
    assert result.returncode == 0, result.stdout
