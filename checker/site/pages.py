"""The site's pages, written as Markdown files whose bodies are escaped HTML.

Every text taken from a scenario or a catalogue goes through :func:`esc`; links are
relative, computed from page source paths, so the site works from any folder.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from typing import Any, Iterable

from checker import reference
from checker.catalogue import MUST_BE_COVERED, Ruling
from checker.compare import flatten
from checker.report import LABELS, outcome_text, yaml_text
from checker.runner import RunResult
from checker.scenario import DisputeRuling
from checker.site.graphs import (
    NEIGHBOURS_DRAWN,
    display_names,
    fan_data,
    most_connected,
    network_data,
    open_questions,
    overview,
    procedure_graph,
    ranked_neighbours,
)
from checker.site.model import GameView, SiteModel
from checker.trace import Entity

OPEN_QUESTIONS_SHOWN = 40
SIDE_BY_SIDE_SHOWN = 3  # scenarios compared in full per ambiguous ruling on the disputes page
SCENARIO_FILE = "scenario-file"  # the anchor of a scenario page's file, to copy



def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def url(source: str) -> str:
    """The directory URL of a page source: 'g/rulings/r.md' -> 'g/rulings/r/', 'index.md' -> ''."""
    stem = source[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return stem + "/"


def href(here: str, there: str) -> str:
    relative = posixpath.relpath(url(there) or ".", url(here) or ".")
    return "./" if relative == "." else relative + "/"


def a(here: str, there: str, text: Any, css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f'<a href="{esc(href(here, there))}"{klass}>{esc(text)}</a>'


def markdown_page(title: str, body: Iterable[str]) -> str:
    """A page: the escaped title in the meta block, the body as one raw HTML block."""
    meta = json.dumps(esc(title))
    lines = [line for line in body if line]
    return f"---\ntitle: {meta}\n---\n\n<div class=\"rk-page\">\n" + "\n".join(lines) + "\n</div>\n"


def verdict(result: RunResult) -> str:
    return f'<span class="rk-verdict rk-{result.verdict}">{LABELS[result.verdict]}</span>'


def status_badge(status: str) -> str:
    return f'<span class="rk-status rk-status-{esc(status)}">{esc(status)}</span>'


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
        '<button type="button" class="rk-graph-fit">Show all</button>' if filters else ""
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
    kinds = [k for k in view.kind_styles if any(n[0] == k for n in drawn)]
    hubs = [k for k in view.hub_kinds if any(n[0] == k for n in view.graph)]
    caption = [f"{_count(drawn.number_of_nodes(), 'entity', 'entities')} joined by "
               f"{_count(drawn.number_of_edges(), 'interaction')}: two are joined when the engine made them "
               "interact while resolving a scenario. Click or tap a node to open its page."]
    if hubs:
        caption.append(f"Not drawn, because they meet nearly everything: the {esc(', '.join(hubs))} entities "
                       "(each page draws its own interactions).")
    if alone:
        caption.append("Not drawn, because they meet only those or nothing yet: " + ", ".join(link(e) for e in alone) + ".")
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
                     ", ".join(a(here, view.ruling_page(r), r) for r in step.rulings)])
    steps = len(rows)
    phases = sum(1 for _ in procedure.all_phases())
    details = ("<details><summary>The procedure as a table</summary>"
               + table(["phase", "step", "when", "rulings"], rows) + "</details>")
    caption = ("Declared once as data; the engine walks these steps in this order. Click or tap a step for its "
               "ruling; a step with several rulings lists them.")
    name = f"Procedure {procedure.title}: {_count(steps, 'step')} in {_count(phases, 'phase')}; the same steps are in the table below"
    return [graph_block(data, name=name, caption=caption, details=details)]


def _count(number: int, singular: str, plural: str = "") -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def code_block(text: str, language: str = "yaml", *, copy: bool = False) -> str:
    copy_button = '<button type="button" class="rk-copy" title="Copy to clipboard">Copy</button>' if copy else ""
    return (
        f'<div class="rk-code" data-search-exclude>{copy_button}'
        f'<pre><code class="language-{language}">{esc(text)}</code></pre></div>'
    )


def table(head: list[str], rows: Iterable[list[str]]) -> str:
    """A table; cells are HTML already escaped by the caller."""
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="rk-table"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'


def entity_label(entity: Entity) -> str:
    return f"{entity[1]} ({entity[0]})"


# --- Home -------------------------------------------------------------------------------------


def home(model: SiteModel) -> str:
    here = "index.md"
    games = [
        f"<li>{a(here, view.home(), view.game.title)} — {view.counts()['rulings']} rulings, "
        f"{view.counts()['scenarios']} scenarios</li>"
        for view in model.games.values()
    ]
    example = (
        f"id: my-question\ngame: {' | '.join(model.games)}\ntitle: What happens when ...?\n"
        "rulings: [...]     # the rulings it is about\ninitial: {...}     # the state, in the game's words\n"
        "actions:\n  - {action: ...}\n"
        "expect: {...}      # leave out every expect: to ask a question instead"
    )
    body = [
        "<p>Rulings for card and battle games, turned into scenarios that a rules engine plays. "
        "Every ruling quotes its source document; every scenario shows the engine's verdict and "
        "the step-by-step trace of how it got there, each step citing the ruling it applied.</p>",
        "<h2>Games</h2>",
        f"<ul>{''.join(games)}</ul>",
        f"<p>{a(here, 'coverage.md', 'Coverage')} lists rulings against scenarios and the interactions "
        f"no scenario tests yet; {a(here, 'disputes.md', 'Disputes')} shows ambiguous rulings and "
        "disputed scenarios with their competing outcomes side by side.</p>",
        "<h2>Reading a scenario</h2>",
        "<p>A scenario page shows the initial state, the actions in order, the expected facts next "
        "to the facts the engine computed (only the listed facts are checked), and the trace. "
        "<b>PASS</b> means the engine, following the rules, reaches every expected fact; "
        "<b>FAIL</b> shows which fact differs; <b>ANSWER</b> is a question the engine answered.</p>",
        "<h2>Asking a question or submitting a disputed scenario</h2>",
        "<p>Write one YAML file under <code>scenarios/&lt;game&gt;/</code> "
        f"({a(here, 'scenario-format.md', 'the scenario format')}); your editor autocompletes it "
        "from <code>schema/scenario.schema.json</code>:</p>",
        code_block(example),
        "<p>Then run <code>checker check FILE</code> for the verdict, <code>checker explain FILE</code> "
        "for the full trace, and <code>checker readings FILE</code> to see whether the outcome depends "
        "on how an ambiguous ruling is read. Mark a scenario <code>status: disputed</code> to put it "
        "on the disputes page.</p>",
    ]
    return markdown_page("Rulings checker", body)


# --- Game ---------------------------------------------------------------------------------------


def game_page(view: GameView) -> str:
    here = view.home()
    catalogue = view.game.catalogue
    counts = view.counts()
    body = [
        f"<p>Source: <code>{esc(catalogue.document)}</code>. {counts['rulings']} rulings, "
        f"{counts['scenarios']} scenarios, {counts['passing']} passing, {counts['ambiguous']} ambiguous. "
        f"{a(here, 'coverage.md', 'Coverage')} · {a(here, 'disputes.md', 'Disputes')} · "
        f"{a(here, view.vocabulary_page(), 'What a scenario can say')} · "
        f"{a(here, view.facts_page(), 'Facts it can assert and defaults')}</p>",
        f"<h2>Procedure: {esc(view.game.procedure.title)}</h2>",
        *procedure_block(view, here),
        "<h2>Interactions</h2>",
        *interactions_graph(view, here),
        "<h2>Rulings by section</h2>",
    ]
    section: tuple[str, ...] | None = None
    rows: list[list[str]] = []
    for ruling in catalogue.rulings:
        if ruling.section != section:
            if rows:
                body.append(table(["ruling", "status", "quote", "scenarios"], rows))
                rows = []
            section = ruling.section
            body.append(f"<h3>{esc(' › '.join(section))}</h3>")
        shown = view.demonstrating(ruling.id)
        rows.append([
            a(here, view.ruling_page(ruling.id), ruling.id),
            status_badge(ruling.status),
            esc(_excerpt(ruling.quote)),
            " ".join(verdict(r) for r in shown) or ("—" if ruling.status not in MUST_BE_COVERED else '<span class="rk-missing">none</span>'),
        ])
    if rows:
        body.append(table(["ruling", "status", "quote", "scenarios"], rows))
    body.append("<h2>Entities</h2>")
    by_kind: dict[str, list[Entity]] = {}
    for entity in sorted(view.graph):
        by_kind.setdefault(entity[0], []).append(entity)
    for kind, entities in sorted(by_kind.items()):
        links = ", ".join(a(here, view.entity_page(e), e[1]) for e in entities)
        body.append(f"<p><b>{esc(kind)}</b>: {links}</p>")
    body.append("<h2>Scenarios</h2>")
    body.append(table(["scenario", "verdict", "status"], (
        [a(here, view.scenario_page(r.id), r.scenario.title if r.scenario else r.id), verdict(r),
         status_badge(r.scenario.status if r.scenario else "")]
        for r in view.results
    )))
    return markdown_page(view.game.title, body)


def vocabulary_page(view: GameView) -> str:
    """The game's vocabulary, as its rules module registers it: actions, effect kinds, reject reasons."""
    vocabulary = view.game.vocabulary
    body = [
        f"<p>Generated from the registry in the rules module of {a(view.vocabulary_page(), view.home(), view.game.title)}: "
        "the same entries build the scenario schema and dispatch the engine.</p>",
        "<h2>Actions</h2>",
        table(["action", "what it does", "parameters"], (
            [f"<code>{esc(entry.name)}</code>", esc(entry.description), _parameters(entry.params, entry.required)]
            for entry in vocabulary.actions
        )),
    ]
    for family, registry in vocabulary.effects.items():
        body.append(f"<h2>Effect kinds (<code>{esc(family)}</code>)</h2>")
        body.append(table(["kind", "what it does", "parameters"], (
            [f"<code>{esc(entry.name)}</code>", esc(entry.description), _parameters(entry.params, entry.required)]
            for entry in registry
        )))
    body.append("<h2>Reject reasons</h2>")
    body.append(table(["reason", "what it means"], (
        [f"<code>{esc(name)}</code>", esc(text)] for name, text in vocabulary.reject_reasons.items()
    )))
    return markdown_page(f"{view.game.title}: what a scenario can say", body)


def facts_page(view: GameView) -> str:
    """Every fact of the game's outcome schema and every default of its state schema (:mod:`checker.reference`)."""
    here = view.facts_page()
    inherited = reference.defaults(view.game)
    body = [
        f"<p>Generated from the schema of {a(here, view.home(), view.game.title)}: the facts are its "
        "<code>outcome</code>, the defaults its <code>state</code>. "
        f"<code>{esc(reference.ANY_KEY)}</code> stands for a key the scenario chooses (a side, a name, a number), "
        f"<code>{esc(reference.EACH_ITEM)}</code> for each record of a list. Under <code>expect:</code> only the facts "
        f"written are compared; {a(here, view.vocabulary_page(), 'what a scenario can say')} lists the actions.</p>",
        "<h2>Facts a scenario can assert</h2>",
        table(["fact", "value", "what it is"], (
            [f"<code>{esc(fact.path)}</code>", esc(fact.kind), esc(fact.description)] for fact in reference.facts(view.game)
        )),
        "<h2>Defaults of the initial state</h2>",
        "<p>What the game assumes for a key the initial state leaves out.</p>" if inherited
        else "<p>None: the initial state spells out every key.</p>",
    ]
    if inherited:
        body.append(table(["key", "when left out", "what it is"], (
            [f"<code>{esc(d.path)}</code>", f"<code>{esc(reference.default_value(d))}</code>" if d.has_value else "see the description",
             esc(d.description)]
            for d in inherited
        )))
    return markdown_page(f"{view.game.title}: facts and defaults", body)


def _parameters(params: dict[str, Any] | Any, required: tuple[str, ...]) -> str:
    if not params:
        return "—"
    return ", ".join(f"<code>{esc(name)}</code>" + (" (required)" if name in required else "") for name in params)


def _excerpt(text: str, limit: int = 140) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- Ruling ---------------------------------------------------------------------------------------


def ruling_page(view: GameView, ruling: Ruling) -> str:
    here = view.ruling_page(ruling.id)
    catalogue = view.game.catalogue
    body = [
        f"<p>{a(here, view.home(), view.game.title)} › {esc(' › '.join(ruling.section))} "
        f"(<code>{esc(catalogue.document)}</code>, line {ruling.line}) · {status_badge(ruling.status)}</p>",
        f'<blockquote class="rk-quote">{esc(ruling.quote)}</blockquote>',
    ]
    if ruling.summary:
        body.append(f"<p>{esc(ruling.summary)}</p>")
    if ruling.reason:
        body.append(f"<p>Not testable: {esc(ruling.reason)}</p>")
    if ruling.readings:
        body.append("<h2>Readings</h2>")
        body.append(table(["reading", "what it says", ""], (
            [f"<code>{esc(r.name)}</code>", esc(r.description), "engine default" if r.default else ""]
            for r in ruling.readings
        )))
        depending = view.depending_on(ruling.id)
        body.append("<p>Scenarios whose outcome depends on the reading: "
                    + (", ".join(a(here, view.scenario_page(s), s) for s in depending) or "none yet") + "</p>")
    shown = view.demonstrating(ruling.id)
    body.append("<h2>Applied in the trace</h2>")
    body.append("<p>Scenarios whose run the engine explains by this ruling.</p>")
    body.append(_scenario_list(view, here, shown) if shown else "<p>None.</p>")
    declared = view.declared_only(ruling.id)
    if declared:
        body.append("<h2>Declared by the author only</h2>")
        body.append("<p>These scenarios list the ruling, but the engine's trace does not cite it: "
                    "they do not count as demonstrating it.</p>")
        body.append(_scenario_list(view, here, declared))
    related = [*ruling.example_of, *ruling.related]
    related += [r.id for r in catalogue.rulings if ruling.id in r.example_of + r.related and r.id not in related]
    if related:
        body.append("<h2>Related rulings</h2>")
        body.append("<ul>" + "".join(
            f"<li>{a(here, view.ruling_page(r), r)} — {esc(_excerpt(catalogue[r].quote, 100))}</li>" for r in related
        ) + "</ul>")
    entities = sorted(e for e in view.graph if ruling.id in view.graph.nodes[e].get("rulings", ()))
    if entities:
        body.append("<h2>Entities it concerns</h2>")
        body.append("<p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in entities) + "</p>")
    return markdown_page(f"{ruling.id}: {_excerpt(ruling.quote, 70)}", body)


def _scenario_list(view: GameView, here: str, results: list[RunResult]) -> str:
    return "<ul>" + "".join(
        f"<li>{verdict(r)} {a(here, view.scenario_page(r.id), r.scenario.title if r.scenario else r.id)}</li>"
        for r in results
    ) + "</ul>"


# --- Scenario -------------------------------------------------------------------------------------


def scenario_page(view: GameView, result: RunResult, raw_text: str) -> str:
    scenario = result.scenario
    assert scenario is not None
    here = view.scenario_page(scenario.id)
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {verdict(result)} · {status_badge(scenario.status)}"
        + "".join(f' <span class="rk-tag">{esc(tag)}</span>' for tag in scenario.tags) + "</p>",
        "<p>Demonstrates: " + ", ".join(a(here, view.ruling_page(r), r) for r in scenario.rulings) + "</p>"
        if scenario.rulings else "",
        f"<p>{esc(scenario.notes)}</p>" if scenario.notes else "",
    ]
    if scenario.assumptions:
        body.append("<h2>Assumptions</h2><ul>" + "".join(f"<li>{esc(x)}</li>" for x in scenario.assumptions) + "</ul>")
    if scenario.readings:
        body.append("<p>Pinned readings: " + ", ".join(
            f"{a(here, view.ruling_page(r), r)} = <code>{esc(n)}</code>" for r, n in scenario.readings.items()
        ) + "</p>")
    body.append("<h2>Initial state</h2>")
    body.append(code_block(yaml_text({"initial": scenario.initial} | ({"cards": dict(scenario.cards)} if scenario.cards else {}))))
    body.append("<h2>Actions</h2><ol class=\"rk-actions\">")
    for action in scenario.actions:
        fields = ", ".join(f"{k}: {v}" for k, v in action.data.items() if k != "action")
        line = f"<li><b>{esc(action.kind)}</b> {esc(fields)}"
        if action.reject:
            line += f" — must be refused: <code>{esc(action.reject)}</code>"
        if action.index in result.rejections:
            rejection = result.rejections[action.index]
            line += f' <span class="rk-rejected">refused: {esc(rejection.reason)} — {esc(rejection.message)}</span>'
        body.append(line + "</li>")
    body.append("</ol>")
    body.append("<h2>Expected and computed</h2>")
    if scenario.is_question:
        body.append("<p>This scenario is a question: it expects nothing, and the engine's answer is the outcome below.</p>")
    for checkpoint in result.checkpoints:
        expected = _expectation(scenario, checkpoint.action)
        if expected is None:
            continue
        wrong = {m.field for m in checkpoint.mismatches}
        actual = flatten(checkpoint.observed)
        rows = [
            [f"<code>{esc(field)}</code>", esc(value), esc(actual.get(field, "—")),
             '<span class="rk-verdict rk-fail">differs</span>' if field in wrong else '<span class="rk-verdict rk-pass">=</span>']
            for field, value in flatten(expected).items()
        ]
        body.append(f"<h3>{esc(checkpoint.label)}</h3>")
        body.append(table(["fact", "expected", "engine", ""], rows))
    for label, mismatch in result.mismatches:
        if mismatch.field.startswith("actions["):
            body.append(f'<p class="rk-mismatch">{esc(label)}: {esc(mismatch.render())}</p>')
    if result.error is not None:
        body.append(f'<p class="rk-mismatch">{esc(result.error.render(scenario.path))}</p>')
    if result.crash:
        body.append(f'<p class="rk-mismatch">Engine error: {esc(result.crash)}</p>')
    body.append("<h2>Trace</h2>")
    body.append(_trace(view, here, result))
    if result.readings:
        body.append("<p>Readings used: " + ", ".join(
            f"{a(here, view.ruling_page(r), r)} = <code>{esc(n)}</code>" for r, n in result.readings.items()
        ) + "</p>")
    body.append("<h2>Outcome</h2>")
    body.append(code_block(outcome_text(result.outcome)))
    involved = sorted({e for step in result.trace for e in step.entities if e in view.entity_slugs})
    if involved:
        body.append("<h2>Entities</h2><p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in involved) + "</p>")
    if scenario.ruling is not None:
        body.append("<h2>Ruling</h2>")
        body.append(_ruling_made(view, here, scenario.ruling))
    body.append(f'<h2 id="{SCENARIO_FILE}">Scenario file</h2>')
    body.append(code_block(raw_text, copy=True))
    return markdown_page(scenario.title, body)


def _expectation(scenario: Any, action: int | None) -> Any:
    if action is None:
        return scenario.expect
    return scenario.actions[action].expect


def _trace(view: GameView, here: str, result: RunResult) -> str:
    """The trace in groups (action and phase), numbered straight through."""
    parts: list[str] = []
    heading: tuple[Any, ...] | None = None
    for number, step in enumerate(result.trace, start=1):
        if (step.action, step.settling, step.phase) != heading:
            if heading is not None:
                parts.append("</ol>")
            heading = (step.action, step.settling, step.phase)
            if step.action is not None:
                where = f"action {step.action + 1}"
            else:
                where = "when the scenario ends" if step.settling else "setup"
            parts.append(f'<p class="rk-trace-heading">{esc(where)}{" · " + esc(step.phase) if step.phase else ""}</p>')
            parts.append(f'<ol class="rk-trace" start="{number}">')
        cite = f' <span class="rk-cite">[{a(here, view.ruling_page(step.ruling), step.ruling)}]</span>' if step.ruling else ""
        parts.append(f"<li>{esc(step.text)}{cite}</li>")
    if heading is not None:
        parts.append("</ol>")
    return "".join(parts)


# --- Entity ---------------------------------------------------------------------------------------


def entity_page(view: GameView, entity: Entity) -> str:
    here = view.entity_page(entity)
    kind, name = entity
    data = view.graph.nodes[entity]
    described = view.game.describe(kind, name)
    scenario_count = len(data.get("scenarios", ()))
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {esc(kind)}</p>",
        f"<p>{esc(view.kind_description(kind))}, met in {scenario_count} "
        f"scenario{'s' if scenario_count != 1 else ''} and {view.graph.degree(entity)} interactions.</p>",
    ]
    if described is not None:
        body.append("<p>As the game's card catalogue defines it:</p>")
        body.append(code_block(yaml_text({name: described})))
    body.append("<h2>Interactions</h2>")
    body.extend(neighbourhood_graph(view, here, entity))
    rows = []
    for other in sorted(view.graph.neighbors(entity)):
        interaction = view.graph.edges[entity, other]["interaction"]
        rows.append([
            a(here, view.entity_page(other), entity_label(other)),
            esc(", ".join(sorted(interaction.kinds))),
            ", ".join(a(here, view.ruling_page(r), r) for r in sorted(interaction.rulings)),
            ", ".join(a(here, view.scenario_page(s), s) for s in sorted(interaction.scenarios)),
        ])
    body.append(table(["with", "kind", "rulings", "scenarios"], rows))
    body.append("<h2>Rulings applied to it</h2><ul>" + "".join(
        f"<li>{a(here, view.ruling_page(r), r)} — {esc(_excerpt(view.game.catalogue[r].quote, 100))}</li>"
        for r in sorted(data.get("rulings", ()))
    ) + "</ul>")
    scenarios = [r for r in view.results if r.id in data.get("scenarios", ())]
    body.append("<h2>Scenarios</h2>")
    body.append(_scenario_list(view, here, scenarios))
    return markdown_page(f"{name} ({kind})", body)


# --- Coverage and disputes ------------------------------------------------------------------------


def coverage_page(model: SiteModel) -> str:
    here = "coverage.md"
    body: list[str] = []
    for view in model.games.values():
        catalogue = view.game.catalogue
        body.append(f"<h2>{a(here, view.home(), view.game.title)}</h2>")
        rows = []
        for ruling in catalogue.rulings:
            passing = [r for r in view.demonstrating(ruling.id) if r.verdict == "pass"]
            needed = ruling.status in MUST_BE_COVERED
            state = "covered" if passing else ("uncovered" if needed else ruling.status)
            rows.append([a(here, view.ruling_page(ruling.id), ruling.id), status_badge(ruling.status),
                         str(len(passing)), f'<span class="rk-cover rk-cover-{state}">{esc(state)}</span>'])
        uncovered = [r[0] for r in rows if "rk-cover-uncovered" in r[3]]
        body.append(f"<p>{len(rows)} rulings; {len(uncovered)} of those that need a passing scenario have none"
                    + (": " + ", ".join(uncovered) if uncovered else ".") + "</p>")
        body.append(table(["ruling", "status", "passing scenarios", "coverage"], rows))
        disputed = [r for r in view.results if r.scenario and r.scenario.status == "disputed"]
        body.append("<h3>Ambiguous rulings and disputed scenarios</h3><ul>"
                    + "".join(f"<li>{a(here, view.ruling_page(r.id), r.id)} (ambiguous)</li>" for r in catalogue.with_status("ambiguous"))
                    + "".join(f"<li>{a(here, view.scenario_page(r.id), r.id)} (disputed)</li>" for r in disputed) + "</ul>")
        body.append("<h3>Most connected entities</h3><ol>" + "".join(
            f"<li>{a(here, view.entity_page(e), entity_label(e))} — {d} interactions</li>" for e, d in most_connected(view.graph)
        ) + "</ol>")
        questions = open_questions(view.graph, view.question_kinds)
        body.append(f"<h3>Open questions</h3><p>{len(questions)} pairs of {esc(', '.join(view.question_kinds))} that no "
                    f"scenario makes interact. The {min(len(questions), OPEN_QUESTIONS_SHOWN)} between the most "
                    "connected entities:</p><ul>" + "".join(
                        f"<li>{a(here, view.entity_page(x), entity_label(x))} × {a(here, view.entity_page(y), entity_label(y))}</li>"
                        for x, y in questions[:OPEN_QUESTIONS_SHOWN]) + "</ul>")
    if model.invalid:
        body.append("<h2>Invalid scenario files</h2><ul>" + "".join(
            f"<li><code>{esc(r.error.render(r.path) if r.error else r.path)}</code></li>" for r in model.invalid
        ) + "</ul>")
    return markdown_page("Coverage", body)


def disputes_page(model: SiteModel) -> str:
    here = "disputes.md"
    body: list[str] = [
        "<p>Open disputes are scenarios marked <code>status: disputed</code> that no ruling has settled: each shows "
        "what every reading of the ambiguous rulings it reads gives, and the file to copy. Ruled disputes carry "
        "their <code>ruling:</code>. Ambiguous rulings follow, with the scenarios whose outcome depends on them.</p>",
    ]
    for view in model.games.values():
        body.append(f"<h2>{a(here, view.home(), view.game.title)}</h2>")
        disputed = [r for r in view.results if r.scenario and r.scenario.status == "disputed"]
        opened = [r for r in disputed if r.scenario and r.scenario.ruling is None]
        ruled = [r for r in disputed if r.scenario and r.scenario.ruling is not None]
        body.append(f'<h3 id="{esc(view.id)}-open">Open disputes</h3>')
        body += [_open_dispute(view, here, r) for r in opened] or ["<p>None.</p>"]
        body.append(f'<h3 id="{esc(view.id)}-ruled">Ruled disputes</h3>')
        body += [_ruled_dispute(view, here, r) for r in ruled] or ["<p>None yet.</p>"]
        body.append(f'<h3 id="{esc(view.id)}-ambiguous">Ambiguous rulings</h3>')
        for ruling in view.game.catalogue.with_status("ambiguous"):
            body.append(f"<h4>{a(here, view.ruling_page(ruling.id), ruling.id)}</h4>")
            body.append(f'<blockquote class="rk-quote">{esc(ruling.quote)}</blockquote>')
            if ruling.summary:
                body.append(f"<p>{esc(ruling.summary)}</p>")
            depending = view.depending_on(ruling.id)
            written_for = {r.id for r in view.demonstrating(ruling.id)}
            depending.sort(key=lambda sid: (sid not in written_for, sid))
            for scenario_id in depending[:SIDE_BY_SIDE_SHOWN]:
                body.append(f"<p>{a(here, view.scenario_page(scenario_id), scenario_id)}</p>")
                body.append(_side_by_side(view, scenario_id, ruling))
            if len(depending) > SIDE_BY_SIDE_SHOWN:
                body.append("<p>The outcome also depends on it in: " + ", ".join(
                    a(here, view.scenario_page(s), s) for s in depending[SIDE_BY_SIDE_SHOWN:]) + "</p>")
            if not depending:
                body.append("<p>No scenario yet shows the readings giving different outcomes.</p>")
    return markdown_page("Disputes", body)


def _dispute_heading(view: GameView, here: str, result: RunResult) -> str:
    title = result.scenario.title if result.scenario else result.id
    return f"<h4>{a(here, view.scenario_page(result.id), title)}</h4>"


def _open_dispute(view: GameView, here: str, result: RunResult) -> str:
    """What every reading of each ambiguous ruling the scenario's run reads gives, and the file to copy."""
    file_link = f'<a href="{esc(href(here, view.scenario_page(result.id)) + "#" + SCENARIO_FILE)}">the scenario file to copy</a>'
    parts = [
        f'<div class="rk-dispute rk-dispute-open">{_dispute_heading(view, here, result)}',
        f"<p>{verdict(result)} <code>{esc(result.id)}</code> · {file_link}</p>",
    ]
    exploration = view.explorations.get(result.id)
    for ruling_id in result.readings:
        ruling = view.game.catalogue[ruling_id]
        same = exploration is None or not exploration.depends_on(ruling_id, result.readings)
        parts.append(f"<p>Under each reading of {a(here, view.ruling_page(ruling_id), ruling_id)}"
                     + (" (the same outcome under every one):" if same else ":") + "</p>")
        parts.append(_side_by_side(view, result.id, ruling))
    if not result.readings:
        parts.append("<p>Its run reads no ambiguous ruling of the catalogue: the engine gives one answer.</p>")
    return "".join(parts) + "</div>"


def _ruled_dispute(view: GameView, here: str, result: RunResult) -> str:
    assert result.scenario is not None and result.scenario.ruling is not None
    return (f'<div class="rk-dispute rk-dispute-ruled">{_dispute_heading(view, here, result)}'
            + _ruling_made(view, here, result.scenario.ruling) + "</div>")


def _ruling_made(view: GameView, here: str, ruling: DisputeRuling) -> str:
    """The ruling made on a dispute: what was adopted, the reasoning, the date and who ruled."""
    if ruling.readings:
        adopted = ", ".join(f"{a(here, view.ruling_page(r), r)} = <code>{esc(name)}</code>" for r, name in ruling.readings.items())
    else:
        adopted = esc(ruling.outcome)
    by = f" by {esc(ruling.by)}" if ruling.by else ""
    return (f'<p class="rk-adopted">Adopted: {adopted}</p>'
            f'<blockquote class="rk-reasoning">{esc(ruling.reasoning)}</blockquote>'
            f'<p class="rk-ruled-on">Ruled on <time datetime="{ruling.date.isoformat()}">{ruling.date.isoformat()}</time>{by}.</p>')


def _side_by_side(view: GameView, scenario_id: str, ruling: Ruling) -> str:
    """The scenario's outcome under each reading of ``ruling``, every other reading as in the scenario."""
    own = next(r.readings for r in view.results if r.id == scenario_id)
    branches = view.explorations[scenario_id].varying(ruling.id, own)
    flats = [flatten(b.result.outcome) for b in branches]
    differing = sorted({k for f in flats for k in f if len({repr(g.get(k)) for g in flats}) > 1})
    head = ["fact"] + [b.readings[ruling.id] for b in branches]
    rows = [[f"<code>{esc(k)}</code>", *(esc(f.get(k, "—")) for f in flats)] for k in differing]
    refused = [" ".join(f"action {i + 1} refused ({esc(r.reason)})" for i, r in sorted(b.result.rejections.items())) or "—"
               for b in branches]
    rows.append(["<i>refused actions</i>", *refused])
    return table(head, rows)


# --- All pages ------------------------------------------------------------------------------------


def all_pages(model: SiteModel, read_file: Any) -> dict[str, str]:
    """Every generated page by source path. ``read_file(path)`` returns a scenario file's text."""
    pages = {"index.md": home(model), "coverage.md": coverage_page(model), "disputes.md": disputes_page(model)}
    for view in model.games.values():
        pages[view.home()] = game_page(view)
        pages[view.vocabulary_page()] = vocabulary_page(view)
        pages[view.facts_page()] = facts_page(view)
        for ruling in view.game.catalogue.rulings:
            pages[view.ruling_page(ruling.id)] = ruling_page(view, ruling)
        for result in view.results:
            pages[view.scenario_page(result.id)] = scenario_page(view, result, read_file(result.path))
        for entity in view.graph:
            pages[view.entity_page(entity)] = entity_page(view, entity)
    assert all(re.match(r"^[a-z0-9][a-z0-9./-]*\.md$", p) and ".." not in p for p in pages)
    return pages
