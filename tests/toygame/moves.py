"""What may be done next in a Spark Duel: the actions the rules might allow, each with its choices.

The core keeps those the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try.
"""

from __future__ import annotations

from typing import Any, Iterator

from .state import PLAYERS, State


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """Each player plays or responds with each card in hand, or passes."""
    for name in PLAYERS:
        for played in dict.fromkeys(state.players[name].hand):
            yield {"action": "spark", "player": name, "card": played}
            yield {"action": "respond", "player": name, "card": played}
        yield {"action": "pass", "player": name}


def invariants(first: State, state: State) -> Iterator[str]:
    """Cards only leave hands, life never rises nor falls below 0, and a duel has at most one loser."""
    for name in PLAYERS:
        before, now = first.players[name], state.players[name]
        if not set(now.hand) <= set(before.hand) or len(now.hand) > len(before.hand):
            yield f"{name}'s hand gained cards: {before.hand} -> {now.hand}"
        if not 0 <= now.life <= before.life:
            yield f"{name}'s life went from {before.life} to {now.life}"
