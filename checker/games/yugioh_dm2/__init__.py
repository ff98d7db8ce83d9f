"""Yu-Gi-Oh! Duel Monsters II, the Battle Phase (game id ``yugioh-dm2``)."""

from __future__ import annotations

from typing import Any, Mapping

from checker.game import Context, EntityKind, Game
from checker.games.yugioh_dm2 import rules
from checker.games.yugioh_dm2.state import State, build_state, card_from, observe


class YugiohDM2(Game):
    id = "yugioh-dm2"
    title = "Yu-Gi-Oh! Duel Monsters II: the Battle Phase"
    rules = rules
    source = "yugioh-duel-monsters-2-battle-phase.txt"
    entity_kinds = {
        "card": EntityKind("A Magic or Trap card, defined by the scenarios with its class and effect", open_questions=True),
        "monster": EntityKind("A monster card, defined by the scenarios with its ATK, DEF and effects", open_questions=True),
        "mechanic": EntityKind("A mechanic the chapter names", hub=True),
    }

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], context: Context) -> State:
        book = {name: card_from(name, raw) for name, raw in {**self.data.cards.get("cards", {}), **cards}.items()}
        return build_state(initial, book)

    def observe(self, state: State) -> dict[str, Any]:
        return observe(state)


GAME = YugiohDM2()
