"""Session-wide: the slow reader runs started early (tests/test_reader.py), and
how `make test` spreads the suite over the cores with pytest-xdist.

Under xdist each worker collects every test; `--dist loadfile` then hands out
whole files (a page's blocks share one namespace), in the order set here. The
site is built once, into a folder the workers share (tests/browser/browser_kit.py,
SHARED_SITE).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

# Under xdist, these files in this order first: the reader runs start in the
# background with the first (they run a kernel per page, two at a time), and the
# slowest files follow, so that no worker is left with a long one at the end.
FIRST = [
    "tests/test_reader.py",
    "tests/test_cpu_sets.py",  # waits for its run of every page, in a process
    "docs/ablation.md",
    "docs/training.md",
    "tests/browser",
    "tests/test_page_checks.py",
    "tests/test_contributing.py",
    "tests/test_snippets.py",
]


def is_worker(config) -> bool:
    return hasattr(config, "workerinput")


# -- the controller (make test): one build folder for every worker -----------------

_SHARED: list[Path] = []


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    if not _SHARED:
        _SHARED.append(Path(tempfile.mkdtemp(prefix="heads-site-")))
    node.workerinput["heads_site"] = str(_SHARED[0])


def pytest_unconfigure(config):
    for folder in _SHARED:
        shutil.rmtree(folder, ignore_errors=True)
        Path(f"{folder}.lock").unlink(missing_ok=True)


# -- a worker, or a run without xdist ------------------------------------------


def pytest_configure(config):
    if is_worker(config):
        from tests.browser import browser_kit

        browser_kit.SHARED_SITE = Path(config.workerinput["heads_site"])


def first(item) -> int:
    path = item.path.relative_to(item.config.rootpath).as_posix()
    path = "tests/browser" if path.startswith("tests/browser/") else path
    return FIRST.index(path) if path in FIRST else len(FIRST)


def pytest_collection_modifyitems(config, items):
    if is_worker(config):
        items.sort(key=first)  # stable: a page's blocks keep their order


@pytest.fixture(scope="module", autouse=True)
def snippets_imported(request):
    """A test file's lazy snippet modules (tests/pages.py), imported before its
    first test, as imports at its top would be: none runs inside a test, under the
    test's hooks or counters."""
    from tests.pages import import_lazy

    import_lazy(vars(request.module))


def pytest_collection_finish(session):
    pages = {
        item.callspec.params["page"]
        for item in session.items
        if getattr(item, "originalname", "")
        == "test_the_page_runs_as_the_reader_copies_it"
    }
    if pages:
        from tests import test_reader

        test_reader.SELECTED = sorted(pages)
        if not is_worker(session.config):  # else with their first test, in its worker
            test_reader.start_runs(test_reader.SELECTED)
