"""The disputes page: open and ruled disputes, and the ambiguous rulings with the scenarios whose outcome
depends on them.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from checker.engine.catalogue import Ruling
from checker.site.model import GameView, SiteModel
from checker.site.pages.kit import a, esc, fact_cell, href, plain, plural, table, value_cell, verdict
from checker.site.pages.glossary import glossed
from checker.site.pages.lists import CAPPED, Listing, capped
from checker.site.pages.ruling import depending_listing
from checker.site.pages.scenario import SCENARIO_FILE, ruling_made
from checker.site.pages.written import WrittenPage, markdown_page
from checker.commands.answer import fact_sentence
from checker.commands.summary import Compared, Shown

#: Open, ruled disputes, proposed ambiguities of a game written out on its disputes page, and scenarios named as
#: depending on each ambiguous ruling besides those compared in full.
DISPUTES_SHOWN = 10
SIDE_BY_SIDE_SHOWN = 2  # scenarios compared in full per ambiguous ruling on the disputes page
READING_FACTS = 3  # facts a reading's sentence names on the disputes page
OUTCOME_FACTS = ("winner", "loser")  # facts named first in a reading's sentence: who won


INTRODUCTION = ("<p>Open disputes are scenarios marked <code>status: disputed</code> that no ruling has settled: each shows "
                "what every reading of the ambiguous rulings it reads gives, and the file to copy. Ruled disputes carry "
                "their <code>ruling:</code>. Proposed ambiguities are passages a dispute finds unclear that the catalogue does "
                "not list yet: the work of whoever keeps the catalogue. Ambiguous rulings follow, with the scenarios whose "
                "outcome depends on them.</p>")


def disputes_page(model: SiteModel) -> WrittenPage:
    """The site's disputes page: each game's counts, linking to the game's own disputes page."""
    here = "disputes.md"
    rows = []
    for view in model.games.values():
        disputed = [r for r in view.results if r.status == "disputed"]
        ruled = sum(r.ruling is not None for r in disputed)
        proposed = sum(r.proposed is not None for r in disputed)
        rows.append(f"<li>{a(here, view.disputes_page(), view.game.title)}: {plural(len(disputed) - ruled, 'open dispute')}, "
                    f"{plural(ruled, 'ruled dispute')}, {plural(proposed, 'proposed ambiguity', 'proposed ambiguities')}, "
                    f"{plural(len(view.game.catalogue.with_status('ambiguous')), 'ambiguous ruling')}.</li>")
    return markdown_page("Disputes", [INTRODUCTION, "<p>Each game has its own page:</p>", "<ul>" + "".join(rows) + "</ul>"])


def game_disputes_page(view: GameView) -> WrittenPage:
    """A game's disputes: open and ruled, then its ambiguous rulings with the scenarios whose outcome depends on them."""
    here = view.disputes_page()
    body: list[str] = [f"<p>{a(here, view.home(), view.game.title)} · {a(here, 'disputes.md', 'every game')}</p>", INTRODUCTION]
    disputed = [r for r in view.results if r.status == "disputed"]
    opened = [r for r in disputed if r.ruling is None]
    ruled = [r for r in disputed if r.ruling is not None]
    body.append(f'<h2 id="{esc(view.id)}-open">Open disputes</h2>')
    body.append(capped(view, here, Listing("open-disputes", "Open disputes", here, opened, functools.partial(_open_dispute, view),
                                           ends=("", ""), separator="\n", per_page=CAPPED, shown=DISPUTES_SHOWN)) if opened else "<p>None.</p>")
    body.append(f'<h2 id="{esc(view.id)}-ruled">Ruled disputes</h2>')
    body.append(capped(view, here, Listing("ruled-disputes", "Ruled disputes", here, ruled, functools.partial(_ruled_dispute, view),
                                           ends=("", ""), separator="\n", per_page=CAPPED, shown=DISPUTES_SHOWN)) if ruled else "<p>None yet.</p>")
    proposing = [r for r in disputed if r.proposed is not None]
    body.append(f'<h2 id="{esc(view.id)}-proposed">Proposed ambiguities</h2>')
    body.append(capped(view, here, Listing("proposed-ambiguities", "Proposed ambiguities", here, proposing,
                                           functools.partial(_proposed, view), ends=("", ""), separator="\n",
                                           per_page=CAPPED, shown=DISPUTES_SHOWN)) if proposing else "<p>None.</p>")
    body.append(f'<h2 id="{esc(view.id)}-ambiguous">Ambiguous rulings</h2>')
    for ruling in view.game.catalogue.with_status("ambiguous"):
        body.append(f"<h3>{a(here, view.ruling_page(ruling.id), ruling.id)}</h3>")
        body.append(f'<blockquote class="rk-quote">{glossed(view, plain(ruling.quote))}</blockquote>')
        if ruling.summary:
            body.append(f"<p>{esc(ruling.summary)}</p>")
        depending = view.depending_on(ruling.id)
        written_for = {r.id for r in view.demonstrating(ruling.id)}
        depending.sort(key=lambda sid: (sid not in written_for, sid))
        for scenario_id in depending[:SIDE_BY_SIDE_SHOWN]:
            body.append(f"<p>{a(here, view.scenario_page(scenario_id), scenario_id)}</p>")
            body.append(_side_by_side(view, scenario_id, ruling))
        if len(depending) > SIDE_BY_SIDE_SHOWN:
            also = replace(depending_listing(view, ruling, depending), ends=("<p>The outcome also depends on it in:</p><ul>", "</ul>"),
                           shown=DISPUTES_SHOWN)
            body.append(capped(view, here, also, skip=SIDE_BY_SIDE_SHOWN, full=depending_listing(view, ruling)))
        if not depending:
            body.append("<p>No scenario yet shows the readings giving different outcomes.</p>")
    return markdown_page(f"Disputes of {view.game.title}", body, game=view.game.title, tags=("disputes",))


def _dispute_heading(view: GameView, here: str, result: Shown) -> str:
    return f"<h3>{a(here, view.scenario_page(result.id), result.title)}</h3>"


def _open_dispute(view: GameView, here: str, result: Shown) -> str:
    """What every reading of each ambiguous ruling the scenario's run reads gives, and the file to copy."""
    file_link = f'<a href="{esc(href(here, view.scenario_page(result.id)) + "#" + SCENARIO_FILE)}">the scenario file to copy</a>'
    parts = [
        f'<div class="rk-dispute rk-dispute-open">{_dispute_heading(view, here, result)}',
        f"<p>{verdict(result)} <code>{esc(result.id)}</code> · {file_link}</p>",
    ]
    for ruling_id in result.readings:
        ruling = view.game.catalogue[ruling_id]
        same = ruling_id not in result.depends
        parts.append(f"<p>Under each reading of {a(here, view.ruling_page(ruling_id), ruling_id)}"
                     + (" (the same outcome under every one):" if same else ":") + "</p>")
        parts.append(_side_by_side(view, result.id, ruling))
    if not result.readings:
        parts.append("<p>Its run reads no ambiguous ruling of the catalogue: the engine gives one answer.</p>")
    return "".join(parts) + "</div>"


def _ruled_dispute(view: GameView, here: str, result: Shown) -> str:
    assert result.ruling is not None
    return (f'<div class="rk-dispute rk-dispute-ruled">{_dispute_heading(view, here, result)}'
            + ruling_made(view, here, result.ruling) + "</div>")


def _proposed(view: GameView, here: str, result: Shown) -> str:
    """An ambiguity a dispute proposes: the passage, its line in the source, the readings in words, and the dispute."""
    proposed = result.proposed
    assert proposed is not None
    readings = "".join(f"<li>{esc(reading)}</li>" for reading in proposed.readings)
    return (f'<div class="rk-proposed">{_dispute_heading(view, here, result)}'
            f'<blockquote class="rk-quote">{esc(proposed.passage)}</blockquote>'
            f"<p>Line {proposed.line} of the source. The readings proposed:</p><ul>{readings}</ul></div>")


def _side_by_side(view: GameView, scenario_id: str, ruling: Ruling) -> str:
    """The scenario's outcome under each reading of ``ruling``, every other reading as in the scenario."""
    compared = view.by_id[scenario_id].compared[ruling.id]
    differing = list(compared.facts)
    head = ["fact", *compared.readings]
    rows = [[fact_cell(k), *(value_cell(there, value) for there, value in values)] for k, values in compared.facts.items()]
    refused = [esc(words) for words in compared.refused]
    rows.append(["<i>refused actions</i>", *refused])
    summary = _difference_summary(differing, len(set(refused)) > 1)
    if not differing and len(set(refused)) <= 1:
        return ""  # the heading above says the outcome is the same under every reading
    return (_readings_in_words(view, compared, ruling) + f'<details class="rk-facts"><summary>{esc(summary)} '
            "The facts side by side</summary>" + table(head, rows) + "</details>")


def _readings_in_words(view: GameView, compared: Compared, ruling: Ruling) -> str:
    """One sentence per reading: what it gives (the facts the readings change, in words) and what it refuses."""
    default = ruling.default_reading if ruling.readings else ""
    outcome_first = sorted(compared.facts, key=lambda path: path.rsplit(".", 1)[-1] not in OUTCOME_FACTS)
    sentences = []
    for branch, reading in enumerate(compared.readings):
        facts = [fact_sentence(view.game.id, path, compared.facts[path][branch][1]) for path in outcome_first
                 if compared.facts[path][branch][0]][:READING_FACTS]
        more = len(compared.facts) - READING_FACTS
        gives = "; ".join(facts) + (f"; and {plural(more, 'other fact')}" if more > 0 else "") if facts else "the same facts"
        refusal = compared.refused[branch]
        refuses = f" It refuses: {refusal}." if refusal and refusal != "—" else " It refuses nothing."
        label = f"<b>{esc(reading)}</b>" + (" (the default reading)" if reading == default else "")
        sentences.append(f"<li>Read as {label}: {esc(gives)}.{esc(refuses)}</li>")
    return f'<ul class="rk-readings-said">{"".join(sentences)}</ul>'


def _difference_summary(facts: list[str], refusals_differ: bool) -> str:
    """One line: what the readings change."""
    changes = []
    if facts:
        shown = ", ".join(facts[:3]) + (f" and {len(facts) - 3} more" if len(facts) > 3 else "")
        changes.append(f"{plural(len(facts), 'fact')} ({shown})")
    if refusals_differ:
        changes.append("which actions are refused")
    if not changes:
        return "The readings give the same outcome."
    return "The readings change " + " and ".join(changes) + "."
