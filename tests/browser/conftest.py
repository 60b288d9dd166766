"""Fixtures for the browser suite: a fresh strict build served on 127.0.0.1,
Debian's Chromium, and a page watcher that must end every test empty."""

from __future__ import annotations

import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.browser.browser_kit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    TIMEOUT_MS,
    Problems,
    SiteHandler,
    built_site,
    site_prefix,
)


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
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: `apt-get install -y chromium` (.ci/run does it)"
        )
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
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
