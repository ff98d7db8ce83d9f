"""The repository's own YAML data files (catalogues, procedures, card books), read with LibYAML.

These files are trusted; scenario files are not, and go through :mod:`checker.yamlsafe`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
