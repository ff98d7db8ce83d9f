"""My Crypto Saga battles (game id ``my-crypto-saga``)."""

from __future__ import annotations

from typing import Any, Mapping

from checker.game import Context, EntityKind, Game
from checker.games.my_crypto_saga import rules
from checker.games.my_crypto_saga.state import State, build_state, observe


class MyCryptoSaga(Game):
    id = "my-crypto-saga"
    title = "My Crypto Saga: battles of three games"
    rules = rules
    source = "my-crypto-saga-battle-rules.txt"
    entity_kinds = {
        "card type": EntityKind("A Card Type (Element and Kami), with the skills the scenarios give it", open_questions=True),
        "element": EntityKind("An Element", open_questions=True),
        "mechanic": EntityKind("A mechanic of battles", hub=True),
    }

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], context: Context) -> State:
        return build_state(initial, cards)

    def observe(self, state: State) -> dict[str, Any]:
        return observe(state)


GAME = MyCryptoSaga()
