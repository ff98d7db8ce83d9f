"""Monster Rancher Battle Card Episode II (game id ``monster-rancher-bc2``)."""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import EntityKind, Game
from checker.games.monster_rancher_bc2 import moves, rules
from checker.games.monster_rancher_bc2.state import Card, Initial, Outcome, State, StatusDef


class MonsterRancherBC2(Game[State]):
    id = "monster-rancher-bc2"
    title = "Monster Rancher Battle Card Episode II"
    rules = rules
    moves = moves
    source = "monster-rancher-battle-card-2.md"
    types = (Initial, StatusDef, Card, Outcome)
    entity_kinds = {
        "card": EntityKind("A card: a move, a card combined with one, a defense card or a Breeder card", open_questions=True),
        "ENV": EntityKind("An Environment card", open_questions=True),
        "status": EntityKind("A status on a monster or a Breeder", open_questions=True),
        "monster": EntityKind("A monster species", hub=True),
        "mechanic": EntityKind("A mechanic the rules name", hub=True),
    }

    def card_entry(self, kind: str, name: str) -> Mapping[str, Any] | None:
        book = {"card": "cards", "ENV": "cards", "status": "statuses"}.get(kind)
        return self.data.cards.get(book, {}).get(name) if book else None


GAME = MonsterRancherBC2()
