"""What may be done next: every action the rules allow at a state, with its choices.

A game's moves module (:attr:`checker.game.Game.moves`) names the actions that *might* be allowed at a
state, each with every choice written out (cards, targets, amounts, coins): ``candidates(state)``, a generous list
drawn from the state and the vocabulary. The core keeps those that the rules accept: each
candidate is applied, on a copy, by the same :meth:`checker.game.Game.apply` that plays a
scenario, so the list cannot drift from what ``apply`` allows; what the trial noted in its
trace says which rulings allow the action.

A moves module may also give ``canonical(action)``: the action with every choice the rules
default written out, so that a scenario's ``{action: defend, mamodo: X, spell: Y}`` and the
listed ``{..., page: 3}`` are known for the same action. Without it, actions are compared as
written. Where a default depends on where play stands (the open page that holds the card), the
game's ``canonical(action, state)`` takes the state the action is played at as well; it is
given whenever it is known.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker.errors import Rejection
from checker.game import Context, Game

Action = Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    """One action the rules allow now, the player who takes it (``None`` for the game's own moves), and the rulings
    its trial cited, in the order it cited them."""

    action: dict[str, Any]
    player: str | None
    rulings: tuple[str, ...]


def lists_actions(game: Game) -> bool:
    """Whether the game has a moves module that lists the actions its rules may allow."""
    return game.moves is not None


def canonical(game: Game, action: Action, state: Any = None) -> dict[str, Any]:
    """The action with the choices its rules default written out (the game's ``canonical``, given ``state`` when it
    takes one and it is known), else as written."""
    normal = getattr(game.moves, "canonical", None)
    if normal is None:
        return dict(action)
    if state is not None and len(inspect.signature(normal).parameters) > 1:
        return dict(normal(action, state))
    return dict(normal(action))


def options(game: Game, state: Any, pins: Mapping[str, str] | None = None) -> list[Option]:
    """Every action the rules allow at ``state`` under the readings ``pins`` (else the defaults), in the order the
    game lists them, each once. ``state`` is never changed."""
    if not lists_actions(game):
        raise NotImplementedError(f"{game.id} does not list its actions (it has no moves module)")
    found: list[Option] = []
    seen: set[str] = set()
    assert game.moves is not None
    for candidate in game.moves.candidates(state):
        action = canonical(game, candidate, state)
        key = repr(sorted(action.items()))
        if key in seen:
            continue
        seen.add(key)
        context = Context(game, pins)
        try:
            game.apply(state, action, context)
        except Rejection:
            continue
        cited = tuple(dict.fromkeys(step.ruling for step in context.trace if step.ruling))
        player = action.get("player")
        found.append(Option(action, player if isinstance(player, str) else None, cited))
    return found


def legal_actions(game: Game, state: Any, pins: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every action the rules allow at ``state``, with its choices (see :func:`options`)."""
    return [option.action for option in options(game, state, pins)]


def listed(game: Game, action: Action, actions: Iterable[Action], state: Any = None) -> bool:
    """Whether ``action``, as a scenario writes it, is among ``actions`` (both compared in canonical form, at ``state``
    when it is given: where they are played)."""
    wanted = canonical(game, action, state)
    return any(canonical(game, other, state) == wanted for other in actions)
