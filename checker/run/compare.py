"""Partial comparison: only the facts a scenario lists are checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from checker.engine.errors import DataPath, show
from checker.engine.errors import nearest
from checker.format.anyorder import ANY_ORDER, any_order


@dataclass(frozen=True)
class Mismatch:
    field: str  # dotted path of the fact, e.g. "players.B.monsters.Mew.lp"
    expected: Any
    actual: Any  # None: the engine produced nothing there
    note: str = ""  # what else a reader needs: why it was refused, which names the engine does have
    at: DataPath = ()  # where the expectation stands in the scenario file

    def render(self) -> str:
        text = f"{self.field}: expected {shown(self.expected)}, got {shown(self.actual)}"
        return f"{text} ({self.note})" if self.note else text

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "expected": self.expected, "actual": self.actual, "note": self.note}


def shown(value: Any) -> str:
    """A fact's value for people, as YAML; ``None`` (the engine produced nothing there) reads 'nothing'."""
    return "nothing" if value is None else show(value)


def compare(expected: Any, actual: Any, *, at: DataPath = (), name: str = "") -> list[Mismatch]:
    """Mismatches between the listed ``expected`` facts and ``actual``.

    A mapping is compared key by key and only on the keys it lists; a list of
    mappings must have the same length and is compared item by item the same way;
    a list written ``{in_any_order: [...]}`` must have the same length and its items
    must match the actual items in some order (each compared as above); anything else
    (numbers, text, other lists) must be equal. A fact the engine does not produce (a
    monster that is gone, a key that is absent) is a mismatch with nothing, naming the
    nearest fact it does have. ``at`` is the expectation's place in the file.
    """
    unordered = any_order(expected)
    if unordered is not None:
        return _compare_any_order(unordered, actual, at=at + (ANY_ORDER,), name=name)
    if type(expected) is dict or isinstance(expected, Mapping):  # a dict (most facts) is told at once
        if type(actual) is not dict and not isinstance(actual, Mapping):
            return [Mismatch(name or "(outcome)", expected, actual, at=at)]
        mismatches: list[Mismatch] = []
        for key, wanted in expected.items():
            field = f"{name}.{key}" if name else str(key)
            if key not in actual:
                have = [str(k) for k in actual]
                hint = nearest(str(key), have).strip()
                note = f"no fact '{key}' here{' ' + hint if hint else ''}; there are: {', '.join(have) or 'none'}"
                mismatches.append(Mismatch(field, wanted, None, note=note, at=at + (key,)))
                continue
            mismatches += compare(wanted, actual[key], at=at + (key,), name=field)
        return mismatches
    if isinstance(expected, list) and isinstance(actual, list) and any(isinstance(e, Mapping) for e in expected):
        if len(expected) != len(actual):
            return [Mismatch(f"{name} (length)", len(expected), len(actual), at=at)]
        mismatches = []
        for index, (wanted, got) in enumerate(zip(expected, actual, strict=True)):
            mismatches += compare(wanted, got, at=at + (index,), name=f"{name}[{index}]")
        return mismatches
    if expected != actual or type(expected) is bool and type(actual) is not bool:
        return [Mismatch(name, expected, actual, at=at)]
    return []


def _compare_any_order(expected: list[Any], actual: Any, *, at: DataPath, name: str) -> list[Mismatch]:
    if not isinstance(actual, list):
        return [Mismatch(name, expected, actual, note="expected a list, in any order", at=at)]
    if len(expected) != len(actual):
        return [Mismatch(f"{name} (length)", len(expected), len(actual), at=at)]
    if matching(expected, actual) is None:
        return [Mismatch(name, expected, actual, note="no order of the facts matches the items expected", at=at)]
    return []


def matching(expected: list[Any], actual: list[Any]) -> list[int] | None:
    """For each expected item, the index of a distinct actual item it matches (as :func:`compare` matches); ``None``
    when there is no such pairing of every item."""
    fits = [[index for index, got in enumerate(actual) if not compare(wanted, got)] for wanted in expected]
    owner: dict[int, int] = {}  # actual index -> the expected item paired with it
    if not all(_pair(item, fits, owner, set()) for item in range(len(expected))):
        return None
    chosen = {item: index for index, item in owner.items()}
    return [chosen[item] for item in range(len(expected))]


def _pair(item: int, fits: list[list[int]], owner: dict[int, int], tried: set[int]) -> bool:
    """Pair expected ``item`` with an actual item it fits, moving an earlier pairing to another of its fits if need be."""
    for index in fits[item]:
        if index not in tried:
            tried.add(index)
            if index not in owner or _pair(owner[index], fits, owner, tried):
                owner[index] = item
                return True
    return False


def project(expected: Any, actual: Any) -> Any:
    """The part of ``actual`` that ``expected`` lists, walked by :func:`compare`'s rules.

    A mapping keeps only the keys ``expected`` lists (a key the engine does not produce
    stays absent); a list of mappings as long as the expected one is projected item by
    item, and a list expected in any order item by item in the order expected; anything
    else, a list of another length included, is taken whole.
    """
    unordered = any_order(expected)
    if unordered is not None and isinstance(actual, list) and len(unordered) == len(actual):
        order = matching(unordered, actual)  # in the order expected, so runs that differ only in order agree
        return [project(wanted, actual[index]) for wanted, index in zip(unordered, order, strict=True)] if order else actual
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return {key: project(wanted, actual[key]) for key, wanted in expected.items() if key in actual}
    if (isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual)
            and any(isinstance(e, Mapping) for e in expected)):
        return [project(wanted, got) for wanted, got in zip(expected, actual, strict=True)]
    return actual


def flatten(facts: Any, prefix: str = "", *, into_lists: bool = False) -> dict[str, Any]:
    """Every leaf fact by its dotted path (a list expected in any order stands as the list).

    Lists are leaves, unless ``into_lists``: then a list holding mappings is opened
    item by item, named ``name[index]`` as :func:`compare` names them.
    """
    unordered = any_order(facts)
    if unordered is not None:
        return flatten(unordered, prefix, into_lists=into_lists)
    if isinstance(facts, Mapping) and (facts or not prefix):
        flat: dict[str, Any] = {}
        for key, value in facts.items():
            flat.update(flatten(value, f"{prefix}.{key}" if prefix else str(key), into_lists=into_lists))
        return flat
    if into_lists and isinstance(facts, list) and any(isinstance(item, Mapping) for item in facts):
        flat = {}
        for index, item in enumerate(facts):
            flat.update(flatten(item, f"{prefix}[{index}]", into_lists=True))
        return flat
    return {prefix: facts}
