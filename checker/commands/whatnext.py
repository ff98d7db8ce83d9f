"""What each player may do after a scenario's last action, or any other: the answer to "what could B have done here?".

The scenario is played as ``checker check`` plays it; where play stands after the action asked
about (the last, unless another is named; before the end of the scenario settles anything), every
action the rules allow is listed
(:func:`checker.engine.legal.options`), grouped by the player who takes it, each with its choices, what
the action is, and the rulings its trial cited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.engine.legal import Option, actor, options
from checker.run.runner import RunResult, run
from checker.format.scenario import Scenario

#: The group of the actions no player takes (a Chain that resolves when nobody responds, a deal, a calculation).
NO_PLAYER = "nobody"


@dataclass(frozen=True)
class WhatNext:
    """The options after a scenario's last action, and the run that led there."""

    result: RunResult
    where: tuple[str, str] | None  # the phase's and the step's titles where play stands, if it stands at one
    options: tuple[Option, ...]
    after: int = 0  # how many of the scenario's actions were played (0: none, at the start)
    played_by: str | None = None  # who takes the action the scenario plays next (None: nobody, or none is played)

    @property
    def played_next(self) -> Mapping[str, Any] | None:
        """The action the scenario plays next, where it plays one."""
        scenario = self.result.scenario
        return scenario.actions[self.after].data if scenario and self.after < len(scenario.actions) else None

    def by_player(self) -> dict[str, list[Option]]:
        grouped: dict[str, list[Option]] = {}
        for option in self.options:
            grouped.setdefault(option.player or NO_PLAYER, []).append(option)
        return grouped


def what_next(scenario: Scenario, game: AnyGame, after: int | None = None) -> WhatNext:
    """Play ``scenario`` and list what may be done after its action number ``after`` (0: at the start; ``None``: after
    the last), under its readings."""
    count = len(scenario.actions)
    if after is not None and not 0 <= after <= count:
        raise InputError(f"{scenario.path} has {count} action{'' if count == 1 else 's'}: there is no action {after}",
                         expected=f"a number from 0 (the start) to {count}")
    after = count if after is None else after
    result = run(scenario, game, keep_starts=True)
    if len(result.starts) <= after:  # refused at setup, or stopped before that action (invalid): nothing may be done
        return WhatNext(result, None, (), after)
    state = result.starts[after].state
    step = getattr(state, "step", None)
    where = None
    if isinstance(step, str) and step in game.procedure.order:
        phase, found = game.walker.where(step)
        where = (phase.title, found.title)
    played = scenario.actions[after].data if after < count else None
    by = actor(game, state, played) if played is not None else None
    return WhatNext(result, where, tuple(options(game, state, scenario.readings)), after, by)


def choices(action: Mapping[str, Any]) -> str:
    """An action's choices in words, as a scenario writes them: ``card Break, target B``."""
    shown = [f"{key} {_value(value)}" for key, value in action.items() if key not in ("action", "player")]
    return ", ".join(shown)


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def text(found: WhatNext, game: AnyGame, *, path: str) -> str:
    """The options as a player reads them: where play stands, then each player's options with their rulings."""
    scenario = found.result.scenario
    count = len(scenario.actions) if scenario else 0
    if found.after == 0:
        after = "at the start (before any action)"
    elif found.after == count:
        after = f"after its last action (action {count})"
    else:
        after = f"after action {found.after} of {count}"
    lines = [f"{path}: {after}"]
    if found.where is not None:
        lines[0] += f", play stands at “{found.where[1]}” ({found.where[0]})"
    if not found.options:
        lines.append("Nobody may do anything: the rules allow no action here.")
        return "\n".join(lines)
    played = found.played_next
    if played is not None:
        said = choices(played)
        who = f"player {found.played_by}" if found.played_by else "nobody's action"
        lines.append(f"The scenario then plays {played['action']}{': ' + said if said else ''} ({who}).")
    vocabulary = game.vocabulary.actions
    for player, listed in found.by_player().items():
        lines.append("The game moves on by itself, when the players let it:" if player == NO_PLAYER else f"Player {player} may:")
        for option in listed:
            name = str(option.action["action"])
            said = choices(option.action)
            described = vocabulary[name].description if name in vocabulary else ""
            lines.append(f"  - {name}{': ' + said if said else ''}")
            if described:
                lines.append(f"      {described}")
            if option.rulings:
                lines.append("      allowed by: " + ", ".join(option.rulings))
    return "\n".join(lines)


def as_json(found: WhatNext) -> dict[str, Any]:
    return {
        "after": found.after,
        "played_next": dict(found.played_next) if found.played_next is not None else None,
        "where": {"phase": found.where[0], "step": found.where[1]} if found.where else None,
        "options": [
            {"player": option.player, "action": option.action, "rulings": list(option.rulings)}
            for option in found.options
        ],
    }
