"""Fixtures for the browser suite: the run's strict build served on 127.0.0.1
(tools/build.py), Chromium (scripts/find_chromium.py), and a page watcher that
must end every test empty. With no Chromium, a run that includes browser tests
stops before the first test, saying how to get one: the suite is never skipped."""

from pathlib import Path

import pytest

from scripts.find_chromium import CHROMIUM_ARGS, NoChromium, chromium
from tests.browser.browser_kit import Problems
from tools.build import serve


def pytest_collection_finish(session):
    if any(
        "browser_type_launch_args" in getattr(i, "fixturenames", ())
        for i in session.items
    ):
        try:
            chromium()
        except NoChromium as error:
            pytest.exit(str(error), returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def base_url(built_site: Path):
    """Overrides pytest-playwright's base_url: the fresh site, on an ephemeral port."""
    url, server = serve(built_site)
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
    # A test changes them with @pytest.mark.browser_context_args (pytest-playwright).
    return {**browser_context_args, "color_scheme": "light", "locale": "en-GB"}


@pytest.fixture
def problems(page, base_url) -> Problems:
    """Watches the page for errors and foreign requests; asserted empty at the end."""
    seen = Problems(base_url).watch(page)
    yield seen
    if not seen.checked:  # tests call it themselves; this catches the rest
        seen.assert_none()
