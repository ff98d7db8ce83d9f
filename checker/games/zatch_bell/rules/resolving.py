"""Applying & Resolving Effects; Cut-In effects: "Card effects with [DECLARE TO USE], [X MP], [SEND THIS CARD TO
THE DISCARD PILE] (as well as effects on EVENT cards and No Battle SPELL cards) are all resolved right away.
Immediately after these effects are applied or cards are played, they can be negated with a cut-in effect."

Every section applies effects, so what they share of it is here too, each part under the banner of the
section it belongs to: [IN PLAY] effects that activate, an effect's cost paid, cards sent to the Discard
Pile, an effect resolved, [STAY] and [STANDBY] effects kept, expired and activated, and "Cannot".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from checker.engine.game import Context
from checker.engine.stack import Link, ResponseStack
from checker.engine.statecopy import Snapshot

from ..state import Applied, Effect, Kept, Player, State, other
from .common import (
    BATTLE, CANNOT, CANNOT_BE_NEGATED_IN_PLAY, CANNOT_BE_NEGATED_SCOPE, CANNOT_IN_PLAY, COIN_TOSS, CUT_IN, EVEN_PROHIBITED_SCOPE,
    KEPT_CARD_LEAVES, KEPT_CUT_IN_SCOPE, KEPT_NEGATION, MP, NO_BATTLE_NEGATION, ONCE_PER_TURN_TAGS, PETRIFIED, PUT_IN_PLAY_PLAYED,
    STANDBY, STAY, _before_start_phase, card, vocabulary,
)


# === The START PHASE ================================================================================


def _in_play_effects(context: Context, state: State, timing: str) -> list[tuple[str, str, Effect]]:
    """[IN PLAY] effects with this timing of the cards in play, the Attacker's first; Petrified MAMODO cards' never."""
    found: list[tuple[str, str, Effect]] = []
    for name in (state.attacker, state.defender):
        player = state.players[name]
        sources = [c for m in player.mamodo if m.status != "petrified" for c in [m.card] + ([m.partner] if m.partner else [])]
        for source in sources + [c for c, _ in player.mj12]:
            timed = [e for e in state.card(source).effects if e.tag == "in-play" and e.timing == timing]
            if timed and _in_play_active(context, state, name, source):
                found += [(name, source, e) for e in timed]
    return found


# === Applying the effects of in-play cards ======================================================


def _pay_and_apply(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any],
                   *, respondable: bool = True) -> None:
    """Pay an applied effect's cost, then resolve it: at once, open to a cut-in effect as the next Action if ``respondable``."""
    if effect.coins:
        _flip_effect_coins(context, state, player.name, name, effect, action)
    _pay(context, state, player, name, effect)
    _pay_extra(context, state, player, name, (effect,), action)
    if effect.is_cut_in:
        _cut_in(context, state, player.name, name, effect, action)
        return
    if respondable:
        _open_to_cut_in(context, state, player.name, name, (effect,), _classes(effect), action)
    _resolve_effect(context, state, player.name, name, effect, action)


def _check_available(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    """An effect not yet used as often as it may be, whose MP its player can pay."""
    _check_unused(context, state, player, name, effect)
    _check_mp(context, player, name, effect)


def _check_unused(context: Context, state: State, player: Player, name: str, effect: Effect) -> str:
    """An effect not yet used as often as it may be; its key among the used effects."""
    key = f"{name}#{state.card(name).effects.index(effect)}"
    if effect.once_per_game and key in player.used_this_game:
        raise context.reject("effect-used-this-game", f"{player.name} has applied {name}'s effect this game", "zb.glossary.once-per-game",
                             involves=[card(name)])
    if key in player.used_effects:
        ruling = ONCE_PER_TURN_TAGS[effect.tag]
        if effect.tag == "discard":
            context.note("zb.tag.discard-copy", f"Another copy of {name} cannot apply the effect again this turn", involves=[card(name)])
        raise context.reject("effect-used-this-turn", f"{player.name} has applied {name}'s effect this turn", ruling,
                             involves=[card(name)])
    return key


def _pay_extra(context: Context, state: State, player: Player, name: str, effects: tuple[Effect, ...], action: Mapping[str, Any]) -> None:
    """The optional cost printed on the card ("you may pay X more MP to ..."), paid with its cost when the player chooses to."""
    if not action.get("pay_extra"):
        return
    extra = sum(effect.extra_mp for effect in effects)
    if not extra:
        raise context.reject("no-such-choice", f"{name} has no optional cost to pay", involves=[card(name)])
    if player.mp < extra:
        raise context.reject("not-enough-mp", f"{name}'s optional cost is {extra} more MP; {player.name} has {player.mp} MP",
                             "zb.tag.mp-pay", involves=[card(name), MP])
    player.mp -= extra
    context.note("zb.tag.mp-pay", f"{player.name} chooses to pay {extra} more MP for {name}'s effect: {player.mp} MP",
                 involves=[card(name), MP], mp=player.mp)


def _check_mp(context: Context, player: Player, name: str, effect: Effect) -> None:
    if effect.tag == "mp" and player.mp < effect.mp:
        raise context.reject("not-enough-mp", f"{name}'s [{effect.mp} MP] effect: {player.name} has {player.mp} MP",
                             "zb.tag.mp-pay", involves=[card(name), MP])


def _pay(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    key = _check_unused(context, state, player, name, effect)
    _check_prohibited(context, state, player.name, name, effect, _classes(effect))
    context.note("zb.actions.apply", f"{player.name} applies {name}'s effect", involves=[card(name)])
    context.note("zb.effects.apply", f"{name} is in play on {player.name}'s side", involves=[card(name)])
    _check_mp(context, player, name, effect)
    if effect.tag == "mp":
        player.mp -= effect.mp
        context.note("zb.tag.mp-pay", f"{player.name} declares {name}'s effect and pays {effect.mp} MP: {player.mp} MP",
                     involves=[card(name), MP], mp=player.mp)
    elif effect.tag == "declare":
        context.note("zb.tag.declare-no-mp", f"{player.name} declares {name}'s effect: no MP is paid", involves=[card(name)])
    elif effect.tag == "discard":
        _send_to_discard(context, state, player, name, "zb.tag.discard-then")
        context.note("zb.qa.q8", f"{name}'s effect says to send it to the Discard Pile: {player.name} may do so", involves=[card(name)])
    player.used_effects.add(key)
    if effect.once_per_game:
        player.used_this_game.add(key)
        context.note("zb.glossary.once-per-game", f"{name}'s effect: once per game for {player.name}", involves=[card(name)])
    context.note(ONCE_PER_TURN_TAGS[effect.tag], f"{name}'s effect: once per turn for {player.name}", involves=[card(name)])
    if state.card(name).type == "MAMODO":
        context.note("zb.mamodo.effects-while-in-play", f"{name}'s effect is valid while it is in play", involves=[card(name)])


# === Declaring "Battle In!" and the Battle =======================================================


def _note_in_play_active(context: Context, source: str) -> None:
    context.note("zb.in-play.no-declaration", f"{source}'s [IN PLAY] effect applies without being declared", involves=[card(source)])
    context.note("zb.in-play.always-active", f"{source} is in play: its [IN PLAY] effect is active", involves=[card(source)])
    context.note("zb.tag.in-play-no-action", f"{source}'s [IN PLAY] effect is automatic: no Action applies it", involves=[card(source)])


def _send_to_discard(context: Context, state: State, player: Player, name: str, ruling: str | None) -> None:
    before = set(player.in_play_cards())
    _move_to_discard(context, state, player, name, ruling)
    _kept_of_cards_gone(context, state, player, before - set(player.in_play_cards()))


def _kept_of_cards_gone(context: Context, state: State, player: Player, gone: set[str]) -> None:
    """The [STAY] and [STANDBY] effects of cards that left play or were Petrified: kept by their copies, or ended with them."""
    kept = [k for k in player.kept if k.zone in ("stay", "standby") and k.source in gone]
    if not kept:
        return
    if context.read(KEPT_CARD_LEAVES, "effect-outlives-card"):
        for k in kept:
            context.note(KEPT_CARD_LEAVES, f"{k.source}'s [{k.zone.upper()}] effect stays in its zone: its copy tracks it",
                         involves=[card(k.source), STAY if k.zone == "stay" else STANDBY])
        return
    for k in kept:
        player.kept.remove(k)
        context.note(KEPT_CARD_LEAVES, f"{k.source} is gone: its [{k.zone.upper()}] effect ends, its copy is deleted",
                     involves=[card(k.source), STAY if k.zone == "stay" else STANDBY])


def _move_to_discard(context: Context, state: State, player: Player, name: str, ruling: str | None) -> None:
    context.note("zb.glossary.discard-face-up", f"{name} goes to {player.name}'s Discard Pile face-up, as every card there",
                 involves=[card(name)])
    holder = player.find(name)
    if holder is not None:
        player.mamodo.remove(holder)
        gone = [holder.card] + [c for c, _ in holder.under]
        player.discard += gone
        if holder.under:
            context.note("zb.mamodo.underneath-discarded", f"{', '.join(c for c, _ in holder.under)} underneath {name} "
                         "are discarded along with it", involves=[card(name)])
        if holder.partner:
            player.discard.append(holder.partner)
            context.note("zb.partner.discarded-with", f"{holder.partner} is sent to the Discard Pile with {name}",
                         involves=[card(holder.partner), card(name)])
        if holder.status == "petrified":
            context.note("zb.petrified.can-discard", f"{name} is Petrified and can still be sent to the Discard Pile",
                         involves=[card(name), PETRIFIED])
        context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
        return
    for mamodo in player.mamodo:
        if mamodo.partner == name:
            mamodo.partner = None
            player.discard.append(name)
            context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
            return
    for index, (mj12, _) in enumerate(player.mj12):
        if mj12 == name:
            del player.mj12[index]
            player.discard.append(name)
            context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
            return


# === Effects ===================================================================================

EffectHandler = Callable[[Context, State, str, str, Effect, Mapping[str, Any]], None]


def _resolve_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if effect.keep is None and effect.if_mp_at_least and state.players[_whom(effect, owner)].mp < effect.if_mp_at_least:
        who = _whom(effect, owner)
        context.note(None, f"{source}: {who} has {state.players[who].mp} MP, fewer than {effect.if_mp_at_least}: nothing happens",
                     involves=[card(source), MP])
        return
    if effect.keep is not None:
        _keep(context, state, owner, source, effect)
        return
    if effect.select_all:
        selected = _selected_all(state, owner, effect)
        context.note("zb.glossary.select-all-type", f"{source}'s effect selects all {effect.of_type} cards of "
                     f"{other(owner)}: {', '.join(selected) or 'none'}", involves=[card(source)])
        for name in selected:
            _resolve_effect(context, state, owner, source, replace(effect, select_all=False), {**action, "target": name})
        return
    if effect.coins:
        heads = _heads(context, source, effect, action)
        context.note("zb.glossary.coin", f"{source}: {heads} heads (the side with a mamodo's face): the effect acts {heads} time(s)",
                     involves=[card(source), COIN_TOSS], heads=heads)
        for _ in range(heads):
            _resolve_effect(context, state, owner, source, replace(effect, coins=0), action)
        return
    handler: EffectHandler = vocabulary.effect_handler("effect", effect.kind)
    with context.involving(card(source)):
        handler(context, state, owner, source, effect, action)
    state.log.append(f"{source}: {effect.kind}")
    for then in effect.also + (effect.extra if action.get("pay_extra") else ()):
        _resolve_effect(context, state, owner, source, then, action)


def _whom(effect: Effect, owner: str) -> str:
    return owner if effect.whose == "self" else other(owner)


# --- Coins (Q14) --------------------------------------------------------------------------------


def _heads(context: Context, source: str, effect: Effect, action: Mapping[str, Any]) -> int:
    coins = list(action.get("coins") or [])
    if len(coins) != effect.coins:
        raise context.reject("no-such-choice", f"{source}'s effect flips {effect.coins} coin(s): the scenario writes how each lands "
                             f"(coins: {effect.coins} of heads or tails), not {coins}", "zb.battle.coins-at-declaration",
                             involves=[card(source), COIN_TOSS])
    return coins.count("heads")


def _flip_effect_coins(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """An effect that flips coins flips all of them as it is declared; a coin re-do effect may follow at once."""
    coins = ", ".join(action.get("coins") or [])
    _heads(context, source, effect, action)
    context.note("zb.battle.coins-at-declaration", f"{source}'s {effect.coins} coin(s) are flipped as it is declared: {coins}",
                 involves=[card(source), COIN_TOSS])
    state.coin_toss, state.coin_redo = (owner, source), None


def _selected_all(state: State, owner: str, effect: Effect) -> list[str]:
    """ "Select all *type* cards": every such card on the opponent's side (Petrified MAMODO cards are no targets)."""
    victim = state.players[other(owner)]
    if effect.of_type == "MAMODO":
        return [m.card for m in victim.mamodo if m.status != "petrified"]
    if effect.of_type == "PARTNER":
        return [m.partner for m in victim.mamodo if m.partner]
    return [c for c, _ in victim.mj12]


# === [STAY] and [STANDBY] =======================================================================


def _keep(context: Context, state: State, owner: str, source: str, effect: Effect) -> None:
    """A resolved [STAY] or [STANDBY] effect: its copy goes to the zone, where it stays active or waits."""
    zone = effect.keep or "stay"
    until = effect.until or "end-phase"
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone=zone, turn=state.turn))
    state.log.append(f"{source}: {effect.kind} [{zone.upper()}]")
    if zone == "stay":
        context.note("zb.glossary.stay", f"{source}'s [STAY] effect remains active until a specified time", involves=[card(source), STAY])
        context.note("zb.stay.duration", f"{source}'s [STAY] effect ({effect.kind}) remains active until the {_timing(until)}",
                     involves=[card(source), STAY])
        if effect.kind == "prohibit":
            _note_prohibition(context, state, owner, source, effect)
    else:
        context.note("zb.glossary.standby", f"{source}'s [STANDBY] effect activates when its timing or criteria are fulfilled",
                     involves=[card(source), STANDBY])
        context.note("zb.standby.waits", f"{source}'s [STANDBY] effect ({effect.kind}) waits for the {_timing(until)}",
                     involves=[card(source), STANDBY])


def _timing(until: str) -> str:
    return {"end-phase": "END PHASE", "start-phase": "next START PHASE", "own-start-phase": "START PHASE of its owner's next turn",
            "battle-out": '"Battle Out"', "own-next-end-phase": "END PHASE of its owner's next turn", "opponent-event": "opponent's next EVENT card this turn"}.get(until, until)


def _kept(state: State, zone: str | None = None) -> list[Kept]:
    return [k for name in (state.attacker, state.defender) for k in state.players[name].kept if zone is None or k.zone == zone]


def _stay_due(state: State, kept: Kept, until: str) -> bool:
    """Whether a [STAY] effect expires at ``until`` now: the END PHASE of its owner's next turn comes in a later turn."""
    if kept.effect.until == "own-next-end-phase":
        return until == "end-phase" and kept.owner == state.attacker and state.turn > kept.turn
    return (kept.effect.until or "end-phase") == until


def _expire_stay(context: Context, state: State, until: str) -> None:
    for kept in _kept(state, "stay"):
        if _stay_due(state, kept, until):
            state.players[kept.owner].kept.remove(kept)
            context.note("zb.stay.duration", f"{kept.source}'s [STAY] effect expires at the {_timing(until)}",
                         involves=[card(kept.source), STAY])


def _standby_due(state: State, kept: Kept, timing: str, by: str | None) -> bool:
    until = kept.effect.until or "end-phase"
    if until == "own-start-phase":
        return timing == "start-phase" and kept.owner == state.attacker
    if until == "opponent-event":
        return timing == until and by == other(kept.owner)
    return until == timing


def _activate_standby(context: Context, state: State, timing: str, by: str | None = None) -> list[Kept]:
    """[STANDBY] effects waiting for ``timing`` activate and resolve, the Attacker's first; no cut-in can negate them."""
    due = [kept for kept in _kept(state, "standby") if _standby_due(state, kept, timing, by)]
    for kept in due:
        _activate_kept(context, state, kept, timing)
    return due


def _activate_kept(context: Context, state: State, kept: Kept, timing: str) -> None:
    """One waiting [STANDBY] effect activates: its copy leaves the zone and it resolves."""
    state.players[kept.owner].kept.remove(kept)
    context.note("zb.standby.waits", f"The {_timing(timing)}: {kept.source}'s [STANDBY] effect activates",
                 involves=[card(kept.source), STANDBY])
    context.note("zb.standby.activation-not-negated", f"{kept.source}'s [STANDBY] effect activates: no cut-in effect can negate it",
                 involves=[card(kept.source), STANDBY, CUT_IN])
    context.note("zb.cut-in.not-in-play-standby", "An activated [STANDBY] effect cannot be negated by cut-in effects",
                 involves=[STANDBY, CUT_IN])
    prohibition = _prohibition(state, kept.owner, kept.source, _classes(kept.effect))
    if prohibition is not None:
        context.note("zb.glossary.effect-already-applied", f"{kept.source}'s [STANDBY] effect was already applied, waiting to be "
                     f"activated: {prohibition.source}'s later \"Cannot\" does not stop it", involves=[card(kept.source), STANDBY, CANNOT])
        context.note("zb.glossary.cannot", f"{prohibition.source}'s \"Cannot\" effect was applied in advance of new effects only",
                     involves=[card(prohibition.source), CANNOT])
    _resolve_effect(context, state, kept.owner, kept.source, replace(kept.effect, keep=None), {})


def _expire_standby(context: Context, state: State) -> None:
    """At the END PHASE a [STANDBY] effect whose condition was for this turn and never came expires without activating."""
    for kept in _kept(state, "standby"):
        if kept.effect.until == "opponent-event":
            state.players[kept.owner].kept.remove(kept)
            context.note("zb.standby.waits", f"The END PHASE: {kept.source}'s [STANDBY] effect expires; its condition never came",
                         involves=[card(kept.source), STANDBY])


def _check_kept_target(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """A negating effect that is no cut-in negates an active [STAY] or [STANDBY] effect it targets, and nothing else."""
    zones = [z for z in ("stay", "standby") if z in effect.negates]
    wanted = action.get("target") or effect.target
    if "preparation" in effect.negates:
        _check_preparation_target(context, state, player, name, wanted)
    if not zones:
        raise context.reject("nothing-to-negate", f"{name}'s effect is no cut-in effect: it negates only what it targets "
                             "([STAY] or [STANDBY] effects)", "zb.negating.already-active", involves=[card(name)])
    found = [k for k in state.players[other(player.name)].kept if k.zone in zones and wanted in (None, k.source)]
    if not found:
        raise context.reject("nothing-to-negate", f"{other(player.name)} has no active {' or '.join(z.upper() for z in zones)} "
                             "effect" + (f" of {wanted}" if wanted else ""), "zb.negating.already-active", involves=[card(name)])
    kept = found[0]
    _note_targets_kept(context, kept.zone, name, kept.source)
    if kept.zone == "standby":
        context.note("zb.glossary.effect-already-applied", f"{kept.source}'s [STANDBY] effect is an effect already applied: it has "
                     "not resolved yet and waits to be activated", involves=[card(kept.source), STANDBY])
    ambiguity, negatable = KEPT_NEGATION[kept.zone]
    if not context.read(ambiguity, negatable):
        raise context.reject("cannot-be-negated", f"{kept.source}'s [{kept.zone.upper()}] effect has resolved: it cannot be negated",
                             ambiguity, involves=[card(kept.source)])
    context.note(ambiguity, f"{kept.source}'s [{kept.zone.upper()}] effect has resolved, but {name}'s effect targets "
                 f"[{kept.zone.upper()}] effects", involves=[card(kept.source)])
    if _unnegatable(state, kept.owner, kept.effect, frozenset({kept.zone})):
        if context.read(CANNOT_BE_NEGATED_SCOPE, "nothing-negates") or effect.is_battle_effect:
            raise context.reject("cannot-be-negated", f"{kept.source}'s effect cannot be negated", CANNOT_BE_NEGATED_SCOPE,
                                 involves=[card(kept.source)])
        context.note(CANNOT_BE_NEGATED_SCOPE, f"{name}'s effect is neither a Battle effect nor a cut-in effect: it may negate "
                     f"{kept.source}'s", involves=[card(kept.source)])


def _check_preparation_target(context: Context, state: State, player: Player, name: str, wanted: str | None) -> None:
    """An effect resolved during the PREPARATION PHASE cannot be negated after the START PHASE of the first turn."""
    found = [source for owner, source in state.preparation_effects if owner == other(player.name) and wanted in (None, source)]
    if not found:
        raise context.reject("nothing-to-negate", f"{other(player.name)} has no effect resolved during the PREPARATION PHASE"
                             + (f" of {wanted}" if wanted else ""), "zb.glossary.preparation-effects", involves=[card(name)])
    first_start_phase_over = state.turn > 1 or not _before_start_phase(context, state)
    if first_start_phase_over:
        raise context.reject("cannot-be-negated", f"{found[0]}'s effect was resolved during the PREPARATION PHASE: after the START "
                             "PHASE of the first turn it cannot be negated", "zb.glossary.preparation-effects",
                             involves=[card(name), card(found[0])])


# === Applying & Resolving Effects; Cut-In effects ==================================================


TAGS_NAMED = ("declare", "mp", "discard")  # the tags a "Cannot" or a cut-in effect may name, as 'negates' does


def _classes(effect: Effect) -> frozenset[str]:
    """What an applied effect is, for the cut-in effects that may negate it and the "Cannot" effects that may prohibit it."""
    classes = {"effect"}
    if effect.tag in TAGS_NAMED:  # "[DECLARE TO USE] effects cannot be used", "[X MP] effects cannot be used"
        classes.add(effect.tag)
    if effect.is_battle_effect:
        classes.add("battle")
    if effect.is_cut_in:
        classes.add("cut-in")
    if effect.keep:
        classes.add(effect.keep)
    return frozenset(classes)


# What an effect that negates an Attack or a Defense negates as a cut-in effect, naming nothing else.
NEGATED_BY_KIND = {"negate-attack": frozenset({"attack"}), "negate-defense": frozenset({"defense"})}


def _cut_in_covers(effect: Effect) -> frozenset[str]:
    """What a cut-in effect may negate: what its 'negates' lists, or the Attack or Defense its kind negates."""
    return frozenset(effect.negates) | NEGATED_BY_KIND.get(effect.kind, frozenset())


def _declared(state: State, owner: str, source: str, classes: frozenset[str]) -> None:
    """An Attack or Defense just declared with a SPELL card, its MP paid: the other player's next Action may be a cut-in
    effect that negates it ("Cancels out an Attack, Defense, and/or SPELL cards that were immediately declared/played")."""
    state.stack = state.stack.push(Link(owner, source, Applied(effects=(), classes=classes)))


def _keep_declared(state: State) -> None:
    """Before the next action: the state the Action that declared an Attack or Defense left is what negating it returns to (the
    declaration is made in the middle of the Battle's steps)."""
    top = state.stack.top
    if top is not None and top.effect.before is None:
        state.stack = state.stack.pop()
        state.stack = state.stack.push(replace(top, effect=replace(top.effect, before=Snapshot(state))))


def _open_to_cut_in(context: Context, state: State, owner: str, source: str, effects: tuple[Effect, ...], classes: frozenset[str],
                    action: Mapping[str, Any]) -> None:
    """What is about to resolve goes on the stack with the state it resolves from, for a cut-in effect to return to."""
    unnegatable = any(_unnegatable(state, owner, e, classes) for e in effects)
    applied = Applied(effects=effects, classes=classes, action=dict(action), cannot_be_negated=unnegatable, before=Snapshot(state))
    state.stack = state.stack.push(Link(owner, source, applied))
    context.note("zb.majority.resolve-right-away", f"{source}: resolved right away", involves=[card(source)])
    context.note("zb.majority.cut-in-after", f"{other(owner)} may negate it with a cut-in effect as the next Action",
                 involves=[card(source), CUT_IN])
    if state.battle is not None:
        context.note("zb.majority.battle-step-5", f"During the Battle, {source}'s effect resolves in Battle Step 5", involves=[BATTLE])


def _cut_in(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """The cut-in effect resolves: what it negates is treated as before it could resolve; the costs paid for it stay paid."""
    target = state.stack.top
    assert target is not None and target.effect.before is not None
    paid = Snapshot(state)
    restored = target.effect.before.restore()
    with context.quietly():
        _pay(context, restored, restored.players[owner], source, effect)
    applied = Applied(effects=(effect,), classes=_classes(effect), action=dict(action),
                      cannot_be_negated=_unnegatable(state, owner, effect, _classes(effect)), before=paid)
    negated = restored.stack.push(target)
    restored.stack = negated.negate(len(negated)).push(Link(owner, source, applied))
    vars(state).update(vars(restored))
    context.note("zb.cut-in.negated-before", f"{source} negates {target.card}: it is treated as before it could resolve",
                 involves=[card(source), card(target.card), CUT_IN])
    context.note("zb.cut-in.costs-kept", f"{target.player}'s costs for {target.card} are not restored; it is still considered used",
                 involves=[card(target.card), MP])
    context.note("zb.cut-in.still-used", f"{target.card} is still considered to be used, though negated", involves=[card(target.card)])
    context.note("zb.glossary.negate-costs", f"Negating {target.card}: its costs are not restored and it counts as used",
                 involves=[card(target.card), MP])
    context.note("zb.negating.cancels", f"{source} cancels out what {target.player} just applied", involves=[card(target.card)])
    if target.effect.classes & {"spell", "no-battle"}:
        context.note("zb.negating.cancels-attack-spell", f"{source} cancels out {target.card}, a SPELL card just played",
                     involves=[card(target.card)])
    for declared in ("attack", "defense"):
        if declared in target.effect.classes:  # the Battle goes on with the Attack or Defense negated (its handler)
            vocabulary.effect_handler("effect", f"negate-{declared}")(context, state, owner, source, effect, action)
    state.log.append(f"{source}: negate {target.card}")
    for then in effect.also:
        _resolve_effect(context, state, owner, source, then, action)


def _close_cut_in(context: Context, state: State) -> None:
    """An Action that is no cut-in effect: what was just applied, and not negated, stands resolved."""
    standing = [link.card for link in state.stack.standing  # no Attack or Defense still to resolve, no card put in play
                if link.effect.effects and "put-in-play" not in link.effect.classes]
    state.stack = ResponseStack()
    if standing:
        context.note("zb.majority.cut-in-after", f"No cut-in effect followed: {', '.join(standing)} stand(s) resolved",
                     involves=[CUT_IN])


def _put_in_play_played(context: Context, name: str, put: str) -> bool:
    """A card put in play by the previous Action: is it a card "just played", for a cut-in effect to negate?"""
    if context.read(PUT_IN_PLAY_PLAYED, "just-played"):
        context.note(PUT_IN_PLAY_PLAYED, f"{put} was put in play by the previous Action: it is the card just played",
                     involves=[card(name), card(put), CUT_IN])
        return True
    context.note(PUT_IN_PLAY_PLAYED, f"{put} was put in play, not played: {name}'s cut-in effect has nothing just played to negate",
                 involves=[card(name), card(put), CUT_IN])
    return False


def _unnegatable(state: State, owner: str, effect: Effect, classes: frozenset[str]) -> bool:
    return effect.cannot_be_negated or bool(classes & state.players[owner].unnegatable)


def _check_cut_in(context: Context, state: State, player: Player, name: str, effect: Effect, wanted_card: str | None) -> None:
    """A cut-in effect negates the card or effect the opponent just played or applied, of a type it specifies."""
    top = state.stack.top
    context.note("zb.cut-in.icon", f"{name}'s effect has the Cut-In icon: a cut-in effect", involves=[card(name), CUT_IN])
    context.note("zb.cut-in.icon-caption", f"{name}'s effect is marked with the Cut-In icon: a \"Cut-In\" effect", involves=[card(name)])
    context.note("zb.glossary.cut-in", f"{name}'s cut-in effect negates a card or effect {other(player.name)} just played or applied",
                 involves=[card(name), CUT_IN])
    context.note("zb.glossary.just-played", "\"Just played/applied\": the card or effect of the previous Action"
                 + (f" ({top.card}, {top.player}'s)" if top is not None else ": none is waiting"), involves=[CUT_IN])
    if wanted_card is not None and wanted_card == state.coin_redo:
        context.note("zb.qa.q14", f"{wanted_card}'s effect changed the outcome of a coin toss: cut-in effects cannot negate it",
                     involves=[card(name), card(wanted_card), COIN_TOSS])
        raise context.reject("cannot-be-negated", f"{wanted_card}'s coin re-do cannot be negated by {name}'s cut-in effect", "zb.qa.q14",
                             involves=[card(name), card(wanted_card), CUT_IN])
    if top is not None and "put-in-play" in top.effect.classes and not _put_in_play_played(context, name, top.card):
        top = None
    if top is None or top.player == player.name:
        _note_in_play_not_cut_in(context, state, other(player.name))
        last = "nothing was just played or applied" if top is None else f"the last Action was {player.name}'s own"
        context.note("zb.negating.already-active", "Negating applies only to what is already active: nothing is negated in advance",
                     involves=[card(name), CUT_IN])
        raise context.reject("nothing-to-negate", f"{name}'s cut-in effect: {last}", "zb.cut-in.respond", involves=[card(name), CUT_IN])
    if wanted_card is not None and wanted_card != top.card:
        raise context.reject("nothing-to-negate", f"{wanted_card} is not what {top.player} just played or applied ({top.card} is)",
                             "zb.glossary.just-played", involves=[card(name), card(wanted_card), CUT_IN])
    context.note("zb.cut-in.respond", f"{player.name} answers {top.player}'s Action ({top.card}) with {name}'s cut-in effect",
                 involves=[card(name), card(top.card), CUT_IN])
    applied = top.effect
    wanted = set(_cut_in_covers(effect))
    if not wanted & applied.classes:
        if effect.also:
            context.note("zb.qa.q12", f"{name}'s effect cannot be applied only for its other part: nothing it negates is there",
                         involves=[card(name), card(top.card)])
        raise context.reject("cannot-negate-that", f"{name}'s cut-in effect negates {', '.join(sorted(wanted)) or 'nothing'}; "
                             f"{top.card} is {', '.join(sorted(applied.classes))}",
                             NO_BATTLE_NEGATION if "no-battle" in applied.classes else "zb.cut-in.specified",
                             involves=[card(name), card(top.card), CUT_IN])
    context.note("zb.cut-in.specified", f"{name}'s cut-in effect negates {', '.join(sorted(wanted & applied.classes))}: "
                 f"{top.card} is one", involves=[card(name), card(top.card)])
    for zone in ("stay", "standby"):
        if zone in applied.classes:
            _check_kept_cut_in(context, zone, name, top.card, zone in wanted)
    if any(e.passes_prohibitions for e in applied.effects):
        context.note("zb.even-prohibited.negatable", f"{top.card} can be applied even when prohibited, but a cut-in effect can "
                     "negate it", involves=[card(name), card(top.card)])
    if "battle" in applied.classes:
        if not effect.is_battle_effect:
            raise context.reject("cannot-negate-that", f"{top.card}'s effect is a Battle effect: only a cut-in effect that is also a "
                                 "Battle effect negates it", "zb.battle-effects.cut-in", involves=[card(name), card(top.card)])
        context.note("zb.battle-effects.cut-in", f"{name}'s cut-in effect is also a Battle effect", involves=[card(name)])
    if "cut-in" in applied.classes:
        context.note("zb.cut-in.chain", f"{name}'s cut-in effect negates {top.card}'s cut-in effect", involves=[card(name), CUT_IN])
    if applied.cannot_be_negated:
        raise context.reject("cannot-be-negated", f"{top.card}'s effect cannot be negated", "zb.cannot-be-negated.by-effects",
                             involves=[card(top.card), card(name)])


def _note_targets_kept(context: Context, zone: str, name: str, target: str) -> None:
    label = f"[{zone.upper()}]"
    context.note(f"zb.{zone}.only-targeting", f"{name}'s effect targets {label} effects: it may negate {target}'s",
                 involves=[card(name), card(target), STAY if zone == "stay" else STANDBY])
    context.note(f"zb.glossary.{zone}-negation", f"{name}'s effect specifies the ability to negate {label} effects",
                 involves=[card(name), card(target)])


def _note_in_play_not_cut_in(context: Context, state: State, opponent: str) -> None:
    for source in state.players[opponent].in_play_cards():
        if any(e.tag == "in-play" for e in state.card(source).effects):
            context.note("zb.in-play.no-cut-in", f"{source}'s [IN PLAY] effect is not applied: a cut-in effect cannot negate it",
                         involves=[card(source), CUT_IN])
            context.note("zb.cut-in.not-in-play-standby", "[IN PLAY] effects cannot be negated by cut-in effects",
                         involves=[card(source), CUT_IN])


def _check_kept_cut_in(context: Context, zone: str, name: str, target: str, targets_zone: bool) -> None:
    """Right after a [STAY] or [STANDBY] effect is applied a cut-in effect may negate it; one that names no such effects may not."""
    label = f"[{zone.upper()}]"
    context.note(f"zb.{zone}.cannot-negate-resolved", f"{target}'s {label} effect was just applied: a cut-in effect may negate it",
                 involves=[card(name), card(target), STAY if zone == "stay" else STANDBY])
    if targets_zone:
        _note_targets_kept(context, zone, name, target)
        return
    if context.read(KEPT_CUT_IN_SCOPE, "targeting-only"):
        raise context.reject("cannot-negate-that", f"{name}'s cut-in effect does not target {label} effects: it cannot negate "
                             f"{target}'s", KEPT_CUT_IN_SCOPE, involves=[card(name), card(target)])
    context.note(KEPT_CUT_IN_SCOPE, f"{name}'s cut-in effect covers {target}'s {label} effect just applied, naming no {label} effects",
                 involves=[card(name), card(target)])


# === "Negating" & "Prohibiting" =====================================================================


def _note_prohibition(context: Context, state: State, owner: str, source: str, effect: Effect) -> None:
    victim = _whom(effect, owner)
    what = ", ".join(effect.negates) + (f" of {effect.target}" if effect.target else "")
    context.note("zb.cannot.in-advance", f"{source}: {victim} cannot apply {what} from now on; what is already active stays",
                 involves=[card(source), CANNOT])
    context.note("zb.glossary.cannot", f"{source}'s \"Cannot\" effect is applied in advance; it negates nothing already resolved",
                 involves=[card(source), CANNOT])


def _prohibition(state: State, player: str, source: str, classes: frozenset[str]) -> Kept | None:
    """The "Cannot" effect that prohibits ``player`` from applying ``source``'s card or effect of these classes, if any (a kept
    one, or an [IN PLAY] one of the other player's in-play cards)."""
    prohibitor = state.players[other(player)]
    in_play = [Kept(owner=prohibitor.name, source=name, effect=e, zone="in-play") for name in prohibitor.in_play_cards()
               for e in state.card(name).effects if e.tag == "in-play" and e.kind == "prohibit"]
    for kept in _kept(state) + in_play:
        effect = kept.effect
        if effect.kind != "prohibit" or kept.zone == "standby" or _whom(effect, kept.owner) != player:
            continue
        if set(effect.negates) & classes and effect.target in (None, source) and effect.of_type in (None, state.card(source).type):
            return kept
    return None


def _check_prohibited(context: Context, state: State, player: str, source: str, effect: Effect | None, classes: frozenset[str]) -> None:
    kept = _prohibition(state, player, source, classes)
    if kept is None:
        return
    if effect is not None and effect.passes_prohibitions:
        if effect.regardless_of_card_effects:
            context.note("zb.even-prohibited.regardless", f"{source}'s effect applies \"regardless of card effects\": the same as "
                         "\"... even when prohibited to do so\"", involves=[card(source)])
        if kept.zone == "stay" or context.read(EVEN_PROHIBITED_SCOPE, "any-prohibition"):
            context.note(EVEN_PROHIBITED_SCOPE if kept.zone != "stay" else "zb.glossary.even-prohibited",
                         f"{source}'s effect can be applied even when prohibited ({kept.source})",
                         involves=[card(source), card(kept.source), CANNOT])
            return
        context.note(EVEN_PROHIBITED_SCOPE, f"{kept.source}'s prohibition is no [STAY] effect: {source}'s effect does not pass it",
                     involves=[card(source), card(kept.source)])
    if "stay" in classes and "stay" in state.players[player].unnegatable:
        context.note("zb.cannot-be-negated.stay-prohibited", f"{player}'s [STAY] effects cannot be negated, but that does not let "
                     f"{source}'s [STAY] effect be applied", involves=[card(source), STAY])
    context.note("zb.cannot.prevents", f"{kept.source}'s \"Cannot\" effect prevents {source}'s from being applied",
                 involves=[card(source), card(kept.source), CANNOT])
    raise context.reject("prohibited", f"{kept.source}'s effect: {player} cannot apply {source}'s "
                         f"{'/'.join(sorted(classes))}", "zb.cannot.prevents", involves=[card(source), card(kept.source), CANNOT])


def _negated_by_in_play(context: Context, state: State, player: str, name: str, effects: tuple[Effect, ...],
                        classes: frozenset[str]) -> bool:
    """An opponent's [IN PLAY] effect that negates such a card as it is played (one that "cannot be negated": the switches)."""
    opponent = state.players[other(player)]
    for source in opponent.in_play_cards():
        if not any(e.tag == "in-play" and e.kind == "negate" and set(e.negates) & classes for e in state.card(source).effects):
            continue
        if not _in_play_active(context, state, opponent.name, source):
            continue
        _note_in_play_active(context, source)
        if any(_unnegatable(state, player, e, classes) for e in effects) and not _in_play_negates_unnegatable(context, source, name):
            return False
        context.note("zb.in-play.timing", f"{source}'s [IN PLAY] effect resolves as {name} is played: {name} is negated; its cost "
                     "stays paid", involves=[card(source), card(name)])
        state.log.append(f"{source}: negate {name}")
        return True
    return False


def _in_play_negates_unnegatable(context: Context, source: str, name: str) -> bool:
    if context.read(CANNOT_BE_NEGATED_IN_PLAY, "prevails-over-in-play"):
        context.note(CANNOT_BE_NEGATED_IN_PLAY, f"{name} cannot be negated: it prevails over {source}'s [IN PLAY] effect",
                     involves=[card(source), card(name)])
        return False
    context.note(CANNOT_BE_NEGATED_IN_PLAY, "\"Capable of negating [IN PLAY] effects\" adds nothing under \"Cannot be negated\"",
                 involves=[card(source), card(name)])
    if context.read(CANNOT_BE_NEGATED_SCOPE, "nothing-negates"):
        context.note(CANNOT_BE_NEGATED_SCOPE, f"{name} cannot be negated: {source}'s [IN PLAY] effect does not negate it",
                     involves=[card(source), card(name)])
        context.note("zb.cannot-be-negated.by-effects", f"{name} cannot be negated by a cut-in effect or other effects",
                     involves=[card(name)])
        return False
    context.note(CANNOT_BE_NEGATED_SCOPE, f"{source}'s [IN PLAY] effect is neither a Battle effect nor a cut-in effect: it negates "
                 f"{name}", involves=[card(source), card(name)])
    return True


def _in_play_active(context: Context, state: State, owner: str, source: str) -> bool:
    """[IN PLAY] effects stay active when applying effects is prohibited; a "Cannot" that names [IN PLAY] effects may stop them."""
    named = _prohibition(state, owner, source, frozenset({"in-play"}))
    general = _prohibition(state, owner, source, frozenset({"effect"}))
    if named is None and general is None:
        return True
    stops = (named is not None and context.read(CANNOT_IN_PLAY, "named-only")) or context.read(CANNOT_IN_PLAY, "cannot-negates-in-play")
    kept = named or general
    assert kept is not None
    if stops:
        context.note(CANNOT_IN_PLAY, f"{kept.source}'s \"Cannot\" effect negates {source}'s [IN PLAY] effect",
                     involves=[card(source), card(kept.source), CANNOT])
        return False
    context.note(CANNOT_IN_PLAY, f"{source}'s [IN PLAY] effect stays active under {kept.source}'s \"Cannot\" effect",
                 involves=[card(source), card(kept.source)])
    context.note("zb.in-play.even-prohibited", f"{source}'s [IN PLAY] effect is active even when it is prohibited",
                 involves=[card(source), CANNOT])
    return True
