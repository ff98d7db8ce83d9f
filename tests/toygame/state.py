"""The state of a Spark Duel: two players' life and hands, the round under way, the responses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.priority import Priority
from checker.engine.stack import ResponseStack

PLAYERS = ("A", "B")
START_LIFE = 10


def other(player: str) -> str:
    return "B" if player == "A" else "A"


def spark_value(card: str) -> int | None:
    """A Spark's number; ``None`` for a Shield or a Break."""
    return int(card) if card.isdigit() else None


@dataclass
class Player:
    life: int
    hand: list[str]


@dataclass
class State:
    players: dict[str, Player]
    attacker: str
    step: str | None = None  # the procedure step the duel stands at
    priority: Priority = Priority(PLAYERS)  # who has passed since the last response (the core keeps it)
    sparks: dict[str, int] = field(default_factory=dict)  # this round's Sparks, by player
    responses: ResponseStack[str] = field(default_factory=ResponseStack)
    shielded: bool = False  # a Shield resolved this round
    loser: str | None = None

    @property
    def defender(self) -> str:
        return other(self.attacker)


def build_state(initial: Mapping[str, Any]) -> State:
    players = {
        name: Player(life=raw.get("life", START_LIFE), hand=list(raw.get("hand", [])))
        for name, raw in initial["players"].items()
    }
    return State(players=players, attacker=initial.get("attacker", "A"))


def observe(state: State) -> dict[str, Any]:
    return {
        "attacker": state.attacker,
        "responses": state.responses.cards,
        "loser": state.loser,
        "players": {name: {"life": p.life, "hand": list(p.hand)} for name, p in state.players.items()},
    }
