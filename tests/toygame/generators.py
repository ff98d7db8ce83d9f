"""Random rounds of Spark Duel for the dispute finder: each player holds one Spark and plays it, then both pass."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def duel(a: int, b: int) -> dict[str, Any]:
    return {
        "initial": {"players": {"A": {"hand": [str(a)]}, "B": {"hand": [str(b)]}}},
        "actions": [{"action": "spark", "player": "A", "card": str(a)}, {"action": "spark", "player": "B", "card": str(b)},
                    {"action": "pass", "player": "A"}, {"action": "pass", "player": "B"}],
    }


def scenarios() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(duel, st.integers(1, 9), st.integers(1, 9))
