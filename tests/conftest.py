"""Session-wide: the site built once for the run, each test file's lazy snippet
modules imported (or its page run) before its first test, `--page`, and how
pytest-xdist's workers get the files (`--dist loadfile`: whole files, since a
page's blocks share one namespace, and a page with its test file, which reads
that namespace: tests/pages.py, `on_page`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.pages import import_lazy
from tools.build import BUILT, build
from tools.pages import ROOT, package

# Under xdist, these files in this order first: the reader runs start in the
# background with the first (a kernel per page, two at a time), and the slowest
# files follow, so that no worker is left with a long one at the end.
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


def first(item) -> int:
    path = item.path.relative_to(item.config.rootpath).as_posix()
    path = "tests/browser" if path.startswith("tests/browser/") else path
    return FIRST.index(path) if path in FIRST else len(FIRST)


def pytest_addoption(parser):
    parser.addoption(
        "--page",
        help="`make page`: of the checks run for every page, this page's only "
        "(docs/PAGE), and none that needs the built site",
    )


def built_path(page: str) -> str:
    """The page's path in the built site, as the browser suite names it."""
    return "" if page == "index.md" else page.removesuffix(".md") + "/"


def for_another_page(item, page: str) -> bool:
    """A check of another page, or one that needs the built site while none is
    given (HEADS_BUILT_SITE: `make page` builds it, then runs those)."""
    from hooks.generated import FIGURES

    params = getattr(item, "callspec", None)
    params = params.params if params else {}
    about = [str(v) for k, v in params.items() if k in ("page", "path", "module")]
    pkg = package(page)
    mine = [
        v
        for v in about
        if v == page
        or v == built_path(page)
        or f"/{pkg}/" in v
        or v.startswith(f"snippets.{pkg}.")
        or FIGURES.get(v, "").startswith(f"snippets.{pkg}.")
    ]
    needs_site = "built_site" in getattr(item, "fixturenames", ())
    needs_site &= not os.environ.get("HEADS_BUILT_SITE")
    return needs_site or bool(about and not mine)


def page_group(path: str) -> str:
    """xdist's unit of work for a file (its path from the root): a page and its
    test file share one (one worker, one run of the page: tests/pages.py,
    `on_page`); any other file is a unit of its own."""
    page = path.removeprefix("tests/test_").removesuffix(".py").replace("_", "-")
    if path.startswith("tests/test_") and (ROOT / f"docs/{page}.md").exists():
        return f"docs/{page}.md"
    return path


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, with a page and its test file as one file."""
    if config.getvalue("dist") != "loadfile":
        return None  # xdist's own
    from xdist.scheduler import LoadFileScheduling

    class PageScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return page_group(nodeid.split("::", 1)[0])

    return PageScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=first)  # stable: a page's blocks keep their order
    page = config.getoption("page")
    if page:
        other = [item for item in items if for_another_page(item, page)]
        config.hook.pytest_deselected(items=other)
        items[:] = [item for item in items if item not in other]


@pytest.fixture(scope="module", autouse=True)
def snippets_imported(request):
    """A test file's lazy snippet modules (tests/pages.py), imported before its
    first test: none runs inside a test, under the test's hooks or counters."""
    import_lazy(vars(request.module))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The strict build, once for the run. Under xdist, the first worker to ask
    builds it where every worker finds it (pytest-xdist's recipe for a session
    fixture run once: a folder they share, and a file lock)."""
    if os.environ.get("HEADS_BUILT_SITE"):  # `make page`: built before the run
        return Path(os.environ["HEADS_BUILT_SITE"])
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build(tmp_path_factory.mktemp("site"))
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent / "site"
    with FileLock(f"{shared}.lock"):
        return shared if (shared / BUILT).exists() else build(shared)
