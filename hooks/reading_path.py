"""MkDocs hook: a star in the navigation beside the pages of the core path.

The core path is the five stops the index lists under "The core path" (docs/index.md);
mkdocs.yml names their pages in `extra.core_path`. Each of those pages gets Material's
page status `core`, which the navigation shows as the icon docs/assets/css/heads.css
gives it, titled with `extra.status.core`; a status without its title fails the
build. (A partial copy of the site, as the planted-fault builds make, may lack some of
the pages: tests/test_notation.py checks the list against the index and the nav.)
"""

from __future__ import annotations

STATUS = "core"


def on_files(files, config):
    core = config["extra"].get("core_path", [])
    if core and not config["extra"].get("status", {}).get(STATUS):
        raise ValueError(f"mkdocs.yml: extra.status.{STATUS} must title the star")
    return files


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri in config["extra"].get("core_path", []):
        page.meta["status"] = STATUS
    return markdown
