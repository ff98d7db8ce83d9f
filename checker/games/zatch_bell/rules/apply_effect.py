"""The BATTLE PHASE, applying the effects of in-play cards: "Apply the effects of MAMODO, PARTNER, and MJ12 cards
you have in play" ([DECLARE TO USE], [X MP], [SEND THIS CARD TO THE DISCARD PILE]), in Non-Battle and in a Battle.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import Effect, Mamodo, Player, State, other
from .common import (
    ACTION, BATTLE, BATTLE_EFFECTS_ICON, BATTLE_EFFECTS_STEP, COINS, COIN_TOSS, EITHER_PHASE, GLOSSARY_ATTACKER,
    GLOSSARY_BATTLE_EFFECT, PAY_EXTRA, PETRIFIED, PRIORITY_AFTER_BATTLE_EFFECT, card, vocabulary,
)
from .resolving import _check_cut_in, _check_kept_target, _pay_and_apply
from .battle_phase import _acted, _refuse_in_start_phase, _take_action
from .put_in_play import _role


@vocabulary.action("apply-effect", "An Action: apply an effect of an in-play MAMODO, PARTNER or MJ12 card.",
                   params={"player": ref("player"), "card": ref("card-name"),
                           "effect": {"type": "integer", "minimum": 0, "description": "Which of the card's effects (default 0, the first)."},
                           "target": {**ref("card-name"), "description": "The MAMODO card the effect selects (a negating effect: the "
                                      "card whose effect it negates)."},
                           "protect": {**ref("card-name"), "description": "The MAMODO card that PROTECTS against the effect's Damage."},
                           "protect_each": {"type": "array", "items": {"oneOf": [ref("card-name"), {"type": "null"}]},
                                            "description": "Damage X times: the MAMODO card that PROTECTS against each infliction "
                                            "(null: none)."},
                           "coins": COINS, "pay_extra": PAY_EXTRA},
                   required=["player", "card"])
def apply_effect(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["card"]
    effect = _chosen_effect(context, state, player, name, action.get("effect", 0))
    if effect.kind == "redo-coins":
        context.note("zb.qa.q14", f"{name}'s effect changes a coin toss: it is no cut-in effect and is applied right after coins "
                     "are flipped (redo-coins)", involves=[card(name), COIN_TOSS])
        raise context.reject("coin-redo-not-an-action", f"{name}'s effect re-does a coin toss: it negates nothing and is applied "
                             "without an Action", "zb.qa.q14", involves=[card(name), COIN_TOSS])
    if effect.kind == "attack-without-spell":
        raise context.reject("attack-with-battle-in", f"{name}'s \"&\" effect Attacks without a SPELL card: it is applied by "
                             f"declaring \"Battle In\" with it (battle-in, effect_of: {name})", "zb.battle-in.icon", involves=[card(name)])
    if effect.kind == "play-spell":
        raise context.reject("play-with-battle-in", f"{name}'s effect plays a SPELL card to Attack: it is applied by declaring "
                             f"\"Battle In\" with the SPELL card (battle-in, played_by: {name})", "zb.battle-in.icon",
                             involves=[card(name)])
    if effect.kind == "defend-without-spell":
        raise context.reject("defend-with-a-defense", f"{name}'s effect Defends without a SPELL card: it is applied by "
                             f"declaring the Defense with it (defend, effect_of: {name})", "zb.battle.defend-declare",
                             involves=[card(name)])
    in_battle = state.battle is not None
    _check_role(context, state, player, name, effect)
    if effect.is_cut_in:
        _check_cut_in(context, state, player, name, effect, action.get("target"))
    elif effect.kind == "negate":
        _check_kept_target(context, state, player, name, effect, action)
    if in_battle:
        _apply_in_battle(context, state, player, name, effect, action)
    else:
        if effect.is_battle_effect:
            raise context.reject("not-in-non-battle", f"{name}'s effect has the Battle icon: it is applied in a Battle",
                                 _icon_area(state, name), involves=[card(name)])
        if not effect.is_cut_in:
            _take_action(context, state, player.name, "an effect", action)
        else:
            _refuse_in_start_phase(context, state, "a cut-in effect")
            context.run_step(state, "non-battle", action)
        _check_phase_owner(context, state, player, name, effect)
        _pay_and_apply(context, state, player, name, effect, action)
        _cut_in_taken(context, state, player, effect)
        _acted(context, state, player.name)


def _cut_in_taken(context: Context, state: State, player: Player, effect: Effect) -> None:
    """A cut-in effect answers at once, needing no priority; its turn counts once it has brought the game back to
    before what it negates."""
    if effect.is_cut_in:
        context.take_turn(state, player.name, in_turn=False)


def _chosen_effect(context: Context, state: State, player: Player, name: str, index: int) -> Effect:
    holder = _holder(player, name)
    if holder is None and name in player.discarded_by_effect and any(e.tag == "discard" for e in state.card(name).effects):
        context.note("zb.interruption.no-discard-response", f"{player.name} cannot interrupt the effect that sends {name} to the "
                     "Discard Pile by applying its own effect", involves=[card(name)])
        raise context.reject("not-in-play", f"{name} is being sent to the Discard Pile by a card effect: its [SEND THIS CARD TO "
                             "THE DISCARD PILE] effect cannot be applied at that time", "zb.tag.discard-by-effect", involves=[card(name)])
    if holder is None:
        raise context.reject("not-in-play", f"{name} is not in play on {player.name}'s side", "zb.effects.apply", involves=[card(name)])
    effects = state.card(name).effects
    if index >= len(effects):
        raise context.reject("no-such-effect", f"{name} has {len(effects)} effect(s)", involves=[card(name)])
    effect = effects[index]
    if holder.effects_negated and holder.card == name:
        raise context.reject("effects-negated", f"{name}'s effects are negated this turn", involves=[card(name)])
    if effect.tag == "in-play":
        raise context.reject("in-play-effects-apply-themselves", f"{name}'s [IN PLAY] effect needs no Action",
                             "zb.tag.in-play-no-action", involves=[card(name)])
    if holder.status == "petrified":
        ruling = "zb.petrified.no-effects" if holder.card == name else "zb.petrified.no-partner"
        raise context.reject("mamodo-petrified", f"{holder.card} is Petrified: {name}'s effects cannot be applied", ruling,
                             involves=[card(name), PETRIFIED])
    if holder.status == "injured":
        context.note("zb.injured.can-act", f"{holder.card} is Injured and can still apply its effects", involves=[card(holder.card)])
        context.note("zb.qa.q7", f"{holder.card}, Injured, still applies its effects", involves=[card(holder.card)])
    return effect


def _check_role(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    """ "When you are the Attacker (Defender)": the player whose turn it is is the Attacker, the other the Defender; the glossary's
    "currently Attacking in the Battle" may limit the roles to a Battle (the switch)."""
    if effect.only_as is None:
        return
    role: str | None = "attacker" if player.name == state.attacker else "defender"
    if context.read(GLOSSARY_ATTACKER, "turn-roles"):
        context.note(GLOSSARY_ATTACKER, f"{player.name} is the {role} for the whole turn, in a Battle or not", involves=[card(name)])
    elif state.battle is None:
        role = None
        context.note(GLOSSARY_ATTACKER, f"No Battle is taking place: {player.name} is neither Attacking nor Defending in a Battle",
                     involves=[card(name)])
    if role != effect.only_as:
        raise context.reject("wrong-role", f"{name}'s effect is applied when its player is the {effect.only_as}; {player.name} is "
                             f"{'the ' + role if role else 'neither'}", GLOSSARY_ATTACKER, involves=[card(name)])


def _holder(player: Player, name: str) -> Mamodo | None:
    """The in-play MAMODO card that is, or carries, the card ``name`` (an MJ12 card: a stand-in in Normal Status)."""
    for m in player.mamodo:
        if name in (m.card, m.partner):
            return m
    if any(c == name for c, _ in player.mj12):
        return Mamodo(card=name, page=0)
    return None


def _check_phase_owner(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    kind = state.card(name)
    if effect.phase is not None:
        owner = player.name if effect.phase == "own" else other(player.name)
        context.note("zb.table.note-2", f"{name}'s effect specifies the BATTLE PHASE of {owner}", involves=[card(name)])
        if owner != state.attacker:
            raise context.reject("wrong-battle-phase", f"{name}'s effect is for {owner}'s BATTLE PHASE; this is {state.attacker}'s",
                                 "zb.table.note-2", involves=[card(name)])
    context.note(EITHER_PHASE[kind.type], f"{player.name} applies {name}'s effect in {state.attacker}'s BATTLE PHASE", involves=[card(name)])
    context.note("zb.turns.apply-effects", f"{player.name} applies the effect of an in-play card", involves=[card(name)])
    context.note("zb.table.applying", f"The {_role(state, player.name)} may apply in-play cards' effects", involves=[card(name)])


def _apply_in_battle(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if not context.reached(state, "defend"):  # the Defender has not yet declared or waived the Defense
        if effect.is_cut_in:  # it answers the Attack just declared (or the cut-in effect that answered it)
            _pay_and_apply(context, state, player, name, effect, action)
            _cut_in_taken(context, state, player, effect)
            return
        if effect.is_battle_effect and _battle_effect_any_time(context, name):
            _apply_before_defense(context, state, player, name, effect, action)
            return
        if not context.read(BATTLE_EFFECTS_STEP, "part-of-defend"):
            raise context.reject("not-now", f"{state.defender} declares or waives the Defense first (Battle step 2)",
                                 BATTLE_EFFECTS_STEP, involves=[BATTLE])
        context.note(BATTLE_EFFECTS_STEP, "The effects are applied within the Defend step: the Defense may still follow",
                     involves=[BATTLE])
        context.advance(state, "apply-effects", {})
    if not effect.is_cut_in:
        context.take_turn(state, player.name)
    classes = ["battle-icon"] if _allowed_in_battle(context, effect) else ["no-icon"]
    context.note("zb.interruption.battle-step-5", f"During the Battle only effects with the icon are valid: {name}'s effect "
                 + ("is one" if classes == ["battle-icon"] else "is not"), involves=[card(name), BATTLE])
    context.check_window(state, classes, name=f"{name}'s effect", involves=[card(name)])
    context.note("zb.precautions.only-icons-in-battle", f"{name}'s effect has the icon a Battle allows", involves=[card(name)])
    context.note("zb.figure.effects-icon", f"{name}'s effect is marked with the icon of this step", involves=[card(name)])
    context.note(EITHER_PHASE[state.card(name).type], f"{player.name} applies {name}'s effect in {state.attacker}'s BATTLE PHASE",
                 involves=[card(name)])
    context.note("zb.battle.effects-window-both", f"{player.name} applies {name}'s effect in the Battle", involves=[card(name)])
    context.note(_icon_area(state, name), f"{name}'s effect icons ({', '.join(effect.icons)}) give its timing", involves=[card(name)])
    if effect.is_battle_effect:
        context.note("zb.battle-effects.icon", f"{name}'s Battle effect is applied during the Battle", involves=[card(name)])
        context.note("zb.battle-effects.icon-caption", f"{name}'s effect is marked with the Battle icon: a \"Battle\" effect",
                     involves=[card(name)])
        context.note("zb.battle-effects.resolve-at-once", f"{name}'s Battle effect resolves immediately after it is applied",
                     involves=[card(name)])
    _pay_and_apply(context, state, player, name, effect, action)
    _cut_in_taken(context, state, player, effect)
    if context.read(PRIORITY_AFTER_BATTLE_EFFECT, "attacker-next"):
        context.give_priority(state, state.attacker)
        context.note(PRIORITY_AFTER_BATTLE_EFFECT, f"An effect was applied during the Battle: {state.attacker}, the Attacker, acts next",
                     involves=[ACTION])
    else:  # play alternates, as the effects step declares
        context.note(PRIORITY_AFTER_BATTLE_EFFECT, f"{other(player.name)} may act next, as after any Action", involves=[ACTION])


def _battle_effect_any_time(context: Context, name: str) -> bool:
    """The glossary's Battle effect, "used during Battle" (between Battle In and Battle Out): also before the Defense?"""
    if context.read(GLOSSARY_BATTLE_EFFECT, "whole-battle"):
        context.note(GLOSSARY_BATTLE_EFFECT, f"{name}'s Battle effect can be used at any time during the Battle, before the Defense too",
                     involves=[card(name), BATTLE])
        return True
    context.note(GLOSSARY_BATTLE_EFFECT, f"{name}'s Battle effect is applied in the Battle's effects step only, not before the Defense",
                 involves=[card(name), BATTLE])
    return False


def _apply_before_defense(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """A Battle effect applied between the Attack and the Defense: the Defender then still declares or waives the Defense."""
    if not effect.is_cut_in:
        context.take_turn(state, player.name)  # the Defender keeps priority (procedure.yaml)
    context.note("zb.battle-effects.icon", f"{name}'s Battle effect is applied during the Battle", involves=[card(name)])
    _pay_and_apply(context, state, player, name, effect, action)
    _cut_in_taken(context, state, player, effect)
    context.note("zb.battle.defend-optional", f"{state.defender} may still Defend, or pass", involves=[BATTLE])


def _icon_area(state: State, name: str) -> str:
    """The card face's Icon Area: the same sentence on MAMODO and PARTNER cards."""
    return "zb.partner.icon-area" if state.card(name).type == "PARTNER" else "zb.mamodo.icon-area"


def _allowed_in_battle(context: Context, effect: Effect) -> bool:
    if context.read(BATTLE_EFFECTS_ICON, "battle-icon"):
        return "battle" in effect.icons
    return bool({"attack", "defend"} & set(effect.icons))
