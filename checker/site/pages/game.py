"""A game's page and its rulings page, section by section."""

from __future__ import annotations

from typing import Iterable

from checker.engine.catalogue import MUST_BE_COVERED, Ruling
from checker.site.model import GameView, slug
from checker.site.pages.figures import interactions_graph, procedure_block
from checker.site.pages.kit import (
    a, esc, excerpt, plain, plural, status_badge, table, table_ends, table_row, verdict_tally, verdict_with_readings,
)
from checker.site.pages.lists import Listing, capped
from checker.site.pages.pair import pair_picker
from checker.site.pages.written import WrittenPage, markdown_page
from checker.engine.trace import Entity


def game_page(view: GameView) -> WrittenPage:
    here = view.home()
    catalogue = view.game.catalogue
    counts = view.counts()
    contents = {ruling.section for ruling in catalogue.rulings if ruling.is_contents}  # the source's table of contents
    body = [
        f"<p>Source: <code>{esc(catalogue.document)}</code>. {plural(counts['testable'], 'testable ruling')} "
        f"({counts['ambiguous']} ambiguous), {plural(counts['scenarios'], 'scenario')}: {_verdicts(view, here, counts)}; "
        f"{plural(counts['rulings'] - counts['testable'], 'passage')} of the source that state no testable rule "
        f"{a(here, view.rulings_page(), 'listed apart', anchor=NOT_TESTABLE)}. "
        f"{a(here, view.ask_page(), 'Ask about a situation')} · "
        f"{a(here, 'coverage.md', 'Coverage')} · {a(here, view.disputes_page(), 'Disputes')}</p>",
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
            for section, anchor, rulings in sections(testable(catalogue.rulings)) if section not in contents) + "</ul>",
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
    body.append('<h2 id="for-contributors">For contributors</h2>'
                f"<p>Writing a scenario for this game: {a(here, view.vocabulary_page(), 'what a scenario can say')} "
                f"(its actions and effects) and {a(here, view.facts_page(), 'the facts it can assert and the defaults')}.</p>")
    return markdown_page(view.game.title, body, game=view.game.title, tags=("game",))


def _verdicts(view: GameView, here: str, counts: dict[str, int]) -> str:
    """How many scenarios pass, how many questions are answered, how many passes rest on a default reading of an
    ambiguous ruling, and how many scenarios are disputed, the last two linked to the game's disputes."""
    said = [f"{counts['passing']} pass"]
    if counts["answered"]:
        said.append(plural(counts["answered"], "question") + " answered")
    if counts["on_default_reading"]:
        said.append(a(here, view.disputes_page(), f"{counts['on_default_reading']} of the passes rest on a default reading "
                      "of an ambiguous ruling", anchor=f"{view.id}-ambiguous"))
    if counts["disputed"]:
        said.append(a(here, view.disputes_page(), f"{counts['disputed']} disputed", anchor=f"{view.id}-open"))
    return ", ".join(said)


def sections(rulings: Iterable[Ruling]) -> list[tuple[tuple[str, ...], str, list[Ruling]]]:
    """The catalogue's rulings by section, in the order the sections first appear (a section the source heads twice
    is one), each with the anchor of its heading on the rulings page."""
    by_section: dict[tuple[str, ...], list[Ruling]] = {}
    for ruling in rulings:
        by_section.setdefault(ruling.section, []).append(ruling)
    runs: list[tuple[tuple[str, ...], str, list[Ruling]]] = []
    taken: set[str] = set()
    for section, members in by_section.items():
        base = anchor = slug(" ".join(section)) or "section"
        repeat = 1
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        runs.append((section, anchor, members))
    return runs


NOT_TESTABLE = "not-testable"  # the anchor of the rulings page's list of passages that state no testable rule


def testable(rulings: Iterable[Ruling]) -> list[Ruling]:
    return [ruling for ruling in rulings if ruling.status != "not-testable"]


def rulings_page(view: GameView) -> WrittenPage:
    """Every testable ruling of the catalogue, section by section: status, quote, and the verdicts of the scenarios
    citing it; then, apart, the passages of the source that state no testable rule."""
    here = view.rulings_page()
    untestable = view.game.catalogue.with_status("not-testable")
    body = [f"<p>{a(here, view.home(), view.game.title)} · source: <code>{esc(view.game.catalogue.document)}</code>. "
            f"{plural(len(testable(view.game.catalogue.rulings)), 'testable ruling')}, section by section; "
            f"{plural(len(untestable), 'passage')} that state no testable rule "
            f"{a(here, here, 'are listed at the end', anchor=NOT_TESTABLE)}.</p>"]
    for section, anchor, rulings in sections(testable(view.game.catalogue.rulings)):
        body.append(f'<h2 id="{anchor}">{esc(" › ".join(section))}</h2>')
        rows = []
        for ruling in rulings:
            shown = view.demonstrating(ruling.id)
            rows.append([
                a(here, view.ruling_page(ruling.id), ruling.id),
                status_badge(ruling.status),
                esc(excerpt(plain(ruling.quote))),
                verdict_tally(shown) or ("—" if ruling.status not in MUST_BE_COVERED else '<span class="rk-missing">none</span>'),
            ])
        body.append(table(["ruling", "status", "quote", "scenarios"], rows))
    if untestable:
        body.append(f'<h2 id="{NOT_TESTABLE}">Passages that state no testable rule</h2>')
        body.append("<p>Title pages, contents, introductions and other passages of the source: quoted for completeness, "
                    "they give the engine nothing to check.</p>")
        body.append(table(["passage", "quote", "why not testable"], (
            [a(here, view.ruling_page(r.id), r.id), esc(excerpt(plain(r.quote))), esc(r.reason)] for r in untestable)))
    return markdown_page("Rulings by section", body, game=view.game.title, tags=("rulings",))
