"""The BATTLE PHASE: THE ACTION SYSTEM ("The act of doing anything during the BATTLE PHASE is called performing an
'Action'") and THE ALTERNATING RULE ("When both players decide to not perform any more Actions, it calls for the
end of the BATTLE PHASE").

Who performs the next Action, and when passes end a step, is the procedure's (its priority rules); the core keeps
the record of it (``state.priority``). An Action takes its turn there; what a pass means at each step is bound
with ``@steps.passed`` beside the step (here: Non-Battle's).
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import State, other
from .common import ACTION, BATTLE, _before_start_phase, _defender_acts_before_battle_in, steps, vocabulary


def _in_non_battle(state: State) -> bool:
    """No Battle is in progress, and the players have not both passed (once the START PHASE is over)."""
    return state.battle is None and not state.end_pending


def _take_action(context: Context, state: State, player: str, what: str, action: Mapping[str, Any]) -> None:
    """An Action by ``player`` in Non-Battle: it must be theirs to perform."""
    _refuse_in_start_phase(context, state, what)
    if not _in_non_battle(state) and state.pending_battle_in is None:
        raise context.reject("not-in-non-battle", f"{what}: a Battle is in progress", "zb.event.no-battle"
                             if what == "an EVENT card" else "zb.battle.effects-window-no-putting", involves=[BATTLE])
    context.take_turn(state, player)  # refused out of turn; then the other player acts next
    if state.pending_battle_in is not None:
        _defender_acts_before_battle_in(context, state, player)
    context.run_step(state, "non-battle", action)


def _refuse_in_start_phase(context: Context, state: State, what: str) -> None:
    if _before_start_phase(context, state):
        raise context.reject("not-now", f"{what}: the START PHASE comes first (the Attacker turns 0 to 3 pages)",
                             "zb.start.not-activated", involves=[ACTION])


@steps("non-battle")
def non_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("zb.actions.definition", f"{action.get('player')} performs an Action ({action['action']})", involves=[ACTION])
    context.note("zb.glossary.action", f"An Action, performed during the BATTLE PHASE: {action['action']}", involves=[ACTION])


def _acted(context: Context, state: State, player: str) -> None:
    """After an Action, the other player may perform one (in a Battle, see the effects window)."""
    context.note("zb.alternate.other-may-act", f"{other(player)} may now perform an Action", involves=[ACTION])


@vocabulary.action("pass", "Pass: perform no Action (the Defender's pass also lets a \"Battle In\" through or waives the Defense).",
                   params={"player": ref("player")}, required=["player"])
def pass_(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """What a pass means is the step's (``@steps.passed``); when passes end the step, play moves on as it declares."""
    if state.priority.step is None:
        raise context.reject("not-now", f"nothing to pass at {state.step}", involves=[ACTION])
    context.pass_turn(state, action["player"], action)


@steps.passed("non-battle")
def pass_non_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = action["player"]
    if not state.priority.ended:
        context.note("zb.alternate.pass", f"{player} passes and performs no Action", involves=[ACTION])
        context.note("zb.alternate.act-after-pass", f"{other(player)} may still perform an Action; {player} may act again after it",
                     involves=[ACTION])
        return
    context.note("zb.alternate.both-pass-ends", "Both players decide to perform no more Actions: the BATTLE PHASE ends",
                 involves=[ACTION])
