""""Negating" & "Prohibiting": "Cannot" ("Prevents the specified effect before it has been applied") and
"Cannot be negated", as effects. What a prohibition stops, and what negates an [IN PLAY] effect, is in ``resolving``.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.described import takes

from ..state import Effect, Kept, State
from .common import card, vocabulary
from .resolving import _note_prohibition


@vocabulary.effect("prohibit", '"Cannot": until the END PHASE (or as a [STAY] effect), the opponent (or its owner) cannot apply what '
                   "'negates' lists (effect, event, no-battle, stay, standby, in-play), or only the effects of 'target'.",
                   params=takes(Effect, "target"))
def prohibit(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
    _note_prohibition(context, state, owner, source, effect)


@vocabulary.effect("make-unnegatable", "Its owner's effects of the kinds 'negates' lists (stay, standby, effect) cannot be negated "
                   "this turn.", params=takes(Effect))
def make_unnegatable(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].unnegatable |= set(effect.negates)
    context.note("zb.cannot-be-negated.by-effects", f"{source}: {owner}'s {', '.join(effect.negates)} effects cannot be negated this turn",
                 involves=[card(source)])
