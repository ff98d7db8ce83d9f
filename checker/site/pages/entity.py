"""An entity's page: what it is, what it interacts with, its scenarios and its open questions."""

from __future__ import annotations

from typing import Any, Mapping

from checker.format.yamlwrite import yaml_text
from checker.commands.entities import naming
from checker.site.model import GameView
from checker.site.pages.figures import neighbourhood_graph
from checker.commands.words import in_words
from checker.site.pages.kit import a, code_block, esc, excerpt, href, plain, plural, table
from checker.site.pages.glossary import glossary_ruling, glossed
from checker.site.pages.lists import scenario_list
from checker.site.pages.scenario import ruling_made
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import definitions, entity_label, pair_fragment, question, unconnected
from checker.engine.trace import MECHANIC, Entity

ENTITY_SEARCH_BOOST = 10.0  # a name searched for finds its own page first (search reads its title alone)
OPEN_QUESTIONS_WRITTEN = 5  # open questions of an entity written out on its page; the rest link to the picker
DEFINITIONS_SHOWN = 3  # distinct scenario definitions of one entity shown on its page


def entity_page(view: GameView, entity: Entity) -> WrittenPage:
    here = view.entity_page(entity)
    kind, name = entity
    data = view.graph.nodes[entity]
    scenario_count = len(data.get("scenarios", ()))
    concept = kind == MECHANIC
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {'a rule concept' if concept else esc(kind)}</p>",
        f"<p data-search-exclude>{esc(_what_it_is(view, entity))}, appears in {plural(scenario_count, 'scenario')}; "
        f"the engine made it interact with {plural(view.graph.degree(entity), 'other card or concept', 'other cards and concepts')}.</p>",
    ]
    body.append(_definition(view, here, entity))
    body.append(_in_the_source(view, here, entity))
    body.append(_decided(view, here, entity))
    body.append("<h2>Rulings applied to it</h2><p>The rulings the engine applied to it while playing the scenarios.</p><ul>" + "".join(
        f"<li>{a(here, view.ruling_page(r), r)} — {esc(excerpt(plain(view.game.catalogue[r].quote), 100))}</li>"
        for r in sorted(data.get("rulings", ()))
    ) + "</ul>")
    body.append("<h2>Interactions</h2>")
    body.extend(neighbourhood_graph(view, here, entity))
    rows = []
    for other in sorted(view.graph.neighbors(entity)):
        interaction = view.graph.edges[entity, other]["interaction"]
        rows.append([
            a(here, view.entity_page(other), entity_label(other)),
            esc(", ".join(sorted(interaction.kinds))),
            ", ".join(a(here, view.ruling_page(r), r) for r in sorted(interaction.rulings)),
            a(here, view.pair_page(entity, other), plural(len(interaction.scenarios), "scenario")),
        ])
    if rows:
        body.append(f"<details><summary>Every interaction ({len(rows)}), as a table</summary>"
                    + table(["with", "kind", "rulings", "what happens"], rows) + "</details>")
    scenarios = [view.by_id[sid] for sid in sorted(data.get("scenarios", ()))]
    body.append("<h2>Scenarios</h2>")
    body.append(scenario_list(view, here, f"entity-{view.entity_slugs[entity]}", f"Scenarios of {name} ({kind})", scenarios))
    body.append(_open_questions(view, here, entity))
    return markdown_page(f"{name} ({kind})", body, game=view.game.title, tags=("entity", kind),
                         search_boost=ENTITY_SEARCH_BOOST, summary_only=True)


SOURCE_QUOTES_SHOWN = 8  # passages of the source naming an entity quoted in full on its page


def _in_the_source(view: GameView, here: str, entity: Entity) -> str:
    """The source's own words about it: every ruling whose quote names it, the first quoted in full; a table of
    contents naming it says nothing of it and is left out."""
    found = [r for r in naming(view.game, entity[1]) if not r.is_contents]
    if not found:
        return ""
    items = "".join(
        f'<li><blockquote class="rk-quote">{glossed(view, plain(r.quote))}</blockquote>'
        f'<p class="rk-cite">{a(here, view.ruling_page(r.id), f"line {r.line}")} · {esc(" › ".join(r.section))}</p></li>'
        for r in found[:SOURCE_QUOTES_SHOWN])
    more = ", ".join(a(here, view.ruling_page(r.id), f"line {r.line}") for r in found[SOURCE_QUOTES_SHOWN:])
    return (f"<h2>What the source says of it</h2><p>{plural(len(found), 'passage')} of "
            f"<code>{esc(view.game.catalogue.document)}</code> name{'s' if len(found) == 1 else ''} it.</p>"
            f'<ul class="rk-source-quotes">{items}</ul>' + (f"<p>Also at {more}.</p>" if more else ""))


def _decided(view: GameView, here: str, entity: Entity) -> str:
    """Rulings made on disputed scenarios about it, newest first, with their dates."""
    decided = sorted((view.by_id[s] for s in view.graph.nodes[entity].get("scenarios", ()) if view.by_id[s].ruling is not None),
                     key=lambda r: (r.ruling.date if r.ruling else None, r.id), reverse=True)
    if not decided:
        return ""
    items = "".join(
        f"<li><p>{a(here, view.scenario_page(r.id), r.title)}</p>{ruling_made(view, here, r.ruling)}</li>"
        for r in decided if r.ruling is not None)
    return f"<h2>Decided disputes</h2><p>Questions the source left open, ruled on since.</p><ul>{items}</ul>"


def _definition(view: GameView, here: str, entity: Entity) -> str:
    """The entity's own text, in words, then as YAML: from the game's catalogue, else from the scenarios' ``cards:``."""
    found = definitions(view, entity)
    entry = glossary_ruling(view, entity[1]) if entity[0] == MECHANIC else None
    if not found and entry is None:
        return ""
    parts = ["<h2>What it is</h2>"]
    if entry is not None:
        parts.append(f"<p>In the glossary of the source ({a(here, view.ruling_page(entry.id), entry.id)}):</p>"
                     f'<blockquote class="rk-quote">{esc(plain(entry.quote))}</blockquote>')
    for value, scenario_ids in found[:DEFINITIONS_SHOWN]:
        if scenario_ids:
            parts.append(f"<p>As {plural(len(scenario_ids), 'scenario')} define{'s' if len(scenario_ids) == 1 else ''} it "
                         f"under <code>cards:</code> (" + ", ".join(a(here, view.scenario_page(s), s) for s in scenario_ids[:3])
                         + (f" and {len(scenario_ids) - 3} more" if len(scenario_ids) > 3 else "") + "):</p>")
        else:
            catalogue = "list of mechanics" if entity[0] == MECHANIC else "card catalogue"
            parts.append(f"<p>As the game's {catalogue} defines it:</p>")
        parts.append(_definition_words(value))
        parts.append(f"<details><summary>As YAML</summary>{code_block(yaml_text({entity[1]: value}))}</details>")
    if len(found) > DEFINITIONS_SHOWN:
        parts.append(f"<p>Other scenarios define it in {plural(len(found) - DEFINITIONS_SHOWN, 'other way')}.</p>")
    return "".join(parts)


OWN_TYPE_KEYS = ("type", "kind")  # the keys of an entity's catalogue entry that say what sort of it it is


def _what_it_is(view: GameView, entity: Entity) -> str:
    """The entity's own type where the game's catalogue gives one ("A MAMODO card"), else what its kind covers."""
    described = view.game.describe(*entity)
    if isinstance(described, Mapping):
        own = next((described[key] for key in OWN_TYPE_KEYS if isinstance(described.get(key), str)), None)
        if own:
            return f"{'An' if own[:1].lower() in 'aeiou' else 'A'} {own} {entity[0]}"
    return view.kind_description(entity[0])


def _definition_words(value: Any) -> str:
    if not isinstance(value, Mapping):
        return f"<p>{esc(in_words(value))}</p>"
    rows = "".join(f"<dt>{esc(str(key).replace('_', ' '))}</dt><dd>{esc(in_words(item))}</dd>" for key, item in value.items())
    return f'<dl class="rk-definition">{rows}</dl>'


def _open_questions(view: GameView, here: str, entity: Entity) -> str:
    """The pairs no scenario covers yet, each with a question scenario to copy: written out for the most
    connected, and for the others on the game page's pair picker, which a link opens on that pair."""
    others = unconnected(view, entity)
    if not others:
        return ""
    written = "".join(
        f"<li><details><summary>{esc(entity_label(entity))} × {esc(entity_label(other))}</summary>"
        f"{code_block(question(view, entity, other), copy=True)}</details></li>"
        for other in others[:OPEN_QUESTIONS_WRITTEN]
    )
    linked = ", ".join(
        f'<a href="{esc(href(here, view.home()) + pair_fragment(view, entity, other))}">{esc(entity_label(other))}</a>'
        for other in others[OPEN_QUESTIONS_WRITTEN:]
    )
    return (f"<h2>Open questions</h2><p>No scenario yet makes it interact with these "
            f"{plural(len(others), 'entity', 'entities')} of the kinds that raise questions "
            f"({esc(', '.join(view.question_kinds))}). Each comes with a question scenario to start from: "
            "leave out <code>expect:</code> and the engine answers it.</p>"
            f'<ul class="rk-open-questions">{written}</ul>'
            + (f'<p class="rk-open-linked">With: {linked} (the game page writes the question).</p>' if linked else ""))
