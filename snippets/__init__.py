"""Code shown on the site's pages.

Each file runs on its own from the repository root, for example
`python -m snippets.one_head.ex01_projections`.

`sources(module)` (not shown on any page) names the files a snippet's results
depend on, so that what is computed from a snippet (the saved training runs,
the figures `mkdocs serve` draws) is redone when one of them changes, and only
then.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _file(module: str) -> Path | None:
    """snippets.a.b -> snippets/a/b.py or snippets/a/b/__init__.py, or None"""
    if module.split(".")[0] != "snippets":
        return None
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def sources(module: str) -> list[Path]:
    """The snippet files that importing `module` runs: its own file, its
    packages' `__init__.py`, and the same for every snippet it imports,
    transitively.

    Read from the import statements (an import by a computed name is not
    seen); a relative import fails, naming the file: snippets import
    `snippets.…`.
    """
    found: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = _file(name)
        if name in found or path is None:
            continue
        found[name] = path
        parts = name.split(".")
        todo += [".".join(parts[:n]) for n in range(1, len(parts))]
        todo += _imports(path.read_bytes(), str(path))
    return sorted(set(found.values()))


# parsed once per version of a file (`mkdocs serve` asks on every rebuild)
@functools.cache
def _imports(source: bytes, path: str) -> tuple[str, ...]:
    """The modules a file's import statements name, and what `from` imports
    from them (each may be a module)."""
    names = []
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise ValueError(
                    f"{path}, line {node.lineno}: a relative import; "
                    "write `from snippets.… import …`"
                )
            base = node.module
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    return tuple(names)


def sources_key(module: str) -> str:
    """A short hash of the paths and contents of `sources(module)`."""
    digest = hashlib.sha256()
    for path in sources(module):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
