"""Keep mkdocs-jupyter's execution cache honest.

The plugin keys its cache on the notebook's bytes only, so a change in the code the
notebook imports (snippets/) would serve a stale page. This hook keys the cache
folder on that code too, and turns the cache off entirely where CI is set, so CI
always executes every notebook from scratch.
"""

import hashlib
import os
from pathlib import Path


def on_config(config):
    plugin = config.plugins["mkdocs-jupyter"]
    if os.environ.get("CI"):
        plugin.config["cache"] = False
        return config
    root = Path(config.config_file_path).parent
    code = hashlib.sha256()
    for path in sorted((root / "snippets").rglob("*.py")):
        code.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    cache = root / ".cache" / "mkdocs-jupyter" / code.hexdigest()[:16]
    plugin.config["cache_dir"] = str(cache)
    return config
