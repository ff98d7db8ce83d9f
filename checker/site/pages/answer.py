"""The top of a scenario's page, for a player: the situation, the question and the answer in words, then why,
the decisive steps of the engine's trace, each with the words of its ruling."""

from __future__ import annotations

import re
from typing import Any

from checker.run.compare import flatten
from checker.run.runner import RunResult
from checker.format.scenario import Scenario
from checker.engine.trace import TraceStep
from checker.site.model import GameView
from checker.commands.words import in_words
from checker.site.pages.kit import a, esc, excerpt, plain, trace_text
from checker.site.pages.glossary import glossed, glossed_trace

DECISIVE_STEPS = 5  # steps of the trace quoted under "Why"
FACTS_IN_ANSWER = 6  # checked facts written out in the answer
QUOTE_LENGTH = 320  # of a ruling's words under a decisive step
SOURCE_LINE = re.compile(r"^By lines? [0-9][0-9–-]*,? +", re.I)


def player_title(title: str) -> str:
    """A scenario's title as a player reads it: what a line of the source says, without the line number."""
    stripped = SOURCE_LINE.sub("", title)
    return stripped[:1].upper() + stripped[1:]


def lead(view: GameView, here: str, result: RunResult) -> str:
    """Situation, question, answer and why, in sentences."""
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    title = player_title(scenario.title)
    parts = ['<section class="rk-lead"><h2 id="question-and-answer">Question and answer</h2>']
    situation = " ".join(filter(None, [glossed(view, scenario.notes) if scenario.notes else "",
                                        *(esc(x) for x in scenario.assumptions)]))
    parts.append(f"<p><strong>The situation.</strong> {situation}</p>" if situation else "")
    if scenario.actions:
        parts.append("<ol class=\"rk-played\">" + "".join(f"<li>{esc(action_sentence(action.data))}</li>" for action in scenario.actions) + "</ol>")
    question = title if scenario.is_question else "What do the rules make of this?"
    parts.append(f'<p class="rk-ask"><strong>The question.</strong> {esc(question)}</p>')
    parts.append(_answer(view, here, result, title))
    steps = decisive_steps(result)
    if steps:
        parts.append("<h2>Why</h2><p>The steps of the engine's trace that decide it, each with the words of the ruling it applied.</p><ol class=\"rk-why\">")
        for step in steps:
            assert step.ruling is not None
            ruling = view.game.catalogue[step.ruling] if step.ruling in view.game.catalogue else None
            marked: set[str] = set()  # a term is marked once in a step and its ruling's words
            said = glossed_trace(view, step.text, marked)
            quote = (f'<blockquote class="rk-quote">{glossed(view, excerpt(plain(ruling.quote), QUOTE_LENGTH), marked)}'
                     f' <span class="rk-cite">({a(here, view.ruling_page(ruling.id), f"line {ruling.line}")})</span></blockquote>'
                     if ruling else "")
            parts.append(f"<li><p>{said}</p>{quote}</li>")
        parts.append("</ol>")
    parts.append("</section>")
    return "".join(parts)


def _answer(view: GameView, here: str, result: RunResult, title: str) -> str:
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    refused = [f"The rules refuse action {index + 1}: {rejection.message}" for index, rejection in sorted(result.rejections.items()) if index >= 0]
    if result.verdict == "question":
        last = result.trace[-3:]
        said = " ".join(trace_text(step.text) + "." for step in last) if last else "the engine applies no ruling."
        return (f'<p class="rk-reply"><strong>The answer.</strong> The engine, playing it by the rules: {said}</p>'
                + "".join(f"<p>{esc(line)}</p>" for line in refused)
                + _default_readings(view, here, result))
    if result.verdict == "pass":
        facts = _facts(scenario)
        return (f'<p class="rk-reply"><strong>The answer.</strong> {esc(title.rstrip("."))}. The engine, playing it by the rules, finds the same'
                + (": " + "; ".join(f"{esc(path)}: {esc(in_words(value))}" for path, value in facts) + "." if facts else ".")
                + "</p>" + _default_readings(view, here, result))
    if result.verdict == "fail":
        return (f'<p class="rk-reply rk-mismatch"><strong>The answer.</strong> The scenario says: {esc(title)}. The engine, playing it by the rules, '
                "finds otherwise: see what differs below.</p>")
    return '<p class="rk-reply rk-mismatch"><strong>The answer.</strong> The engine could not play this scenario: see below.</p>'


def _default_readings(view: GameView, here: str, result: RunResult) -> str:
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    defaults = sorted(r for r in result.readings if r not in scenario.readings)
    if not defaults:
        return ""
    links = ", ".join(a(here, view.ruling_page(r), r) for r in defaults)
    return (f'<p class="rk-default-reading">This answer rests on the default reading of a ruling whose words can be read '
            f"more than one way: {links}. Another reading may give another answer.</p>")


def _facts(scenario: Scenario) -> list[tuple[str, Any]]:
    expected = flatten(scenario.expect) if scenario.expect else {}
    for action in scenario.actions:
        if not expected and action.expect:
            expected = flatten(action.expect)
    return [(" ".join(path.replace("_", " ").split(".")), value) for path, value in list(expected.items())[:FACTS_IN_ANSWER]]


def decisive_steps(result: RunResult) -> list[TraceStep]:
    """The steps that decide the answer: those citing the rulings the scenario is about, else the last ones citing
    any ruling; one step per ruling."""
    scenario = result.scenario
    declared = set(scenario.rulings) if isinstance(scenario, Scenario) else set()
    cited = [step for step in result.trace if step.ruling]
    chosen = [step for step in cited if step.ruling in declared] or cited[-DECISIVE_STEPS:]
    seen: set[str] = set()
    steps = []
    for step in chosen:
        if step.ruling not in seen:
            seen.add(step.ruling or "")
            steps.append(step)
    return steps[:DECISIVE_STEPS]


def action_sentence(action: dict[str, Any] | Any) -> str:
    """An action as a sentence: 'Player A: attack, with monster Golem, card Big Punch, target Naga.'"""
    data = dict(action)
    who = data.pop("player", None)
    name = str(data.pop("action", "")).replace("_", " ")
    rest = ", ".join(f"{str(key).replace('_', ' ')} {in_words(value)}" for key, value in data.items())
    sentence = f"{name} ({rest})" if rest else name
    return (f"Player {who}: {sentence}" if who is not None else sentence[:1].upper() + sentence[1:]) + "."
