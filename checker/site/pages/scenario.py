"""A scenario's own page, written from its full run."""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Mapping

from checker.run.compare import flatten
from checker.commands.report import outcome_text
from checker.format.yamlwrite import yaml_text
from checker.run.runner import RunResult
from checker.format.scenario import DisputeRuling, Scenario
from checker.site.model import GameView
from checker.commands.answer import action_sentence, fact_sentence, player_title
from checker.site.pages.answer import lead
from checker.site.pages.kit import (
    a, code_block, default_readings_note, esc, fact_cell, href, status_badge, table, trace_text, verdict_with_readings,
    yaml_cell,
)
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import entity_label
from checker.commands.summary import Shown
from checker.commands.words import action_words, in_words
from checker.engine.trace import MECHANIC, Entity, TraceStep

DEFAULT_FACTS = 4  # facts the default reading's outcome names at the top of a page that pins another reading
SCENARIO_FILE = "scenario-file"  # the anchor of a scenario page's file, to copy
DISPUTED_BADGE = '<span class="rk-verdict rk-disputed" title="No ruling has settled it">DISPUTED</span>'


def scenario_page(view: GameView, result: RunResult, shown: Shown, raw_text: str) -> WrittenPage:
    """A scenario's own page, from its full run (``shown`` is its summary)."""
    scenario = result.scenario
    assert scenario is not None
    here = view.scenario_page(scenario.id)
    ruling_link = _ruling_links(view, here)
    open_dispute = scenario.status == "disputed" and scenario.ruling is None
    shown_verdict = (DISPUTED_BADGE + default_readings_note(view, here, shown) if open_dispute
                     else verdict_with_readings(view, here, shown))
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {shown_verdict} · {status_badge(scenario.status)}"
        + "".join(f' <span class="rk-tag">{esc(tag)}</span>' for tag in scenario.tags)
        + f' · <a class="rk-ask-link" href="{esc(href(here, view.ask_page()))}#from={esc(scenario.id)}">Ask about a variation</a></p>',
        _reading_shown(view, here, shown, scenario),
        lead(view, here, result),
        _invented(view, shown),
        '<h2 id="the-engines-work">The engine\'s work in full</h2>',
        "<p>Everything below is what the engine read and did: the state it started from, each action, the facts it "
        "checked, every step of its trace with the ruling it applied, and the scenario file itself.</p>",
        _demonstrates(view, shown, ruling_link),
    ]
    adopted = scenario.ruling.readings if scenario.ruling else {}
    pinned = {r: n for r, n in scenario.readings.items() if r not in adopted}  # the ruling's are shown with it
    if pinned:
        body.append("<p>Pinned readings: " + ", ".join(
            f"{ruling_link(r)} = <code>{esc(n)}</code>" for r, n in pinned.items()
        ) + "</p>")
    body.append("<h2>Initial state</h2>")
    body.append(code_block(yaml_text({"initial": scenario.initial} | ({"cards": dict(scenario.cards)} if scenario.cards else {}))))
    body.append("<h2>Actions</h2><ol class=\"rk-actions\">")
    for action in scenario.actions:
        line = f"<li>{esc(action_sentence(action.data))}"
        rejection = result.rejections.get(action.index)
        if action.reject and (rejection is None or rejection.reason != action.reject):
            line += f" Must be refused (<code>{esc(action.reject)}</code>)."
        if rejection is not None:
            expected = " as expected" if rejection.reason == action.reject else ""
            line += (f' <span class="rk-rejected">Refused{expected}: {esc(rejection.message)} '
                     f"(<code>{esc(rejection.reason)}</code>)</span>")
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
        expected_facts = flatten(expected)
        rows = [
            [fact_cell(field), yaml_cell(expected_facts, field), yaml_cell(actual, field),
             '<span class="rk-verdict rk-fail">differs</span>' if field in wrong else '<span class="rk-verdict rk-pass">=</span>']
            for field in expected_facts
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
    body.append(_trace(result, ruling_link))
    if result.readings:
        body.append("<p>Readings used: " + ", ".join(
            f"{ruling_link(r)} = <code>{esc(n)}</code>" for r, n in result.readings.items()
        ) + "</p>")
    body.append("<h2>Outcome</h2>")
    body.append(f"<details><summary>Every fact of the final state, as YAML</summary>{code_block(outcome_text(result.outcome))}</details>")
    involved = sorted(e for e in shown.entities if e in view.entity_slugs)
    if involved:
        body.append("<h2>Entities</h2>" + entities_line(view, here, involved))
    if scenario.ruling is not None:
        body.append("<h2>Ruling</h2>")
        body.append(ruling_made(view, here, scenario.ruling))
    body.append(f'<h2 id="{SCENARIO_FILE}">Scenario file</h2>')
    body.append(code_block(raw_text, copy=True))
    return markdown_page(player_title(scenario.title), body, game=view.game.title, tags=("scenario",), summary_only=True)


def _reading_shown(view: GameView, here: str, shown: Shown, scenario: Scenario) -> str:
    """For each ambiguous ruling the scenario pins to a reading that is not the default: that the page shows that
    reading, and what the default reading gives instead (the facts that differ, in words)."""
    sentences = []
    for ruling_id, name in scenario.readings.items():
        ruling = view.game.catalogue[ruling_id] if ruling_id in view.game.catalogue else None
        if ruling is None or not ruling.readings or name == ruling.default_reading:
            continue
        default = ruling.default_reading
        compared = shown.compared.get(ruling_id)
        gives = ""
        if compared is not None and default in compared.readings:
            branch = compared.readings.index(default)
            facts = [fact_sentence(scenario.game, path, values[branch][1]) for path, values in compared.facts.items()
                     if values[branch][0]][:DEFAULT_FACTS]
            refused = compared.refused[branch]
            said = "; ".join(facts) + (f"; it refuses {refused}" if refused and refused != "—" else "")
            gives = f" gives: {esc(said)}." if said else " gives the same outcome."
        sentences.append(f"Shown under the reading <b>{esc(name)}</b> of {a(here, view.ruling_page(ruling_id), ruling_id)}, "
                         f"which is not the default; the default reading (<b>{esc(default)}</b>){gives or ' may give another answer.'}")
    return "".join(f'<p class="rk-default-reading rk-reading-shown">{sentence}</p>' for sentence in sentences)


def _invented(view: GameView, shown: Shown) -> str:
    """The cards this scenario makes up for its example, as it defines them: they are not the game's own cards."""
    made_up = dict.fromkeys(name for kind, name in shown.entities if (kind, name) not in view.entity_slugs and kind != MECHANIC)
    if not made_up:
        return ""
    rows = "".join(f"<dt>{esc(name)}</dt><dd>{esc(in_words(shown.cards[name])) if name in shown.cards else 'as the state below has it'}</dd>"
                   for name in made_up)
    return ("<h2>Cards made up for this example</h2><p>The source does not name these: the scenario makes them up "
            f'for this example only, so they have no page of their own.</p><dl class="rk-definition">{rows}</dl>')


def entities_line(view: GameView, here: str, involved: list[Entity]) -> str:
    """The entities a scenario's trace names, linked, on its page."""
    return "<p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in involved) + "</p>"


def _ruling_links(view: GameView, here: str) -> Callable[[str], str]:
    """The link from ``here`` to a ruling's page, made once per ruling: a trace cites a few rulings many times."""

    @functools.cache
    def link(ruling_id: str) -> str:
        return a(here, view.ruling_page(ruling_id), ruling_id)

    return link


def _demonstrates(view: GameView, result: Shown, ruling_link: Callable[[str], str]) -> str:
    """The rulings the run demonstrates (its trace cites them), apart from those the author only declares."""
    catalogue = view.game.catalogue
    shown = sorted(result.demonstrated)
    declared = result.uncited
    parts = []
    if shown:
        parts.append("<p>Rulings the engine's trace cites (what this scenario demonstrates): "
                     + ", ".join(ruling_link(r) for r in shown) + "</p>")
    if declared:
        parts.append("<p>Declared by the author, not cited by the trace (not demonstrated): "
                     + ", ".join(ruling_link(r) if r in catalogue else esc(r) for r in declared) + "</p>")
    return "".join(parts)


def _expectation(scenario: Any, action: int | None) -> Any:
    if action is None:
        return scenario.expect
    return scenario.actions[action].expect


def _trace(result: RunResult, ruling_link: Callable[[str], str]) -> str:
    """The trace grouped under what caused it (setup, each action, the end of the scenario), then by phase,
    numbered straight through."""
    actions = result.scenario.actions if isinstance(result.scenario, Scenario) else ()
    numbered = list(enumerate(result.trace, start=1))
    parts: list[str] = []
    for _, group in itertools.groupby(numbered, key=lambda item: (item[1].action, item[1].settling)):
        steps = list(group)
        parts.append(f'<section class="rk-trace-group" data-search-exclude><p class="rk-trace-heading">{esc(_cause(steps[0][1], actions))}</p>')
        for phase, in_phase in itertools.groupby(steps, key=lambda item: item[1].phase):
            lines = list(in_phase)
            if phase:
                parts.append(f'<p class="rk-trace-phase">{esc(phase)}</p>')
            parts.append(f'<ol class="rk-trace" start="{lines[0][0]}">')
            parts.extend(f"<li>{trace_text(step.text)}{_cite(step, ruling_link)}</li>" for _, step in lines)
            parts.append("</ol>")
        parts.append("</section>")
    return "".join(parts)


def _cite(step: TraceStep, ruling_link: Callable[[str], str]) -> str:
    return f' <span class="rk-cite">[{ruling_link(step.ruling)}]</span>' if step.ruling else ""


def _cause(step: TraceStep, actions: tuple[Any, ...]) -> str:
    if step.settling:
        return "When the scenario ends: what the last action left pending is finished"
    if step.action is None:
        return "Setup: the initial state is built"
    if step.action < len(actions):
        return f"Action {step.action + 1}: {action_words(actions[step.action].data)}"
    return f"Action {step.action + 1}"


def ruling_made(view: GameView, here: str, ruling: DisputeRuling) -> str:
    """The ruling made on a dispute: what was adopted, the reasoning, the date and who ruled."""
    if ruling.readings:
        adopted = ", ".join(f"{a(here, view.ruling_page(r), r)} = <code>{esc(name)}</code>" for r, name in ruling.readings.items())
    else:
        adopted = esc(ruling.outcome)
    # No full stop straight after the date: text taken from the page (search, a reader) would show "2025-01-15 ."
    by = f" by {esc(ruling.by)}." if ruling.by else ""
    return (f'<p class="rk-adopted">Adopted: {adopted}</p>'
            f'<blockquote class="rk-reasoning">{esc(ruling.reasoning)}</blockquote>'
            f'<p class="rk-ruled-on">Ruled on <time datetime="{ruling.date.isoformat()}">{ruling.date.isoformat()}</time>{by}</p>')
