"""Contracts every game keeps, checked over every scenario of every game and of the example game.

- applying an action never changes the state it was given;
- every observation matches the game's outcome schema;
- every reject reason raised is declared, and every reading asked for exists
  (:class:`checker.engine.game.Context` refuses both: a run that broke them would be an ERROR);
- every engine attribute a procedure declares is acted on by some scenario's walk.
"""

from __future__ import annotations

import copy
import gc
from typing import Any, Mapping

import jsonschema

from checker.engine.game import Game
from checker.run.runner import run
from checker.format.scenario import Scenario
from checker.run.suite import Suite
from tests.conftest import EVERY_GAME

GAMES = EVERY_GAME


class ContractAudit:
    """Snapshots each state before an action and checks every observation against the outcome schema."""

    def __init__(self, game: Game, schema: dict[str, Any]) -> None:
        root = {"$ref": f"#/definitions/{game.id}/outcome", "definitions": schema["definitions"]}
        self.outcome = jsonschema.Draft7Validator(root)
        self.problems: list[str] = []
        self.actions = 0

    def before(self, state: Any) -> None:
        self.snapshot = copy.deepcopy(state)

    def after(self, given: Any, produced: Any) -> None:
        self.actions += 1
        if given != self.snapshot:
            self.problems.append("an action changed the state it was given")
        if produced is given and produced is not None and given != self.snapshot:
            self.problems.append("an action returned the very state it was given, changed")

    def observed(self, facts: Mapping[str, Any]) -> None:
        for error in self.outcome.iter_errors(facts):
            self.problems.append(f"observe() breaks the outcome schema at {list(error.absolute_path)}: {error.message}")


def test_every_game_keeps_the_contracts_on_every_scenario(every_game_suite: Suite,
                                                          every_scenario: list[Scenario]) -> None:
    broken: dict[str, list[str]] = {}
    actions = 0
    for scenario in every_scenario:
        audit = ContractAudit(GAMES[scenario.game], every_game_suite.validator.schema)
        result = run(scenario, GAMES[scenario.game], audit=audit)
        actions += audit.actions
        problems = audit.problems + ([result.crash.splitlines()[-1]] if result.crash else [])
        if problems:
            broken[scenario.id] = sorted(set(problems))
    assert actions > 500
    assert not broken


def test_every_declared_procedure_attribute_is_read_by_a_walk(every_scenario: list[Scenario]) -> None:
    for game in GAMES.values():
        game.walker.read.clear()
    for scenario in every_scenario:
        run(scenario, GAMES[scenario.game])
    unread = {
        game.id: sorted(declared for declared in game.procedure.declared() if declared not in game.walker.read)
        for game in GAMES.values()
    }
    assert not any(unread.values()), f"declared but acted on by no scenario's walk: {unread}"


def test_runs_leave_nothing_for_the_garbage_collector(every_game_suite: Suite, every_scenario: list[Scenario]) -> None:
    """A run's objects are freed as soon as the run is dropped: no reference cycle (a refusal keeping the
    frames it was raised through, a function that refers to itself) waits for a collection."""
    for scenario in every_scenario:
        every_game_suite.run_one(scenario)  # every game built, every lazy import done
    gc.collect()
    gc.disable()
    try:
        for scenario in every_scenario:
            every_game_suite.run_one(scenario)
        assert gc.collect() == 0
    finally:
        gc.enable()
