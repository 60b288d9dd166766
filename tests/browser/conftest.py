"""Fixtures for the browser suite: a fresh strict build served on 127.0.0.1,
Chromium (browser_kit.find_chromium), and a page watcher that must end every test
empty. With no Chromium, a run that includes browser tests stops before the first
test, saying how to get one: the suite is never skipped."""

from __future__ import annotations

import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.browser.browser_kit import (
    CHROMIUM_ARGS,
    TIMEOUT_MS,
    NoChromium,
    Problems,
    SiteHandler,
    built_site,
    chromium,
    site_prefix,
)


def pytest_collection_finish(session):
    """Fail at once, before any test runs, when a selected test drives Chromium
    and none can be found."""
    if not any(
        "browser_type_launch_args" in getattr(i, "fixturenames", ())
        for i in session.items
    ):
        return
    try:
        chromium()
    except NoChromium as error:
        pytest.exit(str(error), returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def site_root() -> Path:
    return built_site()


@pytest.fixture(scope="session")
def base_url(site_root: Path):
    """Overrides pytest-playwright's base_url: the fresh site, on an ephemeral port."""
    handler = type("Handler", (SiteHandler,), {"prefix": site_prefix()})
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(handler, directory=str(site_root))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{site_prefix()}"
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
