"""The state of a Spark Duel: two players' life and hands, the round under way, the responses.

Each type is written once: its fields made with ``spec`` are what a scenario's ``initial:`` gives
(the schema's ``state`` and ``player-state``, with their defaults, follow from them, and so does
``build_state``), those marked ``fact`` what ``observe`` reports (the schema's ``outcome``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.priority import Priority
from checker.engine.described import described, fact, facts, parse, spec
from checker.engine.stack import ResponseStack
from checker.engine.vocabulary import ref

PLAYERS = ("A", "B")
START_LIFE = 10


def other(player: str) -> str:
    return "B" if player == "A" else "A"


def spark_value(card: str) -> int | None:
    """A Spark's number; ``None`` for a Shield or a Break."""
    return int(card) if card.isdigit() else None


@described("player-state", facts="player-facts")
@dataclass
class Player:
    life: int = spec(START_LIFE, "Life points: a player left with 0 loses the duel.", minimum=0, fact=True)
    hand: list[str] = spec([], "The cards in hand.", items=ref("card-name"), fact=True)


@described("state", facts="outcome")
@dataclass(kw_only=True)
class State:
    attacker: str = spec("A", "Who attacks in the round.", ref="player", fact=True)
    players: dict[str, Player] = spec(keys=PLAYERS, fact=True)
    step: str | None = None  # the procedure step the duel stands at
    priority: Priority = Priority(PLAYERS)  # who has passed since the last response (the core keeps it)
    sparks: dict[str, int] = field(default_factory=dict)  # this round's Sparks, by player
    responses: ResponseStack[str] = fact(ResponseStack, "The responses played this round, first played first.",
                                         observed=ResponseStack.cards.fget, schema={"type": "array", "items": {"type": "string"}})
    shielded: bool = False  # a Shield resolved this round
    loser: str | None = fact(None, "The player who lost the duel.")

    @property
    def defender(self) -> str:
        return other(self.attacker)


def build_state(initial: Mapping[str, Any]) -> State:
    return parse(State, initial, ("initial",))


observe = facts
