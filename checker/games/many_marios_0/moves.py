"""What may be done next in a Many Marios 0 battle: the actions the rules might allow, each with its choices.

The core keeps those the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try. A battle
runs by itself once the armies are set ("Every combat round, the first units from each lineup ... deal damage to each
other"): the one choice is how far to watch it, so the candidates, drawn from the state in the words of
``many-marios-0-combat.txt``, are

- nothing once the battle has ended ("A battle ends when all the units in a player's army are defeated", or in a
  stalemate);
- ``battle`` with no ``rounds``: fight until the battle ends;
- ``battle`` with ``rounds`` from 1 up to one less than the most combat rounds the battle can still last: the values
  that can matter, since fighting as many rounds as are left, or more, is fighting to the end. The rounds left are
  found by fighting the battle out on a copy of the state, under every reading of the ambiguous rulings the fight
  consults (how many combat rounds a "turn" spans, say, decides when two quiet turns have passed). A longer battle
  than :data:`MOST_ROUNDS` rounds is listed up to that many rounds at a time: each trial fights its rounds again.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from .state import SIDES, State


#: Numbers of rounds listed, at most: a longer battle is watched this many rounds at a time, or to its end.
MOST_ROUNDS = 16


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """Fight to the end, or each number of rounds short of it (up to :data:`MOST_ROUNDS`)."""
    if state.over:
        return
    yield {"action": "battle"}
    for rounds in range(1, min(_most_rounds_left(state) - 1, MOST_ROUNDS) + 1):
        yield {"action": "battle", "rounds": rounds}


def _most_rounds_left(state: State) -> int:
    """The most combat rounds the battle can still last, under any reading of the rulings it consults, counted up to
    one past :data:`MOST_ROUNDS` (0: the rules refuse to fight it)."""
    from checker.engine.errors import Rejection

    most = 0
    try:
        for rounds in _rounds_left(state, {}):
            most = max(most, rounds)
            if most > MOST_ROUNDS:
                break
    except Rejection:
        return 0
    return most


def _rounds_left(state: State, pins: Mapping[str, str], fought: tuple[int, Mapping[str, str]] | None = None) -> Iterator[int]:
    """The rounds the battle lasts (up to one past :data:`MOST_ROUNDS`) under ``pins``, and under each reading of the
    first ruling it consults that ``pins`` leave free, and so on: one fight per combination of the readings consulted."""
    from checker.engine.game import Context
    from checker.games.many_marios_0 import GAME

    if fought is None:
        context = Context(GAME, pins)
        end = GAME.apply(state, {"action": "battle", "rounds": MOST_ROUNDS + 1}, context)
        fought = end.round - state.round, dict(context.consulted)
    rounds, consulted = fought
    free = [ruling for ruling in consulted if ruling not in pins]
    if not free:
        yield rounds
        return
    ruling = free[0]
    for name in GAME.catalogue[ruling].reading_names:
        yield from _rounds_left(state, {**pins, ruling: name}, fought if name == consulted[ruling] else None)


def invariants(first: State, state: State) -> Iterator[str]:
    """What holds in every state reached from ``first``, in the page's terms:

    - energy is only consumed ("Each point of damage a unit deals consumes 1 AE, and each point of damage it is dealt
      consumes 1 DE"): a unit's AE and DE never rise, and never fall below 0;
    - "When a unit's DE is depleted, that unit is defeated. The unit is removed from the lineup": every unit is in its
      army's lineup or among its defeated, once; a defeated unit has no DE left and, once a round has been fought, a
      unit in the lineup has some;
    - the lineup keeps its order, "the order in which they enter the battle", except that leading units move "to the
      back of the lineup" (the order read round the lineup is kept);
    - an army's Army Points do not change during the battle;
    - "A battle ends when all the units in a player's army are defeated. If any units remain in the opposing player's
      army, that player is the winner. If no player has any units left, the battle is a draw", or it ends in
      stalemate, a draw; an ended battle stays ended;
    - rounds are only added.
    """
    if first.over and not state.over:
        yield "the battle had ended and goes on"
    if state.round < first.round:
        yield f"round {state.round} after round {first.round}"
    for side in SIDES:
        before, now = first.armies[side], state.armies[side]
        if now.ap != before.ap:
            yield f"army {side}'s AP went from {before.ap} to {now.ap}"
        start = {u.name: u for u in [*before.lineup, *before.defeated]}
        names = [u.name for u in [*now.lineup, *now.defeated]]
        if sorted(names) != sorted(start):
            yield f"army {side}'s units changed: {sorted(start)} -> {sorted(names)}"
            continue
        for unit in [*now.lineup, *now.defeated]:
            was = start[unit.name]
            if not (0 <= unit.ae <= was.ae and 0 <= unit.de <= was.de):
                yield f"{side} {unit.name}: AE {was.ae} -> {unit.ae}, DE {was.de} -> {unit.de}"
        for unit in now.defeated:
            if unit.de > 0:
                yield f"{side} {unit.name} is defeated with {unit.de} DE"
        if state.round > 0:
            for unit in now.lineup:
                if unit.de <= 0:
                    yield f"{side} {unit.name} is in the lineup with no DE after round {state.round}"
        order = [u.name for u in before.lineup if u.name in {n.name for n in now.lineup}]
        lineup = [u.name for u in now.lineup]
        if lineup and not any(order[i:] + order[:i] == lineup for i in range(len(order))):
            yield f"army {side}'s lineup {lineup} is not in its order {order}, read round the lineup"
    left = {side: bool(state.armies[side].lineup) for side in SIDES}
    if state.over:
        if state.stalemate:
            if state.winner is not None:
                yield f"a stalemate, a draw, has a winner: {state.winner}"
        elif all(left.values()):
            yield "the battle ended with units on both sides and no stalemate"
        elif state.winner != next((side for side in SIDES if left[side]), None):
            yield f"the winner is {state.winner}, and the units left are {left}"
    elif state.round > 0 and not all(left.values()):
        yield "an army has no units left, and the battle goes on"
