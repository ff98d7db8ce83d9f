"""The Battle's steps 2. Defend ("If the Defender chooses to, the Defender has the chance to Defend against an
Attack"), the step of effects with the Battle icon, and 4. Compare Total Power ("Determine whether the Attacker
or Defender wins the Battle").
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import Mamodo, Player, SpellOut, State
from .common import BATTLE, BATTLE_EFFECTS_STEP, COIN, CUT_IN, MP, STAY, _battle, _spell_cost, card, steps, vocabulary
from .resolving import _declared, _in_play_active, _note_in_play_active, _pay_and_apply
from .battle_in import _effect_without_spell, _flip_coins, _spell_for


@vocabulary.action("defend", "Battle step 2: the Defender declares 1 Defense with a SPELL card for an in-play MAMODO card, "
                   "or with the effect of an in-play MAMODO card that Defends without a SPELL card.",
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "coin": COIN, "effect_of": {**ref("card-name"), "description": "The in-play MAMODO card whose effect "
                                                       "Defends without a SPELL card (instead of spell)."}},
                   required=["player", "mamodo"])
def defend(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name = action["player"]
    if state.battle is None:
        context.note("zb.table.note-4", "The Defender cannot play a SPELL card until the Battle begins", involves=[BATTLE])
        raise context.reject("not-now", "no Battle has begun", "zb.table.note-4", involves=[BATTLE])
    if name != state.defender:
        raise context.reject("not-the-defender", f"{name} is the Attacker; one Attack per Battle", "zb.battle.attack-declare",
                             involves=[BATTLE])
    battle = state.battle
    if battle.defense is not None or battle.defense_set_total is not None:
        raise context.reject("defense-declared", f"{name} has declared a Defense", "zb.battle.defend-declare", involves=[BATTLE])
    effects_begun = context.reached(state, "defend")  # the Defense was declared or waived, and effects may be applied
    if effects_begun and not (context.read(BATTLE_EFFECTS_STEP, "part-of-defend") and not battle.defense_waived):
        raise context.reject("defense-step-over", "the Defense is declared in step 2, before effects are applied",
                             BATTLE_EFFECTS_STEP, involves=[BATTLE])
    _check_undefendable(context, state)
    if "effect_of" in action:
        _defend_by_effect(context, state, state.players[name], action)
    else:
        _defend_with_spell(context, state, state.players[name], action)
    if not effects_begun:
        context.advance(state, "apply-effects", action)
    else:  # the Defend step again: its effects go on, the Attacker first (procedure.yaml)
        context.run_step(state, "defend", action)
        context.note(BATTLE_EFFECTS_STEP, "The Defense is declared within the Defend step, after the effects", involves=[BATTLE])


def _check_undefendable(context: Context, state: State) -> None:
    """A PARTNER card effect that names a MAMODO affects only the SPELL cards played for that MAMODO (DUAL MAMODO included)."""
    battle = _battle(state)
    if battle.spell is None:
        return
    played_for = state.card(battle.spell.card).mamodo
    for kept in battle.undefendable:
        if state.card(battle.mamodo).dual:
            context.note("zb.dual-details.partner-one-name", f"{kept.source}'s effect names {kept.effect.target}; "
                         f"{battle.spell.card} is played for {played_for}", involves=[card(kept.source), card(battle.mamodo)])
            context.note("zb.dual-details.example", f"{kept.source}'s effect applies to {kept.effect.target}'s SPELL cards only, "
                         f"not to the other MAMODO of {battle.mamodo}", involves=[card(kept.source), card(battle.mamodo)])
        if kept.effect.target == played_for:
            raise context.reject("cannot-be-defended", f"{kept.source}'s effect: {battle.spell.card}, played for {played_for}, "
                                 "cannot be Defended", "zb.dual-details.example" if state.card(battle.mamodo).dual else None,
                                 involves=[card(kept.source), card(battle.spell.card)])


def _defend_with_spell(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    if "spell" not in action:
        raise context.reject("no-such-choice", "a Defense names its SPELL card (spell) or its effect (effect_of)", "zb.battle.defend-declare",
                             involves=[BATTLE])
    spell = _spell_for(context, state, player, action, "defend")
    battle = _battle(state)
    battle.defense, battle.defender_mamodo = spell, spell.mamodo
    player.pages[spell.page - 1] = None
    player.spells_used.add((spell.card, spell.page))


def _defend_by_effect(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    """A MAMODO card's effect that Defends without a SPELL card: it resolves as it is declared and sets the Total Power."""
    name = action["effect_of"]
    effect = state.card(name).effects[_effect_without_spell(context, state, player, action, "defend")]
    if "defend" not in effect.icons:
        raise context.reject("no-defend-icon", f"{name}'s effect has no Defend icon: a Defense uses an in-play card effect with a "
                             "\"Defend\" Icon", "zb.battle.defend-declare", involves=[card(name)])
    context.note("zb.and.no-cut-in", f"{name}'s effect Defends without a SPELL card: no cut-in effect can negate it as it is applied",
                 involves=[card(name), CUT_IN])
    _pay_and_apply(context, state, player, name, effect, action, respondable=False)


@steps("defend")
def defend_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    defender = state.players[state.defender]
    if battle.defense_set_total is not None:
        context.note("zb.battle.defend-declare", f"{state.defender} declares 1 Defense: {battle.defender_mamodo} Defends with its effect",
                     involves=[card(battle.defender_mamodo or "")])
        return
    if battle.defense is None:
        context.note("zb.battle.defend-optional", f"{state.defender} does not Defend", involves=[BATTLE])
        return
    kind = state.card(battle.defense.card)
    cost = _spell_cost(context, state, defender, kind, battle.defense.page)
    context.note("zb.battle.defend-declare", f"{state.defender} declares 1 Defense: {battle.defender_mamodo} with {kind.name} "
                 f"from page {battle.defense.page}", involves=[card(kind.name), card(battle.defender_mamodo or "")])
    context.note("zb.glossary.defense", f"A Defense declared with {kind.name}, a SPELL card with the Defend icon", involves=[card(kind.name)])
    for ruling in ("zb.glossary.defender", "zb.glossary.defender-repeat"):
        context.note(ruling, f"{state.defender}, whose turn is not active, Defends in the Battle", involves=[BATTLE])
    defender.mp -= cost
    context.note("zb.battle.defend-pay", f"{state.defender} pays {cost} MP: {defender.mp} MP", involves=[card(kind.name), MP],
                 mp=defender.mp)
    context.note("zb.figure.defense-mp-cost", f"{kind.name}'s MP cost is what {state.defender} Defended with", involves=[card(kind.name)])
    context.note("zb.figure.defense-reduce-mp", f"{state.defender}'s MP is reduced by {kind.name}'s MP cost", involves=[card(kind.name)])
    context.note("zb.battle.defense-not-resolved", "The Defense has not fully resolved yet", involves=[BATTLE])
    context.note("zb.spell.initiate", f"{kind.name} initiates the Defense", involves=[card(kind.name)])
    _flip_coins(context, state, state.defender, kind, action.get("coin"))
    _declared(state, state.defender, kind.name, frozenset({"defense", "spell"}))


@steps("apply-effects")
def apply_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.reading(BATTLE_EFFECTS_STEP)
    context.note("zb.battle.effects-not-resolved", "The Attack and the Defense have not fully resolved yet", involves=[BATTLE])
    context.note("zb.battle.effects-window-order", f"Effects: {state.attacker}, the Attacker, applies an effect or passes first",
                 involves=[BATTLE])


@steps.passed("attack")
def waive_defense(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The Defender's pass waives the Defense: play moves on to the effects."""
    _battle(state).defense_waived = True


@steps.passed("defend")
@steps.passed("apply-effects")
def pass_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """A pass in the effects step; when both players pass in turn, Total Power is compared (play moves on)."""
    context.note("zb.battle.effects-window-order", f"{action['player']} passes", involves=[BATTLE])
    if state.priority.ended:
        context.note("zb.battle.effects-window-end", "Both players apply no more effects: compare Total Power", involves=[BATTLE])


@steps("compare-total-power")
def compare_total_power(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    if battle.attack_set_total is not None:
        attack = _set_total(context, state, state.attacker, battle.mamodo, battle.attack_set_total)
    else:
        attack = _total(context, state, state.attacker, battle.mamodo, battle.spell, battle.attack_negated)
    if battle.defense_set_total is not None and not battle.defense_negated:
        defense = _set_total(context, state, state.defender, battle.defender_mamodo or "", battle.defense_set_total)
    elif battle.defense is None or battle.defense_negated:
        defense = 0
        why = "the Defense was negated" if battle.defense_negated else f"{state.defender} is not Defending"
        context.note("zb.battle.undefended-zero", f"{why}: the Defender's Total Power is 0", involves=[BATTLE], power=0)
    else:
        defense = _total(context, state, state.defender, battle.defender_mamodo or "", battle.defense, False)
    battle.totals = {state.attacker: attack, state.defender: defense}
    fighting = [card(battle.mamodo)] + [card(out.card) for out in (battle.spell, battle.defense) if out is not None]
    fighting += [card(battle.defender_mamodo)] if battle.defender_mamodo else []
    context.note("zb.battle.compare-who-wins", "Determine whether the Attacker or Defender wins the Battle", involves=[BATTLE])
    context.note("zb.battle.compare-outcome", "Determine the Battle's outcome", involves=[BATTLE])
    context.note("zb.battle.compare", f"Total Power: {state.attacker} {attack}, {state.defender} {defense}",
                 involves=[*fighting, BATTLE], attacker=attack, defender=defense)
    if battle.attack_negated:
        battle.winner = "defender"
        context.note("zb.battle.negated-fails", "The Attack was negated: it fails", involves=[BATTLE])
    elif attack > defense:
        battle.winner = "attacker"
        context.note("zb.battle.attacker-higher", f"{attack} > {defense}: the Attack is successful", involves=[BATTLE])
    else:
        battle.winner = "defender"
        context.note("zb.battle.defender-higher-or-equal", f"{defense} ≥ {attack}: the Attack is negated, no Damage", involves=[BATTLE])


def _total(context: Context, state: State, owner: str, mamodo: str, spell: SpellOut | None, negated: bool) -> int:
    """MAMODO Power + SPELL Power, with the Power effects have added (a MAMODO gone from play adds none)."""
    player, battle = state.players[owner], _battle(state)
    holder = player.find(mamodo)
    base = state.card(mamodo).power if holder is not None else 0
    in_play = _in_play_power(context, state, player, holder)
    spell_power = state.card(spell.card).power if spell is not None else 0
    boost = battle.power[owner] + player.turn_power + player.battle_power + _spell_boosts(context, player, state, spell)
    total = base + in_play + spell_power + boost
    ruling = "zb.battle.attacker-total" if owner == state.attacker else "zb.battle.defender-total"
    context.note("zb.mamodo.power", f"{mamodo}'s Power: {base}", involves=[card(mamodo)], power=base)
    if player.turn_power:
        context.note("zb.event.until-end-phase", f"{owner}'s EVENT card adds {player.turn_power} Power until the END PHASE",
                     involves=[BATTLE])
    if player.battle_power:
        context.note("zb.glossary.during-battle", f"During the Battle {owner}'s MAMODO cards get {player.battle_power:+d} Power",
                     involves=[BATTLE], power=player.battle_power)
    if spell is not None:
        context.note("zb.figure.attack-add-power" if owner == state.attacker else "zb.figure.defense-add-power",
                     f"{spell.card}'s Power {spell_power} is added to {owner}'s total", involves=[card(spell.card)])
    context.note(ruling, f"{owner}'s Total Power: {mamodo} {base} + {spell.card if spell else 'no SPELL'} {spell_power}"
                 + (f" + effects {boost + in_play}" if boost or in_play else "") + f" = {total}",
                 involves=[card(mamodo)] + ([card(spell.card)] if spell else []), power=total)
    context.note("zb.glossary.total-power", f"{owner}'s Total Power: the MAMODO's Power, the SPELL card's and the active boosts",
                 involves=[card(mamodo)], power=total)
    return total


def _spell_boosts(context: Context, player: Player, state: State, spell: SpellOut | None) -> int:
    """EVENT cards' Power, until the END PHASE, for the SPELL cards of one MAMODO: this SPELL card's, if it is one of them."""
    if spell is None:
        return 0
    played_for = state.card(spell.card).mamodo
    added = 0
    for kept in player.kept:
        if kept.zone == "turn" and kept.effect.kind == "power" and kept.effect.target == played_for:
            added += kept.effect.amount
            context.note("zb.event.until-end-phase", f"{kept.source}: +{kept.effect.amount} Power to {spell.card}, a SPELL card of "
                         f"{played_for}", involves=[card(kept.source)], amount=kept.effect.amount)
    return added


def _set_total(context: Context, state: State, owner: str, mamodo: str, total: int) -> int:
    """An Attack or Defense made with an effect instead of a SPELL card: the effect's Total Power, without the MAMODO's Power."""
    added = _battle(state).power[owner]
    context.note("zb.battle.power-set-by-effect", f"{mamodo}'s effect sets the Total Power {total}; {mamodo}'s regular Power "
                 f"({state.card(mamodo).power}) is not applied" + (f"; effects add {added}" if added else ""),
                 involves=[card(mamodo), BATTLE], power=total + added)
    context.note("zb.glossary.total-power-effect", f"Attacking or Defending without a SPELL card: the Total Power {total} is "
                 "specified in the effect", involves=[card(mamodo)], power=total)
    if added:
        context.note("zb.and.power-at-compare", f"The Power increase of {mamodo}'s effect ({added:+d}) is resolved when comparing "
                     "Total Power", involves=[card(mamodo), BATTLE], power=total + added)
    return total + added


def _power_now(context: Context, state: State, player: Player, holder: Mamodo) -> int:
    """A MAMODO card's Power now: its own, what [IN PLAY] and [STAY] effects and EVENT cards add, "during the Battle" only in one."""
    power = state.card(holder.card).power + _in_play_power(context, state, player, holder) + player.turn_power
    return power + (player.battle_power if state.battle is not None else 0)


def _in_play_power(context: Context, state: State, player: Player, holder: Mamodo | None) -> int:
    if holder is None or holder.status == "petrified":
        return 0
    added = 0
    sources = [holder.card] + ([holder.partner] if holder.partner else []) + [c for c, _ in player.mj12]
    for source in sources:
        powers = [e for e in state.card(source).effects if e.tag == "in-play" and e.kind == "power" and e.timing is None]
        if powers and not _in_play_active(context, state, player.name, source):
            continue
        for effect in powers:
            added += effect.amount
            context.note("zb.tag.in-play-always", f"{source}'s [IN PLAY] effect: +{effect.amount} Power while it is in play",
                         involves=[card(source), card(holder.card)])
            _note_in_play_active(context, source)
            context.note("zb.precautions.in-play-active", "[IN PLAY] effects remain active during the Battle", involves=[BATTLE])
            context.note("zb.in-play.active-in-battle", f"{source}'s [IN PLAY] effect is active during the Battle, with no icon needed",
                         involves=[card(source), BATTLE])
    for kept in player.kept:
        if kept.zone == "stay" and kept.effect.kind == "power":
            added += kept.effect.amount
            context.note("zb.stay.duration", f"{kept.source}'s [STAY] effect: +{kept.effect.amount} Power while it is active",
                         involves=[card(kept.source), STAY])
    return added
