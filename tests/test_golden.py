"""Every expected number is load-bearing: changing any one makes its scenario fail."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Iterator

from checker.run import suite
from checker.format.scenario import Action, Scenario

Path = tuple[Any, ...]


def number_paths(facts: Any, at: Path = ()) -> Iterator[Path]:
    if isinstance(facts, dict):
        for key, value in facts.items():
            yield from number_paths(value, at + (key,))
    elif isinstance(facts, list):
        for index, value in enumerate(facts):
            yield from number_paths(value, at + (index,))
    elif isinstance(facts, int) and not isinstance(facts, bool):
        yield at


def bumped(facts: Any, path: Path) -> Any:
    changed = copy.deepcopy(facts)
    holder = changed
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] += 1
    return changed


def mutants(scenario: Scenario) -> Iterator[tuple[str, Scenario]]:
    """The scenario once per expected number, with that number changed by one."""
    if scenario.expect is not None:
        for path in number_paths(scenario.expect):
            yield f"expect{list(path)}", replace(scenario, expect=bumped(scenario.expect, path))
    for action in scenario.actions:
        if action.expect is None:
            continue
        for path in number_paths(action.expect):
            changed: Action = replace(action, expect=bumped(action.expect, path))
            actions = tuple(changed if a.index == action.index else a for a in scenario.actions)
            yield f"actions[{action.index}].expect{list(path)}", replace(scenario, actions=actions)


def test_changing_any_expected_number_makes_the_golden_test_fail(scenarios: list[Scenario]) -> None:
    checked = 0
    survivors = []
    for scenario in scenarios:
        for where, mutant in mutants(scenario):
            checked += 1
            if suite.run_one(mutant).verdict != "fail":
                survivors.append(f"{scenario.id}: {where}")
    assert checked > 100
    assert not survivors, survivors


def test_changing_an_expected_rejection_reason_makes_the_golden_test_fail(scenarios: list[Scenario]) -> None:
    checked = 0
    for scenario in scenarios:
        for action in scenario.actions:
            if action.reject is None:
                continue
            wrong = "game-over" if action.reject != "game-over" else "not-your-turn"
            actions = tuple(replace(a, reject=wrong) if a is action else a for a in scenario.actions)
            assert suite.run_one(replace(scenario, actions=actions)).verdict == "fail", (scenario.id, action.index)
            checked += 1
    assert checked > 20
