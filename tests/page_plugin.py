"""Run every code block of every page, after snippet expansion, as a reader would.

All Python blocks of a page run in order in one namespace: a reader who pastes them,
in order, into one fresh Python session. The output block after a code block
(tools/pages.py) must equal what the block printed; a failure names the page and
line and shows a diff. `--update-outputs` rewrites those blocks from the code
instead (`make update-outputs`).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from tools.pages import (
    DOCS,
    EXPECTED_OUTPUT,
    OUTPUT,
    PYTHON,
    ROOT,
    SHELL,
    Block,
    compiled,
    read,
)

TALLY = Counter()
# Each page collected in this process, by path: its one run, which the page's own
# items check and its test file reads (tests/pages.py, `on_page`).
PAGE_FILES: dict[Path, PageFile] = {}
UPDATES: dict[Path, dict[int, str]] = {}  # page -> {a code block's first line: output}
# Set by `make page` (scripts/check_page.py) for the runs it starts.
UNDER_MAKE_PAGE = "HEADS_MAKE_PAGE"
# Set by tests/cpu_sets.py: every printed float one ulp up (+1) or down (-1).
SHIFT = "HEADS_LAST_BIT"
GRAD_FN = re.compile(r"grad_fn=<\w*>")
HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def update_hint(page_name: str) -> str:
    """The command that rewrites a page's output blocks from its code: under `make
    page` the page's own (`make update-outputs` rewrites every page)."""
    page = f"`make page PAGE={Path(page_name).stem} UPDATE=1`"
    if os.environ.get(UNDER_MAKE_PAGE):
        return page
    return f"{page} (or `make update-outputs` for every page)"


def pytest_addoption(parser):
    parser.addoption(
        "--update-outputs",
        action="store_true",
        help="rewrite the output blocks on the pages from what the code prints",
    )


def pytest_configure(config):
    shift = os.environ.get(SHIFT)
    if shift:  # a run of tests/cpu_sets.py: printed floats one ulp off
        from tests.last_bit import shift_printed_values

        shift_printed_values(int(shift))


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".md" and DOCS in file_path.parents:
        return PageFile.from_parent(parent, path=file_path)
    return None


class PageError(Exception):
    """A problem with a page's code blocks, reported without a Python traceback."""


class ReportsPageErrors:
    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, PageError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class PageFile(ReportsPageErrors, pytest.File):
    def collect(self):
        try:
            page = read(self.path)
        except Exception as error:  # a missing snippet file or section
            raise PageError(f"{self.path.relative_to(ROOT)}: {error}") from error
        self.namespace: dict = {"__name__": "__main__"}
        self.ran = 0
        self.blocks: list[PageBlock] = []
        PAGE_FILES[self.path] = self
        TALLY["pages"] += 1
        for block in page.blocks:
            where = f"{page.name}:{block.start}"
            if block.language in OUTPUT:
                raise PageError(
                    f"{where}: an output block that no test checks; put "
                    f"{EXPECTED_OUTPUT} before it, right after its code block"
                )
            if block.language not in PYTHON | SHELL:
                continue
            skips = [m for m in block.marks if m.startswith("pytest.mark.skip")]
            if any("reason=" not in mark for mark in skips):
                raise PageError(f"{where}: a skip needs reason='...'")
            item = PageBlock.from_parent(self, name=f"line {block.start}")
            item.block, item.where = block, where
            for mark in block.marks:
                item.add_marker(eval(mark, {"pytest": pytest}))
            if skips:
                TALLY["skipped with a reason"] += 1
            else:
                self.blocks.append(item)
            yield item

    def run_all(self) -> dict:
        """The page's namespace after every block ran (once each): what its test
        file reads. A block that raises fails here and in its own item."""
        if self.blocks:
            self.run_until(self.blocks[-1])
        return self.namespace

    def run_until(self, item: PageBlock) -> str:
        """Run the page's blocks up to `item` (once each) and return its output."""
        while self.ran <= self.blocks.index(item):
            block = self.blocks[self.ran]
            self.ran += 1
            block.output = block.run(self.namespace)
        return item.output


class PageBlock(ReportsPageErrors, pytest.Item):
    """A code block of a page: a Python block runs in the page's namespace, a
    shell block (a command for the reader's terminal) from the repository root."""

    block: Block
    where: str
    output: str = ""

    def run(self, namespace: dict) -> str:
        if self.block.language in SHELL:
            result = subprocess.run(
                ["/bin/bash", "-c", self.block.code],
                cwd=ROOT, capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            if result.returncode:
                raise RuntimeError(f"exit status {result.returncode}\n{result.stderr}")
            return result.stdout
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            for code in compiled(self.block, self.where):  # snippets as their files
                exec(code, namespace)
        return stdout.getvalue()

    def runtest(self):
        try:
            actual = self.parent.run_until(self)
        except Exception as error:
            numbered = self.block.code.splitlines()
            raise PageError(
                f"{self.where}: the code block raised {type(error).__name__}: {error}\n"
                + "".join(f"  {n:>3} | {line}\n" for n, line in enumerate(numbered, 1))
            ) from error
        TALLY["code blocks executed"] += 1
        if GRAD_FN.search(actual):
            raise PageError(
                f"{self.where}: the block prints a tensor that records how it was "
                f"computed for autograd ({GRAD_FN.search(actual)[0]}...): a reader "
                "does not need it, and it changes with the last operation. Print "
                "results computed under `with torch.no_grad():` (or `t.detach()`); "
                "see CONTRIBUTING.md.\n" + actual
            )
        output = self.block.output
        if self.config.getoption("update_outputs"):
            if actual != (output.text if output else ""):
                UPDATES.setdefault(self.path, {})[self.block.start] = actual
        elif output is None and actual:
            raise PageError(
                f"{self.where}: the block prints, but the page shows no output block "
                f"after it (run {update_hint(self.where)}):\n{actual}"
            )
        elif output is not None:
            TALLY["outputs checked"] += 1
            if actual != output.text:
                raise PageError(self.mismatch(output, actual))

    def mismatch(self, output: Block, actual: str) -> str:
        """An output block that differs from what its code printed: the failure
        names the block's first differing line, the diff the page's lines."""
        old, new = output.text.splitlines(True), actual.splitlines(True)
        same = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
            min(len(old), len(new)),
        )
        first = output.start + 1
        span = f"{first}-{output.end - 1}" if output.end - 1 > first else f"{first}"
        page = self.where.split(":")[0]
        diff = difflib.unified_diff(
            old,
            new,
            fromfile=f"{page}:{span} (output block on the page)",
            tofile=f"what the code block at line {self.block.start} prints",
        )

        def in_page_lines(hunk: re.Match) -> str:  # a hunk header's line numbers
            a, b = int(hunk[1]) + first - 1, int(hunk[3]) + first - 1
            return f"@@ -{a}{hunk[2] or ''} +{b}{hunk[4] or ''} @@"

        diff = [HUNK.sub(in_page_lines, line) for line in diff]
        return (
            f"{page}:{min(first + same, output.end)}: the page's output block does not "
            f"match what the code block at line {self.block.start} prints.\n"
            + "".join(diff)
            + f"\nIf the change is intended, run {update_hint(page)}."
        )

    def reportinfo(self):
        return self.path, self.block.start - 1, self.where


# -- a test file that imports a snippet module that is not there ---------------------

MISSING_SNIPPET = re.compile(
    r"ModuleNotFoundError: No module named '(snippets\.[\w.]+)'"
)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A test file that cannot import a snippet module (renamed or deleted, as the
    scaffold's first one often is) fails naming the module, the file it would
    be, the page and the snippet files that are there."""
    report = yield
    if report.failed and isinstance(collector, pytest.Module):
        missing = MISSING_SNIPPET.search(str(report.longrepr))
        if missing:
            advice = missing_snippet(collector.path, missing[1])
            report.longrepr = f"{advice}\n\n{report.longrepr}"
    return report


def missing_snippet(test_file: Path, module: str) -> str:
    """What to say when `test_file` cannot import `module` (snippets.x.y)."""
    where = test_file.relative_to(ROOT)
    lines = test_file.read_text(encoding="utf-8").split("\n")
    line = next((n for n, t in enumerate(lines, 1) if module in t), None)
    parts = module.split(".")
    path = Path(*parts)
    place = f"{where}:{line}: imports" if line else f"{where}: an import it makes needs"
    message = f"{place} {module}, but there is no {path}.py"
    if len(parts) > 1:
        folder = ROOT / "snippets" / parts[1]
        page = DOCS / f"{parts[1].replace('_', '-')}.md"
        if not folder.is_dir():
            message += f" (no folder snippets/{parts[1]}/)"
        else:
            files = ", ".join(sorted(p.name for p in folder.glob("ex*.py")))
            message += f"; snippets/{parts[1]}/ holds: {files or 'no exNN file'}"
        if page.is_file():
            message += f" (the snippets of {page.relative_to(ROOT)})"
    return message + ". Import from the file that defines it now."


# -- update mode ---------------------------------------------------------------------


def _rewrite(path: Path, outputs: dict[int, str]) -> None:
    """Each code block that starts at a line in `outputs` gets that output block
    (a new one after it, if it has none)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    for block in reversed(read(path, text).blocks):  # bottom up: line numbers hold
        if block.start in outputs:
            new = outputs[block.start].rstrip("\n")
            body = (
                [block.indent + x if x else x for x in new.split("\n")] if new else []
            )
            if block.output:
                lines[block.output.start : block.output.end - 1] = body
            else:
                fence = block.indent + "```"
                marker = ["", block.indent + EXPECTED_OUTPUT, "", fence + "text"]
                lines[block.end : block.end] = [*marker, *body, fence]
    path.write_text("\n".join(lines), encoding="utf-8")


def pytest_sessionfinish(session):
    for path, outputs in UPDATES.items():
        _rewrite(path, outputs)
    if hasattr(session.config, "workeroutput"):  # a pytest-xdist worker: to the tally
        session.config.workeroutput["heads_tally"] = dict(TALLY)


# Each xdist worker collects every page (the counts made while collecting are the
# same in each) and runs some of them.
COLLECTED = ("pages", "skipped with a reason")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    tally = getattr(node, "workeroutput", {}).get("heads_tally", {})
    for key, count in tally.items():
        TALLY[key] = max(TALLY[key], count) if key in COLLECTED else TALLY[key] + count


def pytest_terminal_summary(terminalreporter):
    if os.environ.get(SHIFT) and TALLY["pages"]:  # what tests/cpu_sets.py checks
        import torch

        terminalreporter.write_line(
            f"printed floats shifted {os.environ[SHIFT]} ulp; torch's CPU "
            f"capability: {torch.backends.cpu.get_cpu_capability()}"
        )
    if TALLY["pages"]:
        broken = [
            r.nodeid
            for r in terminalreporter.stats.get("error", [])
            if isinstance(r, pytest.CollectReport)
        ]
        terminalreporter.write_line(
            f"pages: {TALLY['pages']}, code blocks executed: "
            f"{TALLY['code blocks executed']}, outputs checked: "
            f"{TALLY['outputs checked']}, blocks skipped with a reason: "
            f"{TALLY['skipped with a reason']}"
            + (
                f" (pytest ran nothing: {', '.join(broken)} could not be collected;"
                " the ERRORS above say why)"
                if broken and not TALLY["code blocks executed"]
                else ""
            )
        )
    for path, outputs in UPDATES.items():
        terminalreporter.write_line(
            f"updated {len(outputs)} output block(s) in {path.relative_to(ROOT)}"
        )
