"""The graphs the site draws, with networkx: the interactions runs show and the procedures games declare."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from checker.engine.procedure import Procedure
from checker.site import layout
from checker.commands.interactions import Interaction
from checker.engine.trace import Entity


# --- What the pages draw, as Cytoscape.js data with positions computed here ------------------------------


@dataclass(frozen=True)
class KindStyle:
    """How the nodes of one entity kind look: a colour (``rk-kind-<tone>`` in rulings.css, light and dark) and a shape."""

    tone: int
    shape: str


#: Node shapes, given to a game's entity kinds in the order it declares them (colours go with them).
SHAPES = ("ellipse", "round-rectangle", "diamond", "triangle", "hexagon", "star", "pentagon", "octagon")
#: Entity neighbourhoods show this many neighbours; the rest are listed under the graph.
NEIGHBOURS_DRAWN = 12


def kind_styles(kinds: Iterable[str]) -> dict[str, KindStyle]:
    return {kind: KindStyle(index % len(SHAPES), SHAPES[index % len(SHAPES)]) for index, kind in enumerate(kinds)}


def display_names(graph: nx.Graph) -> dict[Entity, str]:
    """Each entity's name, with its kind when another entity of the game has the same name."""
    kinds_of: dict[str, int] = {}
    for _, name in graph:
        kinds_of[name] = kinds_of.get(name, 0) + 1
    return {entity: entity[1] if kinds_of[entity[1]] == 1 else f"{entity[1]} ({entity[0]})" for entity in graph}


#: A game page draws at most this many cards and concepts, so that a person can read every one at first sight.
MOST_DRAWN = 30
#: Of these, at most this many of the hub kinds (concepts that meet nearly everything and would knot the picture).
MOST_HUBS_DRAWN = 10


def overview(graph: nx.Graph, hub_kinds: Iterable[str]) -> tuple[nx.Graph, list[Entity]]:
    """What a game page draws: its most connected cards and concepts that meet one another, at most
    :data:`MOST_DRAWN` of them and, unless the others leave more room, :data:`MOST_HUBS_DRAWN` of the hub kinds;
    and the others, listed under it."""
    hubs = set(hub_kinds)
    ranked = sorted(graph, key=lambda n: (-graph.degree(n), n))
    others = [n for n in ranked if n[0] not in hubs]
    chosen_hubs = [n for n in ranked if n[0] in hubs][:max(MOST_HUBS_DRAWN, MOST_DRAWN - len(others))]
    others = others[:MOST_DRAWN - len(chosen_hubs)]
    kept = graph.subgraph(sorted([*others, *chosen_hubs]))
    drawn = kept.subgraph(sorted(n for n in kept if kept.degree(n) > 0))
    return drawn, sorted(n for n in graph if n not in drawn)


#: However far the reader expands a game page's graph, it never shows more cards and concepts than this: the
#: overview's :data:`MOST_DRAWN` and ten more, which a phone still shows with readable labels in a picture about two
#: screens tall. To add others, the reader shows fewer first, or the graph drops the oldest neighbours it added.
MOST_SHOWN = 40


def ranked_neighbours(graph: nx.Graph, entity: Entity) -> list[Entity]:
    """The entity's neighbours, those it shares most scenarios with first."""
    def rank(other: Entity) -> tuple[int, int, Entity]:
        interaction: Interaction = graph.edges[entity, other]["interaction"]
        return -len(interaction.scenarios), -graph.degree(other), other

    return sorted(graph.neighbors(entity), key=rank)


def network_data(graph: nx.Graph, url: Callable[[Entity], str], styles: Mapping[str, KindStyle],
                 names: Mapping[Entity, str]) -> dict[str, Any]:
    """A game's interactions: every node and edge of ``graph``, in a seeded force layout."""
    nodes = sorted(graph)
    boxes = {_node_id(n): layout.label_below(_node_size(graph.degree(n)), layout.wrap(names[n])) for n in nodes}
    drawings = layout.network_drawings([_node_id(n) for n in nodes],
                                       [(_node_id(a), _node_id(b)) for a, b in _edge_ends(graph)], boxes)
    return {
        "graph": "network",
        "elements": {"nodes": [_entity_node(graph, n, url, styles, names) for n in nodes], "edges": _entity_edges(graph)},
        "drawings": [d.as_data() for d in drawings],
    }


def expandable(data: dict[str, Any], network: str) -> dict[str, Any]:
    """An overview's ``data`` that the reader may expand from the whole ``network`` (a JSON file's relative URL, of
    :func:`network_file`'s data), up to :data:`MOST_SHOWN` nodes."""
    return {**data, "expand": {"network": network, "most": MOST_SHOWN}}


def network_file(graph: nx.Graph, url: Callable[[Entity], str], styles: Mapping[str, KindStyle],
                 names: Mapping[Entity, str]) -> dict[str, Any]:
    """Every node and edge of a game's ``graph``, and each node's neighbours, those it shares most scenarios with
    first: what the game page's graph adds when the reader expands a node."""
    nodes = sorted(graph)
    return {
        "nodes": [_entity_node(graph, n, url, styles, names)["data"] for n in nodes],
        "neighbours": {_node_id(n): [_node_id(m) for m in ranked_neighbours(graph, n)] for n in nodes},
        "edges": [edge["data"] for edge in _entity_edges(graph)],
    }


def fan_data(graph: nx.Graph, entity: Entity, shown: list[Entity], url: Callable[[Entity], str],
             styles: Mapping[str, KindStyle], names: Mapping[Entity, str]) -> dict[str, Any]:
    """One entity and the ``shown`` neighbours, in that order, in a column beside it; only its own edges."""
    star = nx.Graph()
    star.add_node(entity)
    for other in shown:
        star.add_edge(entity, other, **graph.edges[entity, other])
    boxes = {_node_id(n): layout.label_right(_node_size(graph.degree(n)), layout.wrap(names[n], 22, 2)) for n in shown}
    boxes[_node_id(entity)] = layout.label_below(_node_size(graph.degree(entity)), layout.wrap(names[entity]))
    drawing = layout.fan_drawing(_node_id(entity), [_node_id(n) for n in shown], boxes)
    nodes = [_entity_node(graph, n, url, styles, names, focus=n == entity) for n in [entity, *shown]]
    return {"graph": "fan", "elements": {"nodes": nodes, "edges": _entity_edges(star)}, "drawings": [drawing.as_data()]}


def _node_size(degree: int) -> float:
    return round(16 + min(14.0, 2 * math.sqrt(degree)), 1)


def _entity_node(graph: nx.Graph, entity: Entity, url: Callable[[Entity], str], styles: Mapping[str, KindStyle],
                 names: Mapping[Entity, str], focus: bool = False) -> dict[str, Any]:
    style = styles.get(entity[0], KindStyle(len(SHAPES) - 1, SHAPES[-1]))
    return {"data": {
        "id": _node_id(entity), "label": layout.wrap(names[entity]), "name": names[entity], "kind": entity[0],
        "links": [{"text": names[entity], "url": url(entity)}], "degree": graph.degree(entity),
        "size": _node_size(graph.degree(entity)), "tone": style.tone, "shape": style.shape, "focus": focus,
        "short": layout.wrap(names[entity], 22, 2),
    }}


def _edge_ends(graph: nx.Graph) -> list[tuple[Entity, Entity]]:
    # An undirected edge is written from its smaller end: the order networkx yields the two ends
    # in depends on how a subgraph was taken, and the page must not.
    return sorted((min(a, b), max(a, b)) for a, b in graph.edges())


def _entity_edges(graph: nx.Graph) -> list[dict[str, Any]]:
    edges = []
    for a, b in _edge_ends(graph):
        interaction: Interaction = graph.edges[a, b]["interaction"]
        edges.append({"data": {
            "id": f"{_node_id(a)}--{_node_id(b)}", "source": _node_id(a), "target": _node_id(b),
            "label": ", ".join(sorted(interaction.kinds)), "scenarios": len(interaction.scenarios),
        }})
    return edges


def _node_id(entity: Entity) -> str:
    return f"{entity[0]}:{entity[1]}"


# --- Procedures: a flowchart, steps top to bottom inside their phases ----------------------------------------

STEP_WIDTH = 210
STEP_CHARS = 27  # a step title's line, at the entity font size
PHASE_TITLE = 30  # room above a phase box for its title
PHASE_PADDING = 10
STEP_GAP = 22  # between two steps, besides the label of the arrow
LANE_GAP = 16  # between two arrows that go back up


def procedure_graph(procedure: Procedure, url: Callable[[str], str]) -> dict[str, Any]:
    """The procedure as a flowchart: steps in the order of play, inside their (nested) phases.

    An arrow into a step that has a condition says "only if ..."; a repeating step loops on
    itself; a step that ``returns_to`` another draws its arrow back up beside the chart,
    saying "while ..." when ``returns_while`` names the predicate. What a step's window,
    actions and priority rule say, in words, is in its description. Every ruling of a step
    is one of its links.
    """
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    positions: dict[str, layout.Point] = {}
    depth = {phase.id: 0 for phase, _ in procedure.all_phases()}
    y = 0.0
    previous: str | None = None
    for phase, parent in procedure.all_phases():
        phase_id = f"phase:{phase.id}"
        if parent is not None:
            depth[phase.id] = depth[parent.id] + 1
        label = phase.title + (" (repeats)" if procedure.repeats(phase) else "")
        data: dict[str, Any] = {"id": phase_id, "label": label, "name": label, "kind": "phase"}
        if parent is not None:
            data["parent"] = f"phase:{parent.id}"
        nodes.append({"data": data})
        y += PHASE_TITLE + PHASE_PADDING
        for first, step in enumerate(phase.steps, start=1):
            step_id = f"step:{step.id}"
            title = layout.wrap(step.title, STEP_CHARS, 4)
            height = layout.text_size(title).height + 16
            into = f"only if {_words(step.condition)}" if step.condition else ""
            # A condition is written just above the arrow's head; into a phase's first step, above the phase's title.
            room = layout.text_size(layout.wrap(into, 34)).height if into else 0
            if previous is not None:
                y += room + PHASE_TITLE + 4 if first == 1 and into else STEP_GAP + room
                edges.append(_flow(previous, step_id, "rk-condition" if into and first > 1 else "", into))
            positions[step_id] = (0.0, y + height / 2)
            y += height
            nodes.append({"data": {
                "id": step_id, "parent": phase_id, "label": title, "name": step.title, "kind": "step", "height": height,
                "when": step.when, "condition": _words(step.condition), "rules": step.rules_in_words(procedure),
                "links": [{"text": ruling, "url": url(ruling)} for ruling in step.rulings],
            }})
            if step.repeat:
                edges.append(_flow(step_id, step_id, "rk-loop", step.when or "repeats", lines=14))
            previous = step_id
        y += PHASE_PADDING
    outermost = STEP_WIDTH / 2 + PHASE_PADDING * (max(depth.values(), default=0) + 1)
    returns = sorted((s for _, s in procedure.steps() if s.returns_to),
                     key=lambda s: positions[f"step:{s.id}"][1] - positions[f"step:{s.returns_to}"][1])
    for lane, step in enumerate(returns):
        saying = f"while {_words(step.returns_while)}" if step.returns_while else "repeat"
        edge = _flow(f"step:{step.id}", f"step:{step.returns_to}", "rk-return", saying, lines=14)
        edge["data"]["lane"] = outermost + LANE_GAP * (lane + 1)
        edges.append(edge)
    width = 2 * outermost + LANE_GAP * (len(returns) + 1) + (120 if returns else 0)
    drawing = layout.Drawing(positions, width, y)
    return {"graph": "procedure", "elements": {"nodes": nodes, "edges": edges}, "drawings": [drawing.as_data()]}


def _flow(source: str, target: str, css: str, label: str, lines: int = 34) -> dict[str, Any]:
    data: dict[str, Any] = {"id": f"{source}->{target}", "source": source, "target": target}
    if label:
        data["label"] = layout.wrap(label, lines, 4)
    return {"data": data, "classes": " ".join(filter(None, ["rk-flow", css]))}


def _words(name: str) -> str:
    """A predicate's name as words: 'battle-goes-on' -> 'battle goes on'."""
    return name.replace("-", " ").replace("_", " ")
