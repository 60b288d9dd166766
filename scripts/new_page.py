"""Scaffold a new page: `make new-page NAME=my-page [TITLE="My page"] [AFTER=cost.md]`.

Writes the page, its first snippet and its test file, each with placeholders, and
registers the page wherever pages are listed (CONTRIBUTING.md, "Adding a page").
What it writes passes `make page PAGE=my-page` and `make test` as written.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tools.pages import DOCS, NUMBER, ROOT, nav_pages, package, readme_with_table

NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
NAV_ENTRY = re.compile(r"^(?P<indent>\s*)- (?P<label>.+?):\s+(?P<page>\S+\.md)\s*$")
INDEX_ITEM = re.compile(r"^- \[[^\]]*\]\((?P<page>[^)#\s]+\.md)(?:#[^)]*)?\)")
NEXT = re.compile(r"^\[Next: .+ →\]\((?P<page>[\w-]+\.md)\)\{ \.md-button \}$")
FIRST = "ex01_first_step"

PAGE = """\
# {title}

*Runs with PyTorch: paste the blocks in order into one Python session, or get this
page as a [notebook](notebooks/{name}.ipynb){{ download="{name}.ipynb" }}.*

Placeholder from `make new-page`: replace this paragraph with the question this
page answers, for a reader who knows matrix multiplication. Every number in the
prose, math included, is registered in `tests/test_{package}.py` (see
CONTRIBUTING.md).

## A first step

Placeholder: say what the block below computes. Its code is the `page` section
of `snippets/{package}/{first}.py`.
After you change it, this command rewrites the output block under it from what
the code prints: `make page PAGE={name} UPDATE=1`.

```python title="snippets/{package}/{first}.py"
--8<-- "snippets/{package}/{first}.py:page"
```

<!--pytest-codeblocks:expected-output-->

```text
torch.Size([6, 3])
```

The input holds 6 tokens of 3 numbers each.
"""

SNIPPET = """\
# Placeholder from `make new-page`: replace this file with the page's first
# step. The page shows what is between the two markers. Lines outside them
# are hidden set-up that lets the file run on its own (in later files, the
# `from snippets.… import …` of what earlier blocks defined). Code between
# the markers never imports from `snippets`: a reader has torch, not this
# repository.

# --8<-- [start:page]
import torch

torch.manual_seed(0)
x = torch.rand(6, 3)  # (t, d_model): 6 tokens, 3 numbers each
print(x.shape)
# --8<-- [end:page]
"""

TEST = '''\
"""Claims on docs/{name}.md."""

from tests.pages import check_prose_numbers, on_page

# What the page's own run computed (CONTRIBUTING.md: "A page runs once")
first = on_page("{name}.md", "snippets.{package}.{first}")


def test_the_input_is_six_tokens_of_three_numbers():
    # Placeholder from `make new-page`: one test per claim the prose makes,
    # each able to fail if its claim stopped being true.
    assert first.x.shape == (6, 3)


def test_prose_numbers():
    check_prose_numbers(
        "{name}.md",
        # each occurrence of a result in the prose: label -> the code's string,
        # alone ("6") or with a few of the words around it on the page, which
        # tie it to its sentence; a list for a result the prose says again
        computed={{
            "tokens": f"holds {{first.x.shape[0]}} tokens",
            "per token": f"of {{first.x.shape[1]}} numbers each",
        }},
        # numbers that are inputs or facts, not results (a width, a year){note}
        definitions={definitions},
    )
'''


class ScaffoldError(Exception):
    pass


def yaml_label(title: str) -> str:
    """The title as a YAML key: quoted when it would not read back as itself."""
    try:
        if yaml.safe_load(f"{title}: x") == {title: "x"}:
            return title
    except yaml.YAMLError:
        pass
    return json.dumps(title)  # a double-quoted YAML string


def add_to_nav(entry: str, after: str) -> str:
    """mkdocs.yml with `- entry` after the nav entry of the page `after`."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    found = (NAV_ENTRY.match(line) for line in lines)
    at = next(i for i, m in enumerate(found) if m and m["page"] == after)
    lines.insert(at + 1, NAV_ENTRY.match(lines[at])["indent"] + f"- {entry}")
    return "\n".join(lines)


def add_to_index(item: str, previous: str) -> str:
    """docs/index.md with `item` after the last list item that links `previous`
    (or after the last list item that links a page; first if `previous` is the
    index itself)."""
    lines = (DOCS / "index.md").read_text(encoding="utf-8").split("\n")
    items = [i for i, line in enumerate(lines) if INDEX_ITEM.match(line)]
    if previous == "index.md":
        lines.insert(items[0], item)
        return "\n".join(lines)
    at = [i for i in items if INDEX_ITEM.match(lines[i])["page"] == previous] or items
    at = at[-1] + 1
    while at < len(lines) and lines[at].startswith("  ") and lines[at].strip():
        at += 1  # the item's continuation lines
    lines.insert(at, item)
    return "\n".join(lines)


def next_button(previous: str, page: str, title: str) -> tuple[str | None, str]:
    """The page before the new one with its Next button leading to the new page
    (None if it has none that leads to the page after), and the button the new
    page ends with ("" if none)."""
    text = (DOCS / previous).read_text(encoding="utf-8").rstrip("\n")
    last = text.rsplit("\n", 1)[-1]
    order = nav_pages()
    following = order[order.index(previous) + 1 :][:1]
    found = NEXT.match(last)
    if not found or (found["page"],) != following:
        return None, ""
    short = title.split(":")[0]  # "Temperature: how sharp..." -> "temperature"
    label = short[0].lower() + short[1:]
    ours = f"[Next: {label} →]({page}){{ .md-button }}"
    return text.removesuffix(last) + ours + "\n", f"\n{last}\n"


def checked(name: str, title: str | None, after: str | None) -> tuple[str, str]:
    """The page's title and the page it follows; a bad name or place fails here,
    before anything is written, so that a failure leaves no half-made page."""
    if not NAME.fullmatch(name):
        raise ScaffoldError(
            f"NAME={name!r}: use lower-case words joined by hyphens, "
            "e.g. NAME=attention-sinks"
        )
    pkg = package(name)
    if keyword.iskeyword(pkg):
        raise ScaffoldError(f"NAME={name!r}: {pkg} is a Python keyword")
    for path in (DOCS / f"{name}.md", ROOT / "snippets" / pkg, test_file(name)):
        if path.exists():
            raise ScaffoldError(f"{path.relative_to(ROOT)} exists already")
    previous = after or nav_pages()[-1]
    if previous not in nav_pages():
        raise ScaffoldError(f"AFTER={after}: no such page in mkdocs.yml's nav")
    return title or name.replace("-", " ").capitalize(), previous


def test_file(name: str) -> Path:
    return ROOT / "tests" / f"test_{package(name)}.py"


def scaffold(name: str, title: str | None, after: str | None) -> list[str]:
    """Write the new page's files and entries; returns what was done."""
    title, previous = checked(name, title, after)
    page, pkg = f"{name}.md", package(name)
    repointed, button = next_button(previous, page, title)
    numbers = sorted(set(NUMBER.findall(title)))  # 6 and 3 are tied to their words
    fields = {"name": name, "package": pkg, "title": title, "first": FIRST}
    fields["definitions"] = "{" + ", ".join(f'"{n}"' for n in numbers) + "}"
    fields["note"] = "\n        # (here, the numbers in the title)"
    if not numbers:
        fields.update(definitions="set()", note="")
    item = f"- [{title}]({page}): placeholder, one line on what the page shows."
    writes = {  # all worked out before anything is written
        DOCS / page: PAGE.format(**fields) + button,
        ROOT / "snippets" / pkg / "__init__.py": "",
        ROOT / "snippets" / pkg / f"{FIRST}.py": SNIPPET,
        test_file(name): TEST.format(**fields),
        ROOT / "mkdocs.yml": add_to_nav(f"{yaml_label(title)}: {page}", previous),
        DOCS / "index.md": add_to_index(item, previous),
    }
    done = [
        f"created docs/{page}, snippets/{pkg}/ ({FIRST}.py) and tests/test_{pkg}.py",
        f"mkdocs.yml: nav entry after {previous} (move it if it belongs elsewhere)",
        "docs/index.md: a link in its list of pages (move it with the nav)",
    ]
    if repointed:
        writes[DOCS / previous] = repointed
        done.append(f"docs/{previous}: its Next button leads to the new page")
    (ROOT / "snippets" / pkg).mkdir()
    for path, text in writes.items():
        path.write_text(text, encoding="utf-8")
    readme = ROOT / "README.md"  # its table reads the page and the snippet just written
    readme.write_text(readme_with_table(readme.read_text("utf-8")), "utf-8")
    done.append("README.md: the page's row in the table of what each page runs with")
    # ruff's layout for the test file (a long title can lengthen a line)
    ruff = [sys.executable, "-m", "ruff", "format", "--quiet", str(test_file(name))]
    subprocess.run(ruff, cwd=ROOT, check=True)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Scaffold a new page (see CONTRIBUTING.md).",
        usage="make new-page NAME=my-page [TITLE='My page'] [AFTER=cost.md]",
    )
    parser.add_argument("name", nargs="?", default="", help="e.g. attention-sinks")
    parser.add_argument("--title", default="", help="the page's H1 and nav label")
    parser.add_argument("--after", default="", help="the nav entry to follow")
    args = parser.parse_args(argv)
    if not args.name:
        parser.print_usage(sys.stderr)
        print("make new-page: NAME is missing", file=sys.stderr)
        return 2
    try:
        done = scaffold(args.name, args.title or None, args.after or None)
    except ScaffoldError as error:
        print(f"make new-page: {error}", file=sys.stderr)
        return 1
    print("\n".join(f"  {line}" for line in done))
    print(
        f"Next: make page PAGE={args.name}  (lint, the page's blocks and tests, "
        "then the site built and the page's checks on it: under a minute), then "
        "replace each Placeholder. A figure: add it to FIGURES in "
        "hooks/generated.py."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
