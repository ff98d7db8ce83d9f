"""A ruling's page."""

from __future__ import annotations

from typing import Sequence

from checker.engine.catalogue import Ruling
from checker.site.model import GameView
from checker.site.pages.kit import a, esc, excerpt, plain, status_badge, table
from checker.site.pages.glossary import glossed
from checker.site.pages.lists import Listing, capped, scenario_list
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import entity_label
from checker.commands.answer import player_title


def ruling_page(view: GameView, ruling: Ruling) -> WrittenPage:
    here = view.ruling_page(ruling.id)
    catalogue = view.game.catalogue
    body = [
        f"<p>{a(here, view.home(), view.game.title)} › {esc(' › '.join(ruling.section))} "
        f"(<code>{esc(catalogue.document)}</code>, line {ruling.line}) · {status_badge(ruling.status)}</p>",
        f'<blockquote class="rk-quote">{glossed(view, plain(ruling.quote))}</blockquote>',
    ]
    if ruling.summary:
        body.append(f"<p>{esc(ruling.summary)}</p>")
    if ruling.reason:
        body.append(f"<p>Not testable: {esc(ruling.reason)}</p>")
    if ruling.readings:
        body.insert(1, _readings(ruling))
        body.append("<h2>Readings</h2>")
        body.append(table(["reading", "what it says", ""], (
            [f"<code>{esc(r.name)}</code>", esc(r.description), "default reading used by this site" if r.default else ""]
            for r in ruling.readings
        )))
        depending = depending_listing(view, ruling)
        body.append(capped(view, here, depending) if depending.items
                    else "<p>Scenarios whose outcome depends on the reading: none yet</p>")
    shown = view.demonstrating(ruling.id)
    body.append("<h2>Applied in the trace</h2>")
    body.append("<p>Scenarios whose run the engine explains by this ruling.</p>")
    body.append(scenario_list(view, here, f"ruling-{ruling.id}", f"Scenarios applying {ruling.id}", shown)
                if shown else "<p>None.</p>")
    declared = view.declared_only(ruling.id)
    if declared:
        body.append("<h2>Declared by the author only</h2>")
        body.append("<p>These scenarios list the ruling, but the engine's trace does not cite it: "
                    "they do not count as demonstrating it.</p>")
        body.append(scenario_list(view, here, f"ruling-{ruling.id}-declared", f"Scenarios declaring {ruling.id} only", declared))
    related = [*ruling.example_of, *ruling.related]
    related += [r.id for r in catalogue.rulings if ruling.id in r.example_of + r.related and r.id not in related]
    if related:
        body.append("<h2>Related rulings</h2>")
        body.append("<ul>" + "".join(
            f"<li>{a(here, view.ruling_page(r), r)} — {esc(excerpt(plain(catalogue[r].quote), 100))}</li>" for r in related
        ) + "</ul>")
    entities = sorted(e for e in view.graph if ruling.id in view.graph.nodes[e].get("rulings", ()))
    if entities:
        body.append("<h2>Entities it concerns</h2>")
        body.append("<p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in entities) + "</p>")
    return markdown_page(excerpt(plain(ruling.quote), 70), body, game=view.game.title, tags=("ruling",),
                         summary_only=True, chip=ruling.id)


def _readings(ruling: Ruling) -> str:
    """An ambiguous ruling's question (the last sentence of its summary), the reading this site plays by default,
    and the others, before the source's words."""
    question = ruling.summary.rsplit(". ", 1)[-1] if ruling.summary.rstrip().endswith("?") else ""
    default = [r for r in ruling.readings if r.default]
    others = [r for r in ruling.readings if not r.default]
    return ('<dl class="rk-ambiguity">'
            + (f"<dt>Question</dt><dd>{esc(question)}</dd>" if question else "")
            + "".join(f"<dt>Default reading used by this site</dt><dd><b>{esc(r.name)}</b>: {esc(r.description)}</dd>" for r in default)
            + (f"<dt>Other readings</dt><dd>{'<br>'.join(f'<b>{esc(r.name)}</b>: {esc(r.description)}' for r in others)}</dd>"
               if others else "")
            + "</dl>")


def depending_listing(view: GameView, ruling: Ruling, order: Sequence[str] | None = None) -> Listing:
    """The scenarios whose outcome depends on the reading of ``ruling``, as on its page."""
    return Listing(f"ruling-{ruling.id}-depending", f"Scenarios whose outcome depends on {ruling.id}", view.ruling_page(ruling.id),
                   order if order is not None else view.depending_on(ruling.id),
                   lambda at, s: f"<li>{a(at, view.scenario_page(s), player_title(view.by_id[s].title))}</li>",
                   ends=("<p>Scenarios whose outcome depends on the reading:</p><ul>", "</ul>"))
