"""The games by id, each imported when first looked up, and the scenario schema they make, without importing them.

Importing every game is most of what a command costs to start, and one scenario file needs only
its own game. So which package holds which game, and the schema assembled from all of them, are
kept in the data cache (:func:`checker.engine.datafile.cached`) under a hash of the files they come
from: the core's modules and every file of every game. A change to any of them builds both again
from the imported games.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from checker import games
from checker.engine.datafile import cached
from checker.engine.game import AnyGame

CORE = Path(__file__).parent


class LazyGames(Mapping[str, AnyGame]):
    """Games by id; a game's package is imported when the game is first looked up."""

    def __init__(self, packages: Mapping[str, str]) -> None:
        self._packages = dict(packages)

    def __getitem__(self, game_id: str) -> AnyGame:
        return games.game_in(self._packages[game_id])

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._packages

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)


@dataclass(frozen=True)
class GameIndex:
    games: LazyGames
    schema: dict[str, Any]  # the scenario schema of all the games (:func:`checker.format.schema.build_schema`)


def game_index() -> GameIndex:
    data = cached(f"games-{source_hash()}", _build)
    return GameIndex(LazyGames(data["packages"]), data["schema"])


def _build() -> dict[str, Any]:
    from checker.format.schema import build_schema

    return {"packages": games.packages(), "schema": build_schema(games.registry())}


def source_hash() -> str:
    """A hash of the core's modules and of every file in the games' folders, named from the checker's folder: the
    same wherever the checker is installed (the website's bundle of the engine brings its index along)."""
    digest = hashlib.sha256()
    files = sorted(CORE.glob("*.py")) + sorted(
        path for folder in games.__path__ for path in Path(folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )
    for path in files:
        name = path.relative_to(CORE.parent) if path.is_relative_to(CORE.parent) else path
        digest.update(name.as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()
