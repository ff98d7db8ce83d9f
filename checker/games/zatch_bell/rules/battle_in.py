"""The BATTLE PHASE, 4. Declaring "Battle In!", and the Battle's step 1. Attack: "The Attacker applies the
effects of their Attack."
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.trace import mechanic
from checker.engine.vocabulary import ref

from ..state import Battle, Card, Effect, Player, SpellOut, State
from .common import (
    AND_RESOLUTION, BATTLE, COIN, CUT_IN, MP, PETRIFIED, SPELL_ONCE_PER_TURN, _battle, _check_spell_mamodo, _spell_cost,
    _take_undefendable, card, steps, vocabulary,
)
from .resolving import _check_available, _check_prohibited, _check_unused, _classes, _declared, _pay, _resolve_effect
from .battle_phase import _take_action
from .put_in_play import _on_open_page
from .apply_effect import _holder


@vocabulary.action("battle-in", 'An Action of the Attacker: declare "Battle In!" with a SPELL card for an in-play MAMODO card.',
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "coin": COIN, "played_by": {**ref("card-name"), "description": "The in-play card whose effect "
                                                       "(play-spell) plays the SPELL card."},
                           "effect_of": {**ref("card-name"), "description": "Instead of spell: the in-play MAMODO card whose \"&\" "
                                         "effect Attacks without a SPELL card."}},
                   required=["player", "mamodo"])
def battle_in(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name = action["player"]
    if name != state.attacker:
        context.note("zb.table.battle-in", "The Defender cannot declare \"Battle In!\"", involves=[BATTLE])
        raise context.reject("not-the-attacker", f"{name} is the Defender", "zb.actions.battle-in", involves=[BATTLE])
    if state.pending_battle_in is not None and state.priority.holder == name:
        state.pending_battle_in = None
    if state.battle is not None:
        used = action.get("spell", action.get("effect_of"))
        context.note("zb.precautions.two-spells", "The Power of two SPELL cards is not applied simultaneously: "
                     "one Attack per Battle", involves=[BATTLE, *([card(used)] if used else [])])
    _take_action(context, state, name, "a Battle In", action)
    player = state.players[name]
    if "effect_of" in action:
        _battle_in_by_effect(context, state, player, action)
        return
    if "spell" not in action:
        raise context.reject("no-such-choice", "\"Battle In\" names its SPELL card (spell) or its \"&\" effect (effect_of)",
                             "zb.battle-in.icon", involves=[BATTLE])
    spell = _spell_for(context, state, player, action, "attack")
    if player.spells_used:
        context.note("zb.precautions.two-spells", f"{name} Attacks with its SPELL cards one at a time", involves=[card(spell.card)])
        context.note("zb.precautions.either-first", f"The previous Battle is over (\"Battle Out\"): {spell.card} starts a new Battle",
                     involves=[card(spell.card), BATTLE])
        context.note("zb.qa.q2", f"{name} may \"Battle In\" more than once during the same BATTLE PHASE", involves=[BATTLE])
    state.answered_battle_in = None
    state.pending_battle_in = {"mamodo": action["mamodo"], "spell": spell.card, "page": spell.page, "coin": action.get("coin"),
                               "by_effect": spell.by_effect, "played_by": action.get("played_by")}
    context.run_step(state, "battle-in", action)  # the Defender now answers it (procedure.yaml)
    _declared(state, name, spell.card, frozenset({"attack", "spell"}))


def _battle_in_by_effect(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    """An Attack without a SPELL card: the "&" effect of the in-play MAMODO card gives its Total Power."""
    name = action["effect_of"]
    index = _effect_without_spell(context, state, player, action, "attack")
    holder = player.find(name)
    assert holder is not None
    effect = state.card(name).effects[index]
    if name in player.negated_cards:
        raise context.reject("attack-negated-before", f"the Attack {name}'s \"&\" effect initiated was negated",
                             "zb.negate.no-redeclare", involves=[card(name)])
    if "attack" not in effect.icons:
        raise context.reject("no-attack-icon", f"{name}'s effect has no Attack icon", "zb.battle-in.icon", involves=[card(name)])
    if holder.status == "petrified":
        raise context.reject("mamodo-petrified", f"{name} is Petrified", "zb.petrified.no-effects", involves=[card(name), PETRIFIED])
    _check_prohibited(context, state, player.name, name, effect, _classes(effect))
    context.note("zb.battle-in.icon", f"{name}'s \"&\" effect has the Attack icon: \"Battle In\" may be declared with it",
                 involves=[card(name)])
    context.note("zb.battle-in.cannot-pay", f"\"Battle In\" with {name}'s \"&\" effect: it must be available and payable as it is declared",
                 involves=[card(name), MP])
    _check_available(context, state, player, name, effect)
    state.answered_battle_in = None
    state.pending_battle_in = {"mamodo": name, "spell": None, "page": None, "coin": action.get("coin"), "by_effect": False,
                               "effect": index}
    context.run_step(state, "battle-in", action)


@steps.passed("battle-in")
def confirm_battle_in(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The Defender performs no Action: the "Battle In" is confirmed and the Battle begins (play moves on to its Attack)."""
    pending = state.pending_battle_in
    assert pending is not None
    state.pending_battle_in = None
    revealed = pending["spell"] or pending["mamodo"]
    shown = pending["spell"] or f"{revealed}'s \"&\" effect"
    context.note("zb.battle-in.confirm", f"{state.defender} performs no Action: {state.attacker} confirms \"Battle In\" "
                 f"and reveals {shown}", involves=[BATTLE, card(revealed)])
    attacker = state.players[state.attacker]
    if pending["spell"] is None:
        effect = state.card(pending["mamodo"]).effects[pending["effect"]]
        state.battle = Battle(attacker=state.attacker, mamodo=pending["mamodo"], spell=None, coin=pending.get("coin"),
                              attack_set_total=effect.amount, attack_effect=effect, undefendable=_take_undefendable(attacker))
        return
    spell = SpellOut(card=pending["spell"], page=pending["page"], mamodo=pending["mamodo"], by_effect=pending["by_effect"])
    state.battle = Battle(attacker=state.attacker, mamodo=pending["mamodo"], spell=spell, coin=pending.get("coin"),
                          undefendable=_take_undefendable(attacker))
    if pending.get("played_by"):
        _apply_played_by(context, state, attacker, pending["played_by"])
    attacker.pages[spell.page - 1] = None
    attacker.spells_used.add((spell.card, spell.page))


@steps("battle-in")
def declare_battle_in(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending_battle_in or {}
    context.note("zb.actions.battle-in", f"{state.attacker} declares \"Battle In\" (Attacker only)", involves=[BATTLE])
    context.note("zb.table.battle-in", "The Attacker may declare \"Battle In!\"", involves=[BATTLE])
    context.note("zb.battle-in.declare", f"{state.attacker} asks {state.defender} whether to proceed to \"Battle In\"",
                 involves=[BATTLE, card(pending.get("spell") or pending.get("mamodo") or "Battle In")])
    context.note("zb.battle-in.ask-defender", f"{state.defender} may let the \"Battle In\" through or perform 1 Action",
                 involves=[BATTLE])
    context.note("zb.glossary.battle-in", "\"Battle In\" is declared as an Attack is performed", involves=[BATTLE])
    context.note("zb.glossary.battle-in-confirm", f"{state.attacker} confirms with {state.defender} when it is okay to declare "
                 "\"Battle In\"", involves=[BATTLE])


def _spell_for(context: Context, state: State, player: Player, action: Mapping[str, Any], use: str) -> SpellOut:
    """The SPELL card a player Attacks or Defends with: on an open page, for the named MAMODO, with the icon, payable."""
    mamodo_name, name = action["mamodo"], action["spell"]
    holder = player.find(mamodo_name)
    if holder is None:
        raise context.reject("not-in-play", f"{mamodo_name} is not in play on {player.name}'s side", "zb.spell.own-mamodo",
                             involves=[card(mamodo_name)])
    page = _on_open_page(context, state, player, name, action.get("page"))
    kind = state.card(name)
    if kind.type != "SPELL":
        raise context.reject("wrong-card-type", f"{name} is a {kind.type} card, not a SPELL card", "zb.spell.initiate",
                             involves=[card(name)])
    if name in player.negated_cards:
        raise context.reject("attack-negated-before", f"the {use} {name} initiated was negated", "zb.negate.no-redeclare",
                             involves=[card(name)])
    _check_icon(context, state, kind, use)
    _check_spell_mamodo(context, state, player, kind, holder)
    if (name, page) in player.spells_used:
        if context.read(SPELL_ONCE_PER_TURN, "every-spell"):
            raise context.reject("spell-used-this-turn", f"{name} on page {page} has been played this turn", SPELL_ONCE_PER_TURN,
                                 involves=[card(name)])
        context.note(SPELL_ONCE_PER_TURN, f"{name} was played this turn; only No Battle SPELL cards wait for the next turn",
                     involves=[card(name)])
    played_by = _played_by_effect(context, state, player, action.get("played_by"))
    cost = _spell_cost(context, state, player, kind, page, played_by is not None)
    effect_mp = played_by.mp if played_by is not None and played_by.tag == "mp" else 0
    if player.mp < cost + effect_mp:
        ruling = "zb.battle-in.cannot-pay" if use == "attack" else "zb.battle.defend-pay"
        also = f" and {action.get('played_by')}'s effect {effect_mp} MP" if effect_mp else ""
        raise context.reject("not-enough-mp", f"{name} costs {cost} MP{also}; {player.name} has {player.mp} MP", ruling,
                             involves=[card(name), MP])
    return SpellOut(card=name, page=page, mamodo=mamodo_name, by_effect=played_by is not None)


def _played_by_effect(context: Context, state: State, player: Player, source: str | None) -> Effect | None:
    """The in-play card's effect that plays the SPELL card: available this turn, as "Battle In" is declared (line 730)."""
    if source is None:
        return None
    found = [e for e in state.card(source).effects if e.kind == "play-spell"]
    if _holder(player, source) is None or not found:
        raise context.reject("no-such-effect", f"{source} has no in-play effect that plays a SPELL card", involves=[card(source)])
    _check_unused(context, state, player, source, found[0])
    return found[0]


def _apply_played_by(context: Context, state: State, player: Player, source: str) -> None:
    """The "Battle In" is confirmed: the effect that plays the SPELL card is applied, its cost paid."""
    effect = next(e for e in state.card(source).effects if e.kind == "play-spell")
    _pay(context, state, player, source, effect)
    _resolve_effect(context, state, player.name, source, effect, {})


def _check_icon(context: Context, state: State, kind: Card, use: str) -> None:
    if kind.is_no_battle:
        raise context.reject("not-in-non-battle", f"{kind.name} is a No Battle SPELL card: it is played only in Non-Battle, not to "
                             f"{use.title()}", "zb.no-battle.non-battle-only", involves=[card(kind.name), BATTLE])
    if use == "attack":
        context.note("zb.search.attack-icon", f"{kind.name} icons: {list(kind.icons)} (the \"Attack\" icon is [A])",
                     involves=[card(kind.name)])
        if "attack" not in kind.icons:
            raise context.reject("no-attack-icon", f"{kind.name} has no Attack icon", "zb.battle-in.icon", involves=[card(kind.name)])
        context.note("zb.battle-in.icon", f"{kind.name} has the Attack icon: \"Battle In\" may be declared with it",
                     involves=[card(kind.name)])
        context.note("zb.spell.attack-icon", f"{kind.name} can be used for Attacking", involves=[card(kind.name)])
        context.note("zb.figure.attack-icon", f"The Attack can be declared: {kind.name} has the Attack icon", involves=[card(kind.name)])
        context.note("zb.figure.attack-with-icon", f"{kind.name} has the Attack icon", involves=[card(kind.name)])
        context.note("zb.table.spells", "The Attacker plays a SPELL card with the Attack icon", involves=[card(kind.name)])
    else:
        context.note("zb.search.defend-icon", f"{kind.name} icons: {list(kind.icons)} (the \"Defend\" icon is [D])",
                     involves=[card(kind.name)])
        if "defend" not in kind.icons:
            raise context.reject("no-defend-icon", f"{kind.name} has no Defend icon", "zb.spell.defend-icon", involves=[card(kind.name)])
        context.note("zb.spell.defend-icon", f"{kind.name} can be used for Defending", involves=[card(kind.name)])
        context.note("zb.figure.defense-icon", f"The Defense can be declared: {kind.name} has the Defend icon", involves=[card(kind.name)])
        context.note("zb.figure.defend-with-icon", f"{kind.name} has the Defend icon", involves=[card(kind.name)])
        context.note("zb.table.spells", "The Defender plays a SPELL card with the Defend icon", involves=[card(kind.name)])


@steps("attack")
def attack(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    attacker = state.players[state.attacker]
    if battle.attack_effect is not None:
        _attack_by_effect(context, state, battle)
        return
    assert battle.spell is not None
    kind = state.card(battle.spell.card)
    cost = _spell_cost(context, state, attacker, kind, battle.spell.page, battle.spell.by_effect)
    context.note("zb.battle.begins", f"\"Battle In\": the Battle begins; {state.attacker} is the Attacker, {state.defender} the Defender",
                 involves=[BATTLE])
    context.note("zb.table.note-3", f"The Battle begins with {state.attacker}'s Attack with {kind.name}", involves=[BATTLE])
    context.note("zb.turns.battle-begins", f"{state.attacker} declared \"Battle In\" and played {kind.name}", involves=[BATTLE])
    context.note("zb.battle.attack-declare", f"{state.attacker} declares 1 Attack: {battle.mamodo} with {kind.name} "
                 f"from page {battle.spell.page}", involves=[card(battle.mamodo), card(kind.name)])
    context.note("zb.glossary.attack", f"An Attack declared with {kind.name}, a SPELL card with the Attack icon", involves=[card(kind.name)])
    attacker.mp -= cost
    context.note("zb.battle.attack-pay", f"{state.attacker} pays {cost} MP: {attacker.mp} MP", involves=[card(kind.name), MP],
                 mp=attacker.mp)
    context.note("zb.figure.attack-mp-cost", f"{kind.name}'s MP cost is what {state.attacker} Attacked with", involves=[card(kind.name)])
    context.note("zb.figure.attack-reduce-mp", f"{state.attacker}'s MP is reduced by {kind.name}'s MP cost", involves=[card(kind.name)])
    context.note("zb.spell.initiate", f"{kind.name} initiates the Attack", involves=[card(kind.name)])
    context.note("zb.spell.zone", f"{kind.name} is placed below {battle.mamodo} on the SPELL card zone", involves=[card(kind.name)])
    _flip_coins(context, state, state.attacker, kind, battle.coin)
    context.note("zb.battle.attack-not-resolved", "The Attack has not fully resolved yet", involves=[BATTLE])
    context.note("zb.battle.attack-applies-effects", f"{state.attacker} applies the effects of its Attack", involves=[card(kind.name)])
    context.note("zb.battle.defend-optional", f"{state.defender} may Defend, or pass", involves=[BATTLE])
    _declared(state, state.attacker, kind.name, frozenset({"attack", "spell"}))


def _attack_by_effect(context: Context, state: State, battle: Battle) -> None:
    attacker = state.players[state.attacker]
    assert battle.attack_effect is not None
    context.note("zb.battle.begins", f"\"Battle In\": the Battle begins; {state.attacker} is the Attacker, {state.defender} the Defender",
                 involves=[BATTLE])
    context.note("zb.battle.attack-declare", f"{state.attacker} declares 1 Attack: {battle.mamodo} with its \"&\" effect, without a "
                 "SPELL card", involves=[card(battle.mamodo)])
    _pay(context, state, attacker, battle.mamodo, battle.attack_effect)
    context.note("zb.and.no-cut-in", f"{battle.mamodo}'s \"&\" effect: no cut-in effect can negate it as it is applied",
                 involves=[card(battle.mamodo), CUT_IN])
    if context.read(AND_RESOLUTION, "resolve-on-declaration"):
        context.note(AND_RESOLUTION, f"{battle.mamodo}'s \"&\" effect resolves as it is declared, but for the Attack's Damage",
                     involves=[card(battle.mamodo)])
        for effect in battle.attack_effect.also:
            if effect.kind != "damage":
                _resolve_effect(context, state, state.attacker, battle.mamodo, effect, {})
    else:
        context.note(AND_RESOLUTION, f"{battle.mamodo}'s \"&\" effect is not resolved yet: it resolves if {battle.mamodo} wins",
                     involves=[card(battle.mamodo)])
    context.note("zb.battle.defend-optional", f"{state.defender} may Defend, or pass", involves=[BATTLE])


def _battle_to_negate(context: Context, state: State, source: str, what: str) -> Battle:
    """The Battle whose Attack or Defense an effect negates; without a Battle there is nothing to negate."""
    if state.battle is None:
        raise context.reject("nothing-to-negate", f"no Battle is in progress: there is no {what} for {source}'s effect to negate",
                             None, involves=[card(source), BATTLE])
    return state.battle


def _effect_without_spell(context: Context, state: State, player: Player, action: Mapping[str, Any], use: str) -> int:
    """Which effect of the in-play MAMODO card ``effect_of`` Attacks or Defends (``use``) without a SPELL card."""
    name = action["effect_of"]
    if player.find(name) is None or name != action["mamodo"]:
        raise context.reject("not-in-play", f"{name} is not the in-play MAMODO card that {use.title()}s", "zb.battle.power-set-by-effect",
                             involves=[card(name)])
    found = [i for i, e in enumerate(state.card(name).effects) if e.kind == f"{use}-without-spell"]
    if not found:
        raise context.reject("no-such-effect", f"{name} has no effect that {use.title()}s without a SPELL card", involves=[card(name)])
    return found[0]


def _flip_coins(context: Context, state: State, owner: str, spell: Card, coin: str | None) -> None:
    """Effects that flip coins flip them when the Attack or Defense is declared."""
    for effect in spell.effects:
        if effect.kind == "coin-power":
            context.note("zb.battle.coins-at-declaration", f"{spell.name}'s coin is flipped as it is declared: {coin}",
                         involves=[card(spell.name), mechanic("coin toss")])
            _resolve_effect(context, state, owner, spell.name, effect, {"coin": coin})
