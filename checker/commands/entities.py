"""Which entities are the game's own: the cards and rule concepts a player can look up, apart from the cards a
scenario invents for its example."""

from __future__ import annotations

import functools
import re

from checker.engine.catalogue import Ruling
from checker.engine.game import AnyGame
from checker.engine.trace import Entity


@functools.lru_cache(maxsize=1 << 12)
def naming(game: AnyGame, name: str) -> tuple[Ruling, ...]:
    """The game's rulings whose quoted words name ``name``, as a whole word."""
    pattern = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    return tuple(ruling for ruling in game.catalogue.rulings if pattern.search(ruling.quote))


def is_the_games_own(game: AnyGame, entity: Entity) -> bool:
    """Whether ``entity`` is the game's own: of a kind the rules name in full (Elements, abilities), described by the
    game's data (its card book, its mechanics), or named by the source's quoted words. Any other is a card a scenario
    invents for its example: it belongs on that scenario's page, and pairing it with the rest asks no player's question."""
    kind = game.entity_kinds.get(entity[0])
    return (kind is not None and kind.from_rules) or game.describe(*entity) is not None or bool(naming(game, entity[1]))
