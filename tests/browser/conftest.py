"""Fixtures for the browser suite: the run's strict build served on 127.0.0.1
(hooks/build.py), Chromium (scripts/find_chromium.py), and a page watcher that
must end every test empty. With no Chromium, a run that includes browser tests
stops before the first test, saying how to get one: the suite is never skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.build import serve
from scripts.find_chromium import CHROMIUM_ARGS, NoChromium, chromium
from tests.browser.browser_kit import TIMEOUT_MS, Problems


def pytest_collection_finish(session):
    """Fail at once, before any test runs, when a selected test drives Chromium
    and none can be found."""
    if any(
        "browser_type_launch_args" in getattr(i, "fixturenames", ())
        for i in session.items
    ):
        try:
            chromium()
        except NoChromium as error:
            pytest.exit(str(error), returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def site_root(built_site) -> Path:
    return built_site


@pytest.fixture(scope="session")
def base_url(site_root: Path):
    """Overrides pytest-playwright's base_url: the fresh site, on an ephemeral port."""
    url, server = serve(site_root)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(chromium()),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # A fixed light preference: each test switches scheme explicitly when it needs to.
    return {**browser_context_args, "color_scheme": "light", "locale": "en-GB"}


@pytest.fixture
def problems(page, base_url) -> Problems:
    """Watches the page for errors and foreign requests; asserted empty at the end."""
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(TIMEOUT_MS)
    seen = Problems(base_url)
    seen.watch(page)
    yield seen
    if not seen.checked:  # tests call it themselves; this catches the rest
        seen.assert_none()
