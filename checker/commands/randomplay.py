"""Random legal play, for every game: the scenarios the dispute search and the property tests draw.

Play starts where a real scenario of the game starts (its ``initial`` state and ``cards``),
optionally after some of that scenario's own accepted actions, and goes on with actions drawn
from what the rules allow at each state (:func:`checker.engine.legal.legal_actions`). Nothing in it is
written per game: a game that lists its actions (``candidates``) can be played at random.

A drawn game ends where the rules can finish it (:func:`can_end`): play that stops with a choice
still to make, or a Chain that cannot resolve as it stands, drops its last actions. The start's
actions are played under the readings of the play, up to the first one those refuse.

The draws are Hypothesis strategies, so a drawn scenario shrinks: towards the first start, a
shorter prefix of its actions, fewer random actions and the first action listed at each state.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from hypothesis import strategies as st

from checker.engine.errors import InputError, Rejection
from checker.engine.procedure import GameState
from checker.engine.game import Context, AnyGame
from checker.engine.legal import legal_actions
from checker.format.scenario import Scenario

#: Scenario data: ``initial``, ``cards`` and ``actions``, as a scenario file writes them.
ScenarioData = dict[str, Any]
#: Random actions drawn after a start, at most.
MAX_ACTIONS = 8


@dataclass(frozen=True)
class Start:
    """Where random play may begin: a scenario's initial state and cards, and its actions up to its first refusal."""

    origin: str  # the scenario's id
    initial: Mapping[str, Any]
    cards: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...]


def starts(game: AnyGame, scenarios: Iterable[Scenario], pins: Mapping[str, str] | None = None) -> list[Start]:
    """The starts the scenarios of ``game`` give, in their order: each one whose initial state the rules accept, with
    its actions as far as the rules accept them under the readings ``pins`` (else the defaults), which play uses too."""
    found = []
    for scenario in scenarios:
        if scenario.game != game.id:
            continue
        context = Context(game, pins)
        try:
            state = game.setup(scenario.initial, scenario.cards, context)
        except (Rejection, InputError):
            continue
        accepted = []
        for action in scenario.actions:
            try:
                state = game.apply(state, action.data, context)
            except (Rejection, InputError):
                break
            accepted.append(action.data)
        found.append(Start(scenario.id, scenario.initial, scenario.cards, tuple(accepted)))
    return found


def play(game: AnyGame, start: Start, prefix: int, choose: Any, *, max_actions: int = MAX_ACTIONS,
         pins: Mapping[str, str] | None = None) -> ScenarioData:
    """The scenario data of one random game: ``start`` with the first ``prefix`` of its actions, then up to
    ``max_actions`` actions, each picked from what the rules allow by ``choose(options) -> action or None`` (``None``
    stops play), less the last actions after which the game cannot end (see :func:`can_end`)."""
    context = Context(game, pins)
    state = game.setup(start.initial, start.cards, context)
    actions: list[dict[str, Any]] = []
    states = [state]
    for action in start.actions[:prefix]:
        try:
            state = game.apply(state, action, context)
        except (Rejection, InputError):  # accepted under the scenario's own readings, not under ``pins``
            break
        actions.append(copy.deepcopy(dict(action)))
        states.append(state)
    for _ in range(max_actions):
        allowed = legal_actions(game, state, pins)
        picked = choose(allowed) if allowed else None
        if picked is None:
            break
        state = game.apply(state, picked, context)
        actions.append(picked)
        states.append(state)
    while actions and not can_end(game, states[-1], pins):
        actions.pop()
        states.pop()
    return {"initial": copy.deepcopy(dict(start.initial)), "cards": copy.deepcopy(dict(start.cards)), "actions": actions}


def can_end(game: AnyGame, state: GameState, pins: Mapping[str, str] | None = None) -> bool:
    """Whether a scenario may end at ``state``: the rules can finish what is pending (``settle``). Play that stops
    where they cannot (a choice still to make, a Chain that cannot resolve as it stands) drops its last actions."""
    try:
        game.settle(state, Context(game, pins))
    except (Rejection, InputError):
        return False
    return True


def scenarios(game: AnyGame, origins: Sequence[Start], *, max_actions: int = MAX_ACTIONS,
              pins: Mapping[str, str] | None = None) -> st.SearchStrategy[ScenarioData]:
    """A Hypothesis strategy of random legal play from ``origins`` (see :func:`play`)."""
    if not origins:
        raise ValueError(f"no scenario of {game.id} gives a start for random play")

    @st.composite
    def drawn(draw: st.DrawFn) -> ScenarioData:
        start = draw(st.sampled_from(origins))
        prefix = draw(st.integers(0, len(start.actions)))
        length = draw(st.integers(0, max_actions))
        remaining = [length]

        def choose(allowed: list[dict[str, Any]]) -> dict[str, Any] | None:
            if remaining[0] <= 0:
                return None
            remaining[0] -= 1
            picked: dict[str, Any] = draw(st.sampled_from(allowed))
            return picked

        return play(game, start, prefix, choose, max_actions=max_actions, pins=pins)

    return drawn()
