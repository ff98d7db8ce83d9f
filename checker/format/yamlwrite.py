"""Writing YAML for people: what a scenario file, a candidate, a skeleton and the site's pages show as YAML."""

from __future__ import annotations

from typing import Any

import yaml


class _PlainDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """LibYAML's emitter where PyYAML has it; never writes anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def yaml_text(data: Any, *, flow_leaves: bool = False, width: int = 80) -> str:
    """Data as YAML for people: keys in their order, no aliases; short lists inline if ``flow_leaves``.

    Text longer than ``width`` is folded onto further lines.
    """
    return yaml.dump(
        data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, default_flow_style=None if flow_leaves else False,
        width=width,
    )


def yaml_inline(value: Any) -> str:
    """One value as YAML on one line, as a scenario would write it: ``true``, ``defense``, ``{lp: 3}``."""
    text: str = yaml.dump(value, Dumper=_PlainDumper, default_flow_style=True, allow_unicode=True, width=1 << 30)
    return text.removesuffix("\n").removesuffix("\n...").strip()
