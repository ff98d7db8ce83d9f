"""Damage Calculation: "Proceed to the opponent's Defense Step." "Each defense card is resolved individually":
Redirections, Damage Reduction, reflected damage, attribute changes; then the damage is dealt, its on-damage
effects, and self-inflicted damage, "dealt after the defense resolution".
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.described import takes
from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.monster_rancher_bc2.state import Card, Effect, Hit, Monster, PendingAttack, Reduction, State, StatusDef, halve
from checker.engine.trace import mechanic
from checker.engine.vocabulary import ref

from .common import (
    DEFENSE,
    DEFENSE_STEP,
    ON_DAMAGE,
    ON_DAMAGE_AFTER_REDIRECT,
    UNAFFECTED_REDIRECTION,
    card_entity,
    card_of,
    check_user,
    game_on,
    grant,
    monster_entity,
    monster_of,
    require_in_hand,
    status_entity,
    steps,
    vocabulary,
)
from .attack_step import _hits_text, pay_guts


@vocabulary.action(
    "defend", "Play a defense card in the Defense Step; each resolves on its own, in order.",
    params={
        "player": ref("player"),
        "monster": {"type": "string"},
        "card": {"type": "string"},
        "choose": {"type": "string", "description": "The ally a redirection or attribute change acts on."},
    },
    required=["player", "monster", "card"],
)
def defend(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    pending = state.pending
    attack_card = [("card", pending.card)] if pending else []
    with context.involving(*attack_card, ("card", action["card"])):
        context.run_step(state, "defense-card", action)


@steps("defense-card")
def defense_card(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    player = action["player"]
    if pending is None and state.attacks:
        raise context.reject(
            "defense-step-over", f"the Defense Step against {state.attacks[-1]['card']} is over: its damage has been dealt",
            involves=[mechanic("Defense Step")],
        )
    if pending is None:
        raise context.reject("no-attack-to-defend", "there is no attack in its Defense Step")
    if player == pending.player:
        raise context.reject(
            "own-attack", "you cannot defend against your own attack", "mr.attack.own-monsters-no-defense",
            involves=[mechanic("Defense Step")],
        )
    monster = monster_of(state, player, action["monster"], ("monster",))
    card = card_of(state, action["card"], ("card",), "defense")
    breeder = state.breeder(player)
    if monster.ko:
        raise context.reject("monster-ko", f"{monster.name} is KO'd")
    require_in_hand(context, breeder, [card.name])
    check_user(context, state, player, monster, card)
    if pending.only is not None and (player, monster.name) not in pending.affected:
        _unaffected_may_defend(context, monster, card, pending.only)
    pay_guts(context, breeder, [card])
    context.note(
        "mr.defense.order", f"{monster.name} plays {card.name}; it resolves now, on its own",
        involves=[monster_entity(monster), mechanic("Defense Step")],
    )
    own = _own_hits(pending, monster)
    if own and all(h.amount == 0 or monster.has("damage_immune") for h in own):
        context.note(
            "mr.defense.zero-defendable", f"{monster.name} defends against a move reduced to 0 damage",
            involves=[monster_entity(monster), mechanic("Defense Step")],
        )
    for effect in card.effects:
        vocabulary.effect_handler(DEFENSE, effect.kind)(context, state, pending, monster, effect, action)
    context.note(None, "Damage waiting: " + _hits_text(pending.hits))


def _unaffected_may_defend(context: Context, monster: Monster, card: Card, only: str) -> None:
    redirects = any(e.kind in ("take-for-ally", "take-for-allies") for e in card.effects)
    if redirects and context.read(UNAFFECTED_REDIRECTION, "redirection-allowed"):
        context.note(
            "mr.redirect.example-shield-fire-river",
            f"{monster.name} is not affected by the {only}-only AoE but may still take damage for its allies",
            involves=[monster_entity(monster), mechanic("redirection"), mechanic("AoE")],
        )
        return
    raise context.reject(
        "not-affected",
        f"{monster.name} ({monster.attribute}) is not affected by a {only}-only AoE and cannot respond with a Defense Card",
        "mr.defense.unaffected-cannot-defend",
        involves=[monster_entity(monster), mechanic("AoE"), mechanic("Defense Step")],
    )


def _not_a_reduction(context: Context, pending: PendingAttack, ruling: str, doing: str, mechanism: str) -> None:
    """Against a move "not reduced by BLK", a Defense that moves its damage elsewhere still works: it reduces nothing."""
    if pending.not_reduced_by_blk:
        context.note(f"mr.not-reduced.{ruling}", f"{doing} is not reducing: it works against 'not reduced by BLK'",
                     involves=[mechanic(mechanism), mechanic("not reduced by BLK")])


def _chosen_ally(state: State, defender: Monster, action: Mapping[str, Any]) -> Monster:
    if "choose" not in action:
        raise InputError(f"{action['card']} needs an ally: name it with 'choose:'", expected="a 'choose:' key")
    ally = monster_of(state, defender.player, action["choose"], ("choose",))
    if ally is defender:
        raise InputError(f"{action['card']} needs another monster than its user", path=("choose",))
    return ally


def _move_hits(context: Context, pending: PendingAttack, source: Monster, target: Monster, card: str) -> None:
    for hit in [h for h in pending.hits if (h.player, h.monster) == (source.player, source.name)]:
        redirected = Hit(
            player=target.player, monster=target.name, pre_attribute=hit.amount, versus=hit.versus,
            attribute_checked=None, redirected_from=(source.player, source.name),
            original_target=hit.original_target, grit=False,
            declared_factor=hit.declared_factor, original_factor=hit.factor,
        )
        pending.hits[pending.hits.index(hit)] = redirected
        context.note(
            "mr.redirect.definition", f"{card} redirects: {target.name} takes the {hit.amount} damage meant for {source.name}",
            amount=hit.amount, involves=[monster_entity(source), monster_entity(target), mechanic("redirection")],
        )
        context.note(
            "mr.redirect.original-attribute", f"{target.name}'s attribute ({target.attribute}) is not checked",
            involves=[monster_entity(target), mechanic("redirection"), mechanic("attribute")],
        )
        if hit.declared_factor == 0 and hit.amount > 0:
            context.note(
                "mr.redirect.trivia-no-damage-made-damage",
                f"{pending.card} did no damage to {source.name} as declared; rechecked, it deals {hit.amount}, "
                f"which {target.name} now takes",
                amount=hit.amount, involves=[monster_entity(source), monster_entity(target), mechanic("redirection"),
                                             mechanic("attribute")],
            )
        for status in source.statuses:
            if status.definition.taunt == "must-damage":
                context.note(
                    "mr.taunt.attack-step-check",
                    f"{source.name} has {status.name} and no longer takes the damage: the taunt was checked in the "
                    "Attack Step, so the move stands",
                    involves=[monster_entity(source), status_entity(status.name), mechanic("taunt"), mechanic("redirection")],
                )
        _not_a_reduction(context, pending, "redirect", "Redirecting", "redirection")


@vocabulary.effect("take-for-ally", "Its user takes the damage meant for the ally named by 'choose'.", family=DEFENSE)
def take_for_ally(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _move_hits(context, pending, _chosen_ally(state, user, action), user, action["card"])


@vocabulary.effect("take-for-allies", "Its user takes the damage meant for all its allies.", family=DEFENSE)
def take_for_allies(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    for ally in state.breeder(user.player).monsters:
        if ally is not user:
            _move_hits(context, pending, ally, user, action["card"])


@vocabulary.effect("pass-to-ally", "The damage meant for its user goes to the ally named by 'choose'.", family=DEFENSE)
def pass_to_ally(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    ally = _chosen_ally(state, user, action)
    _move_hits(context, pending, user, ally, action["card"])
    if any(s.definition.taunt == "cannot-damage" for s in ally.statuses):
        context.note(
            "mr.taunt.redirect-bypasses", f"Redirected damage bypasses taunts: {ally.name} takes it",
            involves=[monster_entity(ally), *(status_entity(s.name) for s in ally.statuses if s.definition.taunt),
                      mechanic("taunt"), mechanic("redirection")],
        )


def _own_hits(pending: PendingAttack, user: Monster) -> list[Hit]:
    return [h for h in pending.hits if (h.player, h.monster) == (user.player, user.name)]


def _reduce(context: Context, pending: PendingAttack, user: Monster, reduction: Reduction, card: str) -> None:
    if pending.not_reduced_by_blk:
        context.note(
            "mr.not-reduced.intro", f"{pending.card} is not reduced by BLK moves: {card} has no effect on it",
            involves=[mechanic("not reduced by BLK")],
        )
        return
    for hit in _own_hits(pending, user):
        before = hit.amount
        hit.reductions += (reduction,)
        if reduction.kind == "halve":
            context.note(
                "mr.rounding.golden-rule",
                f"{card} halves {before} damage to {hit.amount} (rounded in favour of the attacker)",
                before=before, after=hit.amount, involves=[mechanic("rounding")],
            )
        elif reduction.kind == "minus":
            context.note(
                None, f"{card} reduces the damage to {user.name} by {reduction.amount}: {before} → {hit.amount}",
                before=before, after=hit.amount, involves=[monster_entity(user), mechanic("damage reduction")],
            )
        else:
            context.note(None, f"{card} reduces the {pending.move_type} move to 0 against {user.name}")


@vocabulary.effect("halve-damage", "Halves the damage its user takes (rounded in favour of the attacker).", family=DEFENSE)
def halve_damage(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _reduce(context, pending, user, Reduction("halve"), action["card"])


@vocabulary.effect("reduce-damage", "Takes 'amount' off the damage its user takes, stopping at 0.", family=DEFENSE,
                   params=takes(Effect, amount="The damage taken off."), required=["amount"])
def reduce_damage(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _reduce(context, pending, user, Reduction("minus", effect.amount), action["card"])


@vocabulary.effect("zero-move", "Reduces the move to 0 against its user (only moves of 'move_type', if given).", family=DEFENSE,
                   params=takes(Effect, "move_type"))
def zero_move(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    if effect.move_type and effect.move_type != pending.move_type:
        context.note(None, f"{action['card']} only reduces {effect.move_type} moves; {pending.card} is {pending.move_type}")
        return
    _reduce(context, pending, user, Reduction("zero"), action["card"])


def _attacker(state: State, pending: PendingAttack) -> Monster:
    return monster_of(state, pending.player, pending.monster, ())


@vocabulary.effect("reflect-half", "Half the damage meant for its user goes back to the attacker.", family=DEFENSE)
@vocabulary.effect("reflect-all", "All the damage meant for its user goes back to the attacker.", family=DEFENSE)
def reflect(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    attacker = _attacker(state, pending)
    for hit in _own_hits(pending, user):
        total = hit.amount
        back = halve(total, round_up=False) if effect.kind == "reflect-half" else total
        kept = total - back
        pending.hits[pending.hits.index(hit)] = Hit(
            player=user.player, monster=user.name, pre_attribute=kept, versus={}, attribute_checked=None,
            original_target=hit.original_target, redirected_from=hit.redirected_from,
        )
        pending.hits.append(
            Hit(player=attacker.player, monster=attacker.name, pre_attribute=back, versus={}, attribute_checked=None, reflected=True)
        )
        if effect.kind == "reflect-half":
            context.note(
                "mr.rounding.golden-rule",
                f"{action['card']} against {total} damage: {back} to {attacker.name}, {kept} to {user.name} "
                "(halves rounded in favour of the attacker)",
                reflected=back, kept=kept, involves=[mechanic("rounding"), mechanic("reflection")],
            )
        else:
            context.note(None, f"{action['card']} reflects {back} damage to {attacker.name}", reflected=back)
        _not_a_reduction(context, pending, "reflect", "Reflecting", "reflection")


@vocabulary.effect("grit", "If the attack would KO its user, its life is set to 1 instead.", family=DEFENSE)
def grit(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    for hit in _own_hits(pending, user):
        hit.grit = True
    context.note(None, f"{action['card']}: if this attack would KO {user.name}, its life is set to 1 instead")
    if pending.not_reduced_by_blk:
        context.note(
            "mr.not-reduced.grit", "Setting life to 1 is not reducing: it works against 'not reduced by BLK'",
            involves=[mechanic("not reduced by BLK")],
        )


def change_attribute(context: Context, state: State, monster: Monster, attribute: str, source: str) -> bool:
    """Bad Weather and Warp stop every attribute change; returns whether the attribute changed."""
    env = state.env_card()
    if env is not None and env.freeze_attributes:
        context.note(
            "mr.card.bad-weather-warp", f"{env.name} is in play: {monster.name}'s attribute cannot change",
            involves=[card_entity(env), monster_entity(monster), mechanic("attribute")],
        )
        return False
    if monster.attribute == attribute:
        context.note(
            "mr.redirect.example-shield-blowhole", f"{monster.name} is already {attribute}: its attribute does not change",
            involves=[monster_entity(monster), mechanic("attribute")],
        )
        return False
    before = monster.attribute
    grant(monster, StatusDef(name=f"{attribute} ({source})", attribute=attribute), None, source)
    context.note(None, f"{source}: {monster.name} changes from {before} to {attribute}")
    return True


@vocabulary.effect("change-attribute", "The monster named by 'choose' (default its user) changes attribute; the attack is rechecked.", family=DEFENSE,
                   params=takes(Effect, "attribute"), required=["attribute"])
def defense_change_attribute(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    target = monster_of(state, user.player, action.get("choose", user.name), ("choose",))
    if not change_attribute(context, state, target, effect.attribute or "", action["card"]):
        if any((h.player, h.monster) == (target.player, target.name) and h.redirected_from for h in pending.hits):
            context.note(
                "mr.redirect.new-attribute-on-change",
                f"{target.name}'s attribute did not change: the damage redirected to it is not rechecked",
                involves=[monster_entity(target), mechanic("attribute"), mechanic("redirection")],
            )
        return
    _recheck_attribute(context, pending, target)


def _recheck_attribute(context: Context, pending: PendingAttack, target: Monster) -> None:
    """The attribute of ``target`` changed while resolving defense: the damage waiting for it is rechecked (line 47)."""
    for hit in pending.hits:
        if (hit.player, hit.monster) == (target.player, target.name) and not hit.reflected:
            before = hit.amount
            hit.attribute_checked = target.attribute
            ruling = "mr.redirect.new-attribute-on-change" if hit.redirected_from else "mr.defense.attribute-recheck"
            context.note(
                ruling, f"Attribute changed while resolving defense: rechecked, {before} → {hit.amount} to {target.name}",
                involves=[monster_entity(target), mechanic("attribute")],
            )
            if hit.redirected_from and hit.original_factor > 1 and hit.factor > 1:
                context.note(
                    "mr.redirect.trivia-double-twice",
                    f"Doubled twice: × {hit.original_factor} against {hit.redirected_from[1]}, the original target, "
                    f"and × {hit.factor} against {target.name}, the new one: {hit.amount}",
                    amount=hit.amount, involves=[monster_entity(target), mechanic("redirection"), mechanic("attribute")],
                )


@vocabulary.effect("grant-status", "Its user gains a status.", family=DEFENSE,
                   params=takes(Effect, "status", "turns"), required=["status"])
def defense_grant_status(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    definition = state.statuses[effect.status or ""]
    before = user.attribute
    grant(user, definition, effect.turns, action["card"])
    context.note(None, f"{action['card']}: {user.name} gains {definition.name}")
    if user.attribute != before:
        context.note(None, f"{definition.name}: {user.name} changes from {before} to {user.attribute}")
        _recheck_attribute(context, pending, user)


def close_defense_step(context: Context, state: State) -> None:
    """The Defense Step's remaining steps: the damage is dealt."""
    assert state.pending is not None
    with context.involving(("card", state.pending.card)):
        context.walk(state, DEFENSE_STEP)
    state.pending = None


@steps("deal-damage")
def deal_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    assert pending is not None
    record = state.attacks[pending.record]
    for hit in pending.hits:
        monster = monster_of(state, hit.player, hit.monster, ())
        amount = hit.amount
        if monster.has("damage_immune") and amount:
            context.note(
                "mr.card.doll-zero", f"{monster.name} is under Doll: {amount} damage becomes 0",
                involves=[monster_entity(monster), status_entity("Doll")],
            )
            amount = 0
        if hit.redirected_from and monster.has("damage_immune"):
            context.note(
                "mr.redirect.hide-doll", f"Redirected damage to {monster.name} under Doll is nullified",
                involves=[monster_entity(monster), status_entity("Doll"), mechanic("redirection")],
            )
        before = monster.lp
        monster.lp = max(0, monster.lp - amount)
        if hit.grit and monster.lp == 0 and amount:
            monster.lp = 1
            context.note("mr.not-reduced.grit", f"Grit: {monster.name}'s life is set to 1", involves=[monster_entity(monster)])
        record["dealt"][monster.player][monster.name] += amount
        context.note(None, f"{monster.name} takes {amount} damage: LP {before} → {monster.lp}" + (" (KO)" if monster.ko else ""),
                     monster=monster.name, damage=amount, lp=monster.lp)
        if amount > 0:
            for status in [s for s in monster.statuses if s.definition.ends_if_damaged]:
                monster.statuses.remove(status)
                context.note(None, f"{status.name} ends: {monster.name} was damaged")
            if not hit.reflected:
                _on_damage(context, state, pending, hit, monster)


def _on_damage(context: Context, state: State, pending: PendingAttack, hit: Hit, damaged: Monster) -> None:
    if not pending.on_damage:
        return
    target = damaged
    if hit.redirected_from is not None and hit.original_target is not None:
        if context.read(ON_DAMAGE_AFTER_REDIRECT, "original-target"):
            target = monster_of(state, *hit.original_target, ())
    for effect in pending.on_damage:
        vocabulary.effect_handler(ON_DAMAGE, effect.kind)(context, state, pending, target, effect)


@vocabulary.effect("guts-loss", "The damaged monster's Breeder loses 'amount' GUTS.", family=ON_DAMAGE,
                   params=takes(Effect, amount="GUTS lost."), required=["amount"])
def on_damage_guts_loss(context: Context, state: State, pending: PendingAttack, target: Monster, effect: Effect) -> None:
    breeder = state.breeder(target.player)
    lost = min(effect.amount, breeder.guts)
    breeder.guts -= lost
    context.note(
        "mr.redirect.on-damage-effects", f"On damage: {target.player} loses {lost} GUTS",
        involves=[mechanic("on-damage effect"), mechanic("GUTS")],
    )


@vocabulary.effect("grant-status", "The damaged monster gains a status.", family=ON_DAMAGE,
                   params=takes(Effect, "status", "turns"), required=["status"])
def on_damage_grant_status(context: Context, state: State, pending: PendingAttack, target: Monster, effect: Effect) -> None:
    grant(target, state.statuses[effect.status or ""], effect.turns, pending.card)
    context.note(
        "mr.redirect.on-damage-effects", f"On damage: {target.name} gains {effect.status}",
        involves=[monster_entity(target), status_entity(effect.status or ""), mechanic("on-damage effect")],
    )


@steps.condition("move-hurts-its-user")
def move_hurts_its_user(state: State) -> bool:
    return state.pending is not None and state.pending.self_damage > 0


@steps("self-inflicted-damage")
def self_inflicted_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    assert pending is not None
    user = monster_of(state, pending.player, pending.monster, ())
    before = user.lp
    user.lp = max(0, user.lp - pending.self_damage)
    context.note(
        "mr.attack.self-inflicted",
        f"Self-inflicted damage after defense, not affected by modifiers: {user.name} takes {pending.self_damage}, "
        f"LP {before} → {user.lp}",
        damage=pending.self_damage, involves=[monster_entity(user), mechanic("self-inflicted damage")],
    )
