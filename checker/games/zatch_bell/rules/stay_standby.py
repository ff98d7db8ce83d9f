"""[STAY] and [STANDBY]: "[STAY] effects can only be negated by card effects that target [STAY] effects" (and
[STANDBY] effects likewise): the negate effect. How they are kept, expire and activate is in ``resolving``.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.described import takes

from ..state import Effect, State, other
from .common import card, vocabulary


@vocabulary.effect("negate", "Negates what 'negates' lists: as a cut-in effect (icons: [cut-in]) the card or effect the opponent "
                   "just played or applied; otherwise the opponent's active [STAY] or [STANDBY] effect it targets.",
                   params=takes(Effect, "target"))
def negate(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim = state.players[other(owner)]
    wanted = action.get("target") or effect.target
    for kept in victim.kept:
        if kept.zone in effect.negates and wanted in (None, kept.source):
            victim.kept.remove(kept)
            context.note("zb.stay.only-targeting" if kept.zone == "stay" else "zb.standby.only-targeting",
                         f"{source} negates {kept.source}'s [{kept.zone.upper()}] effect", involves=[card(kept.source)])
            return
