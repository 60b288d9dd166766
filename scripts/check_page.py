"""The inner loop for one page: `make page PAGE=one-head [UPDATE=1]`.

In seconds: ruff on the page's snippets and test file; with UPDATE=1, its output
blocks and the README's runs-with table rewritten from the code; its blocks, its
test file and every check of every page that needs no build, for this page
(`--page`, tests/conftest.py); then the placeholders `make new-page` left.
`make test` also builds the site, runs the notebook and opens the page in Chromium.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from hooks.pages import DOCS, ROOT, package, readme_with_table

BIN = Path(sys.executable).parent
PYTEST = [f"{BIN}/python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-cov"]
# The test files that check every page; `--page` keeps this page's checks.
EVERY_PAGE = ["snippets", "index", "notation", "citations", "cpu_sets"]


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
        message = f"make page: no docs/{name}.md (PAGE=one-head, ...). Pages: {pages}"
        print(message, file=sys.stderr)
        return 2
    page, test = f"docs/{name}.md", f"tests/test_{package(name)}.py"
    code = [p for p in (f"snippets/{package(name)}", test) if (ROOT / p).exists()]
    failed = []
    if code:
        if run([str(BIN / "ruff"), "check", "--output-format=concise", *code]):
            failed.append("lint (ruff check)")
        if run([str(BIN / "ruff"), "format", "--check", *code]):
            failed.append("format (run `make format`)")
    if args.update:
        run([*PYTEST, page, "--update-outputs"])
        readme = ROOT / "README.md"
        readme.write_text(readme_with_table(readme.read_text("utf-8")), "utf-8")
    own = [test] * (test in code)
    tests = [f"tests/test_{t}.py" for t in EVERY_PAGE] + own
    if run([*PYTEST, page, *tests, f"--page={name}.md"]):
        failed.append("tests")
    snippets = sorted((ROOT / "snippets" / package(name)).glob("ex*.py"))
    left = placeholders([ROOT / page, *snippets, *(ROOT / t for t in own)], name)
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
