"""Scenario data in words, for people: an action as a sentence fragment, a value as text."""

from __future__ import annotations

from typing import Any, Mapping


def in_words(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {in_words(item)}" for key, item in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return " + ".join(in_words(item) for item in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def action_words(action: Mapping[str, Any]) -> str:
    """An action written out from its data: 'attack — player A, monster Pixie, card Jab, target Golem'."""
    fields = ", ".join(f"{key} {in_words(value)}" for key, value in action.items() if key != "action")
    return f"{action['action']} — {fields}" if fields else str(action["action"])
