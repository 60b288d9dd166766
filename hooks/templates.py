"""MkDocs hook: the theme's templates compiled once, kept between builds.

MkDocs makes a new Jinja environment for every build, so each rebuild under
`mkdocs serve` compiled all of Material's templates again (a tenth of a rebuild).
Jinja's bytecode cache in .cache/jinja/ recompiles only a template that changed.
"""

from pathlib import Path

from jinja2 import FileSystemBytecodeCache

CACHE = Path(__file__).resolve().parents[1] / ".cache" / "jinja"


def on_env(env, config, files):
    CACHE.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(CACHE))
    return env
