"""The Chromium the browser suite, `make audit` and `make bench-live` drive: see
find_chromium for where it is looked for.

    .venv/bin/python -m scripts.find_chromium
"""

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Every host but 127.0.0.1 resolves to nothing: a stray request fails at once.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
SYSTEM_CHROMIUMS = [  # where a system Chromium or Chrome lives, tried in order
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
]
SYSTEM_COMMANDS = "chromium chromium-browser google-chrome-stable google-chrome chrome"
SYSTEM_COMMANDS = SYSTEM_COMMANDS.split()  # then on PATH, in order
OS_RELEASE = Path("/etc/os-release")
APT_INSTALL = ["apt-get", "install", "-y", "-q", "chromium"]
HOW_TO_GET_ONE = (
    "No Chromium for the browser suite. Get one of: "
    "CHROMIUM=/path/to/chromium-or-chrome; "
    "`.venv/bin/playwright install chromium` (downloads Playwright's own); "
    "a system Chromium or Google Chrome; "
    "on Debian or Ubuntu, `apt-get install chromium` as root (`make test` does it)."
)


class NoChromium(RuntimeError):
    pass


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def playwright_chromium() -> Path | None:
    """Playwright's own Chromium, if `playwright install chromium` has put it there
    (asked in a subprocess: the sync API cannot start inside pytest-playwright's)."""
    ask = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    result = subprocess.run(
        [sys.executable, "-c", ask], capture_output=True, text=True, timeout=60
    )
    path = Path(result.stdout.strip()) if result.returncode == 0 else None
    return path if path and _runnable(path) else None


def system_chromium() -> Path | None:
    for candidate in SYSTEM_CHROMIUMS:
        if _runnable(Path(candidate)):
            return Path(candidate)
    for command in SYSTEM_COMMANDS:
        if found := shutil.which(command):
            return Path(found)
    return None


def apt_can_install() -> bool:
    """Debian or Ubuntu, as root, with apt-get."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    try:
        release = OS_RELEASE.read_text(encoding="utf-8")
    except OSError:
        return False
    ids = re.findall(r"^(?:ID|ID_LIKE)=\"?([^\"\n]*)", release, re.M)
    return any(name in ("debian", "ubuntu") for i in ids for name in i.split())


def apt_install_chromium() -> Path:
    print("Installing Chromium for the browser suite (apt-get)...", file=sys.stderr)
    for command in (["apt-get", "update", "-q"], APT_INSTALL):
        if subprocess.run(command).returncode != 0:
            raise NoChromium(f"`{' '.join(command)}` failed. {HOW_TO_GET_ONE}")
    if found := system_chromium():
        return found
    raise NoChromium(f"apt-get installed chromium, but no binary. {HOW_TO_GET_ONE}")


def find_chromium(install: bool = False) -> Path:
    """The Chromium the suite drives, from the first place that has one:
    1. $CHROMIUM (which must then be a runnable file);
    2. Playwright's own, if `playwright install chromium` has put it there;
    3. a system Chromium or Chrome (SYSTEM_CHROMIUMS, then SYSTEM_COMMANDS);
    4. with `install`, on Debian or Ubuntu as root: apt-get's `chromium`.
    Otherwise NoChromium, saying how to get one."""
    if chosen := os.environ.get("CHROMIUM"):
        if _runnable(Path(chosen)):
            return Path(chosen)
        raise NoChromium(f"CHROMIUM={chosen} is not a runnable file. {HOW_TO_GET_ONE}")
    for finder in (playwright_chromium, system_chromium):
        if found := finder():
            return found
    if install and apt_can_install():
        return apt_install_chromium()
    raise NoChromium(HOW_TO_GET_ONE)


@functools.cache
def chromium() -> Path:
    """find_chromium's answer, once per process."""
    return find_chromium()


if __name__ == "__main__":
    try:
        print(find_chromium(install=True))
    except NoChromium as error:
        sys.exit(str(error))
