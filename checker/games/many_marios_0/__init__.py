"""Many Marios 0, combat (game id ``many-marios-0``)."""

from __future__ import annotations

from checker.engine.game import EntityKind, Game
from checker.games.many_marios_0 import moves, rules
from checker.games.many_marios_0.state import Initial, Outcome, Piece, State


class ManyMarios0(Game[State]):
    id = "many-marios-0"
    title = "Many Marios 0: combat"
    rules = rules
    moves = moves
    source = "many-marios-0-combat.txt"
    types = (Initial, Piece, Outcome)
    entity_kinds = {
        "unit": EntityKind("A unit, defined by the scenarios with its Army Points, energy and abilities", open_questions=True),
        "ability": EntityKind("A named combat ability", open_questions=True, from_rules=True),
        "mechanic": EntityKind("A mechanic of combat", hub=True),
    }


GAME = ManyMarios0()
