"""The located message the rules give for an action they cannot carry out as written."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import pytest

from checker.engine.errors import InputError
from checker.engine.game import Context, Game


def refusal_of_last(game: Game, state: Any, context: Context, actions: Iterable[Mapping[str, Any]]) -> InputError:
    """Play every action but the last from ``state``, then return the InputError the last one raises."""
    *before, last = actions
    for action in before:
        state = game.apply(state, action, context)
    with pytest.raises(InputError) as caught:
        game.apply(state, last, context)
    return caught.value
