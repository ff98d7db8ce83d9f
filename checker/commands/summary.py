"""Each scenario's run summarized (:class:`Shown`): what the site's pages other than its own show of it.

A scenario's own page is written from its full run where it ran (:mod:`checker.site.played`);
every other page (its game's, its rulings', its entities', its pairs', the disputes) reads only
the summary, so no trace, state or loaded document outlives the run.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.catalogue import Catalogue
from checker.run.citations import demonstrated, uncited
from checker.run.compare import flatten
from checker.commands.readings import Exploration
from checker.run.runner import RunResult, Verdict
from checker.format.scenario import DisputeRuling, ProposedAmbiguity, Scenario
from checker.engine.trace import Entity, TraceStep

ANSWER_STEPS = 2  # trace steps quoted as a meeting's one-line answer


@dataclass(frozen=True)
class Met:
    """Where a run made two entities interact: the rulings of the steps that involved both, and what they said."""

    rulings: tuple[str, ...]  # sorted
    answer: str  # the first steps' text, in one line


@dataclass(frozen=True)
class Compared:
    """A scenario's outcome under each reading of one ambiguous ruling, every other reading as in its own run:
    only the facts that differ between them, and each reading's refused actions."""

    readings: tuple[str, ...]  # the reading of each branch, in the exploration's order
    facts: dict[str, tuple[tuple[bool, Any], ...]]  # fact -> per branch (whether it is there, its value)
    refused: tuple[str, ...]  # per branch, its refusals in words, '—' for none


@dataclass(frozen=True)
class Shown:
    """What the pages other than a scenario's own show of its run."""

    path: str
    id: str
    game: str
    title: str
    status: str
    verdict: Verdict
    readings: dict[str, str]  # the ambiguous rulings the run read, and how
    pinned: Mapping[str, str]  # the readings the file pins
    declared: tuple[str, ...]  # the rulings the file lists
    cards: Mapping[str, Any]
    ruling: DisputeRuling | None
    demonstrated: frozenset[str]
    uncited: tuple[str, ...]
    entities: dict[Entity, frozenset[str]]  # every entity a trace step names, in order, with the rulings applied to it
    meetings: dict[tuple[Entity, Entity], Met]  # pairs (the smaller first) a step citing a ruling involved, in order
    touched: tuple[str, ...] = ()  # the ambiguous rulings its exploration read
    depends: frozenset[str] = frozenset()  # those whose reading alone changes what a player sees
    compared: dict[str, Compared] = field(default_factory=dict)  # by ambiguous ruling touched or read
    proposed: ProposedAmbiguity | None = None  # an ambiguity the file proposes, which the catalogue does not list

    @property
    def default_readings(self) -> list[str]:
        """Ambiguous rulings the run read as the catalogue's default: consulted, not pinned by the scenario."""
        return sorted(ruling for ruling in self.readings if ruling not in self.pinned)


def summarize(result: RunResult, exploration: Exploration | None, catalogue: Catalogue) -> Shown:
    """The summary of a run of a loaded scenario (``result.scenario`` is set)."""
    scenario = result.scenario
    assert scenario is not None
    entities: dict[Entity, set[str]] = {}
    met: dict[tuple[Entity, Entity], list[TraceStep]] = {}
    for step in result.trace:
        for entity in step.entities:
            rulings = entities.setdefault(entity, set())
            if step.ruling:
                rulings.add(step.ruling)
        if step.ruling:
            pairs = dict.fromkeys(_ordered(a, b) for a, b in itertools.combinations(step.entities, 2) if a != b)
            for pair in pairs:
                met.setdefault(pair, []).append(step)
    touched = exploration.touched if exploration is not None else ()
    return Shown(
        path=result.path, id=scenario.id, game=scenario.game, title=scenario.title, status=scenario.status,
        verdict=result.verdict, readings=dict(result.readings),
        pinned=dict(scenario.readings) if isinstance(scenario, Scenario) else {}, declared=tuple(scenario.rulings),
        cards=scenario.cards, ruling=scenario.ruling, demonstrated=demonstrated(result, catalogue),
        uncited=uncited(result, catalogue), entities={e: frozenset(r) for e, r in entities.items()},
        meetings={pair: _met(steps) for pair, steps in met.items()}, touched=touched,
        depends=frozenset(r for r in touched if exploration is not None and exploration.depends_on(r, result.readings)),
        compared={r: _compared(exploration, r, result.readings)
                  for r in dict.fromkeys([*touched, *result.readings]) if exploration is not None},
        proposed=scenario.proposed,
    )


def _ordered(a: Entity, b: Entity) -> tuple[Entity, Entity]:
    first, second = sorted((a, b))
    return first, second


def _met(steps: list[TraceStep]) -> Met:
    said = "; ".join(step.text for step in steps[:ANSWER_STEPS])
    more = len(steps) - ANSWER_STEPS
    answer = said + (f" (and {more} more step{'s' if more != 1 else ''})" if more > 0 else "")
    return Met(tuple(sorted({step.ruling for step in steps if step.ruling})), answer)


def _compared(exploration: Exploration, ruling: str, own: Mapping[str, str]) -> Compared:
    branches = exploration.varying(ruling, own)
    flats = [flatten(b.result.outcome) for b in branches]
    differing = sorted({k for f in flats for k in f if len({repr(g.get(k)) for g in flats}) > 1})
    refused = tuple(" ".join(f"action {i + 1} refused ({r.reason})" for i, r in sorted(b.result.rejections.items())) or "—"
                    for b in branches)
    return Compared(tuple(b.readings[ruling] for b in branches),
                    {k: tuple((k in f, f.get(k)) for f in flats) for k in differing}, refused)
