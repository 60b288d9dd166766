"""The inner loop for one page: `make page PAGE=one-head [UPDATE=1]`.

Ruff on the page's snippets and test file; with UPDATE=1, its output blocks, its
runs-with line and the README's runs-with table rewritten from the code; its
blocks, its test file and
every check of every page that needs no build, for this page (`--page`,
tests/conftest.py); then the site built, and the checks that read it (BUILT_SITE)
for this page and the budgets every page shares, with the room left under each;
then the placeholders `make new-page` left. What `make test` runs besides is about
other pages, or the site as a whole (its links, its search, its build faults).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.build import build, weight_report
from tools.pages import DOCS, ROOT, package, page_with_runs_with, readme_with_table

BIN = Path(sys.executable).parent
PYTEST = [f"{BIN}/python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-cov"]
# The test files that check every page; `--page` keeps this page's checks.
EVERY_PAGE = ["snippets", "index", "notation", "citations", "cpu_sets", "pins"]
FIGURES = [  # the page's figures: shown with alt text, drawn the same every time
    "tests/test_figures.py::test_each_figure_is_on_a_page_with_alt_text",
    "tests/test_figures.py::test_svg_is_self_contained_and_deterministic",
]
# What reads the built site: the budgets every page shares (a new page adds to the
# search index, which has one), the page's HTML (no Markdown left, every formula
# typeset), its notebook and the reader's copy of its code, and the page in
# Chromium (axe, layout shifts, a screenshot, its console).
BUILT_SITE = [
    "tests/test_site_build.py::test_every_page_stays_within_its_weight_budget",
    "tests/test_site_build.py::test_search_stays_within_its_budget_that_grows_with_the_site",
    "tests/test_site_build.py::test_no_page_shows_its_markdown_source",
    "tests/test_site_build.py::test_every_formula_is_typeset_at_build_time",
    "tests/test_reader.py::test_the_notebook_is_the_page",
    "tests/test_reader.py::test_the_page_runs_as_the_reader_copies_it",
    "tests/browser/test_pages.py::test_page",
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


def built_site_checks(name: str) -> list[str]:
    """The site built, BUILT_SITE's checks run on it for this page, and the room
    left under each budget that every page shares printed; what failed."""
    with tempfile.TemporaryDirectory(prefix="heads-page-") as folder:
        print("$ mkdocs build --strict")
        try:
            site = build(Path(folder) / "site")
        except RuntimeError as error:
            print(error)
            return ["the build"]
        os.environ["HEADS_BUILT_SITE"] = str(site)
        try:
            failed = run([*PYTEST, *BUILT_SITE, f"--page={name}.md"])
        finally:
            del os.environ["HEADS_BUILT_SITE"]
        print("\nThe budgets every page shares (tests/test_site_build.py):")
        print("\n".join(f"  {line}" for line in weight_report(site)))
    return ["the built site's checks"] if failed else []


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
        text = (ROOT / page).read_text("utf-8")
        (ROOT / page).write_text(page_with_runs_with(f"{name}.md", text), "utf-8")
    own = [test] * (test in code)
    tests = [f"tests/test_{t}.py" for t in EVERY_PAGE] + FIGURES + own
    if run([*PYTEST, page, *tests, f"--page={name}.md"]):
        failed.append("tests")
    if not failed:  # the build and its checks take a while: only once these pass
        failed += built_site_checks(name)
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
