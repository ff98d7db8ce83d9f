"""Many Marios 0, combat (game id ``many-marios-0``)."""

from __future__ import annotations

from typing import Any, Mapping

from checker.game import Context, EntityKind, Game
from checker.games.many_marios_0 import rules
from checker.games.many_marios_0.state import State, build_state, observe, piece_from


class ManyMarios0(Game):
    id = "many-marios-0"
    title = "Many Marios 0: combat"
    rules = rules
    source = "many-marios-0-combat.txt"
    entity_kinds = {
        "unit": EntityKind("A unit, defined by the scenarios with its Army Points, energy and abilities", open_questions=True),
        "ability": EntityKind("A named combat ability", open_questions=True),
        "mechanic": EntityKind("A mechanic of combat", hub=True),
    }

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], context: Context) -> State:
        book = {name: piece_from(name, raw) for name, raw in {**self.data.cards.get("cards", {}), **cards}.items()}
        return build_state(initial, book)

    def observe(self, state: State) -> dict[str, Any]:
        return observe(state)


GAME = ManyMarios0()
