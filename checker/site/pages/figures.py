"""The graphs a page draws (rulings.js draws them from their data), each with its legend, its caption and
its text alternative.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from typing import Any, Iterable

from checker.site.graphs import (
    MOST_SHOWN, NEIGHBOURS_DRAWN, display_names, expandable, fan_data, network_data, network_file, overview,
    procedure_graph, ranked_neighbours,
)
from checker.site.model import GameView
from checker.site.pages.kit import a, esc, href, table
from checker.engine.trace import Entity


def graph_block(data: dict[str, Any], *, name: str, caption: str, legend: str = "", details: str = "") -> str:
    """A graph drawn by rulings.js from ``data``, with its accessible name, its caption and its text alternative.

    The picture is inert until the reader asks to explore it, so a swipe over it scrolls the page.
    """
    payload = json.dumps(data, sort_keys=True).replace("<", "\\u003c")
    caption_id = "rk-graph-" + hashlib.sha1(payload.encode("utf-8")).hexdigest()[:10]
    return (
        f'<figure class="rk-graph-box" data-graph="{esc(data["graph"])}">{legend}'
        f'<div class="rk-graph-frame"><div class="rk-graph rk-graph-{esc(data["graph"])}" role="img" '
        f'aria-label="{esc(name)}" aria-describedby="{caption_id}">'
        f'<script type="application/json" class="rk-graph-data">{payload}</script></div>'
        '<button type="button" class="rk-graph-cover" aria-pressed="false">Tap to explore</button></div>'
        f'<figcaption id="{caption_id}">{caption}</figcaption>{details}</figure>'
    )


def graph_legend(view: GameView, kinds: Iterable[str], *, filters: bool) -> str:
    """The colour and shape of each kind drawn; with ``filters``, a tick box that shows or hides the kind."""
    styles = view.kind_styles
    kinds = list(kinds)
    findable = filters
    filters = filters and len(kinds) > 1  # one kind alone is no choice: unticking it would empty the graph
    items = []
    for kind in kinds:
        style = styles[kind]
        marker = _marker(style.shape, style.tone)
        if filters:
            items.append(f'<label class="rk-legend-item"><input type="checkbox" value="{esc(kind)}" checked> {marker} {esc(kind)}</label>')
        else:
            items.append(f'<span class="rk-legend-item">{marker} {esc(kind)}</span>')
    find = (
        '<input type="search" class="rk-graph-find" placeholder="Find an entity…" aria-label="Find an entity in the graph">'
        '<button type="button" class="rk-graph-fit">Reset</button>' if findable else ""
    )
    title = "Kinds shown" if filters else "Kinds"
    return (f'<div class="rk-graph-controls"><fieldset class="rk-graph-kinds"><legend>{title}</legend>{"".join(items)}</fieldset>'
            f'{find}</div>')


_MARKER_POINTS = {
    "diamond": "6,0 12,6 6,12 0,6", "triangle": "6,0 12,12 0,12", "hexagon": "3,0 9,0 12,6 9,12 3,12 0,6",
    "star": "6,0 7.6,4.2 12,4.5 8.6,7.4 9.7,12 6,9.5 2.3,12 3.4,7.4 0,4.5 4.4,4.2",
    "pentagon": "6,0 12,4.5 9.7,12 2.3,12 0,4.5", "octagon": "3.5,0 8.5,0 12,3.5 12,8.5 8.5,12 3.5,12 0,8.5 0,3.5",
}


def _marker(shape: str, tone: int) -> str:
    if shape == "ellipse":
        figure = '<circle cx="6" cy="6" r="6"/>'
    elif shape == "round-rectangle":
        figure = '<rect width="12" height="12" rx="3"/>'
    else:
        figure = f'<polygon points="{_MARKER_POINTS[shape]}"/>'
    return f'<svg class="rk-marker rk-kind-{tone}" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">{figure}</svg>'


def interactions_graph(view: GameView, here: str) -> list[str]:
    """The game's interaction graph, what it leaves out, and the same edges as a table."""
    drawn, alone = overview(view.graph, view.hub_kinds)
    names = display_names(view.graph)

    def link(entity: Entity) -> str:
        return a(here, view.entity_page(entity), names[entity])

    data = network_data(drawn, lambda e: href(here, view.entity_page(e)), view.kind_styles, names)
    if alone:
        data = expandable(data, posixpath.relpath(view.network_data(), posixpath.dirname(here)))
    kinds = [k for k in view.kind_styles if any(n[0] == k for n in drawn)]
    caption = [f"The game's {_count(drawn.number_of_nodes(), 'most connected card or concept', 'most connected cards and concepts')}, "
               f"joined by {_count(drawn.number_of_edges(), 'interaction')}: two are joined when the engine made them "
               "interact while resolving a scenario. Click or tap a node (or type its name and press Enter) to open its "
               "page" + (f" or show the neighbours it has beyond these, up to {MOST_SHOWN} cards and concepts at once." if alone else ".")]
    if alone:
        caption.append("Not drawn at first, so that every name stays readable (each page draws its own interactions): "
                       + ", ".join(link(e) for e in alone) + ".")
    rows = []
    for x, y in sorted((min(p), max(p)) for p in drawn.edges()):
        interaction = drawn.edges[x, y]["interaction"]
        rows.append([link(x), link(y), esc(", ".join(sorted(interaction.kinds))), str(len(interaction.scenarios))])
    details = ("<details><summary>The graph as a table</summary>"
               + table(["entity", "entity", "kind of interaction", "scenarios"], rows) + "</details>")
    name = (f"Interaction graph of {view.game.title}: {_count(drawn.number_of_nodes(), 'entity', 'entities')}, "
            f"{_count(drawn.number_of_edges(), 'interaction')}; the same data is in the table below")
    return [graph_block(data, name=name, caption=" ".join(caption), legend=graph_legend(view, kinds, filters=True),
                        details=details)]


def network_file_data(view: GameView) -> str:
    """The game's whole interaction graph as JSON, URLs relative to the game page that fetches it."""
    here = view.home()
    data = network_file(view.graph, lambda e: href(here, view.entity_page(e)), view.kind_styles, display_names(view.graph))
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def neighbourhood_graph(view: GameView, here: str, entity: Entity) -> list[str]:
    """An entity and the neighbours it shares most scenarios with; the others listed under the picture."""
    names = display_names(view.graph)
    ranked = ranked_neighbours(view.graph, entity)
    shown, rest = ranked[:NEIGHBOURS_DRAWN], ranked[NEIGHBOURS_DRAWN:]
    if not shown:
        return ["<p>No interaction yet: no scenario makes the engine apply a ruling to it and another entity.</p>"]
    data = fan_data(view.graph, entity, shown, lambda e: href(here, view.entity_page(e)), view.kind_styles, names)
    kinds = [k for k in view.kind_styles if any(n[0] == k for n in [entity, *shown])]
    caption = (f"{esc(names[entity])} and the {_count(len(shown), 'entity', 'entities')} it shares most scenarios with"
               + (f", of {len(ranked)}" if rest else "") + "; the table below lists every interaction.")
    if rest:
        caption += (" Not drawn: " + ", ".join(a(here, view.entity_page(e), names[e]) for e in rest) + ".")
    name = f"Interactions of {names[entity]} with {_count(len(shown), 'entity', 'entities')}; the table below lists them all"
    return [graph_block(data, name=name, caption=caption, legend=graph_legend(view, kinds, filters=False))]


def procedure_block(view: GameView, here: str) -> list[str]:
    """The game's procedure as a flowchart, and the same steps as a table with every ruling linked."""
    procedure = view.game.procedure
    data = procedure_graph(procedure, lambda r: href(here, view.ruling_page(r)))
    rows = []
    for phase, step in procedure.steps():
        notes = [step.when, f"only if {step.condition}" if step.condition else "", "repeats" if step.repeat else ""]
        if step.returns_to:
            notes.append(f"then back to “{procedure.step(step.returns_to).title}”"
                         + (f" while {step.returns_while}" if step.returns_while else ""))
        rows.append([esc(phase.title), esc(step.title), esc("; ".join(filter(None, notes))),
                     esc(". ".join(step.rules_in_words(procedure))),
                     ", ".join(a(here, view.ruling_page(r), r) for r in step.rulings)])
    steps = len(rows)
    phases = sum(1 for _ in procedure.all_phases())
    details = ("<details><summary>The procedure as a table</summary>"
               + table(["phase", "step", "when", "who may act, and what", "rulings"], rows) + "</details>")
    caption = ("Declared once as data; the engine walks these steps in this order, and refuses at each what it does "
               "not allow. Click or tap a step for its ruling; a step with several rulings lists them.")
    if procedure.over is not None:
        caption += f" The game is over {esc(procedure.over.in_words())}."
    name = f"Procedure {procedure.title}: {_count(steps, 'step')} in {_count(phases, 'phase')}; the same steps are in the table below"
    return [graph_block(data, name=name, caption=caption, details=details)]


def _count(number: int, singular: str, plural: str = "") -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"
