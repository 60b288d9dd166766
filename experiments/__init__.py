"""Code that makes the pages' records: long runs, keyed on the code they run
(each file says what it writes, and its `make` target). A record maker measures
nothing of the site itself: what measures time and size is in benchmarks/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def format_like_snippets(*paths: Path) -> None:
    """`ruff format` on the results files just written, with snippets/ruff.toml
    (wherever the files are): laid out as every other snippet. Nothing where
    this Python has no ruff beside it."""
    ruff = Path(sys.executable).with_name("ruff")
    if ruff.exists():
        config = Path(__file__).resolve().parent.parent / "snippets" / "ruff.toml"
        subprocess.run([ruff, "format", "--quiet", "--config", config, *paths],
                       check=True)  # fmt: skip
