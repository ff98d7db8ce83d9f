"""Yu-Gi-Oh! Duel Monsters II, the Battle Phase (game id ``yugioh-dm2``)."""

from __future__ import annotations

from checker.engine.game import EntityKind, Game
from checker.games.yugioh_dm2 import moves, rules
from checker.games.yugioh_dm2.state import Card, Initial, Outcome, State


class YugiohDM2(Game[State]):
    id = "yugioh-dm2"
    title = "Yu-Gi-Oh! Duel Monsters II: the Battle Phase"
    rules = rules
    moves = moves
    source = "yugioh-duel-monsters-2-battle-phase.txt"
    types = (Initial, Card, Outcome)
    entity_kinds = {
        "card": EntityKind("A Magic or Trap card, defined by the scenarios with its class and effect", open_questions=True),
        "monster": EntityKind("A monster card, defined by the scenarios with its ATK, DEF and effects", open_questions=True),
        "mechanic": EntityKind("A mechanic the chapter names", hub=True),
    }


GAME = YugiohDM2()
