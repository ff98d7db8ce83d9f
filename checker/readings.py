"""Running a scenario under every reading of the ambiguous rulings it touches."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterator, Mapping

from checker.game import Game
from checker.runner import RunResult, run
from checker.scenario import Scenario


@dataclass(frozen=True)
class Branch:
    readings: dict[str, str]
    result: RunResult

    @property
    def fingerprint(self) -> str:
        """What a player would see differ: the outcome and any rejections."""
        rejections = {index: r.reason for index, r in self.result.rejections.items()}
        return json.dumps([self.result.outcome, rejections], sort_keys=True, default=str)


@dataclass(frozen=True)
class Exploration:
    branches: tuple[Branch, ...]

    @property
    def touched(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for branch in self.branches:
            seen.update(dict.fromkeys(branch.readings))
        return tuple(seen)

    @property
    def depends_on_reading(self) -> bool:
        return len({branch.fingerprint for branch in self.branches}) > 1

    def varying(self, ruling: str, baseline: Mapping[str, str]) -> tuple[Branch, ...]:
        """The branches where only ``ruling``'s reading differs from ``baseline`` (the scenario's own run)."""
        return tuple(
            branch for branch in self.branches
            if ruling in branch.readings
            and all(name == baseline.get(other, name) for other, name in branch.readings.items() if other != ruling)
        )

    def depends_on(self, ruling: str, baseline: Mapping[str, str]) -> bool:
        """Whether changing this ruling's reading alone changes what a player would see."""
        return len({branch.fingerprint for branch in self.varying(ruling, baseline)}) > 1


def explore(scenario: Scenario, game: Game) -> Exploration:
    """Every combination of readings that the run actually consults.

    Each run reports which ambiguous rulings it consulted; every one not yet
    fixed is branched over, so a reading that only matters under another
    reading is still explored, and untouched rulings cost nothing.
    """
    return Exploration(tuple(_branches(scenario, game, {})))


def explore_each(scenario: Scenario, game: Game) -> Exploration:
    """The scenario's own run, and one run per other reading of each ambiguous ruling it consults.

    Every other ruling keeps the reading of the scenario's own run, which is all that
    :meth:`Exploration.varying` compares; far fewer runs than :func:`explore`.
    """
    own = run(scenario, game)
    branches = [Branch(dict(own.readings), own)]
    for ruling, name in own.readings.items():
        for other in game.catalogue[ruling].reading_names:
            if other != name:
                result = run(scenario, game, {**own.readings, ruling: other})
                branches.append(Branch(dict(result.readings), result))
    return Exploration(tuple(branches))


def _branches(scenario: Scenario, game: Game, pins: dict[str, str], result: RunResult | None = None) -> Iterator[Branch]:
    """The leaves below ``pins``; ``result`` is the run under ``pins`` when the caller already has it.

    A run already consults the first free ruling under some reading, so the branch that
    pins that same reading reuses it: one run per combination of readings, no more.
    """
    if result is None:
        result = run(scenario, game, pins)
    free = [ruling for ruling in result.readings if ruling not in pins]
    if not free:
        yield Branch(dict(result.readings), result)
        return
    for name in game.catalogue[free[0]].reading_names:
        same = name == result.readings[free[0]]
        yield from _branches(scenario, game, {**pins, free[0]: name}, result if same else None)
