"""ruff (E, W, F, I, B, UP; B015 catches a comparison with no assert) stays clean over
every Python file pyproject.toml names: snippets, tests, hooks, scripts, benchmarks."""

import subprocess
import sys

from tests.pages import ROOT


def ruff(*args):
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_check():
    result = ruff("check")
    assert result.returncode == 0, result.stdout


def test_ruff_format():
    result = ruff("format", "--check")
    assert result.returncode == 0, result.stdout
