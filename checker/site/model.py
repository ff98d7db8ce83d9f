"""Everything the site shows, computed once per build by running the engine."""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import networkx as nx

from checker import suite
from checker.citations import demonstrated, uncited
from checker.errors import InputError
from checker.game import Game
from checker.readings import Exploration, explore_each
from checker.runner import RunResult
from checker.scenario import Scenario
from checker.site.graphs import KindStyle, interaction_graph, kind_styles
from checker.trace import Entity

SAFE_PART = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


def slug(text: str) -> str:
    """A URL part from any text: lower-case letters, digits and '-' (a hash if nothing is left)."""
    words = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return words or "x-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def page(*parts: str) -> str:
    """A page's source path; every part must be a safe name, so no path can leave the site."""
    for part in parts:
        if not SAFE_PART.match(part) or ".." in part:
            raise ValueError(f"unsafe page path part {part!r}")
    return "/".join(parts) + ".md"


@dataclass
class GameView:
    game: Game
    results: list[RunResult]
    explorations: dict[str, Exploration]
    graph: nx.Graph
    entity_slugs: dict[Entity, str] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict, repr=False)  # what pages compute once per game

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
    def by_id(self) -> dict[str, RunResult]:
        return {r.id: r for r in self.results}

    @functools.cached_property
    def _demonstrated(self) -> dict[str, frozenset[str]]:
        return {r.id: demonstrated(r, self.game.catalogue) for r in self.results}

    @functools.cached_property
    def _by_ruling(self) -> tuple[dict[str, list[RunResult]], dict[str, list[RunResult]]]:
        """Per ruling, the scenarios whose run demonstrates it and those whose author only declares it."""
        shown: dict[str, list[RunResult]] = {}
        declared: dict[str, list[RunResult]] = {}
        for result in self.results:
            for ruling in self._demonstrated[result.id]:
                shown.setdefault(ruling, []).append(result)
            if result.scenario:
                for ruling in uncited(result, self.game.catalogue):
                    declared.setdefault(ruling, []).append(result)
        return shown, declared

    def demonstrated_by(self, result: RunResult) -> frozenset[str]:
        return self._demonstrated[result.id]

    def demonstrating(self, ruling_id: str) -> list[RunResult]:
        """Scenarios whose run demonstrates the ruling: its trace cites it (see :mod:`checker.citations`)."""
        return self._by_ruling[0].get(ruling_id, [])

    def declared_only(self, ruling_id: str) -> list[RunResult]:
        """Scenarios whose author lists the ruling but whose run does not cite it."""
        return self._by_ruling[1].get(ruling_id, [])

    def default_readings(self, result: RunResult) -> list[str]:
        """Ambiguous rulings the run read as the catalogue's default: consulted, not pinned by the scenario."""
        pinned = result.scenario.readings if isinstance(result.scenario, Scenario) else {}
        return sorted(ruling for ruling in result.readings if ruling not in pinned)

    @functools.cached_property
    def _depending(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for sid, exploration in sorted(self.explorations.items()):
            own = self.by_id[sid].readings
            for ruling in exploration.touched:
                if exploration.depends_on(ruling, own):
                    found.setdefault(ruling, []).append(sid)
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


@dataclass(frozen=True)
class Played:
    """One scenario file as the site shows it: its text, its run, and its run under other readings."""

    text: str
    result: RunResult
    exploration: Exploration | None


def play(path: Path, text: str) -> Played:
    """Load and run the file; a scenario that consults ambiguous rulings is also run under their other
    readings, of which only the outcome and the refusals are kept (all the pages compare)."""
    result = suite.run_one(suite.load(path))
    scenario = result.scenario
    if not isinstance(scenario, Scenario) or not result.readings:
        return Played(text, result, None)
    explored = explore_each(scenario, suite.games()[scenario.game], own_run=result)
    own, *others = explored.branches
    slim = tuple(replace(b, result=replace(b.result, trace=[], checkpoints=[])) for b in others)
    return Played(text, result, Exploration((own, *slim)))


class PlayedCache:
    """Every scenario file played, by path; a file whose text has not changed is not played again."""

    def __init__(self) -> None:
        self.files: dict[str, Played] = {}
        self.views: dict[str, tuple[tuple[RunResult, ...], GameView]] = {}  # by game, with the results it shows

    def view(self, game: Game, results: list[RunResult], explorations: dict[str, Exploration]) -> GameView:
        """The game's view of these results: the last build's when its results are the same objects."""
        kept = self.views.get(game.id)
        if kept is None or len(kept[0]) != len(results) or any(a is not b for a, b in zip(kept[0], results)):
            view = GameView(game, results, {r.id: explorations[r.id] for r in results if r.id in explorations},
                            interaction_graph(results, game.catalogue))
            kept = self.views[game.id] = (tuple(results), view)
        return kept[1]

    def text(self, path: str) -> str:
        return self.files[path].text

    def results(self, paths: list[Path]) -> list[tuple[RunResult, Exploration | None]]:
        """Each file's result, in order, a scenario whose id an earlier file uses turned into an invalid result
        (as :meth:`checker.suite.Suite.load_many` does); the cache then holds these files only."""
        kept: dict[str, Played] = {}
        first_file: dict[str, str] = {}
        found: list[tuple[RunResult, Exploration | None]] = []
        for path in paths:
            text = path.read_text(encoding="utf-8")
            played = self.files.get(str(path))
            if played is None or played.text != text:
                played = play(path, text)
            kept[str(path)] = played
            result, exploration = played.result, played.exploration
            if result.scenario is not None and result.id in first_file:
                result, exploration = suite.default().duplicate(result.scenario, first_file[result.id]), None
            elif result.scenario is not None:
                first_file[result.id] = result.path
            found.append((result, exploration))
        self.files = kept
        return found


def build_model(scenario_root: Path, cache: PlayedCache | None = None) -> SiteModel:
    cache = cache if cache is not None else PlayedCache()
    try:
        paths = suite.scenario_files([scenario_root])
    except InputError:  # no scenario yet: the site still shows the games, their rulings and procedures
        paths = []
    played = cache.results(paths)
    explorations = {result.id: exploration for result, exploration in played if exploration is not None}
    results = [result for result, _ in played]
    views: dict[str, GameView] = {}
    for game_id, game in suite.games().items():
        mine = sorted((r for r in results if r.scenario and r.scenario.game == game_id), key=lambda r: r.id)
        views[game_id] = cache.view(game, mine, explorations)
    return SiteModel(views, [r for r in results if r.verdict == "invalid"])
