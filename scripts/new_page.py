"""Scaffold a new page: `make new-page NAME=my-page [TITLE="My page"] [AFTER=cost.md]`.

Creates, for NAME `my-page`:

- docs/my-page.md: the title, the "Runs with" line (with the link to the page's
  notebook), a first code block that includes the first snippet, and its output
  block;
- snippets/my_page/__init__.py and snippets/my_page/ex01_first_step.py, whose
  `page` section is what the page shows;
- tests/test_my_page.py: a claim test and the prose-number check;

and adds the page to mkdocs.yml's nav (after AFTER, or at the end of the nav's
last section), to docs/index.md's list of pages, which links every page, and to
README.md's table of what each page runs with (if it has one).
Everything it writes passes the tests as generated; each "Placeholder" says what
to replace. `make page PAGE=my-page` is then the inner loop.

    .venv/bin/python scripts/new_page.py NAME [--title TITLE] [--after PAGE]
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

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*%?(?![\w])")  # as tests/pages.py
NAV_ENTRY = re.compile(r"^(?P<indent>\s*)- (?P<label>.+?):\s+(?P<page>\S+\.md)\s*$")
INDEX_ITEM = re.compile(r"^- \[[^\]]*\]\((?P<page>[^)#\s]+\.md)(?:#[^)]*)?\)")
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
x = torch.rand(6, 3)  # (t, d): 6 tokens, 3 numbers each
print(x.shape)
# --8<-- [end:page]
"""

TEST = '''\
"""Claims on docs/{name}.md."""

from snippets.{package}.{first} import x
from tests.pages import check_prose_numbers


def test_the_input_is_six_tokens_of_three_numbers():
    # Placeholder from `make new-page`: one test per claim the prose makes,
    # each able to fail if its claim stopped being true.
    assert x.shape == (6, 3)


def test_prose_numbers():
    check_prose_numbers(
        "{name}.md",
        # each occurrence of a result in the prose: label -> the code's string,
        # alone ("6") or with a few of the words around it on the page, which
        # tie it to its sentence; a list for a result the prose says again
        computed={{
            "tokens": f"holds {{x.shape[0]}} tokens",
            "per token": f"of {{x.shape[1]}} numbers each",
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


def add_to_nav(text: str, entry: str, page: str, after: str | None) -> str:
    """mkdocs.yml with `- entry` after the nav entry of `after` (or after the
    nav's last entry), at its indentation."""
    lines = text.split("\n")
    start = lines.index("nav:")
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if lines[i].strip() and not lines[i].startswith((" ", "-", "#"))
        ),
        len(lines),
    )
    entries = [
        (i, m) for i in range(start + 1, end) if (m := NAV_ENTRY.match(lines[i]))
    ]
    if not entries:
        raise ScaffoldError("mkdocs.yml: no page entries found under `nav:`")
    if after:
        found = [(i, m) for i, m in entries if m["page"] == after]
        if not found:
            raise ScaffoldError(f"AFTER={after}: no such page in mkdocs.yml's nav")
        at, match = found[0]
    else:
        at, match = entries[-1]
    lines.insert(at + 1, f"{match['indent']}- {entry}")
    return "\n".join(lines)


def nav_pages(text: str) -> list[str]:
    """The pages of the nav in a mkdocs.yml text (its `!` tags ignored)."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)

    def walk(entries):
        for item in entries:
            target = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(target, list):
                yield from walk(target)
            else:
                yield target

    return list(walk(yaml.load(text, Loader)["nav"]))


def add_to_index(text: str, item: str, previous: str) -> str:
    """docs/index.md with `item` after the list item that links `previous` (or
    after the last list item that links a page)."""
    lines = text.split("\n")
    items = [i for i, line in enumerate(lines) if INDEX_ITEM.match(line)]
    if not items:
        return text.rstrip("\n") + f"\n\n{item}\n"
    if previous == "index.md":  # the new page comes first
        lines.insert(items[0], item)
        return "\n".join(lines)
    matching = [i for i in items if INDEX_ITEM.match(lines[i])["page"] == previous]
    at = (matching or items)[-1] + 1
    while at < len(lines) and lines[at].startswith("  ") and lines[at].strip():
        at += 1  # the item's continuation lines
    lines.insert(at, item)
    return "\n".join(lines)


def add_to_readme(text: str, name: str) -> str | None:
    """README.md with the page's row in its runs-with table (rows in the order of
    the pages' file names); None if the table is not there."""
    start, end = "<!-- runs-with: start -->\n", "\n<!-- runs-with: end -->"
    if start not in text:
        return None
    before, rest = text.split(start, 1)
    if end not in rest:
        return None
    table, after = rest.split(end, 1)
    rows = table.split("\n")
    if len(rows) < 2 or not rows[1].startswith("|---"):
        return None
    row = f"| `docs/{name}.md` | PyTorch |"
    body = sorted([*rows[2:], row], key=lambda r: r.split("`")[1])
    return before + start + "\n".join(rows[:2] + body) + end + after


def register_index_numbers(text: str, numbers: set[str]) -> str | None:
    """tests/test_index.py with `numbers` added to its prose-number definitions
    (None if its `definitions={...}` is not found)."""
    match = re.search(r"definitions=\{([^}]*)\}", text)
    if not match:
        return None
    known = set(re.findall(r'"([^"]+)"', match[1]))
    added = sorted(numbers - known)
    if not added:
        return text
    body = match[1].rstrip().rstrip(",")
    body += "".join(f', "{n}"' for n in added)
    return text[: match.start(1)] + body + text[match.end(1) :]


def scaffold(name: str, title: str | None, after: str | None) -> list[str]:
    """Write the new page's files and entries; returns what was done."""
    if not NAME.fullmatch(name):
        raise ScaffoldError(
            f"NAME={name!r}: use lower-case words joined by hyphens, "
            "e.g. NAME=attention-sinks"
        )
    package = name.replace("-", "_")
    if keyword.iskeyword(package):
        raise ScaffoldError(f"NAME={name!r}: {package} is a Python keyword")
    title = title or name.replace("-", " ").capitalize()
    page = f"{name}.md"
    paths = {
        "page": ROOT / "docs" / page,
        "snippets": ROOT / "snippets" / package,
        "test": ROOT / "tests" / f"test_{package}.py",
    }
    for path in paths.values():
        if path.exists():
            raise ScaffoldError(f"{path.relative_to(ROOT)} exists already")

    mkdocs_yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    new_yml = add_to_nav(mkdocs_yml, f"{yaml_label(title)}: {page}", page, after)
    order = nav_pages(new_yml)
    if page not in order:
        raise ScaffoldError("could not add the page to mkdocs.yml's nav")
    previous = order[order.index(page) - 1] if order.index(page) else ""
    index = ROOT / "docs" / "index.md"
    item = f"- [{title}]({page}): placeholder, one line on what the page shows."
    new_index = add_to_index(index.read_text(encoding="utf-8"), item, previous)

    in_title = set(NUMBER.findall(title))
    definitions = sorted(in_title)  # the computed 6 and 3 are tied to their words
    fields = {
        "name": name,
        "package": package,
        "title": title,
        "first": FIRST,
        "definitions": (
            "{" + ", ".join(f'"{n}"' for n in definitions) + "}"
            if definitions
            else "set()"
        ),
        "note": "\n        # (here, the numbers in the title)" if definitions else "",
    }
    # Everything is worked out before anything is written: a failure leaves no half.
    readme = ROOT / "README.md"
    new_readme = (
        add_to_readme(readme.read_text(encoding="utf-8"), name)
        if readme.exists()
        else None
    )
    test_index = ROOT / "tests" / "test_index.py"
    registered = None
    if in_title and test_index.exists():
        registered = register_index_numbers(
            test_index.read_text(encoding="utf-8"), in_title
        )

    paths["page"].write_text(PAGE.format(**fields), encoding="utf-8")
    paths["snippets"].mkdir()
    (paths["snippets"] / "__init__.py").write_text("", encoding="utf-8")
    (paths["snippets"] / f"{FIRST}.py").write_text(SNIPPET, encoding="utf-8")
    paths["test"].write_text(TEST.format(**fields), encoding="utf-8")
    written = [paths["snippets"], paths["test"]]
    done = [
        f"created docs/{page}",
        f"created snippets/{package}/__init__.py and {FIRST}.py",
        f"created tests/test_{package}.py",
    ]
    (ROOT / "mkdocs.yml").write_text(new_yml, encoding="utf-8")
    done.append(
        f"mkdocs.yml: nav entry after {previous} (move it if it belongs elsewhere)"
    )
    index.write_text(new_index, encoding="utf-8")
    done.append("docs/index.md: a link in its list of pages (move it with the nav)")
    if new_readme is not None:
        readme.write_text(new_readme, encoding="utf-8")
        done.append("README.md: a row in the table of what each page runs with")
    elif readme.exists():
        done.append("README.md: no runs-with table with a header found, no row added")
    if registered is not None:
        test_index.write_text(registered, encoding="utf-8")
        done.append(f"tests/test_index.py: the title's numbers {sorted(in_title)}")
        written.append(test_index)
    elif in_title:
        done.append(
            f"the title's numbers {sorted(in_title)} are now in the index's "
            "prose: register them as definitions in tests/test_index.py"
        )
    # ruff's layout for what was written (a long title can lengthen a line)
    subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--quiet", *map(str, written)],
        cwd=ROOT,
        check=True,
    )
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
    for line in done:
        print(f"  {line}")
    print(
        f"Next: make page PAGE={args.name}  (the page's blocks, its tests and "
        "lint, in seconds), then replace each Placeholder."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
