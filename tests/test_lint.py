"""ruff (E, W, F, I, B, UP; B015 catches a comparison with no assert) stays clean over
every Python file pyproject.toml names: snippets, tests, hooks, scripts, benchmarks;
Biome (biome.jsonc) over the JavaScript: the site's scripts and the build's."""

import subprocess
import sys

import pytest

from tools.pages import ROOT

BIOME = ROOT / "node_modules/.bin/biome"
LINTERS = {
    "ruff check": [sys.executable, "-m", "ruff", "check"],
    "ruff format": [sys.executable, "-m", "ruff", "format", "--check"],
    "biome check": [str(BIOME), "check", "--diagnostic-level=warn"],
}


@pytest.mark.parametrize("command", LINTERS.values(), ids=list(LINTERS))
def test_lint(command):
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
