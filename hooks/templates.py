"""The theme's templates, compiled once and kept between builds.

MkDocs makes a new Jinja environment for every build, so without this each
rebuild under `mkdocs serve` compiles all of Material's templates again (about
a tenth of a rebuild). Jinja's own bytecode cache keeps the compiled code in
.cache/jinja/; it checks each template's source against it and compiles again a
template that changed (and everything after a Jinja or Python upgrade).
"""

from pathlib import Path

from jinja2 import FileSystemBytecodeCache

CACHE = Path(__file__).resolve().parents[1] / ".cache" / "jinja"


def on_env(env, config, files):
    CACHE.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(CACHE))
    return env
