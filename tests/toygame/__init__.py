"""Spark Duel: the core's own example game (game id ``spark-duel``).

A few rules, a procedure with a nested phase, a loop and a condition, the actions
each step allows, a response window and stack whose passes a priority rule ends, one
ambiguous ruling and a preparation rule that refuses a state.
The core's tests run it; ``docs/adding-a-game.md`` walks through it.
"""

from __future__ import annotations

from checker.engine.game import EntityKind, Game

from . import moves, rules
from .state import State


class SparkDuel(Game[State]):
    id = "spark-duel"
    title = "Spark Duel: the checker's example game"
    source = "rules.md"
    rules = rules
    moves = moves
    types = (State,)
    entity_kinds = {
        "card": EntityKind("A Spark, a Shield or a Break", open_questions=True, from_rules=True),
        "mechanic": EntityKind("A mechanic the rules name", hub=True),
    }


GAME = SparkDuel()
