"""The strict build passes, shows the article's numbers, and fails loudly on faults."""

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.browser.browser_kit import built_site as shared_build
from tests.pages import copy_sources

MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(root: Path, site: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*MKDOCS, "--site-dir", str(site)],
        cwd=root,
        env={**ENV, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="session")
def built_site():
    return shared_build()  # one strict build per test run, shared with the browser


def page_text(site: Path, page: str) -> str:
    html = (site / page / "index.html").read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(
    "page, numbers",
    [
        (
            "one-head",
            ["0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820", "0.3061, 0.8210"],
        ),
        (
            "second-head",
            [
                "0.6026, 0.1537, 0.1365, 0.0216, 0.0055, 0.0800",
                "0.4345, 0.4181",
                "0.3061, 0.8210, 0.4345, 0.4181",
            ],
        ),
    ],
)
def test_built_site_shows_the_articles_numbers(built_site, page, numbers):
    text = page_text(built_site, page)
    for number in numbers:
        assert number in text, f"{page}: {number} missing from the built page"


def test_math_is_served_by_the_site_itself(built_site):
    assert (built_site / "assets/katex/katex.min.js").exists()
    html = (built_site / "one-head/index.html").read_text(encoding="utf-8")
    assert 'class="arithmatex"' in html
    fetched = re.findall(r'<script[^>]*src="([^"]+)"', html)
    fetched += re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', html)
    assert any("katex" in url for url in fetched)
    assert not [url for url in fetched if "//" in url], "assets from another host"


FAULTS = {
    "missing snippet file": (
        '--8<-- "snippets/one_head/ex02_scores.py:page"',
        '--8<-- "snippets/one_head/ex02_gone.py:page"',
        "ex02_gone.py",
    ),
    "missing snippet section": (
        '--8<-- "snippets/one_head/ex02_scores.py:page"',
        '--8<-- "snippets/one_head/ex02_scores.py:gone"',
        "gone",
    ),
    "broken page link": (
        "[Next: a second head :material-arrow-right:](second-head.md)",
        "[Next: a second head](second-hed.md)",
        "second-hed.md",
    ),
    "broken anchor": (
        "[Next: a second head :material-arrow-right:](second-head.md)",
        "[Next: a second head](second-head.md#no-such-heading)",
        "no-such-heading",
    ),
    "broken raw html link": (
        "[Next: a second head :material-arrow-right:](second-head.md){ .md-button }",
        '<a href="../no-such-page/">Next</a>',
        "no-such-page",
    ),
}


@pytest.fixture(scope="module")
def planted_builds(tmp_path_factory, built_site):
    """Each fault planted in its own copy of the site, all built side by side (the
    builds wait on subprocesses, so threads let them share the cores). After the
    suite's own build, whose saved training runs the copies reuse."""

    def plant_and_build(fault):
        old, new, _ = FAULTS[fault]
        root = copy_sources(tmp_path_factory.mktemp("planted"))
        page = root / "docs" / "one-head.md"
        text = page.read_text(encoding="utf-8")
        assert old in text, f"{fault}: the text to break is no longer on the page"
        page.write_text(text.replace(old, new), encoding="utf-8")
        return build(root, root / "out")

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(FAULTS, pool.map(plant_and_build, FAULTS), strict=True))


@pytest.mark.parametrize("fault", FAULTS)
def test_planted_fault_fails_the_build_naming_the_file(planted_builds, fault):
    result = planted_builds[fault]
    _, _, named = FAULTS[fault]
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"{fault}: the build passed\n{output}"
    assert named in output, output
    assert "one-head.md" in output or fault.startswith("missing snippet"), output
