"""The repository's own YAML data files (catalogues, procedures, card books), read with LibYAML.

These files are trusted; scenario files are not, and go through :mod:`checker.yamlsafe`.
What a file holds is kept as JSON in a cache folder, under the hash of the file's text, so a
command started again reads JSON instead of parsing YAML (``RULINGS_CACHE=off`` turns it off).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    folder = cache_folder()
    if folder is None:
        return yaml.load(text, Loader=_Loader)
    cached = folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()}.json"
    try:
        return json.loads(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    data = yaml.load(text, Loader=_Loader)
    _keep(cached, data)
    return data


def cache_folder() -> Path | None:
    setting = os.environ.get("RULINGS_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulings-checker"


def _keep(cached: Path, data: Any) -> None:
    """Write ``data`` as JSON if JSON gives it back unchanged (no dates, no number keys); never fail."""
    try:
        text = json.dumps(data)
        if json.loads(text) != data:
            return
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(cached)
    except (OSError, TypeError, ValueError):
        return
