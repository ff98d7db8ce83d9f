"""A scenario's answer in words, for a player: the question, what was played, and what the engine answers.

The same sentences lead a scenario's page on the website (:mod:`checker.site.pages.answer`, which sets them as HTML
with links) and answer a question asked on the website's Ask page (:mod:`checker.commands.ask`, as plain text). Each
sentence is put together here once; how its pieces are shown (escaped text, a trace step's text with its code spans,
a ruling's link) is the caller's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from checker.commands.reference import fact_description
from checker.commands.words import in_words
from checker.engine.trace import TraceStep
from checker.format.scenario import Scenario
from checker.run import suite
from checker.run.compare import flatten
from checker.run.runner import RunResult

DECISIVE_STEPS = 5  # steps of the trace quoted under "Why"
FACTS_IN_ANSWER = 6  # checked facts written out in the answer
ANSWERING_STEPS = 2  # the last steps of a question's last action that say what it did
SOURCE_LINE = re.compile(r"^By lines? [0-9][0-9–-]*,? +", re.I)
QUESTION_MARK = re.compile(r"^Question: *", re.I)  # a title that says it is a question
YES_NO = re.compile(r"^(?:can|may|could|is|are|does|do|will)\b", re.I)  # a question whose answer is yes or no


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of the answer: ``kind`` is ``reply`` (the answer itself), ``mismatch`` (the answer when the
    engine disagrees with the scenario or cannot play it), ``refused`` (an action the rules refuse) or
    ``default-reading`` (the answer rests on a default reading)."""

    kind: str
    text: str


def player_title(title: str) -> str:
    """A scenario's title as a player reads it: what a line of the source says, without the line number."""
    stripped = SOURCE_LINE.sub("", title)
    return stripped[:1].upper() + stripped[1:]


def question(scenario: Scenario) -> str:
    """The question a scenario asks: its title when it is a question, else what the rules make of it."""
    if not scenario.is_question:
        return "What do the rules make of this?"
    asked = QUESTION_MARK.sub("", player_title(scenario.title))
    return asked[:1].upper() + asked[1:]


def paragraphs(result: RunResult, *, text: Callable[[str], str] = _same, step: Callable[[str], str] = _same,
               ruling: Callable[[str], str] = _same) -> list[Paragraph]:
    """The answer to a played scenario, each paragraph's pieces shown by ``text`` (plain words), ``step`` (a trace
    step's text) and ``ruling`` (a ruling's id); by default as they are, for plain text."""
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    title = player_title(scenario.title)
    if result.verdict == "question":
        refused = [text(f"The rules refuse action {index + 1}: {rejection.message}")
                   for index, rejection in sorted(result.rejections.items()) if index >= 0 and index != len(scenario.actions) - 1]
        return [Paragraph("reply", verdict_of_question(result, text=text, step=step)),
                *(Paragraph("refused", line) for line in refused), *_default_readings(result, ruling)]
    if result.verdict == "pass":
        facts = asserted_facts(scenario)
        found = ": " + "; ".join(text(fact_sentence(scenario.game, path, value)) for path, value in facts) + "." if facts else "."
        return [Paragraph("reply", f"{text(title.rstrip('.'))}. The engine, playing it by the rules, finds the same{found}"),
                *_default_readings(result, ruling)]
    if result.verdict == "fail":
        return [Paragraph("mismatch", f"The scenario says: {text(title)}. The engine, playing it by the rules, "
                                      "finds otherwise: see what differs below.")]
    return [Paragraph("mismatch", "The engine could not play this scenario: see below.")]


def verdict_of_question(result: RunResult, *, text: Callable[[str], str] = _same,
                        step: Callable[[str], str] = _same) -> str:
    """What a question's last action comes to, first: accepted (with what its last steps did) or refused (and why);
    "Yes" or "No" before it when the question asks whether something can be done."""
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    if not scenario.actions:
        return "The rules, applied to this situation, give the outcome below."
    index = len(scenario.actions) - 1
    played = text(f"the last action ({action_sentence(scenario.actions[index].data).rstrip('.')})")
    yes_no = bool(YES_NO.match(question(scenario)))
    rejection = result.rejections.get(index)
    if rejection is not None:
        return f"{'No: ' if yes_no else ''}the rules refuse {played}: {text(rejection.message)}"
    start = next((n for n, s in enumerate(result.trace) if s.action == index), len(result.trace))
    done = result.trace[start:][-ANSWERING_STEPS:]  # what the last action did, and what it left pending did
    effect = " ".join(step(s.text) + "." for s in done)
    return f"{'Yes: ' if yes_no else ''}the rules accept {played}. {effect}".rstrip()


def fact_sentence(game: str, path: str, value: Any) -> str:
    """A checked fact in words: what the game's schema says the fact is, with the keys the scenario chose (a side, a
    name) in brackets; else its path in words around those keys ("Golem's lp (A)"); then its value."""
    described, chosen = fact_description(suite.games()[game], path) if game in suite.games() else ("", ())
    parts = path.split(".")
    if described:
        label = described + (f" ({', '.join(chosen)})" if chosen else "")
    elif chosen and parts[-1] != chosen[-1]:
        after = parts[parts.index(chosen[-1]) + 1:]
        label = f"{chosen[-1]}'s {_words(after)}" + (f" ({', '.join(chosen[:-1])})" if chosen[:-1] else "")
    else:
        label = _words([part for part in parts if part not in chosen]) + (f", {', '.join(chosen)}" if chosen else "")
    return f"{label[:1].upper()}{label[1:]}: {in_words(value)}"


def _words(parts: list[str]) -> str:
    return " ".join(part.replace("_", " ") for part in parts)


def _default_readings(result: RunResult, ruling: Callable[[str], str]) -> list[Paragraph]:
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    defaults = sorted(r for r in result.readings if r not in scenario.readings)
    if not defaults:
        return []
    return [Paragraph("default-reading", "This answer rests on the default reading of a ruling whose words can be read "
                                         f"more than one way: {', '.join(ruling(r) for r in defaults)}. "
                                         "Another reading may give another answer.")]


def asserted_facts(scenario: Scenario) -> list[tuple[str, Any]]:
    """The facts the scenario expects by their paths (the first few): those at its end, else the first action's that has some."""
    expected = flatten(scenario.expect) if scenario.expect else {}
    for action in scenario.actions:
        if not expected and action.expect:
            expected = flatten(action.expect)
    return list(expected.items())[:FACTS_IN_ANSWER]


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


def action_sentence(action: Mapping[str, Any]) -> str:
    """An action as a sentence: 'Player A: attack, with monster Golem, card Big Punch and target Naga.'"""
    data = dict(action)
    who = data.pop("player", None)
    name = str(data.pop("action", "")).replace("_", " ").replace("-", " ")
    given = [f"{str(key).replace('_', ' ')} {in_words(value)}" for key, value in data.items()]
    rest = ", ".join(given[:-1]) + f" and {given[-1]}" if len(given) > 1 else "".join(given)
    sentence = f"{name}, with {rest}" if rest else name
    return (f"Player {who}: {sentence}" if who is not None else sentence[:1].upper() + sentence[1:]) + "."
