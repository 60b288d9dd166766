"""Run every code block of every page, after snippet expansion, as a reader would.

All Python blocks of a page run in order in one namespace: a reader who pastes them,
in order, into one fresh Python session. The text block after
`<!--pytest-codeblocks:expected-output-->` must equal what the block printed;
a failure names the page and line and shows a diff. `--update-outputs` rewrites
those blocks from the code instead (`make update-outputs`).
"""

from __future__ import annotations

import os

# OpenMP threads that spin while they wait steal the core a build, a kernel or the
# browser is using (tiny tensors on 2 busy cores ran 4x slower). Set before torch
# loads its OpenMP runtime; results do not depend on it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import contextlib
import difflib
import io
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from pytest_codeblocks.plugin import TestBlock

from tests.pages import (
    DOCS,
    EXPECTED_OUTPUT_MARKER,
    OUTPUT,
    PYTHON,
    ROOT,
    SHELL,
    code_blocks,
    expand,
    language,
    output_block_lines,
)

TALLY = Counter()
UPDATES: dict[Path, dict[int, str]] = {}  # page -> {page line of code block: output}
# Set by `make page` (scripts/check_page.py) for the runs it starts.
UNDER_MAKE_PAGE = "HEADS_MAKE_PAGE"
# Set by tests/cpu_sets.py: every printed float one ulp up (+1) or down (-1).
SHIFT = "HEADS_LAST_BIT"


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


class PageFile(pytest.File):
    def collect(self):
        try:
            page = expand(self.path)
        except Exception as error:  # a missing snippet file or section
            raise PageError(f"{self.path.relative_to(ROOT)}: {error}") from error
        self.namespace: dict = {"__name__": "__main__"}
        self.ran = 0
        self.blocks: list[PageBlock] = []
        TALLY["pages"] += 1
        for block in code_blocks(page):
            lang = language(block)
            line = page.page_line(block.lineno)
            name = f"line {line}"
            if lang in OUTPUT:
                raise PageError(
                    f"{page.name}:{line}: an output block that no test checks; put "
                    f"{EXPECTED_OUTPUT_MARKER} before it, right after its code block"
                )
            if lang not in PYTHON | SHELL:
                continue
            skips = [m for m in block.marks if m.startswith("pytest.mark.skip")]
            for mark in skips:
                if "reason=" not in mark:
                    raise PageError(f"{page.name}:{line}: a skip needs reason='...'")
            item = PageBlock.from_parent(self, name=name, obj=block)
            item.page_line = line
            item.page_name = page.name
            item.output_lines = output_block_lines(page, line)
            item.shell = lang in SHELL
            for mark in block.marks:
                item.add_marker(eval(mark, {"pytest": pytest}))
            if not skips:
                self.blocks.append(item)
            else:
                TALLY["skipped with a reason"] += 1
            yield item

    def run_until(self, item: PageBlock) -> str:
        """Run the page's blocks up to `item` (once each) and return its output."""
        index = self.blocks.index(item)
        while self.ran <= index:
            block = self.blocks[self.ran]
            self.ran += 1
            block.output = run_shell(block) if block.shell else self.run_python(block)
        return item.output

    def run_python(self, block: PageBlock) -> str:
        where = f"{block.page_name}:{block.page_line}"
        code = compile(block.obj.code, where, "exec")
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            exec(code, self.namespace)
        return stdout.getvalue()

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, PageError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


def run_shell(block: PageBlock) -> str:
    """A command for the reader's terminal, run from the repository root."""
    result = subprocess.run(
        block.obj.code,
        shell=True,
        executable="/bin/bash",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode:
        raise RuntimeError(f"exit status {result.returncode}\n{result.stderr}")
    return result.stdout


class PageBlock(TestBlock):
    """A Python block of a page, run in the page's shared namespace."""

    output: str = ""
    shell: bool = False
    output_lines: tuple[int, int] | None = None  # page lines: first, closing fence

    def runtest(self):
        page: PageFile = self.parent
        where = f"{self.page_name}:{self.page_line}"
        try:
            actual = page.run_until(self)
        except Exception as error:
            raise PageError(
                f"{where}: the code block raised {type(error).__name__}: {error}\n"
                + "".join(_numbered(self.obj.code))
            ) from error
        TALLY["code blocks executed"] += 1
        if GRAD_FN.search(actual):
            raise PageError(
                f"{where}: the block prints a tensor that records how it was computed "
                f"for autograd ({GRAD_FN.search(actual)[0]}...): a reader does not "
                "need it, and it changes with the last operation. Print results "
                "computed under `with torch.no_grad():` (or `t.detach()`); see "
                "CONTRIBUTING.md.\n" + actual
            )
        expected = self.obj.expected_output
        if self.config.getoption("update_outputs"):
            if actual != (expected or ""):
                UPDATES.setdefault(self.path, {})[self.page_line] = actual
            return
        if expected is None:
            if actual:
                raise PageError(
                    f"{where}: the block prints, but the page shows no output block "
                    f"after it (run {update_hint(self.page_name)}):\n{actual}"
                )
            return
        TALLY["outputs checked"] += 1
        if actual != expected:
            raise PageError(self.mismatch(expected, actual))

    def mismatch(self, expected: str, actual: str) -> str:
        """The failure for an output block that differs from what its code printed:
        it names the line of the output block to edit (its first differing line),
        and the diff's line numbers are the page's."""
        first, close = self.output_lines
        old, new = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
        same = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
            min(len(old), len(new)),
        )
        line = min(first + same, close)
        diff = difflib.unified_diff(
            old,
            new,
            fromfile=f"{self.page_name}:{first}"
            + (f"-{close - 1}" if close - 1 > first else "")
            + " (output block on the page)",
            tofile=f"what the code block at line {self.page_line} prints",
        )
        hunk = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")
        shift = first - 1  # hunk headers in the page's line numbers
        diff = [
            hunk.sub(
                lambda m: (
                    f"@@ -{int(m[1]) + shift}{m[2] or ''} "
                    f"+{int(m[3]) + shift}{m[4] or ''} @@"
                ),
                h,
            )
            for h in diff
        ]
        return (
            f"{self.page_name}:{line}: the page's output block does not match what "
            f"the code block at line {self.page_line} prints.\n"
            + "".join(diff)
            + f"\nIf the change is intended, run {update_hint(self.page_name)}."
        )

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, PageError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.page_line - 1, f"{self.page_name}:{self.page_line}"


GRAD_FN = re.compile(r"grad_fn=<\w*>")


def _numbered(code: str) -> list[str]:
    return [f"  {n:>3} | {line}\n" for n, line in enumerate(code.splitlines(), 1)]


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
            report.longrepr = (
                missing_snippet(collector.path, missing[1])
                + "\n\n"
                + str(report.longrepr)
            )
    return report


def missing_snippet(test_file: Path, module: str) -> str:
    """What to say when `test_file` cannot import `module` (snippets.x.y)."""
    where = test_file.relative_to(ROOT)
    lines = test_file.read_text(encoding="utf-8").split("\n")
    line = next((n for n, t in enumerate(lines, 1) if module in t), None)
    parts = module.split(".")
    path = Path(*parts)
    message = (
        f"{where}:{line}: imports {module}, but there is no {path}.py"
        if line
        else f"{where}: an import it makes needs {module}, but there is no {path}.py"
    )
    if len(parts) > 1:
        folder = ROOT / "snippets" / parts[1]
        page = DOCS / f"{parts[1].replace('_', '-')}.md"
        if not folder.is_dir():
            message += f" (no folder snippets/{parts[1]}/)"
        else:
            files = sorted(p.name for p in folder.glob("ex*.py"))
            message += (
                f"; snippets/{parts[1]}/ holds: {', '.join(files) or 'no exNN file'}"
            )
        if page.is_file():
            message += f" (the snippets of {page.relative_to(ROOT)})"
    return message + ". Import from the file that defines it now."


# -- update mode ---------------------------------------------------------------------

_FENCE = re.compile(r"^(\s*)(`{3,})")


def _rewrite(path: Path, outputs: dict[int, str]) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    for code_line in sorted(outputs, reverse=True):  # bottom up: line numbers hold
        start = code_line - 1
        indent, fence = _FENCE.match(lines[start]).groups()
        end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == fence)
        new_output = outputs[code_line].rstrip("\n").split("\n")
        body = [indent + x if x else x for x in new_output]
        after = end + 1
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after < len(lines) and lines[after].strip() == EXPECTED_OUTPUT_MARKER:
            open_ = after + 1
            while not lines[open_].strip():
                open_ += 1
            close = next(
                i for i in range(open_ + 1, len(lines)) if lines[i].strip() == fence
            )
            lines[open_ + 1 : close] = body if outputs[code_line] else []
        else:
            block = ["", indent + EXPECTED_OUTPUT_MARKER, "", indent + "```text"]
            lines[end + 1 : end + 1] = [*block, *body, indent + "```"]
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
