"""A game's page and its rulings page, section by section."""

from __future__ import annotations

import itertools
from typing import Iterable

from checker.engine.catalogue import MUST_BE_COVERED, Ruling
from checker.site.model import GameView, slug
from checker.site.pages.figures import interactions_graph, procedure_block
from checker.site.pages.kit import (
    a, esc, excerpt, plural, status_badge, table, table_ends, table_row, verdict_tally, verdict_with_readings,
)
from checker.site.pages.lists import Listing, capped
from checker.site.pages.pair import pair_picker
from checker.site.pages.written import WrittenPage, markdown_page
from checker.engine.trace import Entity


def game_page(view: GameView) -> WrittenPage:
    here = view.home()
    catalogue = view.game.catalogue
    counts = view.counts()
    body = [
        f"<p>Source: <code>{esc(catalogue.document)}</code>. {plural(counts['rulings'], 'ruling')}, "
        f"{plural(counts['scenarios'], 'scenario')}, {counts['passing']} passing, {counts['ambiguous']} ambiguous. "
        f"{a(here, 'coverage.md', 'Coverage')} · {a(here, 'disputes.md', 'Disputes')} · "
        f"{a(here, view.vocabulary_page(), 'What a scenario can say')} · "
        f"{a(here, view.facts_page(), 'Facts it can assert and defaults')}</p>",
        pair_picker(view),
        f"<h2>Procedure: {esc(view.game.procedure.title)}</h2>",
        *procedure_block(view, here),
        "<h2>Interactions</h2>",
        *interactions_graph(view, here),
        "<h2>Rulings by section</h2>",
        f"<p>{a(here, view.rulings_page(), 'Every ruling')}, section by section, with the verdicts of the scenarios "
        "whose trace cites it.</p>",
        "<ul>" + "".join(
            f"<li>{a(here, view.rulings_page(), ' › '.join(section), anchor=anchor)} "
            f"({plural(len(rulings), 'ruling')})</li>"
            for section, anchor, rulings in sections(catalogue.rulings)) + "</ul>",
    ]
    body.append("<h2>Entities</h2>")
    by_kind: dict[str, list[Entity]] = {}
    for entity in sorted(view.graph):
        by_kind.setdefault(entity[0], []).append(entity)
    for kind, entities in sorted(by_kind.items()):
        links = ", ".join(a(here, view.entity_page(e), e[1]) for e in entities)
        body.append(f"<p><b>{esc(kind)}</b>: {links}</p>")
    body.append("<h2>Scenarios</h2>")
    body.append(capped(view, here, Listing(
        "scenarios", "Scenarios", here, view.results, ends=table_ends(["scenario", "verdict", "status"]),
        item=lambda at, r: table_row([a(at, view.scenario_page(r.id), r.title), verdict_with_readings(view, at, r),
                                      status_badge(r.status)]))))
    return markdown_page(view.game.title, body, game=view.game.title, tags=("game",))


def sections(rulings: Iterable[Ruling]) -> list[tuple[tuple[str, ...], str, list[Ruling]]]:
    """The catalogue's rulings in runs of one section, each with the anchor of its heading on the rulings page."""
    runs: list[tuple[tuple[str, ...], str, list[Ruling]]] = []
    taken: set[str] = set()
    for section, members in itertools.groupby(rulings, key=lambda ruling: ruling.section):
        base = anchor = slug(" ".join(section)) or "section"
        repeat = 1
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        runs.append((section, anchor, list(members)))
    return runs


def rulings_page(view: GameView) -> WrittenPage:
    """Every ruling of the catalogue, section by section: status, quote, and the verdicts of the scenarios citing it."""
    here = view.rulings_page()
    body = [f"<p>{a(here, view.home(), view.game.title)} · source: <code>{esc(view.game.catalogue.document)}</code>.</p>"]
    for section, anchor, rulings in sections(view.game.catalogue.rulings):
        body.append(f'<h2 id="{anchor}">{esc(" › ".join(section))}</h2>')
        rows = []
        for ruling in rulings:
            shown = view.demonstrating(ruling.id)
            rows.append([
                a(here, view.ruling_page(ruling.id), ruling.id),
                status_badge(ruling.status),
                esc(excerpt(ruling.quote)),
                verdict_tally(shown) or ("—" if ruling.status not in MUST_BE_COVERED else '<span class="rk-missing">none</span>'),
            ])
        body.append(table(["ruling", "status", "quote", "scenarios"], rows))
    return markdown_page("Rulings by section", body, game=view.game.title, tags=("rulings",))
