"""The games. Each subpackage is one game and exposes ``GAME``, a :class:`checker.game.Game`.

Adding a game means adding a subpackage here; the core discovers it.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from checker.game import Game


@functools.cache
def registry() -> dict[str, Game]:
    """Every game found under this package, by game id, in id order."""
    games: dict[str, Game] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        game = importlib.import_module(f"{__name__}.{module.name}").GAME
        if game.id in games:
            raise RuntimeError(f"two games claim the id {game.id!r}")
        games[game.id] = game
    return dict(sorted(games.items()))
