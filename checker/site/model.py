"""What the site shows: each scenario's run summarized (:class:`Shown`), and each game's view of them.

A scenario's own page is written from its full run where it ran (:mod:`checker.site.played`);
every other page (its game's, its rulings', its entities', its pairs', the disputes) reads only
the summary, so no trace, state or loaded document outlives the run.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import networkx as nx

from checker.catalogue import Catalogue
from checker.citations import demonstrated, uncited
from checker.compare import flatten
from checker.game import Game
from checker.readings import Exploration
from checker.runner import RunResult, Verdict
from checker.scenario import DisputeRuling, Scenario
from checker.site.graphs import KindStyle, interaction_graph, kind_styles
from checker.trace import Entity, TraceStep

SAFE_PART = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
ANSWER_STEPS = 2  # trace steps quoted as a meeting's one-line answer


def slug(text: str) -> str:
    """A URL part from any text: lower-case letters, digits and '-' (a hash if nothing is left)."""
    words = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return words or "x-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


@functools.lru_cache(maxsize=1 << 16)
def page(*parts: str) -> str:
    """A page's source path; every part must be a safe name, so no path can leave the site."""
    for part in parts:
        if not SAFE_PART.match(part) or ".." in part:
            raise ValueError(f"unsafe page path part {part!r}")
    return "/".join(parts) + ".md"


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


@dataclass
class GameView:
    game: Game
    results: list[Shown]
    graph: nx.Graph
    entity_slugs: dict[Entity, str] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict, repr=False)  # what pages compute once per game

    @classmethod
    def of(cls, game: Game, results: list[Shown]) -> "GameView":
        return cls(game, results, interaction_graph(results, game.catalogue))

    def __post_init__(self) -> None:
        taken: set[str] = set()
        for entity in sorted(self.graph):
            base = f"{slug(entity[0])}-{slug(entity[1])}"
            name = base if base not in taken else f"{base}-{hashlib.sha1(repr(entity).encode()).hexdigest()[:6]}"
            taken.add(name)
            self.entity_slugs[entity] = name

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def hub_kinds(self) -> tuple[str, ...]:
        return tuple(k for k, kind in self.game.entity_kinds.items() if kind.hub)

    @property
    def question_kinds(self) -> tuple[str, ...]:
        return self.game.question_kinds

    @property
    def kind_styles(self) -> dict[str, KindStyle]:
        return kind_styles([*self.game.entity_kinds, *sorted({e[0] for e in self.graph} - set(self.game.entity_kinds))])

    def kind_description(self, kind: str) -> str:
        known = self.game.entity_kinds.get(kind)
        return known.description if known else f"An entity of kind '{kind}'"

    def home(self) -> str:
        return page(self.id, "index")

    def vocabulary_page(self) -> str:
        return page(self.id, "vocabulary")

    def facts_page(self) -> str:
        return page(self.id, "facts")

    def rulings_page(self) -> str:
        return page(self.id, "rulings", "index")

    def pairs_data(self) -> str:
        """The pair picker's data, fetched by the game page when a reader first uses the picker."""
        return f"{self.id}/pairs.json"

    def ruling_page(self, ruling_id: str) -> str:
        return page(self.id, "rulings", ruling_id)

    def scenario_page(self, scenario_id: str) -> str:
        return page(self.id, "scenarios", scenario_id)

    def entity_page(self, entity: Entity) -> str:
        return page(self.id, "entities", self.entity_slugs[entity])

    def pair_page(self, a: Entity, b: Entity) -> str:
        """The page of two entities that met: ``<game>/pairs/<a>--<b>``, the smaller first."""
        first, second = sorted((a, b))
        return page(self.id, "pairs", f"{self.entity_slugs[first]}--{self.entity_slugs[second]}")

    @functools.cached_property
    def by_id(self) -> dict[str, Shown]:
        return {r.id: r for r in self.results}

    @functools.cached_property
    def _by_ruling(self) -> tuple[dict[str, list[Shown]], dict[str, list[Shown]]]:
        """Per ruling, the scenarios whose run demonstrates it and those whose author only declares it."""
        shown: dict[str, list[Shown]] = {}
        declared: dict[str, list[Shown]] = {}
        for result in self.results:
            for ruling in result.demonstrated:
                shown.setdefault(ruling, []).append(result)
            for ruling in result.uncited:
                declared.setdefault(ruling, []).append(result)
        return shown, declared

    def demonstrating(self, ruling_id: str) -> list[Shown]:
        """Scenarios whose run demonstrates the ruling: its trace cites it (see :mod:`checker.citations`)."""
        return self._by_ruling[0].get(ruling_id, [])

    def declared_only(self, ruling_id: str) -> list[Shown]:
        """Scenarios whose author lists the ruling but whose run does not cite it."""
        return self._by_ruling[1].get(ruling_id, [])

    @functools.cached_property
    def _depending(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for result in sorted(self.results, key=lambda r: r.id):
            for ruling in result.touched:
                if ruling in result.depends:
                    found.setdefault(ruling, []).append(result.id)
        return found

    def depending_on(self, ruling_id: str) -> list[str]:
        """Scenarios whose outcome changes with the reading of this ambiguous ruling alone."""
        return list(self._depending.get(ruling_id, []))

    def counts(self) -> dict[str, int]:
        catalogue = self.game.catalogue
        return {
            "rulings": len(catalogue.rulings),
            "scenarios": len(self.results),
            "passing": sum(r.verdict in ("pass", "question") for r in self.results),
            "ambiguous": len(catalogue.with_status("ambiguous")),
        }


@dataclass
class SiteModel:
    games: dict[str, GameView]
    invalid: list[RunResult]
