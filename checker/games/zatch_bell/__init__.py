"""Zatch Bell! The Card Battle (game id ``zatch-bell``): the Spell Book, the turn and the Battle."""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import EntityKind, Game
from checker.games.zatch_bell import moves, rules
from checker.games.zatch_bell.state import Card, Initial, Outcome, State


class ZatchBell(Game[State]):
    id = "zatch-bell"
    title = "Zatch Bell! The Card Battle"
    rules = rules
    moves = moves
    source = "zatch-bell-card-battle-manual.md"
    types = (Initial, Card, Outcome)
    entity_kinds = {
        "card": EntityKind("A MAMODO, PARTNER, MJ12, SPELL or EVENT card", open_questions=True),
        "mechanic": EntityKind("A mechanic the manual names", hub=True),
    }

    def card_entry(self, kind: str, name: str) -> Mapping[str, Any] | None:
        return self.data.cards.get("cards", {}).get(name) if kind == "card" else None


GAME = ZatchBell()
