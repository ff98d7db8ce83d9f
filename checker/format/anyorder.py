"""A list in an expectation whose order does not count: ``{in_any_order: [...]}`` in place of the list.

Facts that happen at the same time (the monsters destroyed together, the damage of one round) come
in the order the engine records them, which the rules do not give; an expectation writes them this
way to be compared whatever their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ANY_ORDER = "in_any_order"


def any_order(expected: Any) -> list[Any] | None:
    """The items of an expected list written ``{in_any_order: [...]}``; ``None`` for any other expectation."""
    if isinstance(expected, Mapping) and len(expected) == 1 and isinstance(expected.get(ANY_ORDER), list):
        return list(expected[ANY_ORDER])
    return None
