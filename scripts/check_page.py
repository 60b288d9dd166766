"""The inner loop for one page: `make page PAGE=one-head [UPDATE=1]`.

In seconds, for docs/<page>.md, snippets/<page_with_underscores>/ and
tests/test_<page_with_underscores>.py:

1. lint: `ruff check` and `ruff format --check` on the page's snippets and test
   file (`make format` fixes most of what it finds);
2. with UPDATE=1, rewrite the page's output blocks from what its code prints, and
   the README's table of what each page runs with;
3. the page's blocks in order (every output block checked), its test file, and
   every check of every page that needs no build, for this page (`--page`,
   tests/conftest.py): its snippet files, its place in the nav and on the index,
   its names and citations, its blocks under other CPUs' instruction sets;
4. the placeholders `make new-page` left that are still there.

`make test` also builds the site, runs the page's notebook outside the
repository and opens the page in Chromium: run it before you commit.

    .venv/bin/python -m scripts.check_page PAGE [--update]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from hooks.pages import DOCS, ROOT, package, readme_with_table

BIN = Path(sys.executable).parent
# The test files that check every page; `--page` keeps this page's checks.
EVERY_PAGE = [
    "test_snippets",
    "test_index",
    "test_notation",
    "test_citations",
    "test_cpu_sets",
]


def run(command: list[str]) -> int:
    print("$ " + " ".join([Path(command[0]).name, *command[1:]]))
    # a failure suggests `make page PAGE=... UPDATE=1` (tests/page_plugin.py), not
    # `make update-outputs`, which rewrites every page
    env = {**os.environ, "HEADS_MAKE_PAGE": "1"}
    return subprocess.run(command, cwd=ROOT, env=env).returncode


def placeholders(paths: list[Path], name: str) -> list[str]:
    """Lines with a placeholder from `make new-page` (in the index: its link)."""
    found = []
    for path in [*paths, DOCS / "index.md"]:
        for number, line in enumerate(path.read_text("utf-8").split("\n"), 1):
            if path.name == "index.md" and f"]({name}.md)" not in line:
                continue
            if "placeholder" in line.lower():
                found.append(f"  {path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The inner loop for one page (see CONTRIBUTING.md).",
        usage="make page PAGE=one-head [UPDATE=1]",
    )
    parser.add_argument("page", nargs="?", default="")
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args(argv)
    name = Path(args.page).name.removesuffix(".md")
    if not (DOCS / f"{name}.md").is_file():
        pages = ", ".join(sorted(p.stem for p in DOCS.glob("*.md")))
        print(
            f"make page: no docs/{name}.md (PAGE=one-head, ...). Pages: {pages}",
            file=sys.stderr,
        )
        return 2
    page = f"docs/{name}.md"
    test = f"tests/test_{package(name)}.py"
    code = [p for p in (f"snippets/{package(name)}", test) if (ROOT / p).exists()]
    failed = []
    if code:
        if run([str(BIN / "ruff"), "check", "--output-format=concise", *code]):
            failed.append("lint (ruff check)")
        if run([str(BIN / "ruff"), "format", "--check", *code]):
            failed.append("format (run `make format`)")
    pytest = [
        str(BIN / "python"),
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--no-cov",
    ]
    if args.update:
        run([*pytest, page, "--update-outputs"])
        readme = ROOT / "README.md"
        readme.write_text(
            readme_with_table(readme.read_text("utf-8")), encoding="utf-8"
        )
    tests = [f"tests/{t}.py" for t in EVERY_PAGE] + [test] * (test in code)
    if run([*pytest, page, *tests, f"--page={name}.md"]):
        failed.append("tests")
    snippets = sorted((ROOT / "snippets" / package(name)).glob("ex*.py"))
    left = placeholders(
        [ROOT / page, *snippets, *[ROOT / t for t in [test] if t in code]], name
    )
    if left:
        print(f"\nPlaceholders still to replace ({len(left)}):")
        print("\n".join(left))
    if failed:
        print(f"\nmake page: {name} failed: {', '.join(failed)}")
        return 1
    print(f"\nmake page: {name} passes. Before committing: make test.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
