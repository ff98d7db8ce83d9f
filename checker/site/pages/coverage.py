"""The coverage page: rulings against scenarios, and the interactions no scenario tests yet."""

from __future__ import annotations

from checker.engine.catalogue import MUST_BE_COVERED
from checker.commands.interactions import most_connected, open_questions
from checker.site.model import SiteModel
from checker.site.pages.game import NOT_TESTABLE, testable
from checker.site.pages.kit import a, esc, plural, status_badge, table
from checker.site.pages.lists import Listing, capped_parts
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import entity_label

OPEN_QUESTIONS_SHOWN = 40


def coverage_page(model: SiteModel) -> WrittenPage:
    here = "coverage.md"
    body: list[str] = []
    for view in model.games.values():
        catalogue = view.game.catalogue
        body.append(f"<h2>{a(here, view.home(), view.game.title)}</h2>")
        rows = []
        for ruling in testable(catalogue.rulings):
            passing = [r for r in view.demonstrating(ruling.id) if r.verdict == "pass"]
            needed = ruling.status in MUST_BE_COVERED
            state = "covered" if passing else ("uncovered" if needed else ruling.status)
            rows.append([a(here, view.ruling_page(ruling.id), ruling.id), status_badge(ruling.status),
                         str(len(passing)), f'<span class="rk-cover rk-cover-{state}">{esc(state)}</span>'])
        uncovered = [r[0] for r in rows if "rk-cover-uncovered" in r[3]]
        untestable = len(catalogue.rulings) - len(rows)
        body.append(f"<p>{plural(len(rows), 'testable ruling')}; {len(uncovered)} of those that need a passing scenario have none"
                    + (": " + ", ".join(uncovered) if uncovered else ".")
                    + (f" {plural(untestable, 'passage')} of the source that state no testable rule are "
                       f"{a(here, view.rulings_page(), 'listed apart', anchor=NOT_TESTABLE)}." if untestable else "") + "</p>")
        body.append('<div class="rk-ids">' + table(["ruling", "status", "passing scenarios", "coverage"], rows) + "</div>")
        disputed = Listing("disputed", "Disputed scenarios", here, [r for r in view.results if r.status == "disputed"],
                           lambda at, r: f"<li>{a(at, view.scenario_page(r.id), r.id)} (disputed)</li>")
        items, more = capped_parts(view, here, disputed)
        body.append("<h3>Ambiguous rulings and disputed scenarios</h3><ul>"
                    + "".join(f"<li>{a(here, view.ruling_page(r.id), r.id)} (ambiguous)</li>" for r in catalogue.with_status("ambiguous"))
                    + items + "</ul>" + more)
        body.append("<h3>Most connected entities</h3><ol>" + "".join(
            f"<li>{a(here, view.entity_page(e), entity_label(e))} — {plural(d, 'interaction')}</li>"
            for e, d in most_connected(view.graph)
        ) + "</ol>")
        questions = open_questions(view.graph, view.question_kinds)
        body.append(f"<h3>Open questions</h3><p>{plural(len(questions), 'pair')} of {esc(', '.join(view.question_kinds))} that no "
                    f"scenario makes interact. The {min(len(questions), OPEN_QUESTIONS_SHOWN)} between the most "
                    "connected entities:</p><ul>" + "".join(
                        f"<li>{a(here, view.entity_page(x), entity_label(x))} × {a(here, view.entity_page(y), entity_label(y))}</li>"
                        for x, y in questions[:OPEN_QUESTIONS_SHOWN]) + "</ul>")
    if model.invalid:
        body.append("<h2>Invalid scenario files</h2><ul>" + "".join(
            f"<li><code>{esc(r.error.render(r.path) if r.error else r.path)}</code></li>" for r in model.invalid
        ) + "</ul>")
    return markdown_page("Coverage", body)
