"""mkdocs.yml: a key written twice would silently drop the first (YAML keeps the
last), e.g. a second `hooks:` list hiding the first. Refuse duplicates."""

import yaml

from tests.pages import ROOT


class UniqueKeyLoader(yaml.SafeLoader):
    pass


def _unique_mapping(loader, node, deep=False):
    keys = [loader.construct_object(key, deep=deep) for key, _ in node.value]
    duplicates = {k for k in keys if keys.count(k) > 1}
    assert not duplicates, f"mkdocs.yml, line {node.start_mark.line + 1}: {duplicates}"
    return loader.construct_mapping(node, deep=deep)


UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping
)
# mkdocs' own tags (!relative, !ENV) load as plain values here.
UniqueKeyLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def test_mkdocs_yml_has_no_duplicate_keys():
    yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), UniqueKeyLoader)


def test_the_hooks_folder_holds_the_hooks_mkdocs_yml_lists_and_nothing_else():
    """hooks/ is for MkDocs hooks (CONTRIBUTING.md, "Where things are"): each of its
    Python files is a hook that mkdocs.yml lists, and each other file is one that a
    hook names (KaTeX's node server). The shared library is tools/."""
    config = yaml.load(
        (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), UniqueKeyLoader
    )
    listed = sorted(config["hooks"])
    folder = ROOT / "hooks"
    python = sorted(p.relative_to(ROOT).as_posix() for p in folder.glob("*.py"))
    assert python == listed
    hooks = "".join((ROOT / h).read_text(encoding="utf-8") for h in listed)
    others = [p for p in folder.iterdir() if p.suffix != ".py" and p.is_file()]
    assert all(f'"{p.name}"' in hooks for p in others), others
