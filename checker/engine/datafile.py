"""The repository's own YAML data files (catalogues, procedures, card books), read with LibYAML.

These files are trusted; scenario files are not, and go through :mod:`checker.format.yamlsafe`.
What a file holds is kept as JSON in a cache folder, under the hash of the file's text, so a
command started again reads JSON instead of parsing YAML (``RULINGS_CACHE=off`` turns it off).
The same folder keeps whatever else is costly to rebuild and is named by a hash of its sources
(:func:`cached`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable


def read_yaml(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return cached(hashlib.sha256(text.encode("utf-8")).hexdigest(), lambda: _parse(text))


def _parse(text: str) -> Any:
    import yaml  # only when the cache does not have the file

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def cached(key: str, build: Callable[[], Any]) -> Any:
    """What the cache keeps under ``key``, else ``build()``, kept for next time.

    ``key`` must change whenever what ``build`` returns would: a hash of everything it reads.
    """
    folder = cache_folder()
    if folder is None:
        return build()
    kept = folder / f"{key}.json"
    try:
        return json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    data = build()
    _keep(kept, data)
    return data


def cache_folder() -> Path | None:
    setting = os.environ.get("RULINGS_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulings-checker"


def _keep(kept: Path, data: Any) -> None:
    """Write ``data`` as JSON if JSON gives it back unchanged (no dates, no number keys); never fail."""
    try:
        text = json.dumps(data)
        if json.loads(text) != data:
            return
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(kept)
    except (OSError, TypeError, ValueError):
        return
