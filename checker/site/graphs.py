"""Interaction and procedure graphs, built with networkx from engine traces and procedures."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from checker.catalogue import Catalogue
from checker.procedure import Procedure
from checker.runner import RunResult
from checker.trace import Entity


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


def interaction_graph(results: Iterable[RunResult], catalogue: Catalogue) -> nx.Graph:
    """Entities are nodes; two are joined when one trace step that applied a ruling involved both."""
    graph = nx.Graph()
    for result in results:
        if result.scenario is None:
            continue
        for step in result.trace:
            for entity in step.entities:
                graph.add_node(entity, kind=entity[0], name=entity[1])
                graph.nodes[entity].setdefault("scenarios", set()).add(result.scenario.id)
                if step.ruling:
                    graph.nodes[entity].setdefault("rulings", set()).add(step.ruling)
            if step.ruling is None:
                continue
            for a, b in itertools.combinations(step.entities, 2):
                if a == b:
                    continue
                if not graph.has_edge(a, b):
                    graph.add_edge(a, b, interaction=Interaction())
                interaction: Interaction = graph.edges[a, b]["interaction"]
                interaction.kinds.add(interaction_kind(catalogue, step.ruling))
                interaction.rulings.add(step.ruling)
                interaction.scenarios.add(result.scenario.id)
    return graph


def neighbourhood(graph: nx.Graph, entity: Entity, radius: int = 1) -> nx.Graph:
    return nx.ego_graph(graph, entity, radius=radius)


def most_connected(graph: nx.Graph, count: int = 10) -> list[tuple[Entity, int]]:
    ranked = sorted(graph.degree, key=lambda item: (-item[1], item[0]))
    return [(node, degree) for node, degree in ranked[:count]]


def open_questions(graph: nx.Graph, kinds: Iterable[str]) -> list[tuple[Entity, Entity]]:
    """Pairs of entities of ``kinds`` that no scenario makes interact, most connected first."""
    wanted = set(kinds)
    nodes = [n for n in graph if n[0] in wanted]
    nodes.sort(key=lambda n: (-graph.degree(n), n))
    return [(a, b) for a, b in itertools.combinations(nodes, 2) if not graph.has_edge(a, b)]


#: Node colours, given to a game's entity kinds in the order it declares them.
PALETTE = ("#3949ab", "#00897b", "#8e24aa", "#ef6c00", "#546e7a", "#c62828", "#2e7d32", "#6d4c41")


def kind_colours(kinds: Iterable[str]) -> dict[str, str]:
    return {kind: PALETTE[index % len(PALETTE)] for index, kind in enumerate(kinds)}


def cytoscape(
    graph: nx.Graph, url: Callable[[Entity], str], focus: Entity | None = None, hidden: Iterable[str] = (),
    colours: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The graph as Cytoscape.js elements; every node carries the URL of its page.

    ``hidden`` kinds start filtered out (the reader can show them): hub kinds, which meet
    nearly everything, would otherwise pull a large graph into one knot.
    """
    nodes = [
        {"data": {"id": _node_id(node), "label": node[1], "kind": node[0], "url": url(node),
                  "degree": graph.degree(node), "focus": node == focus,
                  "colour": (colours or {}).get(node[0], PALETTE[-1])}}
        for node in sorted(graph)
    ]
    edges = []
    # An undirected edge is written from its smaller end: the order networkx yields the two ends
    # in depends on how a subgraph was taken, and the page must not.
    ends = sorted((min(a, b), max(a, b), data) for a, b, data in graph.edges(data=True))
    for a, b, data in ends:
        interaction: Interaction = data["interaction"]
        edges.append({"data": {
            "id": f"{_node_id(a)}--{_node_id(b)}", "source": _node_id(a), "target": _node_id(b),
            "label": ", ".join(sorted(interaction.kinds)), "scenarios": len(interaction.scenarios),
        }})
    return {"elements": {"nodes": nodes, "edges": edges}, "layout": "cose", "hidden": sorted(hidden)}


def procedure_graph(procedure: Procedure, url: Callable[[str], str]) -> dict[str, Any]:
    """The procedure as Cytoscape.js elements: phases hold their steps; arrows follow the declared order.

    Steps sit in rows of four inside their phase; a repeating step loops on itself and a
    step that ``returns_to`` another draws the arrow back, as the engine walks it.
    """
    columns, step_width, row_height, phase_gap = 4, 230, 110, 130
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    previous: str | None = None
    top = 0
    for phase, parent in procedure.all_phases():
        phase_id = f"phase:{phase.id}"
        label = phase.title + (" (repeats)" if procedure.repeats(phase) else "")
        node: dict[str, Any] = {"data": {"id": phase_id, "label": label, "kind": "phase"}}
        if parent is not None:
            node["data"]["parent"] = f"phase:{parent.id}"
        nodes.append(node)
        for index, step in enumerate(phase.steps):
            step_id = f"step:{step.id}"
            link = url(step.rulings[0]) if step.rulings else ""
            when = "; ".join(filter(None, [step.when, f"only if {step.condition}" if step.condition else ""]))
            nodes.append({"data": {"id": step_id, "parent": phase_id, "label": step.title, "kind": "step",
                                   "url": link, "when": when},
                          "position": {"x": (index % columns) * step_width, "y": top + (index // columns) * row_height}})
            if previous is not None:
                edges.append({"data": {"id": f"{previous}->{step_id}", "source": previous, "target": step_id},
                              "classes": "rk-flow"})
            if step.repeat:
                edges.append({"data": {"id": f"{step_id}-again", "source": step_id, "target": step_id,
                                       "label": step.when or "repeats"}, "classes": "rk-flow rk-loop"})
            if step.returns_to:
                label = f"while {step.returns_while}" if step.returns_while else "repeat"
                edges.append({"data": {"id": f"{step_id}-returns", "source": step_id, "target": f"step:{step.returns_to}",
                                       "label": label}, "classes": "rk-flow rk-return"})
            previous = step_id
        top += -(-len(phase.steps) // columns) * row_height + phase_gap
    return {"elements": {"nodes": nodes, "edges": edges}, "layout": "procedure"}


def _node_id(entity: Entity) -> str:
    return f"{entity[0]}:{entity[1]}"
