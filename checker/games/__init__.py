"""The games. Each subpackage is one game and exposes ``GAME``, a :class:`checker.engine.game.Game`.

Adding a game means adding a subpackage here; the core discovers it.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from checker.engine.game import AnyGame


@functools.cache
def registry() -> dict[str, AnyGame]:
    """Every game found under this package, by game id, in id order."""
    return {game_id: game_in(package) for game_id, package in packages().items()}


@functools.cache
def packages() -> dict[str, str]:
    """The package of every game found under this package, by game id, in id order (imports them all)."""
    found: dict[str, str] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        package = f"{__name__}.{module.name}"
        game_id = game_in(package).id
        if game_id in found:
            raise RuntimeError(f"two games claim the id {game_id!r}")
        found[game_id] = package
    return dict(sorted(found.items()))


@functools.cache
def game_in(package: str) -> AnyGame:
    """The game of one package under this one, imported when first asked for."""
    game: AnyGame = importlib.import_module(package).GAME
    return game
