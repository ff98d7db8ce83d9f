"""Running a scenario under every reading of the ambiguous rulings it touches."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any, Collection, Iterator, Mapping

from checker.run.compare import flatten
from checker.engine.game import AnyGame
from checker.run.runner import SETUP, RunResult, refused_what, run
from checker.format.scenario import Scenario


@dataclass(frozen=True)
class Branch:
    readings: dict[str, str]
    result: RunResult

    @classmethod
    def of(cls, result: RunResult) -> "Branch":
        """The branch of a run: the readings it consulted."""
        return cls(dict(result.readings), result)

    @property
    def fingerprint(self) -> str:
        """What a player would see differ: the outcome and any rejections."""
        rejections = {index: r.reason for index, r in self.result.rejections.items()}
        return json.dumps([self.result.outcome, rejections], sort_keys=True, default=str)

    @functools.cached_property  # the report looks up one fact at a time
    def asserted(self) -> dict[str, Any]:
        """What the scenario asserts, as this run has it, by where and which fact.

        A scenario with expectations asserts the facts its `expect:` keys list (at the end
        and after each action that has one) and, for the initial state and every action,
        whether it is refused and why (no `reject:` asserts it is legal). A question
        asserts nothing, so its whole answer counts: every outcome fact and every refusal.
        """
        result = self.result
        facts: dict[str, Any] = {}
        if result.crash:
            facts["the run"] = "internal error: " + result.crash.rstrip().splitlines()[-1]
        if result.error is not None:
            facts["the run"] = "invalid: " + result.error.message
        played = [] if SETUP in result.rejections or result.scenario is None else result.scenario.actions
        for index in (SETUP, *(action.index for action in played)):
            refusal = result.rejections.get(index)
            facts[refused_what(index)] = f"refused ({refusal.reason})" if refusal else "legal"
        if result.scenario is not None and result.scenario.is_question:
            facts.update({f"final outcome: {key}": value for key, value in flatten(result.outcome).items()})
        for checkpoint in result.checkpoints:
            facts.update({f"{checkpoint.label}: {key}": value for key, value in checkpoint.asserted.items()})
        return facts


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


@dataclass(frozen=True)
class Variation:
    """One ambiguous ruling read every other way, every other reading as in ``baseline``."""

    ruling: str
    baseline: Branch
    alternatives: tuple[Branch, ...]

    @property
    def branches(self) -> tuple[Branch, ...]:
        return (self.baseline, *self.alternatives)

    @property
    def changes_the_outcome(self) -> bool:
        """Whether another reading changes a fact the scenario asserts (for a question, its answer)."""
        return len({_key(branch.asserted) for branch in self.branches}) > 1

    def differing(self) -> list[str]:
        """The asserted facts whose values differ between this ruling's readings."""
        facts = [branch.asserted for branch in self.branches]
        return [key for key in dict.fromkeys(k for f in facts for k in f) if len({_key(f.get(key)) for f in facts}) > 1]


@dataclass(frozen=True)
class Survey:
    """A scenario's own run and, for each ambiguous ruling it touches and does not hold, its other readings."""

    own: Branch
    variations: tuple[Variation, ...]
    held: tuple[str, ...]  # touched rulings the file pins and the survey did not vary

    @property
    def pinned(self) -> Mapping[str, str]:
        """The readings the file pins under `readings:`."""
        scenario = self.own.result.scenario
        return scenario.readings if scenario else {}

    @property
    def branches(self) -> tuple[Branch, ...]:
        return (self.own, *(branch for variation in self.variations for branch in variation.alternatives))

    @property
    def touched(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(ruling for branch in self.branches for ruling in branch.readings))

    @property
    def passes_under_every_reading(self) -> bool:
        return bool(self.variations) and all(branch.result.verdict == "pass" for branch in self.branches)

    @property
    def same_answer_under_every_reading(self) -> bool:
        return bool(self.variations) and self.own.result.verdict == "question" and not any(
            variation.changes_the_outcome for variation in self.variations)


def survey(scenario: Scenario, game: AnyGame, *, hold: Collection[str] = ()) -> Survey:
    """The scenario's own run, then each ambiguous ruling a run consults varied alone.

    A ruling is varied once, from the first run that consults it: the scenario's own
    run, or for a ruling consulted only under another reading, the run of that reading.
    Rulings in ``hold`` keep the reading the file pins. One run per reading (``k + 1``
    for ``k`` rulings of two readings) instead of one per combination of readings.
    """
    own = Branch.of(run(scenario, game))
    variations: list[Variation] = []
    varied: set[str] = set()
    bases = [own]
    for base in bases:  # grows as the alternatives of each variation are added
        for ruling in base.readings:
            if ruling in varied or ruling in hold:
                continue
            varied.add(ruling)
            alternatives = _alternatives(scenario, game, base.readings, ruling)
            variations.append(Variation(ruling, base, alternatives))
            bases += alternatives
    held = tuple(dict.fromkeys(r for b in bases for r in b.readings if r in hold))
    return Survey(own, tuple(variations), held)


def explore(scenario: Scenario, game: AnyGame) -> Exploration:
    """Every combination of readings that the run actually consults.

    Each run reports which ambiguous rulings it consulted; every one not yet
    fixed is branched over, so a reading that only matters under another
    reading is still explored, and untouched rulings cost nothing.
    """
    return Exploration(tuple(_branches(scenario, game, {})))


def explore_each(
    scenario: Scenario, game: AnyGame, only: Collection[str] | None = None, *, own_run: RunResult | None = None
) -> Exploration:
    """The scenario's own run (``own_run`` when the caller has it), and one run per other reading of
    each ambiguous ruling it consults (of those in ``only``, when given).

    Every other ruling keeps the reading of the scenario's own run, which is all that
    :meth:`Exploration.varying` compares; far fewer runs than :func:`explore`.
    """
    own = Branch.of(own_run if own_run is not None else run(scenario, game))
    alternatives = [branch for ruling in own.readings if only is None or ruling in only
                    for branch in _alternatives(scenario, game, own.readings, ruling, own.result)]
    return Exploration((own, *alternatives))


def _alternatives(scenario: Scenario, game: AnyGame, readings: Mapping[str, str], ruling: str,
                  base: RunResult | None = None) -> tuple[Branch, ...]:
    """Runs under each other reading of ``ruling``, every other ruling as in ``readings`` (those of ``base``, when
    given: a run that kept its starts, each run then played on from before the action that first consulted ``ruling``)."""
    start = next((s for s in reversed(base.starts) if ruling not in s.consulted), None) if base is not None else None
    return tuple(
        Branch.of(run(scenario, game, {**readings, ruling: other}, resume=(base, start) if base and start else None))
        for other in game.catalogue[ruling].reading_names if other != readings[ruling]
    )


def _branches(scenario: Scenario, game: AnyGame, pins: dict[str, str], result: RunResult | None = None) -> Iterator[Branch]:
    """The leaves below ``pins``; ``result`` is the run under ``pins`` when the caller already has it.

    A run already consults the first free ruling under some reading, so the branch that
    pins that same reading reuses it: one run per combination of readings, no more.
    """
    if result is None:
        result = run(scenario, game, pins)
    free = [ruling for ruling in result.readings if ruling not in pins]
    if not free:
        yield Branch.of(result)
        return
    for name in game.catalogue[free[0]].reading_names:
        same = name == result.readings[free[0]]
        yield from _branches(scenario, game, {**pins, free[0]: name}, result if same else None)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
