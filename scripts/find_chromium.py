"""Print the Chromium the browser suite will drive, installing Debian's with apt-get
where that is possible (Debian or Ubuntu, as root) and nothing else is found.
`make test` runs it first; the lookup itself is tests/browser/browser_kit.py's
`find_chromium`: $CHROMIUM, Playwright's own, a system Chromium or Chrome, apt-get.

    .venv/bin/python scripts/find_chromium.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.browser_kit import NoChromium, find_chromium  # noqa: E402


def main() -> int:
    try:
        print(find_chromium(install=True))
    except NoChromium as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
