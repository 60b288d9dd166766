"""Notebook pages (mkdocs-jupyter): an honest execution cache, no MathJax.

The plugin keys its cache on the notebook's bytes only, so a change in the code the
notebook imports (snippets/) would serve a stale page. This hook keys the cache
folder on that code too, and turns the cache off entirely where CI is set, so CI
always executes every notebook from scratch.
"""

import hashlib
import os
import re
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


# nbconvert's template loads MathJax from a CDN unless told another address; with
# the plugin's empty default it writes `<script src="">` and a MathJax config. This
# site typesets math at build time with its own KaTeX (hooks/katex.py), notebook
# cells included, so both are dropped, and so is the script that would import
# Mermaid from a CDN (our notebooks have no diagrams).
THIRD_PARTY = re.compile(
    r'<script src=""> </script>'
    r'|<script type="text/x-mathjax-config">.*?</script>'
    r'|<script type="module">(?:(?!</script>).)*?mermaid\.esm\.min\.mjs.*?</script>',
    re.S,
)


def on_post_page(output, page, config):
    if page.file.src_uri.endswith(".ipynb"):
        return THIRD_PARTY.sub("", output)
    return output
