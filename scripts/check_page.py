"""The inner loop for one page: `make page PAGE=one-head [UPDATE=1]`.

In seconds, for docs/<page>.md, snippets/<page_with_underscores>/ and
tests/test_<page_with_underscores>.py:

1. lint: `ruff check` and `ruff format --check` on the page's snippets and test
   file (`make format` fixes most of what it finds);
2. with UPDATE=1, rewrite the page's output blocks from what its code prints;
3. run the page's blocks in order (every output block checked), its test file,
   the checks that each of its snippet files is on the page and runs on its own,
   and the check that the page is in the nav and on the index;
4. list the placeholders `make new-page` left that are still there.

The full suite (`make test`) also builds the site, runs every page as a reader
would, outside the repository, and drives a browser: run it before you commit.

    .venv/bin/python scripts/check_page.py PAGE [--update]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def page_name(argument: str) -> str:
    """one-head, one-head.md and docs/one-head.md all name docs/one-head.md."""
    name = Path(argument).name.removesuffix(".md")
    if not (ROOT / "docs" / f"{name}.md").is_file():
        pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
        raise SystemExit(f"make page: no docs/{name}.md. Pages: {', '.join(pages)}")
    return name


def run(command: list[str], shown: str = "") -> int:
    print("$ " + (shown or " ".join([Path(command[0]).name, *command[1:]])))
    # HEADS_MAKE_PAGE: a failure suggests `make page PAGE=... UPDATE=1`
    # (tests/page_plugin.py), not `make update-outputs`, which rewrites every page
    env = {**os.environ, "HEADS_MAKE_PAGE": "1"}
    return subprocess.run(command, cwd=ROOT, env=env).returncode


def placeholders(paths: list[Path], name: str) -> list[str]:
    """Lines with a placeholder from `make new-page` (in the index: its link)."""
    found = []
    for path in [*paths, ROOT / "docs" / "index.md"]:
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
    if not args.page:
        parser.print_usage(sys.stderr)
        print(
            "make page: PAGE is missing, e.g. make page PAGE=one-head", file=sys.stderr
        )
        return 2
    name = page_name(args.page)
    package = name.replace("-", "_")
    page = f"docs/{name}.md"
    folder = ROOT / "snippets" / package
    test = ROOT / "tests" / f"test_{package}.py"
    code = [p for p in (folder, test) if p.exists()]
    code_args = [str(p.relative_to(ROOT)) for p in code]
    snippets = sorted(folder.glob("ex*.py")) if folder.is_dir() else []

    failed = []
    if code_args:
        ruff = [str(BIN / "ruff")]
        if run([*ruff, "check", "--output-format=concise", *code_args]):
            failed.append("lint (ruff check)")
        if run([*ruff, "format", "--check", *code_args]):
            failed.append("format (run `make format`)")
    pytest = [str(BIN / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if args.update:
        run([*pytest, page, "--update-outputs"])
    items = [page]
    if test.exists():
        items.append(str(test.relative_to(ROOT)))
    for path in snippets:
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        items += [
            f"tests/test_snippets.py::test_snippet_is_used_by_a_page[{module}]",
            f"tests/test_snippets.py::test_snippet_runs_on_its_own[{module}]",
        ]
    items.append(
        f"tests/test_page_checks.py::test_page_is_in_the_nav_and_on_the_index[{name}.md]"
    )
    shown = f"pytest {' '.join(items[:2])}"
    shown += f" + tests/test_snippets.py for its {len(snippets)} snippet file(s)"
    shown += " + its nav entry and index link (tests/test_page_checks.py)"
    if run([*pytest, *items], shown):
        failed.append("tests")

    left = placeholders(
        [ROOT / page, *snippets, *([test] if test.exists() else [])], name
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
