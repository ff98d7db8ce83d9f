"""My Crypto Saga battles (game id ``my-crypto-saga``)."""

from __future__ import annotations

from checker.engine.game import EntityKind, Game
from checker.games.my_crypto_saga import moves, rules
from checker.games.my_crypto_saga.state import CardType, Initial, State


class MyCryptoSaga(Game[State]):
    id = "my-crypto-saga"
    title = "My Crypto Saga: battles of three games"
    rules = rules
    moves = moves
    source = "my-crypto-saga-battle-rules.txt"
    types = (CardType, Initial, State)
    entity_kinds = {
        "card type": EntityKind("A Card Type (Element and Kami), with the skills the scenarios give it", open_questions=True),
        "element": EntityKind("An Element", open_questions=True, from_rules=True),
        "mechanic": EntityKind("A mechanic of battles", hub=True),
    }


GAME = MyCryptoSaga()
