"""What may be done next: every action the rules allow at a state, with its choices.

A game's moves module (:attr:`checker.engine.game.Game.moves`) names the actions that *might* be allowed at a
state, each with every choice written out (cards, targets, amounts, coins): ``candidates(state)``, a generous list
drawn from the state and the vocabulary. The core keeps those that the rules accept: each
candidate is applied, on a copy, by the same :meth:`checker.engine.game.Game.apply` that plays a
scenario, so the list cannot drift from what ``apply`` allows; what the trial noted in its
trace says which rulings allow the action. A candidate the rules cannot carry out as written
(:class:`checker.engine.errors.InputError`: a Chain that resolves onto an effect left without its
target, say) is not allowed either.

Candidates whose action the game's procedure does not allow where play stands (or any, once the game is
over) are not tried: ``apply`` would refuse them before their handler runs. (For a game whose rules finish something
before every action, ``before_action``, where play stands is known only once that is done: every candidate is tried.)

A moves module may also give ``actor(state, action)``, the player who takes an action that names
none (the turn player's attack, say), and ``canonical(action, state)``: the action with every choice the rules
default written out, so that a scenario's ``{action: defend, mamodo: X, spell: Y}`` and the
listed ``{..., page: 3}`` are known for the same action. It is given the state the action is played
at (``None`` where that is not known), for a default that depends on where play stands (the open
page that holds the card). Without it, actions are compared as written.

Where the players choose at once and the rules judge each player's choice on its own (a deal
of every hand, a round of every player's card), the combinations may be far too many to list
(a deal of 3 of 10 cards to each of two players has 720 × 720). A moves module may then list a
covering set, in which every choice of every player appears, and give ``parts(action)``: the
action split into what it shares and each player's own choice. An action is then listed when
each of its players' choices is, in a listed action that shares the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker.engine.errors import InputError, Rejection
from checker.engine.procedure import S
from checker.engine.game import AnyGame, Context, Game

Action = Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    """One action the rules allow now, the player who takes it (``None`` for the game's own moves), and the rulings
    its trial cited, in the order it cited them."""

    action: dict[str, Any]
    player: str | None
    rulings: tuple[str, ...]


def lists_actions(game: AnyGame) -> bool:
    """Whether the game has a moves module that lists the actions its rules may allow."""
    return game.moves is not None


def canonical(game: Game[S], action: Action, state: S | None = None) -> dict[str, Any]:
    """The action with the choices its rules default written out at ``state`` (the game's ``canonical``), else as
    written."""
    normal = getattr(game.moves, "canonical", None)
    return dict(normal(action, state)) if normal is not None else dict(action)


def actor(game: Game[S], state: S, action: Action) -> str | None:
    """The player who takes ``action`` at ``state``: the one it names, else the one the game's ``actor(state, action)``
    says (the turn player, for an action the rules give to them without naming them), else nobody (the game's own)."""
    named = action.get("player")
    if isinstance(named, str):
        return named
    said = getattr(game.moves, "actor", None)
    return said(state, action) if said is not None else None


def options(game: Game[S], state: S, pins: Mapping[str, str] | None = None) -> list[Option]:
    """Every action the rules allow at ``state`` under the readings ``pins`` (else the defaults), in the order the
    game lists them, each once (for a game that gives ``parts``, every choice of every player). ``state`` is never
    changed."""
    if not lists_actions(game):
        raise NotImplementedError(f"{game.id} does not list its actions (it has no moves module)")
    found: list[Option] = []
    seen: set[str] = set()
    assert game.moves is not None
    settled = getattr(game.rules, "before_action", None) is None  # where play stands is where it will stand
    for candidate in game.moves.candidates(state):
        action = canonical(game, candidate, state)
        key = repr(sorted(action.items()))
        if key in seen:
            continue
        seen.add(key)
        if settled and not game.walker.allows(state, action["action"]):
            continue
        context = Context(game, pins)
        try:
            game.apply(state, action, context)
        except (Rejection, InputError):
            continue
        cited = tuple(dict.fromkeys(step.ruling for step in context.trace if step.ruling))
        found.append(Option(action, actor(game, state, action), cited))
    return found


def legal_actions(game: Game[S], state: S, pins: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every action the rules allow at ``state``, with its choices (see :func:`options`)."""
    return [option.action for option in options(game, state, pins)]


def listed(game: Game[S], action: Action, actions: Iterable[Action], state: S | None = None) -> bool:
    """Whether ``action``, as a scenario writes it, is among ``actions`` (both compared in canonical form, at ``state``
    when it is given: where they are played), or, for a game whose moves module gives ``parts``, combines its players'
    choices from listed actions that share the rest."""
    wanted = canonical(game, action, state)
    others = [canonical(game, other, state) for other in actions]
    if wanted in others:
        return True
    split = getattr(game.moves, "parts", None)
    if split is None or (mine := split(wanted)) is None:
        return False
    shared, own = mine
    alike = [choices for shared_too, choices in filter(None, map(split, others)) if shared_too == shared]
    return bool(alike) and all(any(who in choices and choices[who] == choice for choices in alike)
                               for who, choice in own.items())
