"""The interactions runs show: entities are nodes, and two are joined when one trace step that applied a ruling
involved both. The site draws this graph; the dispute search reports the pairs it never joins."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable

import networkx as nx

from checker.commands.summary import Shown
from checker.engine.catalogue import Catalogue
from checker.engine.trace import Entity


@dataclass
class Interaction:
    """What one edge stands for: the rulings applied and the scenarios where it happened."""

    kinds: set[str] = field(default_factory=set)
    rulings: set[str] = field(default_factory=set)
    scenarios: set[str] = field(default_factory=set)


def interaction_kind(catalogue: Catalogue, ruling_id: str) -> str:
    """The kind of an interaction: the section of the ruling applied, without 'Examples'."""
    section = [part for part in catalogue[ruling_id].section if part not in ("Examples", "Trivias", "Taunt Examples")]
    return section[-1]


def interaction_graph(results: Iterable[Shown], catalogue: Catalogue) -> nx.Graph:
    """Entities are nodes; two are joined when one trace step that applied a ruling involved both."""
    graph = nx.Graph()
    for result in results:
        for entity, rulings in result.entities.items():
            graph.add_node(entity, kind=entity[0], name=entity[1])
            graph.nodes[entity].setdefault("scenarios", set()).add(result.id)
            if rulings:
                graph.nodes[entity].setdefault("rulings", set()).update(rulings)
        for (a, b), met in result.meetings.items():
            if not graph.has_edge(a, b):
                graph.add_edge(a, b, interaction=Interaction())
            interaction: Interaction = graph.edges[a, b]["interaction"]
            interaction.kinds.update(interaction_kind(catalogue, ruling) for ruling in met.rulings)
            interaction.rulings.update(met.rulings)
            interaction.scenarios.add(result.id)
    return graph


def most_connected(graph: nx.Graph, count: int = 10) -> list[tuple[Entity, int]]:
    ranked = sorted(graph.degree, key=lambda item: (-item[1], item[0]))
    return [(node, degree) for node, degree in ranked[:count]]


def open_questions(graph: nx.Graph, kinds: Iterable[str]) -> list[tuple[Entity, Entity]]:
    """Pairs of entities of ``kinds`` that no scenario makes interact, most connected first."""
    wanted = set(kinds)
    nodes = [n for n in graph if n[0] in wanted]
    nodes.sort(key=lambda n: (-graph.degree(n), n))
    return [(a, b) for a, b in itertools.combinations(nodes, 2) if not graph.has_edge(a, b)]
