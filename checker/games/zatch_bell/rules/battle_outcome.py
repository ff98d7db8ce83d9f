"""The Battle's outcome: "When the Attacker Wins the Battle" (Damage to the Defender's Spell Book, Injury), "When
the Defender Wins the Battle", MAMODO Cards & Damage, SACRIFICING / PROTECTING, and "Battle Out".
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import LAST_OPENING, Card, Mamodo, Player, State, other
from .common import (
    ACTION, AND_RESOLUTION, BATTLE, BOOK, DAMAGE, INJURY, INJURY_CHOOSER, PETRIFIED, PROTECT, RESOLVED_SHIELD, SACRIFICE_PROTECT,
    WHEN_INFLICT_PROTECTED, _battle, card, steps, vocabulary,
)
from .resolving import (
    _activate_standby, _expire_stay, _in_play_active, _in_play_effects, _note_in_play_active, _resolve_effect, _send_to_discard,
)
from .preparation import _pages
from .no_battle import _return_no_battle_spells


@vocabulary.action("resolve", "Battle step 5, with the players' choices: the MAMODO card that PROTECTS the Spell Book from the "
                   "Damage, the Attacker's Injury targets, and SACRIFICES (injured MAMODO card -> the one that takes its Injury).",
                   params={"protect": {**ref("card-name"), "description": "The damaged player's MAMODO card that PROTECTS the book."},
                           "protect_each": {"type": "array", "items": {"oneOf": [ref("card-name"), {"type": "null"}]},
                                            "description": "A SPELL card's Damage X times: the MAMODO card that PROTECTS against "
                                            "each infliction (null: none)."},
                           "injure": {"type": "array", "items": ref("card-name"),
                                      "description": "The MAMODO card selected for each infliction of the Attack's Injury."},
                           "injure_by": {**ref("player"), "description": "Who selected them (default: the player the reading of "
                                         "zb.amb.injury-chooser names: the Attacker, or the player receiving the Injury)."},
                           "sacrifice": {"type": "object", "additionalProperties": ref("card-name"),
                                         "description": "Injured MAMODO card -> the MAMODO card that SACRIFICES for it."}})
def resolve(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if not state.compared:
        raise context.reject("not-now", "Total Power has not been compared", "zb.battle.compare", involves=[BATTLE])
    _check_injury_choices(context, state, action)
    context.advance(state, "battle-out", action)


def _check_injury_choices(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The Injury choices count only where the winning SPELL card inflicts Injury (line 878; with [COUNTER], line 885)."""
    given = [key for key in ("injure", "injure_by", "sacrifice") if key in action]
    battle = _battle(state)
    won_with = battle.spell if battle.winner == "attacker" and battle.attack_effect is None else battle.defense
    if battle.winner == "defender" and (battle.defense_negated or won_with is None or not state.card(won_with.card).counter):
        won_with = None
    if not given or (won_with is not None and state.card(won_with.card).injure):
        return
    winner = state.attacker if battle.winner == "attacker" else state.defender
    how = f"{won_with.card}, which inflicts no Injury" if won_with is not None else "no SPELL card whose effects apply"
    raise context.reject("no-such-choice", f"{winner} wins the Battle with {how}: no MAMODO card is selected for an Injury, so "
                         f"{', '.join(given)} would count for nothing", "zb.battle.win-injury", involves=[INJURY])


@steps.condition("battle-under-way")
def battle_under_way(state: State) -> bool:
    return state.battle is not None


@steps.condition("attacker-won")
def attacker_won(state: State) -> bool:
    return state.battle is not None and state.battle.winner == "attacker"


@steps.condition("defender-won")
def defender_won(state: State) -> bool:
    return state.battle is not None and state.battle.winner == "defender"


@steps("attacker-wins")
def attacker_wins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    if battle.attack_effect is not None:
        on_declaration = context.read(AND_RESOLUTION, "resolve-on-declaration")
        context.note(AND_RESOLUTION, f"{battle.mamodo} wins the Battle: its \"&\" effect's "
                     + ("Damage is inflicted" if on_declaration else "effects resolve"), involves=[card(battle.mamodo), BATTLE])
        if not on_declaration:
            context.note("zb.and.extra-effects-step-5", f"{battle.mamodo}'s \"&\" effect's additional effects resolve",
                         involves=[card(battle.mamodo)])
            _resolve_effect(context, state, state.attacker, battle.mamodo, battle.attack_effect, action)
            return
        for effect in battle.attack_effect.also:
            if effect.kind == "damage":
                _resolve_effect(context, state, state.attacker, battle.mamodo, effect, action)
        return
    assert battle.spell is not None
    spell = state.card(battle.spell.card)
    context.note("zb.battle.attacker-higher", f"{state.attacker} wins the Battle: {spell.name}'s effects are resolved", involves=[BATTLE])
    context.note("zb.battle.attacker-wins-effects", f"{state.attacker}, the Attacker, wins: {spell.name}'s effects are resolved",
                 involves=[card(spell.name)])
    context.note("zb.spell.damage", f"{spell.name}'s Damage: {spell.damage}", involves=[card(spell.name)], damage=spell.damage)
    if _damage_negated(context, state, state.defender, spell.name):
        return
    if spell.damage:
        _inflict_times(context, state, spell.name, state.defender, spell.damage, spell.times, action, "zb.battle.win-damage",
                       by_effect=False)
    else:
        context.note("zb.battle.win-damage", f"{spell.name} inflicts no Damage", involves=[DAMAGE])
    if state.loser:
        return
    context.note("zb.battle.win-injury", f"{spell.name} inflicts Injury to {spell.injure} MAMODO card(s)", involves=[INJURY])
    if spell.injure:
        if action.get("protect") or action.get("sacrifice"):
            context.note("zb.damage.owner-decides", f"{state.defender} receives several inflictions and decides where each goes",
                         involves=[DAMAGE, INJURY])
        _injure_selected(context, state, spell, action, state.attacker)
    if spell.damage:  # the PROTECT was against the Damage, not against the effects that follow it
        action = {key: value for key, value in action.items() if key not in ("protect", "protect_each")}
    on_damage = [e for e in spell.effects if e.timing == "on-damage"]
    context.note("zb.battle.win-effects-on-damage", f"Effects on Damage or Injury: {len(on_damage)}", involves=[card(spell.name)])
    for effect in on_damage:
        _resolve_effect(context, state, state.attacker, spell.name, effect, action)
    others = [e for e in spell.effects if e.timing in ("other", "regardless")]
    context.note("zb.battle.win-other-effects", f"Other effects: {len(others)}", involves=[card(spell.name)])
    for effect in others:
        _resolve_effect(context, state, state.attacker, spell.name, effect, action)


def _damage_negated(context: Context, state: State, victim: str, spell: str) -> bool:
    """A "Negate Damage" effect applied in this Battle: the SPELL card inflicts no Damage or Injury on that player."""
    if victim not in _battle(state).damage_negated:
        return False
    context.note("zb.glossary.negate-damage", f"Damage is negated: {spell} inflicts no Damage or Injury on {victim}",
                 involves=[card(spell), DAMAGE, INJURY])
    return True


def _injury_chooser(context: Context, state: State, action: Mapping[str, Any], inflicter: str) -> str:
    """Line 878 gives the winner inflicting the Injury ("of your choice") the choice of the injured MAMODO cards, line 895 the
    player receiving the Injuries."""
    receiver = other(inflicter)
    chooser = inflicter if context.read(INJURY_CHOOSER, "attacker-selects") else receiver
    claimed = action.get("injure_by", chooser)
    if claimed != chooser:
        raise context.reject("not-your-choice", f"{chooser}, not {claimed}, selects the MAMODO cards that receive the Injury",
                             INJURY_CHOOSER, involves=[INJURY])
    if chooser == receiver:
        context.note("zb.damage.owner-decides", f"{receiver} receives the Injuries and decides where each goes",
                     involves=[INJURY])
    return chooser


def _injure_selected(context: Context, state: State, spell: Card, action: Mapping[str, Any], inflicter: str) -> None:
    receiver = state.players[other(inflicter)]
    chooser = _injury_chooser(context, state, action, inflicter)
    chosen = list(action.get("injure") or [m.card for m in receiver.mamodo if m.status != "petrified"
                                           and not _cannot_be_selected(state, m)][: spell.injure])
    sacrifices: Mapping[str, str] = action.get("sacrifice") or {}
    for target in chosen[: spell.injure]:
        holder = receiver.find(target)
        if holder is None:
            raise context.reject("no-such-choice", f"{target} is not in play on {receiver.name}'s side", "zb.injured.only-mamodo",
                                 involves=[card(target)])
        if holder.status == "petrified":
            raise context.reject("cannot-target-petrified", f"{target} is Petrified", "zb.petrified.no-target",
                                 involves=[card(target), PETRIFIED])
        if _cannot_be_selected(state, holder):
            raise context.reject("no-such-choice", f"{target} cannot be selected as a target of an effect: {spell.name}'s Injury "
                                 "goes to a selected MAMODO card", "zb.glossary.cannot-be-selected", involves=[card(target), INJURY])
        context.note("zb.injured.only-mamodo", f"{chooser} selects {target}, an in-play MAMODO card", involves=[card(target)])
        taker = sacrifices.get(target)
        if taker is not None:
            holder = _sacrifice(context, state, receiver, target, taker)
        _injure(context, state, receiver, holder, "zb.battle.win-injury")


def _cannot_be_selected(state: State, holder: Mamodo) -> bool:
    """ "Cannot be selected: This card cannot be selected as a target of an effect" (line 1215): an [IN PLAY] effect, always
    applied while its card is in play (line 697), or another one once applied and still active (kept for the turn, or as a
    [STAY] effect); an [X MP] one not yet applied and paid for (line 685) protects nothing."""
    if any(e.kind == "cannot-be-selected" and e.tag == "in-play" for e in state.card(holder.card).effects):
        return True
    return any(kept.effect.kind == "cannot-be-selected" and kept.zone in ("turn", "stay") and kept.source == holder.card
               for player in state.players.values() if any(m is holder for m in player.mamodo) for kept in player.kept)


def _sacrifice(context: Context, state: State, player: Player, target: str, taker: str) -> Mamodo:
    if not context.read(SACRIFICE_PROTECT, "sacrifice-against-injury"):
        raise context.reject("cannot-protect", f"{taker} cannot SACRIFICE against an Injury: only against an infliction of Damage",
                             SACRIFICE_PROTECT, involves=[card(taker), PROTECT])
    holder = player.find(taker)
    if holder is None or holder.status == "petrified" or taker == target:
        raise context.reject("cannot-protect", f"{taker} cannot SACRIFICE for {target}", "zb.petrified.no-protect"
                             if holder is not None and holder.status == "petrified" else "zb.protect.book-and-sacrifice",
                             involves=[card(taker), PROTECT])
    context.note(SACRIFICE_PROTECT, f"{taker} SACRIFICES to protect {target} from the Injury", involves=[card(taker), card(target), PROTECT])
    context.note("zb.protect.book-and-sacrifice", f"{taker} takes the Injury meant for {target}", involves=[card(taker), PROTECT])
    return holder


def _inflict_times(context: Context, state: State, source: str, victim: str, amount: int, times: int, action: Mapping[str, Any],
                   ruling: str, *, by_effect: bool = True) -> None:
    """Damage X times, by an effect or by a SPELL card's Attack: each infliction is PROTECTED against separately (protect_each;
    protect for the first)."""
    protectors = list(action.get("protect_each") or [action.get("protect")])
    for infliction in range(times):
        if times > 1:
            context.note("zb.glossary.damage-times", f"{source}: infliction {infliction + 1} of {times}, PROTECTED against "
                         "separately", involves=[card(source), DAMAGE])
        protector = protectors[infliction] if infliction < len(protectors) else None
        if protector is not None and by_effect:
            context.note("zb.qa.q10", f"{source}'s effect inflicts Damage: {protector} may PROTECT against it",
                         involves=[card(source), card(protector), PROTECT])
        _damage_book(context, state, victim, amount, protector, ruling)
        if state.loser:
            return


def _damage_book(context: Context, state: State, victim: str, amount: int, protector: str | None, ruling: str) -> None:
    """An infliction of Damage: the victim turns ``amount`` pages (no MP), unless a MAMODO card PROTECTS the book."""
    player = state.players[victim]
    if protector is not None:
        holder = player.find(protector)
        if holder is None:
            raise context.reject("no-such-choice", f"{protector} is not in play on {victim}'s side", "zb.protect.book-and-sacrifice",
                                 involves=[card(protector), PROTECT])
        if holder.status == "petrified":
            raise context.reject("cannot-protect", f"{protector} is Petrified", "zb.petrified.no-protect",
                                 involves=[card(protector), PETRIFIED, PROTECT])
        context.note("zb.battle.protect-instead", f"{victim} uses {protector} to PROTECT the Spell Book from the Damage instead",
                     involves=[card(protector), PROTECT, DAMAGE])
        if state.battle is not None:
            state.battle.protected = True
        context.note("zb.protect.book-and-sacrifice", f"{protector} PROTECTS {victim}'s Spell Book from {amount} Damage",
                     involves=[card(protector), PROTECT])
        context.note("zb.protect.only-damage", "PROTECTING is against an infliction of Damage", involves=[PROTECT, DAMAGE])
        context.note("zb.protect.as-often", f"{protector} may PROTECT as often as {victim} desires", involves=[PROTECT])
        if holder.status == "injured":
            context.note("zb.injured.can-act", f"{protector} is Injured and can still PROTECT", involves=[card(protector)])
        context.note("zb.damage.protect-injured", f"{protector} PROTECTS the Spell Book: it becomes Injured", involves=[card(protector)])
        context.note("zb.damage.once-per-infliction", f"{amount} Damage: {protector} is Injured only once", involves=[card(protector)],
                     damage=amount)
        context.note("zb.qa.q6", f"{protector} receives one Injury for this infliction of {amount} Damage, regardless of the amount",
                     involves=[card(protector), INJURY], damage=amount)
        context.note("zb.glossary.damage-book", f"{protector} PROTECTS the Spell Book: no Damage is inflicted on {victim}'s Spell Book",
                     involves=[card(protector), DAMAGE, BOOK])
        _injure(context, state, player, holder, None, protecting=True)
        return
    context.note(ruling, f"{amount} Damage: {victim} turns {amount} page(s), no MP gained", involves=[DAMAGE, BOOK], damage=amount)
    context.note("zb.glossary.damage-book", f"No MAMODO card PROTECTS: the Damage is inflicted on {victim}'s Spell Book, its pages "
                 "must be turned", involves=[DAMAGE, BOOK], damage=amount)
    _turn_pages(context, state, victim, amount, "damage")
    _on_inflict(context, state, other(victim), "Damage to the Spell Book")
    if state.loser is None:
        context.note("zb.precautions.newly-opened", f"{victim} may play the cards in the newly open pages {_pages(player)}",
                     involves=[BOOK])


def _injure(context: Context, state: State, player: Player, holder: Mamodo, ruling: str | None, *, protecting: bool = False) -> None:
    if _shielded(context, state, player, holder):
        return
    _injure_status(context, state, player, holder, ruling)
    _on_inflict(context, state, other(player.name), f"Injury to {holder.card}", protecting=protecting)


def _on_inflict(context: Context, state: State, inflicter: str, what: str, *, protecting: bool = False) -> None:
    """[IN PLAY] "When you inflict Damage or Injury" effects of the inflicting player resolve at each infliction."""
    timed = [(owner, source, e) for owner, source, e in _in_play_effects(context, state, "on-inflict") if owner == inflicter]
    for owner, source, effect in timed:
        if protecting and not context.read(WHEN_INFLICT_PROTECTED, "protect-is-injury"):
            context.note(WHEN_INFLICT_PROTECTED, f"The PROTECTED Damage is not inflicted and the {what} is the cost of PROTECTING: "
                         f"{source}'s effect does not activate", involves=[card(source), INJURY])
            continue
        if protecting:
            context.note(WHEN_INFLICT_PROTECTED, f"The PROTECTING MAMODO card's {what} is an Injury {owner} inflicted",
                         involves=[card(source), INJURY])
        context.note("zb.glossary.when-inflict", f"{owner} inflicts {what}: {source}'s effect activates", involves=[card(source)])
        context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves as often as its condition comes",
                     involves=[card(source)])
        _resolve_effect(context, state, owner, source, effect, {})


def _injure_status(context: Context, state: State, player: Player, holder: Mamodo, ruling: str | None) -> None:
    if holder.status == "injured":
        context.note("zb.damage.second-discards", f"{holder.card} is already Injured: it is sent to the Discard Pile",
                     involves=[card(holder.card), INJURY])
        context.note("zb.injured.second", f"{holder.card} and its attached cards go to the Discard Pile", involves=[card(holder.card)])
        _send_to_discard(context, state, player, holder.card, None)
        return
    holder.status = "injured"
    context.note("zb.glossary.injured-status", f"{holder.card} has received Damage or Injury one time: Injured Status, turned sideways",
                 involves=[card(holder.card), INJURY])
    if ruling:
        context.note(ruling, f"{holder.card} becomes Injured", involves=[card(holder.card), INJURY])
    else:
        context.note(None, f"{holder.card} becomes Injured", involves=[card(holder.card), INJURY])


def _shielded(context: Context, state: State, player: Player, holder: Mamodo) -> bool:
    """An [IN PLAY] "does not receive Damage or Injury" effect of the MAMODO card (or its PARTNER) resolves at each infliction."""
    for source in [holder.card] + ([holder.partner] if holder.partner else []):
        if any(e.tag == "in-play" and e.kind == "no-injury" for e in state.card(source).effects) \
                and _in_play_active(context, state, player.name, source):
            _note_in_play_active(context, source)
            context.note("zb.in-play.timing", f"{source}'s [IN PLAY] effect resolves as its condition is fulfilled: "
                         f"{holder.card} receives no Injury", involves=[card(source), card(holder.card), INJURY])
            context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves as many times as its condition comes",
                         involves=[card(source)])
            return True
    for kept in player.kept:
        if kept.effect.kind == "no-injury" and kept.zone in ("turn", "stay") and kept.source in (holder.card, holder.partner):
            context.note("zb.stay.duration" if kept.zone == "stay" else RESOLVED_SHIELD, f"{kept.source}'s effect, still active: "
                         f"{holder.card} receives no Damage or Injury", involves=[card(kept.source), card(holder.card), INJURY])
            return True
    return False


def _turn_pages(context: Context, state: State, who: str, pages: int, why: str) -> None:
    """Turn pages forward, without MP; a player who cannot turn a page required of them loses."""
    player = state.players[who]
    for _ in range(pages):
        if player.opening >= LAST_OPENING:
            _loses(context, state, who, f"{who} is on the last page and cannot turn the page the {why} requires")
            return
        player.opening += 1
    context.note("zb.example.newly-opened-pages", f"{who} turned {pages} page(s), one two-page spread each: open pages {_pages(player)}",
                 involves=[BOOK])
    if player.opening == LAST_OPENING:
        context.note("zb.win.not-yet", f"{who} turns to the last page: the game is not won yet", involves=[BOOK])


def _loses(context: Context, state: State, who: str, why: str) -> None:
    state.loser = who
    context.note("zb.sequence.win", why, involves=[BOOK])
    context.note("zb.win.last-page", f"{other(who)} wins the game", involves=[BOOK])
    context.note("zb.sequence.runs-out-loses", f"{who} runs out of pages to turn and loses the game", involves=[BOOK])
    context.note("zb.turns.win", f"{who} cannot turn pages: {other(who)} wins", involves=[BOOK])


@steps("defender-wins")
def defender_wins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    context.note("zb.battle.lose-negated", f"{state.defender} wins the Battle: the Attack is negated, no Damage", involves=[BATTLE])
    defense = state.card(battle.defense.card) if battle.defense is not None and not battle.defense_negated else None
    countering = defense is not None and defense.counter
    if defense is not None and countering and not _damage_negated(context, state, state.attacker, defense.name):
        _counter(context, state, defense, action)
    elif defense is not None and not countering:
        context.note("zb.battle.lose-counter", f"{defense.name} has no [COUNTER]: its effects and Damage are not applied",
                     involves=[card(defense.name)])
    spells = ([(state.attacker, battle.spell)] if not battle.attack_negated else []) + \
        ([(state.defender, battle.defense)] if defense is not None else [])
    for owner, out in spells:
        if out is None:
            continue
        for effect in state.card(out.card).effects:
            if effect.timing == "regardless":
                context.note("zb.battle.lose-regardless", f"{out.card}'s effect applies regardless of Power", involves=[card(out.card)])
                _resolve_effect(context, state, owner, out.card, effect, action)


def _counter(context: Context, state: State, defense: Card, action: Mapping[str, Any]) -> None:
    """Line 885: with [COUNTER] the effects and Damage listed on the Defense are applied, as an Attack's are when it wins."""
    context.note("zb.battle.lose-counter", f"{defense.name}'s [COUNTER]: its effects and Damage are applied", involves=[card(defense.name)])
    if defense.damage:
        context.note("zb.glossary.counter", f"{state.defender}, the Defender, wins against the Attacker: {defense.name}'s [COUNTER] "
                     "inflicts Damage", involves=[card(defense.name), DAMAGE])
        _damage_book(context, state, state.attacker, defense.damage, action.get("protect"), "zb.battle.lose-counter")
    if state.loser:
        return
    if defense.injure:
        _injure_selected(context, state, defense, action, state.defender)
    for effect in [e for e in defense.effects if e.timing in ("on-damage", "other")]:
        context.note("zb.battle.lose-counter", f"{defense.name}'s [COUNTER]: its effect ({effect.kind}) is applied",
                     involves=[card(defense.name)])
        _resolve_effect(context, state, state.defender, defense.name, effect, action)


@steps("battle-out")
def battle_out(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    if action.get("protect") and not battle.protected:
        context.note("zb.protect.only-damage", f"No Damage was inflicted on a Spell Book: {action['protect']} did not need to PROTECT",
                     involves=[card(action["protect"]), PROTECT])
    context.note("zb.precautions.battle-out", "Damage and effects are resolved: \"Battle Out\", Non-Battle once again", involves=[BATTLE])
    context.note("zb.glossary.battle-out", "\"Battle Out\": the effects applied during the Battle are resolved; the game returns to "
                 "Non-Battle", involves=[BATTLE])
    for owner, out in ((state.attacker, battle.spell), (state.defender, battle.defense)):
        if out is None:
            continue
        state.players[owner].pages[out.page - 1] = out.card
        context.note("zb.book.spell-returns", f"{out.card} returns to page {out.page} of {owner}'s book", involves=[card(out.card), BOOK])
        context.note("zb.spell.zone", f"The Battle is over: {out.card} returns to its page", involves=[card(out.card)])
    state.last_battle = {
        "mamodo": battle.mamodo, "spell": battle.spell.card if battle.spell else None,
        "defender_mamodo": battle.defender_mamodo, "defense": battle.defense.card if battle.defense else None,
        "totals": dict(battle.totals), "winner": battle.winner,
    }
    state.battle = None
    for player in state.players.values():
        _return_no_battle_spells(context, player)
    _activate_standby(context, state, "battle-out")
    _expire_stay(context, state, "battle-out")
    if state.loser is None:  # the loop back to Non-Battle: the Attacker acts first again (procedure.yaml)
        context.note("zb.alternate.attacker-first-after-battle", f"Back in Non-Battle: {state.attacker}, the Attacker, acts first",
                     involves=[ACTION])
