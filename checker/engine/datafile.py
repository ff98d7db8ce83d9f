"""The repository's own YAML data files (catalogues, procedures, card books), read with LibYAML.

These files are trusted; scenario files are not, and go through :mod:`checker.format.yamlsafe`.
What a file holds is kept as JSON in a cache folder, under the hash of the file's text, so a
command started again reads JSON instead of parsing YAML (``RULINGS_CACHE=off`` turns it off).
The same folder keeps whatever else is costly to rebuild and is named by a hash of its sources
(:func:`cached`).

A cache never changes what a command does, nor stops it: each entry is written with the key it was
made for and a hash of its JSON, and one that does not match both (damaged, edited, written for
another key, not a file) is made again from its sources; a folder that cannot be read or written
only means that nothing is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

from checker.engine.files import read_regular


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
    found = _kept(kept, key)
    if found is not _NOTHING:
        return found
    data = build()
    _keep(kept, key, data)
    return data


_NOTHING = object()


def _kept(kept: Path, key: str) -> Any:
    """What ``kept`` holds for ``key``; ``_NOTHING`` if it is missing, unreadable or not as :func:`_keep` wrote it."""
    try:
        header, _, body = read_regular(kept).partition(b"\n")
        if json.loads(header) != _header(key, body):
            return _NOTHING
        return json.loads(body)
    except (OSError, ValueError, RecursionError):
        return _NOTHING


def _header(key: str, body: bytes) -> dict[str, str]:
    """The first line of an entry: the key it was made for and the hash of the JSON that follows."""
    return {"key": key, "sha256": hashlib.sha256(body).hexdigest()}


def cache_folder() -> Path | None:
    setting = os.environ.get("RULINGS_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulings-checker"


def _keep(kept: Path, key: str, data: Any) -> None:
    """Write ``data`` as JSON if JSON gives it back unchanged (no dates, no number keys); never fail."""
    try:
        body = json.dumps(data)
        if json.loads(body) != data:
            return
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.tmp")
        encoded = body.encode("utf-8")
        partial.write_bytes(json.dumps(_header(key, encoded)).encode("utf-8") + b"\n" + encoded)
        partial.replace(kept)
    except (OSError, TypeError, ValueError, RecursionError):
        return
