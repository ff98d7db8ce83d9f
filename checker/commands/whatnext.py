"""What each player may do after a scenario's last action: the answer to "what could B have done here?".

The scenario is played as ``checker check`` plays it; where play stands after its last action
(before the end of the scenario settles anything), every action the rules allow is listed
(:func:`checker.engine.legal.options`), grouped by the player who takes it, each with its choices, what
the action is, and the rulings its trial cited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.engine.game import Game
from checker.engine.legal import Option, options
from checker.run.runner import RunResult, run
from checker.format.scenario import Scenario

#: The group of the actions no player takes (the game moves on by itself, a deal, a calculation).
NO_PLAYER = "the game itself"


@dataclass(frozen=True)
class WhatNext:
    """The options after a scenario's last action, and the run that led there."""

    result: RunResult
    where: tuple[str, str] | None  # the phase's and the step's titles where play stands, if it stands at one
    options: tuple[Option, ...]

    def by_player(self) -> dict[str, list[Option]]:
        grouped: dict[str, list[Option]] = {}
        for option in self.options:
            grouped.setdefault(option.player or NO_PLAYER, []).append(option)
        return grouped


def what_next(scenario: Scenario, game: Game) -> WhatNext:
    """Play ``scenario`` and list what may be done after its last action, under its readings."""
    result = run(scenario, game, keep_starts=True)
    if not result.starts:  # refused at setup, or invalid: nothing may be done
        return WhatNext(result, None, ())
    state = result.starts[-1].state
    step = getattr(state, "step", None)
    where = None
    if isinstance(step, str) and step in game.procedure.order:
        phase, found = game.walker.where(step)
        where = (phase.title, found.title)
    return WhatNext(result, where, tuple(options(game, state, scenario.readings)))


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


def text(found: WhatNext, game: Game, *, path: str) -> str:
    """The options as a player reads them: where play stands, then each player's options with their rulings."""
    scenario = found.result.scenario
    count = len(scenario.actions) if scenario else 0
    after = f"after its last action (action {count})" if count else "at the start (it plays no action)"
    lines = [f"{path}: {after}"]
    if found.where is not None:
        lines[0] += f", play stands at “{found.where[1]}” ({found.where[0]})"
    if not found.options:
        lines.append("Nobody may do anything: the rules allow no action here.")
        return "\n".join(lines)
    vocabulary = game.vocabulary.actions
    for player, listed in found.by_player().items():
        lines.append(f"{player if player == NO_PLAYER else 'Player ' + player} may:")
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
        "where": {"phase": found.where[0], "step": found.where[1]} if found.where else None,
        "options": [
            {"player": option.player, "action": option.action, "rulings": list(option.rulings)}
            for option in found.options
        ],
    }
