"""Effects: what a card's effect does, one effect kind each (Power, MP, pages turned, Damage, Injury, Petrified,
the Discard Pile, negating an Attack or a Defense, ...), with the coins an effect flips (Q14).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.statecopy import Snapshot
from checker.engine.trace import mechanic
from checker.engine.described import takes
from checker.engine.vocabulary import ref

from ..state import BOOK_PAGES, Effect, Kept, Mamodo, Player, SpellOut, State, other
from .common import (
    AND_RESOLUTION, BATTLE, BATTLE_STEP_5, BOOK, COINS, COIN_TOSS, DAMAGE, GLOSSARY_COMPARE, GLOSSARY_MP, GLOSSARY_RESOLVING, INJURY,
    MAX_IN_PLAY, MP, MP_PER_PAGE, NEGATE_DEFINITION, PETRIFIED, PROTECT, RESOLVED_SHIELD, STONE_TABLET_PETRIFIED, _battle,
    _defender_acts_before_battle_in, card, vocabulary,
)
from .resolving import _kept_of_cards_gone, _pay, _resolve_effect, _send_to_discard, _whom
from .preparation import _pages
from .put_in_play import _check_mamodo_name, _mamodo_count, _note_stone_tablet, _on_open_page
from .apply_effect import _chosen_effect, _holder
from .battle_in import _battle_to_negate
from .battle_steps import _power_now
from .battle_outcome import _cannot_be_selected, _damage_book, _inflict_times, _injure, _turn_pages

#: What an effect that selects 1 in-play MAMODO card (:func:`_target`) may specify: the card, that it be a Stone Tablet
#: MAMODO card, its least Power.
SELECTS = ("target", "stone_tablet", "min_power")


def _affected(context: Context, source: str, effect: Effect, owner: str) -> str:
    """"You" in an effect's text is its player, the owner of the card; "your opponent" the other player."""
    context.note("zb.glossary.player", f"{source}'s player is its owner, {owner}", involves=[card(source)])
    if effect.whose != "self":
        context.note("zb.glossary.opponent", f"{source}'s opponent is the other player, {other(owner)}", involves=[card(source)])
    return _whom(effect, owner)


# --- Coins (Q14) --------------------------------------------------------------------------------


@vocabulary.effect("redo-coins", "Re-do the coin toss of the effect whose coins were just flipped (the action redo-coins, "
                   "without an Action).", params=takes(Effect))
def redo_coins_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note("zb.qa.q14", f"{source}'s effect changes the outcome of a coin toss", involves=[card(source), COIN_TOSS])


@vocabulary.action("redo-coins", "Right after the coins of an effect are flipped, without an Action: a player applies the effect of "
                   "their own in-play card that re-does the coin toss; the effect resolves again with the new result.",
                   params={"player": ref("player"), "card": ref("card-name"), "effect": {"type": "integer", "minimum": 0},
                           "coins": COINS},
                   required=["player", "card", "coins"])
def redo_coins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["card"]
    owner = other(player.name)
    if _holder(player, name) is None and _holder(state.players[owner], name) is not None:
        context.note("zb.qa.q14", f"The right to use {name}'s effect is {owner}'s: it cannot be transferred to {player.name}",
                     involves=[card(name), COIN_TOSS])
        raise context.reject("coin-redo-not-transferable", f"{name} is {owner}'s card: only {owner} may apply its effect", "zb.qa.q14",
                             involves=[card(name), COIN_TOSS])
    effect = _chosen_effect(context, state, player, name, action.get("effect", 0))
    if effect.kind != "redo-coins":
        raise context.reject("no-such-effect", f"{name}'s effect does not change a coin toss", involves=[card(name)])
    top = state.stack.top
    if state.coin_toss is None or top is None or top.card != state.coin_toss[1] or top.effect.before is None:
        raise context.reject("not-now", "no coins were just flipped: a coin re-do effect is used immediately after the coins of an "
                             "effect are flipped", "zb.qa.q14", involves=[card(name), COIN_TOSS])
    context.note("zb.qa.q14", f"{player.name} applies {name}'s effect right after {top.card}'s coins are flipped, without an Action",
                 involves=[card(name), card(top.card), COIN_TOSS])
    restored = top.effect.before.restore()
    _pay(context, restored, restored.players[player.name], name, effect)
    redone = replace(top.effect, action={**top.effect.action, "coins": list(action["coins"])}, before=Snapshot(restored))
    restored.stack = state.stack.pop().push(replace(top, effect=redone))
    for kept in ("priority", "step", "previous_action", "current_action", "coin_toss"):
        setattr(restored, kept, getattr(state, kept))
    restored.coin_redo = name
    vars(state).update(vars(restored))
    state.log.append(f"{name}: redo-coins")
    for then in top.effect.effects:
        _resolve_effect(context, state, top.player, top.card, then, redone.action)


@vocabulary.effect("power", "Adds 'amount' Power: in a Battle to its side's Total Power, from an EVENT card until the END PHASE, "
                   "as an [IN PLAY] effect to its MAMODO card while it is in play.",
                   params=takes(Effect, "amount", target="Only the SPELL cards of this MAMODO get the Power (from an EVENT card: those "
                                "played until the END PHASE; in a Battle: the SPELL card of its side, if it is one)."))
def power(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if effect.target is not None:
        _spell_power(context, state, owner, source, effect)
    elif state.card(source).type == "EVENT" and effect.timing == "during-battle":
        state.players[owner].battle_power += effect.amount
        context.note("zb.glossary.during-battle", f"{source}: +{effect.amount} Power for {owner}'s MAMODO cards during the Battle "
                     "(between \"Battle In\" and \"Battle Out\"), not the whole BATTLE PHASE", amount=effect.amount)
    elif state.card(source).type == "EVENT":
        state.players[owner].turn_power += effect.amount
        context.note("zb.event.until-end-phase", f"{source}: +{effect.amount} Power for {owner} until the END PHASE",
                     amount=effect.amount)
    elif state.battle is not None:
        if effect.is_battle_effect and not _battle_effects_before_compare(context, source, effect.amount):
            return
        state.battle.power[owner] += effect.amount
        context.note("zb.battle.effects-window-both", f"{source}: +{effect.amount} Power to {owner}'s Total Power", amount=effect.amount)


def _spell_power(context: Context, state: State, owner: str, source: str, effect: Effect) -> None:
    """Power for the SPELL cards of one MAMODO: an EVENT card's lasts until the END PHASE (line 418); a Battle's goes to its side's
    SPELL card if that MAMODO's."""
    if state.card(source).type == "EVENT":
        state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
        context.note("zb.event.until-end-phase", f"{source}: +{effect.amount} Power for {owner}'s SPELL cards of {effect.target} until "
                     "the END PHASE", involves=[card(source)], amount=effect.amount)
        return
    battle = state.battle
    spell = (battle.spell if owner == state.attacker else battle.defense) if battle is not None else None
    if battle is None or spell is None or state.card(spell.card).mamodo != effect.target:
        context.note(None, f"{source}: no SPELL card of {effect.target} on {owner}'s side of a Battle gets its +{effect.amount} Power",
                     involves=[card(source)])
        return
    if effect.is_battle_effect and not _battle_effects_before_compare(context, source, effect.amount):
        return
    battle.power[owner] += effect.amount
    context.note("zb.battle.effects-window-both", f"{source}: +{effect.amount} Power to {spell.card}, a SPELL card of {effect.target}",
                 involves=[card(source), card(spell.card)], amount=effect.amount)


STEP_5_WORDS = {BATTLE_STEP_5: "Battle effects can be applied during Battle Step 5",
                GLOSSARY_RESOLVING: "Resolving effects (Battle Step 5) is the timing for Battle effects",
                GLOSSARY_COMPARE: "Compare Total Power is in Battle Step 5"}


def _battle_effects_before_compare(context: Context, source: str, amount: int) -> bool:
    """Line 1109 and the glossary's Resolving effects (1204) and Compare Total Power (1205) all place Battle effects or the comparison
    in "Battle Step 5": one question, whether a Battle effect's Power counts in the comparison. Any of them read as after-compare
    puts Battle effects after it."""
    before = True
    for ruling, words in STEP_5_WORDS.items():
        if context.read(ruling, "apply-window"):
            context.note(ruling, f"{words}: {source}'s Battle effect is applied in the effects step before Compare Total Power",
                         involves=[card(source), BATTLE])
            continue
        before = False
        context.note(ruling, f"{words}: {source}'s Battle effect comes after Compare Total Power: its {amount:+d} Power cannot "
                     "change the winner", involves=[card(source), BATTLE], amount=amount)
    return before


@vocabulary.effect("coin-power", "Flip a coin: if heads, 'amount' Power is added to the Total Power of the Attack or Defense.",
                   params=takes(Effect, "amount"))
def coin_power(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    coin = action.get("coin")
    if coin is None:
        raise context.reject("no-such-choice", f"{source} flips a coin: the scenario writes how it lands (coin: heads or tails)",
                             "zb.battle.coins-at-declaration", involves=[card(source)])
    if coin == "heads":
        _battle(state).power[owner] += effect.amount
        context.note(None, f"Heads: {source} gets +{effect.amount} Power", amount=effect.amount)


@vocabulary.effect("gain-mp", "Its owner (whose: self) or the opponent gets 'amount' MP.", params=takes(Effect, "amount"))
def gain_mp(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _change_mp(context, state, source, effect, _affected(context, source, effect, owner), effect.amount)


@vocabulary.effect("lose-mp", "Reduces the MP of the opponent (or of its owner) by 'amount', to 0 at the least.",
                   params=takes(Effect, "amount"))
def lose_mp(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _change_mp(context, state, source, effect, _affected(context, source, effect, owner), -effect.amount)
    _not_a_negation(context, state, "the reduction of MP")


@vocabulary.effect("set-mp", "Sets the MP of the opponent (or of its owner, whose: self) to 'amount'.", params=takes(Effect, "amount"))
def set_mp(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    who = _affected(context, source, effect, owner)
    context.note(None, f"{source} sets {who}'s MP to {effect.amount}", involves=[card(source), MP])
    _change_mp(context, state, source, effect, who, effect.amount - state.players[who].mp)


def _change_mp(context: Context, state: State, source: str, effect: Effect, who: str, change: int) -> None:
    player = state.players[who]
    player.mp = max(0, player.mp + change)
    context.note(None, f"{source}: {who}'s MP {change:+d}: {player.mp} MP", involves=[MP])
    _cite_in_play(context, state, source, effect)


@vocabulary.effect("turn-pages", "The opponent (or its owner) turns 'amount' pages forward: not Damage, no MP.",
                   params=takes(Effect, "amount"))
def turn_pages_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    who = _whom(effect, owner)
    context.note("zb.precautions.newly-opened", f"{source}: {who} turns {effect.amount} page(s) by a card effect; "
                 "the cards in the newly open pages may be played", involves=[BOOK])
    if who == owner:
        context.note("zb.qa.q1", f"{who} turns pages of its own Spell Book by the effect of a card", involves=[card(source), BOOK])
    else:
        context.note("zb.qa.q3", f"{who}'s opponent turned {who}'s pages: {who} may use the cards in the newly open pages",
                     involves=[card(source), BOOK])
    if action.get("protect"):
        context.note("zb.glossary.turn-pages", f"{source}: turning pages is an effect instead of Damage: it cannot be prevented by "
                     "SACRIFICING / PROTECTING", involves=[card(source), PROTECT])
        context.note("zb.qa.q9", "Effects that turn pages are not Damage and cannot be PROTECTED against", involves=[PROTECT, BOOK])
        raise context.reject("cannot-protect", "turning pages by an effect is not Damage", "zb.protect.only-damage",
                             involves=[PROTECT, BOOK])
    _turn_pages(context, state, who, effect.amount, "effect")
    if _in_start_or_end_phase(state) and state.loser is None:
        _mp_for_effect_pages(context, state, who, source, effect.amount)
    _not_a_negation(context, state, "turning pages of a Spell Book")
    _cite_in_play(context, state, source, effect)


def _in_start_or_end_phase(state: State) -> bool:
    """No one performs Actions and no Battle resolves: the START PHASE or the END PHASE."""
    return state.priority.step is None and state.battle is None


def _mp_for_effect_pages(context: Context, state: State, who: str, source: str, pages: int) -> None:
    """The glossary's MP "gained by turning pages of your Spell Book during the START PHASE and END PHASE": pages an effect turns?"""
    if context.read(GLOSSARY_MP, "own-turning-only"):
        context.note(GLOSSARY_MP, f"{source} turned {pages} page(s) of {who}'s book during the START or END PHASE: only the phase's own "
                     "page turning gives MP", involves=[card(source), MP])
        return
    player = state.players[who]
    player.mp += pages * MP_PER_PAGE
    context.note(GLOSSARY_MP, f"{who} turned {pages} page(s) during the START or END PHASE: {MP_PER_PAGE} MP each, {player.mp} MP",
                 involves=[card(source), MP], mp=player.mp)


@vocabulary.effect("cannot-be-selected", "This card cannot be selected as a target of an effect: always, [IN PLAY]; else once "
                   "applied (for how long: zb.amb.resolved-shield-lasts).", params=takes(Effect))
def cannot_be_selected(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """Applied (an [X MP] or [DECLARE TO USE] one), it is resolved right away: how long it lasts is the shield's question."""
    if effect.tag != "in-play" and context.read(RESOLVED_SHIELD, "resolved-only"):
        context.note(RESOLVED_SHIELD, f"{source}'s effect is resolved: it keeps {source} from no later selection",
                     involves=[card(source)])
        return
    if effect.tag != "in-play":
        state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
        context.note(RESOLVED_SHIELD, f"{source}'s effect stays active until the END PHASE", involves=[card(source)])
    context.note("zb.glossary.cannot-be-selected", f"{source} cannot be selected as a target of an effect", involves=[card(source)])


@vocabulary.effect("turn-back-pages", "Its owner (whose: self) or the opponent turns 'amount' pages backward (not before page 1).",
                   params=takes(Effect, "amount"))
def turn_back_pages(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    player = state.players[_whom(effect, owner)]
    player.opening = max(0, player.opening - effect.amount)
    context.note("zb.glossary.previous-pages", f"{player.name} opens previous pages, before the open pages: {_pages(player)}",
                 involves=[card(source), BOOK])
    context.note("zb.glossary.turn-back", f"{source}: {player.name} turns {effect.amount} page(s) backward: open pages {_pages(player)}",
                 involves=[card(source), BOOK])


@vocabulary.effect("damage", "Inflicts 'amount' Damage on the opponent's Spell Book, 'times' times (a MAMODO card may PROTECT "
                   "against each infliction: protect, or protect_each).", params=takes(Effect, "amount", "times"))
def damage(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    ruling = "zb.battle.win-damage" if state.battle is not None else "zb.protect.only-damage"
    _inflict_times(context, state, source, other(owner), effect.amount, effect.times, action, ruling)


@vocabulary.effect("injure", "Inflicts Injury to the selected MAMODO card ('target' of the action or the effect).",
                   params=takes(Effect, *SELECTS))
def injure(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    _injure(context, state, victim, holder, "zb.injured.only-mamodo")


@vocabulary.effect("petrify", "The selected MAMODO card becomes Petrified.", params=takes(Effect, *SELECTS))
def petrify(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    holder.petrified_injured = holder.status == "injured"
    holder.status = "petrified"
    context.note("zb.glossary.petrified", f"{holder.card} becomes Petrified: turned into a stone tablet, flipped face-down vertically",
                 involves=[card(holder.card), PETRIFIED])
    _kept_of_cards_gone(context, state, victim, {holder.card} | ({holder.partner} if holder.partner else set()))


@vocabulary.effect("discard", "Sends the selected MAMODO card (and its attached cards), or the selected PARTNER card, to the "
                   "Discard Pile.",
                   params=takes(Effect, *SELECTS))
def discard(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _check_selected_type(context, state, source, effect, action.get("target") or effect.target)
    partner = _selected_partner(state, owner, action.get("target") or effect.target)
    if partner is not None:
        victim, name = partner
        _send_to_discard(context, state, victim, name, None)
        victim.discarded_by_effect.add(name)
        return
    victim, holder = _target(context, state, owner, effect, action, petrified_ok=True)
    _send_to_discard(context, state, victim, holder.card, None)
    victim.discarded_by_effect.add(holder.card)
    if state.battle is not None and holder.card in (state.battle.mamodo, state.battle.defender_mamodo):
        _not_a_negation(context, state, "sending a MAMODO card involved in the Battle to the Discard Pile")


def _check_selected_type(context: Context, state: State, source: str, effect: Effect, name: str | None) -> None:
    """ "Select 1 *type* card" selects a card of that type; "Select 1 card" one of any type."""
    kind = state.card(name).type if name is not None and name in state.cards else None
    if effect.of_type is None:
        context.note("zb.glossary.select-one-card", f"{source}'s effect selects 1 card of any type: {name} ({kind})",
                     involves=[card(source)])
        return
    if kind != effect.of_type:
        raise context.reject("no-such-choice", f"{source}'s effect selects 1 {effect.of_type} card; {name} is a {kind} card",
                             "zb.glossary.select-one-type", involves=[card(source)])
    context.note("zb.glossary.select-one-type", f"{source}'s effect selects 1 {effect.of_type} card: {name}", involves=[card(source)])


def _selected_partner(state: State, owner: str, name: str | None) -> tuple[Player, str] | None:
    """The opponent's (or its owner's) in-play PARTNER card ``name``, when the effect selects a PARTNER card."""
    for who in (other(owner), owner):
        if name and any(m.partner == name for m in state.players[who].mamodo):
            return state.players[who], name
    return None


@vocabulary.effect("discard-page", "Sends the card on the opponent's open page (its highest) to the Discard Pile.",
                   params=takes(Effect))
def discard_page(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim = state.players[_whom(effect, owner)]
    page = max(victim.open)
    name = victim.card_on(page)
    if name is None:
        return
    if page == BOOK_PAGES and state.card(name).type == "SPELL":
        raise context.reject("last-page-spell-stays", f"{name} is the SPELL card in {victim.name}'s last page",
                             "zb.last-page.cannot-remove", involves=[card(name), mechanic("Last Page Bonus")])
    victim.pages[page - 1] = None
    victim.discard.append(name)
    context.note(None, f"{name} leaves page {page} for {victim.name}'s Discard Pile", involves=[card(name), BOOK])


@vocabulary.effect("no-injury", "[IN PLAY]: its MAMODO card does not receive Damage or Injury (each infliction that would injure "
                   "it, PROTECTING included).", params=takes(Effect))
def no_injury(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """Resolved right away (an [IN PLAY] one is consulted at each infliction instead): how long does it last?"""
    if context.read(RESOLVED_SHIELD, "resolved-only"):
        context.note(RESOLVED_SHIELD, f"{source}'s effect is resolved: it keeps its MAMODO card from no later Damage or Injury",
                     involves=[card(source), INJURY])
        return
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
    context.note(RESOLVED_SHIELD, f"{source}'s MAMODO card does not receive Damage or Injury until the END PHASE",
                 involves=[card(source), INJURY])


@vocabulary.effect("extra-event", "Its owner may play 'amount' more EVENT cards this turn.", params=takes(Effect, "amount"))
def extra_event(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].events_allowed += effect.amount
    context.note(None, f"{source}: {owner} may play {effect.amount} more EVENT card(s) this turn", involves=[card(source)])


@vocabulary.effect("negate-effects", "The selected MAMODO card's effects are negated during this turn (not its card rules).",
                   params=takes(Effect, *SELECTS))
def negate_effects(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    holder.effects_negated = True
    context.note(None, f"{source} negates {holder.card}'s effects during this turn", involves=[card(holder.card)])


@vocabulary.effect("defend-without-spell", "Its MAMODO card Defends without a SPELL card; 'amount' is the Defense's Total Power.",
                   params=takes(Effect, "amount"))
def defend_without_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    battle.defender_mamodo, battle.defense_set_total = source, effect.amount
    context.note("zb.battle.select-resolves-on-declaration", f"{source} Defends without a SPELL card: the effect resolves as it "
                 f"is declared (Total Power {effect.amount})", involves=[card(source)])


@vocabulary.effect("attack-without-spell", "An \"&\" effect: its MAMODO card Attacks without a SPELL card (battle-in with "
                   "effect_of); 'amount' is the Attack's Total Power; 'also' resolves if it wins.", params=takes(Effect, "amount"))
def attack_without_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note(AND_RESOLUTION, f"{source} won the Battle it Attacked in with its \"&\" effect: the effect resolves",
                 involves=[card(source), BATTLE])


@vocabulary.effect("undefendable", "The SPELL card its owner's 'target' MAMODO Attacks with in the next Battle during this turn "
                   "cannot be Defended.", params=takes(Effect, "target"))
def undefendable(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
    context.note(None, f"{source}: the SPELL card {effect.target} Attacks with in the next Battle cannot be Defended",
                 involves=[card(source)])


@vocabulary.effect("put-in-play-petrified", "Puts the MAMODO card 'target' from its owner's open pages in play in Petrified Status.",
                   params=takes(Effect, "target"))
def put_in_play_petrified(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    player = state.players[owner]
    name = action.get("target") or effect.target
    if not name:
        raise context.reject("no-such-choice", f"{source}'s effect puts a MAMODO card of the open pages in play: the action "
                             "names it (target)", None, involves=[card(source)])
    page = _on_open_page(context, state, player, name, None)
    kind = state.card(name)
    if kind.type != "MAMODO" or _mamodo_count(context, state, player) >= MAX_IN_PLAY:
        raise context.reject("no-such-choice", f"{name} cannot be put in play", "zb.put.mamodo-max-3", involves=[card(name)])
    _check_mamodo_name(context, player, state, kind, ignore=None)
    if kind.stone_tablet and context.read(STONE_TABLET_PETRIFIED, "cannot-be-chosen"):
        raise context.reject("no-such-choice", f"{name} is a Stone Tablet MAMODO card: it cannot be put in play Petrified, so "
                             f"{source}'s effect cannot choose it", STONE_TABLET_PETRIFIED, involves=[card(name), card(source)])
    if kind.stone_tablet:
        context.note(STONE_TABLET_PETRIFIED, f"{name} is a Stone Tablet MAMODO card: {source}'s effect puts it in play in Normal "
                     "Status", involves=[card(name), card(source)])
    player.pages[page - 1] = None
    status = "normal" if kind.stone_tablet else "petrified"
    player.mamodo.append(Mamodo(card=name, page=page, status=status))
    if kind.stone_tablet:
        _note_stone_tablet(context, kind)
    else:
        context.note(None, f"{source} puts {name} in play in Petrified Status", involves=[card(name), PETRIFIED])


@vocabulary.effect("play-spell", "Plays a SPELL card of its owner's open pages (named as played_by on the battle-in).",
                   params=takes(Effect))
def play_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note(None, f"{source}'s effect plays the SPELL card of the \"Battle In\" (battle-in, played_by: {source})",
                 involves=[card(source)])


@vocabulary.effect("negate-damage", "\"Negate Damage\": the SPELL cards of this Battle inflict no Damage or Injury on its owner.",
                   params=takes(Effect))
def negate_damage(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _battle(state).damage_negated.add(owner)
    context.note("zb.glossary.negate-damage", f"{source}: no Damage or Injury will be inflicted on {owner} in this Battle",
                 involves=[card(source), DAMAGE, INJURY])
    _not_a_negation(context, state, "negating Damage")


@vocabulary.effect("negate-attack", "Negates the Attack of the Battle (the Attack fails).", params=takes(Effect))
def negate_attack(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if state.battle is None and state.pending_battle_in is not None and effect.is_cut_in:  # the Defender's 1 Action, a cut-in
        context.take_turn(state, owner)
        _defender_acts_before_battle_in(context, state, owner)
        context.run_step(state, "non-battle", action)
    if state.battle is None and state.answered_battle_in is not None:
        _negate_battle_in(context, state, source, state.answered_battle_in)
        return
    battle = _battle_to_negate(context, state, source, "Attack")
    if not effect.is_cut_in:
        _check_negation_timing(context, state, source, (state.attacker, battle.spell.card if battle.spell else battle.mamodo))
    battle.attack_negated = True
    if battle.attack_effect is not None:
        state.players[state.attacker].negated_cards.add(battle.mamodo)
        context.note("zb.and.negated-step-5", f"{source} negates {battle.mamodo}'s Attack made by its \"&\" effect",
                     involves=[card(source), card(battle.mamodo), BATTLE])
    _negated(context, state, state.attacker, battle.spell, f"{source} negates the Attack")


@vocabulary.effect("negate-defense", "Negates the Defense of the Battle (the Defender's Total Power is 0).", params=takes(Effect))
def negate_defense(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    battle = _battle_to_negate(context, state, source, "Defense")
    battle.defense_negated = True
    _negated(context, state, state.defender, battle.defense, f"{source} negates the Defense")


def _check_negation_timing(context: Context, state: State, source: str, declared: tuple[str, str]) -> None:
    """An effect that negates an Attack and is no cut-in effect: may it negate one not declared in the previous Action?"""
    if state.previous_action == declared:
        return
    if not context.read(NEGATE_DEFINITION, "named-negation-any-time"):
        raise context.reject("nothing-to-negate", f"{source}'s effect is no cut-in effect: it negates only an Attack declared in "
                             "the previous Action", NEGATE_DEFINITION, involves=[card(source), BATTLE])
    context.note(NEGATE_DEFINITION, f"{source}'s effect negates the Attack in the Battle's effects step, though it is no cut-in "
                 "effect against the previous Action", involves=[card(source), BATTLE])


def _negate_battle_in(context: Context, state: State, source: str, answered: Mapping[str, Any]) -> None:
    """The Defender's Action negates the card that initiated the "Battle In": no Battle, and that card Attacks no more this turn."""
    initiator = answered["spell"] or answered["mamodo"]  # a SPELL card, or the MAMODO card whose "&" effect Attacks
    state.answered_battle_in = None
    state.players[state.attacker].negated_cards.add(initiator)
    context.note("zb.battle-in.initiator-negated", f"{source} negates {initiator}, the initiator of the \"Battle In\": "
                 f"{state.attacker} need not declare \"Battle In\" again and may continue the turn without a Battle",
                 involves=[BATTLE, card(initiator)])


def _negated(context: Context, state: State, player: str, spell: SpellOut | None, what: str) -> None:
    """A negated Attack or Defense: its effects are negated, and its SPELL card declares no new one this turn."""
    if spell is not None:
        state.players[player].negated_cards.add(spell.card)
    context.note("zb.negate.declared", f"{what}: its effects are negated too", involves=[BATTLE])


def _target(context: Context, state: State, owner: str, effect: Effect, action: Mapping[str, Any],
            petrified_ok: bool = False) -> tuple[Player, Mamodo]:
    name = action.get("target") or effect.target
    for who in (other(owner), owner):
        holder = state.players[who].find(name or "")
        if holder is not None and effect.stone_tablet:
            if not state.card(holder.card).stone_tablet:
                raise context.reject("no-such-choice", f"{holder.card} is no Stone Tablet MAMODO card", "zb.stone.selected-by-effects",
                                     involves=[card(holder.card)])
            context.note("zb.stone.selected-by-effects", f"The effect specifies Stone Tablet MAMODO cards: {holder.card} is one",
                         involves=[card(holder.card)])
        if holder is not None and _cannot_be_selected(state, holder):
            raise context.reject("no-such-choice", f"{holder.card} cannot be selected as a target of an effect",
                                 "zb.glossary.cannot-be-selected", involves=[card(holder.card)])
        if holder is not None and effect.min_power:
            _check_min_power(context, state, state.players[who], holder, effect)
        if holder is not None:
            if holder.status == "petrified" and not petrified_ok:
                raise context.reject("cannot-target-petrified", f"{name} is Petrified", "zb.petrified.no-target",
                                     involves=[card(holder.card), PETRIFIED])
            context.note("zb.battle.select-resolves-on-declaration", f"The effect selects {name}: it resolves as it is declared",
                         involves=[card(holder.card)])
            context.note("zb.glossary.select-your", f"The effect's user selects its target: {name}", involves=[card(holder.card)])
            return state.players[who], holder
    raise context.reject("no-such-choice", f"{name!r} is no in-play MAMODO card", "zb.injured.only-mamodo")


def _check_min_power(context: Context, state: State, player: Player, holder: Mamodo, effect: Effect) -> None:
    """An effect that selects a MAMODO card with at least some Power: its Power now, "during the Battle" boosts only in a Battle."""
    power = _power_now(context, state, player, holder)
    if state.battle is None and player.battle_power:
        context.note("zb.glossary.non-battle", f"Non-Battle: no Battle is taking place, so {player.name}'s {player.battle_power:+d} "
                     f"Power \"during the Battle\" does not count: {holder.card} has {power} Power", involves=[card(holder.card)],
                     power=power)
    if power < effect.min_power:
        raise context.reject("no-such-choice", f"{holder.card} has {power} Power, less than {effect.min_power}: the effect cannot "
                             "select it", "zb.glossary.non-battle" if player.battle_power and state.battle is None else None,
                             involves=[card(holder.card)], power=power)


def _not_a_negation(context: Context, state: State, what: str) -> None:
    if state.battle is not None:
        context.note("zb.negate.only-specified", f"{what} does not negate the Attack or the Defense", involves=[BATTLE])


def _cite_in_play(context: Context, state: State, source: str, effect: Effect) -> None:
    if effect.tag == "in-play" and effect.timing in ("start-phase", "end-phase"):
        context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves at its timing, as often as it comes")
