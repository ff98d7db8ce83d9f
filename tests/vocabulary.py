"""Does every optional key the schema accepts count? Each key taken out of (or changed in) real scenarios.

A place is an action (``action: NAME``) or an effect kind of a family (a mapping whose ``kind`` names
it, in the scenario's ``cards:``). A key every kind of a family accepts is the family's: the rules read
it for any kind, so it is tried at the family; another is tried at its own action or kind. For each
key, the scenarios that give it at that place are played again with the key taken out, then changed
(a flag flipped, a number moved by one, another value of its enum), until one's outcome differs: the
facts observed after each action and at the end, and which actions are refused and why.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.format.scenario import Scenario
from checker.run.runner import RunResult, run
from checker.run.suite import Suite


@dataclass(frozen=True)
class Place:
    """Where a key is given: an action, an effect kind, or any kind of an effect family."""

    family: str  # "action", or the effect family
    name: str | None  # the action or kind; None: any kind of the family

    def __str__(self) -> str:
        return f"{self.family} {self.name}" if self.name else f"every {self.family} kind"


@dataclass(frozen=True)
class Use:
    """One scenario giving a key at a place: the path to the mapping that holds it."""

    scenario: Scenario
    path: tuple[str | int, ...]  # in the scenario's data


def optional_keys(game: AnyGame) -> dict[Place, dict[str, Any]]:
    """Each place's optional keys and their schemas."""
    places: dict[Place, dict[str, Any]] = {}
    for entry in game.vocabulary.actions:
        places[Place("action", entry.name)] = {k: v for k, v in entry.params.items() if k not in entry.required}
    for family, registry in game.vocabulary.effects.items():
        kinds = {entry.name: {k: v for k, v in entry.params.items() if k not in entry.required} for entry in registry}
        shared = set.intersection(*(set(keys) for keys in kinds.values())) if len(kinds) > 1 else set()
        if shared:
            any_kind = next(iter(kinds.values()))
            places[Place(family, None)] = {key: any_kind[key] for key in sorted(shared)}
        for name, keys in kinds.items():
            places[Place(family, name)] = {k: v for k, v in keys.items() if k not in shared}
    return places


def given(scenarios: list[Scenario], game: AnyGame) -> dict[tuple[Place, str], list[Use]]:
    """Where ``scenarios`` give each key: by (place, key), the mappings that hold it. An effect's key is listed at its own
    kind and at its family (any kind)."""
    found: dict[tuple[Place, str], list[Use]] = {}
    for scenario in scenarios:
        data = scenario.raw
        for index, action in enumerate(data.get("actions", [])):
            for key in action:
                found.setdefault((Place("action", action.get("action")), key), []).append(Use(scenario, ("actions", index)))
        for path, node in _mappings(data.get("cards", {}), ("cards",)):
            kind = node.get("kind")
            for family, kinds in game.vocabulary.effects.items():
                if kind in kinds and set(node) - {"kind"} <= set(kinds[kind].params):
                    for key in node:
                        for place in (Place(family, kind), Place(family, None)):
                            found.setdefault((place, key), []).append(Use(scenario, path))
    return found


def _mappings(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _mappings(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _mappings(value, path + (index,))


def variants(value: Any, schema: Mapping[str, Any]) -> Iterator[Any]:
    """Other values a key could be given than ``value``: a flag flipped, a number moved by one, another of its enum."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
        if value - 1 >= schema.get("minimum", value - 1):
            yield value - 1
    for other in schema.get("enum", ()):
        if other != value:
            yield other
    if isinstance(value, list) and value:
        yield value[:-1]


def outcome(result: RunResult) -> Any:
    """What a run produced: the facts at each checkpoint and the end, its refusals, its verdict if it could not play."""
    if result.verdict in ("invalid", "error"):
        return (result.verdict, str(result.error or result.crash))
    return (
        [(cp.action, cp.observed) for cp in result.checkpoints],
        result.outcome,
        sorted((index, rejection.reason) for index, rejection in result.rejections.items()),
    )


def changed(suite: Suite, use: Use, key: str, schema: Mapping[str, Any]) -> str | None:
    """How taking ``key`` out of (or changing it in) the mapping at ``use.path`` changes the run, or None."""
    game = suite.games[use.scenario.game]
    before = outcome(run(use.scenario, game))
    holder = _at(use.scenario.raw, use.path)
    for label, mutate in [("taken out", None), *((f"changed to {v!r}", v) for v in variants(holder[key], schema))]:
        data = copy.deepcopy(use.scenario.raw)
        target = _at(data, use.path)
        if mutate is None:
            del target[key]
        else:
            target[key] = mutate
        try:
            mutated = suite.from_data(data, use.scenario.path)
        except InputError:
            if mutate is None:
                return f"{label}: the scenario is refused"
            continue  # a value the schema refuses tells nothing about the key
        if outcome(run(mutated, game)) != before:
            return f"{use.scenario.path}: {key} {label} changes the outcome"
    return None


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        data = data[step]
    return data
