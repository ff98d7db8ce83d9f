"""The website's Ask page asks the engine through these functions: text in, JSON-able data out.

The same functions run under CPython (the tests) and in the browser (Pyodide, :file:`checker/site/assets/ask-engine.js`).
A scenario's text is loaded exactly as ``checker check`` loads a file of that name, and every answer comes from the
code of the command that gives it on the command line:

* :func:`ask` ``(text, name)``: ``errors``, each problem of a text that is not a valid scenario (``line``,
  ``column``, ``message``, ``expected`` and ``text``, the ``file:line:column: error: message (expected ...)`` the
  command line prints); ``check``, what ``checker check`` prints for the file. For a valid scenario also
  ``result``, what ``checker explain --format json`` gives (the entry of ``checker check --format json``, with the
  game, the outcome and the trace); ``explain``, what ``checker explain`` prints; ``readings``, what
  ``checker readings`` prints (``None`` when the run is invalid); ``options``, what ``checker options --format json``
  gives after the last action (``None`` for a game that does not list its actions, or a run that stopped), each
  option also with ``yaml``, its action as a scenario writes it, and ``words``, the action in words; ``answer``,
  the question, the actions played and the answer in sentences, as a scenario's page leads with them. With
  ``full=False``, ``readings`` and ``options`` are left out (``None``): the verdict comes sooner, and
  :func:`options` ``(text, name)`` and :func:`readings` ``(text, name)`` give them alone.
* :func:`start` ``(game, question=False)``: the text of a new scenario of ``game``, what ``checker new GAME`` writes
  (with ``question``: ``checker new GAME --question``).
* :func:`with_action` ``(text, action)`` and :func:`without_last_action` ``(text)``: the text with an action appended
  or its last removed, the rest of the text kept (:mod:`checker.format.textedit`).
* :func:`as_dispute` ``(text)``: the text marked ``status: disputed``, as ``checker new --from`` marks a dispute.
* :func:`games`: each game's ``id``, ``title`` and whether it lists its actions (``options`` is then given).
* :func:`warm`: every game made ready (imported, its data read), as a later visit to the Ask page finds it.
* :func:`call` ``(name, arguments)``: any of the above by name, its arguments and its answer as JSON text (what the
  browser's worker calls: one crossing between JavaScript and Python, in plain text).

A text that cannot be loaded is not edited: :func:`with_action`, :func:`without_last_action` and :func:`as_dispute`
raise the :class:`~checker.engine.errors.InputError` that says why.
"""

from __future__ import annotations

import json
import traceback
from typing import Any, Callable, Mapping

from checker.commands import answer, report, skeleton, whatnext
from checker.commands.words import action_words
from checker.engine.errors import InputError
from checker.engine import legal
from checker.format import textedit
from checker.format.scenario import Scenario
from checker.format.yamlwrite import yaml_inline
from checker.run import suite
from checker.run.runner import RunResult


def ask(text: str, name: str = "ask.yaml", full: bool = True) -> dict[str, Any]:
    """What the checker says of ``text`` as the content of a file named ``name`` (see the module's docstring);
    without ``full``, no ``readings`` and no ``options`` (each ``None``): the verdict sooner."""
    item = suite.default().load_text(text, name)
    if isinstance(item, RunResult):
        return {"errors": _errors(item), "check": report.check_text(item, suite.games())}
    game = suite.games()[item.game]
    found = whatnext.what_next(item, game) if full and legal.lists_actions(game) else None
    result = found.result if found is not None else suite.run_one(item)
    return {
        "errors": _errors(result),
        "check": report.check_text(result, suite.games()),
        "result": report.result_json(result, with_trace=True),
        "explain": report.explain(result),
        "readings": _readings(item) if full and result.verdict != "invalid" else None,
        "options": _options(found) if found is not None else None,
        "answer": _answer(item, result),
    }


def options(text: str, name: str = "ask.yaml") -> dict[str, Any] | None:
    """``options`` of :func:`ask`, alone."""
    item = suite.default().load_text(text, name)
    if isinstance(item, RunResult) or not legal.lists_actions(suite.games()[item.game]):
        return None
    return _options(whatnext.what_next(item, suite.games()[item.game]))


def readings(text: str, name: str = "ask.yaml") -> str | None:
    """``readings`` of :func:`ask`, alone."""
    item = suite.default().load_text(text, name)
    return None if isinstance(item, RunResult) else _readings(item)


def _errors(result: RunResult) -> list[dict[str, Any]]:
    if result.error is None:
        return []
    return [
        {
            "line": problem.position.line if problem.position else None,
            "column": problem.position.column if problem.position else None,
            "message": problem.message,
            "expected": problem.expected,
            "text": problem.render(result.path),
        }
        for problem in result.error.problems
    ]


def _readings(scenario: Scenario) -> str | None:
    from checker.commands.readings import survey

    found = survey(scenario, suite.games()[scenario.game], hold=scenario.readings)
    return None if found.own.result.verdict == "invalid" else report.readings_text(found)


def _options(found: whatnext.WhatNext) -> dict[str, Any] | None:
    if found.result.verdict in ("invalid", "error"):  # what `checker options` refuses
        return None
    listed = whatnext.as_json(found)
    for option in listed["options"]:
        option["yaml"] = yaml_inline(option["action"])
        option["words"] = action_words(option["action"])
    return listed


def _answer(scenario: Scenario, result: RunResult) -> dict[str, Any]:
    paragraphs = answer.paragraphs(result)
    return {
        "question": answer.question(scenario),
        "played": [answer.action_sentence(action.data) for action in scenario.actions],
        "paragraphs": [{"kind": paragraph.kind, "text": paragraph.text} for paragraph in paragraphs],
        "text": "\n".join(("The answer. " if p.kind in ("reply", "mismatch") else "") + p.text for p in paragraphs),
    }


def start(game: str, question: bool = False) -> str:
    """What ``checker new GAME`` prints (``--question``: a plain question), in a folder that has no scenarios."""
    return skeleton.skeleton(suite.game(game), question=question, source=None, taken=set(), schema_ref=skeleton.DEFAULT_SCHEMA_REF)


def with_action(text: str, action: Mapping[str, Any]) -> str:
    return textedit.with_action(text, action)


def without_last_action(text: str) -> str:
    return textedit.without_last_action(text)


def as_dispute(text: str) -> str:
    """``text`` marked ``status: disputed`` (after its title), the rest kept."""
    return textedit.with_top_level(text, "status", "disputed", after="title")


def games() -> list[dict[str, Any]]:
    return [{"id": game.id, "title": game.title, "lists_actions": legal.lists_actions(game)} for game in suite.games().values()]


def warm() -> None:
    """Ask about each game's new scenario once: every game's modules imported, its data read, the validators made (what
    the website's bundle keeps in its data cache, and the browser in its snapshot of the engine's memory)."""
    for game in suite.games().values():
        if game.starter:
            ask(start(game.id))


CALLS: dict[str, Callable[..., Any]] = {
    "ask": ask, "start": start, "with_action": with_action, "without_last_action": without_last_action,
    "as_dispute": as_dispute, "games": games, "warm": warm, "options": options, "readings": readings,
}


def call(name: str, arguments: str) -> str:
    """``CALLS[name]`` on the JSON list ``arguments``, as JSON text: ``{"ok": true, "value": ...}``, or
    ``{"ok": false, "error": ...}`` with the command line's message for bad input, the traceback for a bug."""
    try:
        value = CALLS[name](*json.loads(arguments))
    except InputError as error:
        return json.dumps({"ok": False, "error": error.render("ask.yaml")})
    except Exception:  # a bug: its traceback, for the page to show and a reader to report
        return json.dumps({"ok": False, "error": traceback.format_exc()})
    return json.dumps({"ok": True, "value": value})
