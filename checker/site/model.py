"""What the site shows: each game's view of its scenarios' runs, as :mod:`checker.commands.summary` summarizes them,
and the pages' paths.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from checker.engine.catalogue import Ruling
from checker.engine.game import AnyGame
from checker.run.runner import RunResult
from checker.commands.entities import is_the_games_own
from checker.commands.interactions import interaction_graph
from checker.site.graphs import KindStyle, kind_styles
from checker.commands.summary import Shown
from checker.engine.trace import Entity

SAFE_PART = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
#: The longest slug: a pair's page joins two entity slugs in one file name, which a file system bounds (255 bytes).
MAX_SLUG = 100


def slug(text: str) -> str:
    """A URL part from any text: lower-case letters, digits and '-' (a hash if nothing is left), at most
    ``MAX_SLUG`` characters (a longer one is cut, and ends with a hash of the whole text)."""
    words = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return bounded(words, text) if words else "x-" + _hash(text)


def bounded(words: str, text: str) -> str:
    """``words``, a slug of ``text``, cut to ``MAX_SLUG`` characters with a hash of ``text`` when it is longer."""
    return words if len(words) <= MAX_SLUG else f"{words[:MAX_SLUG - 9].rstrip('-')}-{_hash(text)}"


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


@functools.lru_cache(maxsize=1 << 16)
def page(*parts: str) -> str:
    """A page's source path; every part must be a safe name, so no path can leave the site."""
    for part in parts:
        if not SAFE_PART.match(part) or ".." in part:
            raise ValueError(f"unsafe page path part {part!r}")
    return "/".join(parts) + ".md"


@dataclass
class GameView:
    game: AnyGame
    results: list[Shown]
    graph: nx.Graph
    entity_slugs: dict[Entity, str] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict, repr=False)  # what pages compute once per game

    @classmethod
    def of(cls, game: AnyGame, results: list[Shown]) -> "GameView":
        graph = interaction_graph(results, game.catalogue)
        graph.remove_nodes_from([entity for entity in list(graph) if not is_the_games_own(game, entity)])
        return cls(game, results, graph)

    def __post_init__(self) -> None:
        taken: set[str] = set()
        for entity in sorted(self.graph):
            base = bounded(f"{slug(entity[0])}-{slug(entity[1])}", repr(entity))
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

    def disputes_page(self) -> str:
        return page(self.id, "disputes")

    def ask_page(self) -> str:
        """Where a reader sets up a situation and asks the engine about it."""
        return page(self.id, "ask")

    def rulings_page(self) -> str:
        return page(self.id, "rulings", "index")

    def pairs_data(self) -> str:
        """The pair picker's data, fetched by the game page when a reader first uses the picker."""
        return f"{self.id}/pairs.json"

    def network_data(self) -> str:
        """Every node and edge of the interaction graph, fetched by the game page when a reader expands its graph."""
        return f"{self.id}/network.json"

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
        """Scenarios whose run demonstrates the ruling: its trace cites it (see :mod:`checker.run.citations`)."""
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
            "testable": len(catalogue.rulings) - len(catalogue.with_status("not-testable")),
            "scenarios": len(self.results),
            "passing": sum(r.verdict == "pass" for r in self.results),
            "answered": sum(r.verdict == "question" for r in self.results),
            "on_default_reading": sum(r.verdict == "pass" and bool(r.default_readings) for r in self.results),
            "disputed": sum(r.status == "disputed" for r in self.results),
            "ambiguous": len(catalogue.with_status("ambiguous")),
        }


@dataclass
class SiteModel:
    games: dict[str, GameView]
    invalid: list[RunResult]
