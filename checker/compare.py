"""Partial comparison: only the facts a scenario lists are checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.errors import DataPath, InputError
from checker.schema import nearest, one_of


@dataclass(frozen=True)
class Mismatch:
    field: str  # dotted path of the fact, e.g. "players.B.monsters.Mew.lp"
    expected: Any
    actual: Any

    def render(self) -> str:
        return f"{self.field}: expected {_show(self.expected)}, got {_show(self.actual)}"

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "expected": self.expected, "actual": self.actual}


def _show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def compare(expected: Any, actual: Any, *, at: DataPath = (), name: str = "", strict: bool = True) -> list[Mismatch]:
    """Mismatches between the listed ``expected`` facts and ``actual``.

    A mapping is compared key by key and only on the keys it lists; a list of
    mappings must have the same length and is compared item by item the same way;
    anything else (numbers, text, other lists) must be equal. Asking for a fact the game does
    not have (a monster that is not on the field) is an :class:`InputError`
    at ``at``, the data path of the expectation in the file.
    """
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [Mismatch(name or "(outcome)", expected, actual)]
        mismatches: list[Mismatch] = []
        for key, wanted in expected.items():
            field = f"{name}.{key}" if name else str(key)
            if key not in actual and not strict:
                mismatches.append(Mismatch(field, wanted, None))
                continue
            if key not in actual:
                raise InputError(
                    f"no fact '{key}' here{nearest(str(key), map(str, actual))}",
                    path=at + (key,),
                    on_key=True,
                    expected=one_of(actual),
                )
            mismatches += compare(wanted, actual[key], at=at + (key,), name=field, strict=strict)
        return mismatches
    if isinstance(expected, list) and isinstance(actual, list) and any(isinstance(e, Mapping) for e in expected):
        if len(expected) != len(actual):
            return [Mismatch(f"{name} (length)", len(expected), len(actual))]
        mismatches = []
        for index, (wanted, got) in enumerate(zip(expected, actual, strict=True)):
            mismatches += compare(wanted, got, at=at + (index,), name=f"{name}[{index}]", strict=strict)
        return mismatches
    if expected != actual or type(expected) is bool and type(actual) is not bool:
        return [Mismatch(name, expected, actual)]
    return []


def flatten(facts: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf fact by its dotted path (lists are leaves)."""
    if isinstance(facts, Mapping) and (facts or not prefix):
        flat: dict[str, Any] = {}
        for key, value in facts.items():
            flat.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: facts}
