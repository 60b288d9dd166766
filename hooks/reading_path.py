"""MkDocs hook: a star in the nav beside the core path's pages (`extra.core_path`
in mkdocs.yml, the stops docs/index.md lists), as Material's page status `core`,
titled by `extra.status.core` (a status without its title fails the build). A
partial copy of the site may lack some of them: tests/test_notation.py checks the
list against the index and the nav.
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
