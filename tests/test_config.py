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
