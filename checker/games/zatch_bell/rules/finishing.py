"""What an action finishes first, and the end of a scenario: a Battle waiting for its resolution resolves, and an
END PHASE waiting for its choices runs, before the next action, or at the end.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context

from ..state import State
from .common import CUT_IN, card
from .resolving import _close_cut_in, _keep_declared
from .end_phase import _run_end_phase
from .battle_steps import _power_now


def before_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """A Battle waiting for its resolution resolves, and an END PHASE waiting for its choices runs, with no choices."""
    _keep_declared(state)
    if action["action"] == "redo-coins":
        return
    if not _is_cut_in(state, action):
        state.coin_toss, state.coin_redo = None, None
    name = action.get("card") or action.get("spell") or action.get("effect_of")
    current = (action["player"], name) if action.get("player") and name else None
    state.previous_action, state.current_action = state.current_action, current
    if not _is_cut_in(state, action):
        if state.loser is None:
            _note_no_interruption(context, state, action)
        if state.stack:
            _close_cut_in(context, state)
    if state.loser is not None:
        return
    if state.compared and action["action"] != "resolve":
        context.advance(state, "battle-out", {})
    if state.end_pending and action["action"] != "end-phase":
        _run_end_phase(context, state, {})


INTERRUPTIONS = {"lose-mp": "zb.interruption.no-mp-reduction", "turn-pages": "zb.interruption.no-page-turning"}


def _note_no_interruption(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The opponent's Action right after a card played or an effect applied, no cut-in effect, comes after it has resolved."""
    previous = state.previous_action
    if previous is None or action["action"] == "pass" or action.get("player") in (None, previous[0]):
        return
    before = previous[1]
    context.note("zb.interruption.prohibit-or-cut-in", f"{before} has resolved: interfering with it needed a prohibition or a "
                 "cut-in effect", involves=[card(before), CUT_IN])
    effects = state.card(action["card"]).effects if action["action"] == "apply-effect" and action["card"] in state.cards else ()
    index = action.get("effect", 0)
    ruling = INTERRUPTIONS.get(effects[index].kind) if index < len(effects) else None
    if ruling is not None:
        context.note("zb.interruption.terminated", "The \"effect interruption\" rule was terminated", involves=[card(before)])
        context.note(ruling, f"{action['card']}'s effect cannot interrupt {before}: it comes after {before} has resolved",
                     involves=[card(action["card"]), card(before)])


def _is_cut_in(state: State, action: Mapping[str, Any]) -> bool:
    if action["action"] != "apply-effect" or action["card"] not in state.cards:
        return False
    effects = state.card(action["card"]).effects
    index = action.get("effect", 0)
    return bool(index < len(effects) and effects[index].is_cut_in)


def settle(context: Context, state: State) -> None:
    before_action(context, state, {"action": "settle"})


def after_action(context: Context, state: State) -> None:
    """Each in-play MAMODO card's Power, as the effects active now give it (the fact ``power``)."""
    with context.quietly():
        for player in state.players.values():
            for holder in player.mamodo:
                holder.power = _power_now(context, state, player, holder)
