"""Damage Calculation: "Commence your Attack Step." The target declared, "check if the move is valid and whether
it will do damage" (attribute wordings, Taunts), "calculate the Final Damage" (base damage, additive bonus,
multiplier bonus), the Environment (ENV) check, and "Finally, pay the GUTS cost and spread the pain."
"""

from __future__ import annotations

import operator
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.monster_rancher_bc2.state import Attack, Breeder, Card, Hit, Monster, PendingAttack, State, Status, halve, opponent
from checker.engine.trace import mechanic
from checker.engine.vocabulary import ref

from .common import (
    ATTACK_STEP,
    _kept_while_user_ko,
    card_entity,
    card_of,
    check_user,
    game_on,
    grant,
    monster_entity,
    monster_of,
    require_in_hand,
    spend_cards,
    status_entity,
    steps,
    turn_player,
    vocabulary,
)


@vocabulary.action(
    "attack", "Use an attack move, combined with other cards (Attack Step).",
    params={
        "player": ref("player"),
        "monster": {"type": "string"},
        "card": {"type": "string"},
        "combo": ref("card-list"),
        "target": {"type": "string", "description": "Single-target moves: the monster declared now."},
        "split": {
            "type": "object",
            "description": "Distributable moves: damage per opposing monster, decided after the ENV check.",
            "additionalProperties": {"type": "integer", "minimum": 0},
        },
    },
    required=["player", "monster", "card"],
)
def attack_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    player = turn_player(context, state, action).player
    attacker = monster_of(state, player, action["monster"], ("monster",))
    card = card_of(state, action["card"], ("card",), "attack")
    combos = [card_of(state, name, ("combo", i), "combo") for i, name in enumerate(action.get("combo", []))]
    state.attack = Attack(player, attacker, card, combos)
    with context.involving(card_entity(card), *map(card_entity, combos), monster_entity(attacker)):
        context.walk(state, ATTACK_STEP, action)
    state.attack = None


def running(state: State) -> Attack:
    """The attack whose Attack Step is running."""
    assert state.attack is not None
    return state.attack


@steps("play-move")
def play_move(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    breeder = state.breeder(attack.player)
    if attack.attacker.ko:
        raise context.reject("monster-ko", f"{attack.attacker.name} is KO'd")
    require_in_hand(context, breeder, [attack.card.name, *(c.name for c in attack.combos)])
    for card in [attack.card, *attack.combos]:
        check_user(context, state, attack.player, attack.attacker, card)
    if attack.card.requires_status and not attack.attacker.status(attack.card.requires_status):
        raise context.reject(
            "missing-status", f"{attack.card.name} needs {attack.attacker.name} to have {attack.card.requires_status}"
        )
    for status in attack.attacker.statuses:
        if status.definition.cannot_attack:
            raise context.reject("cannot-attack", f"{attack.attacker.name} has {status.name} and cannot attack")
    if attack.attacker.has("exhausted") and not attack.attacker.has("unlimited_attacks"):
        raise context.reject("already-attacked", f"{attack.attacker.name} is Exhausted (already attacked)")
    context.note(None, f"{attack.player}'s {attack.attacker.name} uses {attack.names}")


@steps("declare-target")
def declare_target(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    card, foes = attack.card, state.breeder(opponent(attack.player))
    target = action.get("target")
    if card.spread == "single":
        if target is None:
            raise InputError(f"{card.name} damages one monster: declare its target now", expected="a 'target:' key")
        monster = monster_of(state, opponent(attack.player), target, ("target",))
        if monster.ko:
            raise context.reject("invalid-target", f"{monster.name} is KO'd and cannot be targeted")
        attack.affected = [monster]
        context.note(
            "mr.attack.declare-single", f"Single-target move: {monster.name} is declared as the target now",
            involves=[monster_entity(monster), mechanic("target declaration")],
        )
        return
    if target is not None:
        raise InputError(f"{card.name} is a {card.spread} move and declares no single target", path=("target",))
    if card.spread == "distributable":
        if "split" not in action:
            raise InputError(f"{card.name} is distributable: say how the damage is split", expected="a 'split:' key")
        context.note(
            "mr.attack.declare-distributable", "Distributable damage: targets are declared after the ENV check",
            involves=[mechanic("distributable damage")],
        )
        return
    candidates = [m for m in foes.monsters if not m.ko]
    if card.hits_own_side:
        candidates += [m for m in state.breeder(attack.player).monsters if not m.ko]
    attack.affected = [m for m in candidates if card.only is None or m.attribute == card.only]
    context.note(
        "mr.attack.aoe-no-declaration",
        "AoE move: no target is declared; it affects " + (", ".join(m.name for m in attack.affected) or "no monster"),
        involves=[mechanic("AoE"), *map(monster_entity, attack.affected)],
    )
    for monster in candidates:
        if monster not in attack.affected:
            context.note(
                "mr.defense.unaffected-cannot-defend",
                f"{monster.name} ({monster.attribute}) is not affected by a {card.only}-only AoE",
                involves=[monster_entity(monster), mechanic("attribute")],
            )


@steps("check-attribute-wording")
def check_attribute_wording(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    for monster in attack.affected:
        factor = attack.card.versus.get(monster.attribute)
        if factor == 0:
            context.note(
                "mr.attack.cant-damage-attribute",
                f"{attack.card.name} deals no damage to {monster.attribute} monsters: 0 damage to {monster.name}",
                attribute=monster.attribute, involves=[monster_entity(monster), mechanic("attribute")],
            )


def damaged_by(attack: Attack, split: Mapping[str, int] | None = None) -> list[Monster]:
    if split is not None:
        return [m for m in attack.affected if split.get(m.name, 0) > 0]
    return list(attack.affected)


def check_taunts(context: Context, state: State, attack: Attack, damaged: list[Monster]) -> None:
    """Taunts are checked in the Attack Step, on the monsters the move would damage."""
    defenders = state.breeder(opponent(attack.player)).monsters
    taunts = [status_entity(s.name) for m in defenders for s in m.statuses if s.definition.taunt]
    if attack.card.type == "SPE":
        if taunts:
            context.note(
                "mr.taunt.spe-unaffected", f"{attack.card.name} is an SPE move and does no damage: taunts do not apply",
                involves=[*taunts, mechanic("taunt"), mechanic("SPE")],
            )
        return
    if taunts:
        context.note(
            "mr.taunt.definition",
            f"{attack.card.name} is a damaging move: the taunts of {opponent(attack.player)}'s monsters decide "
            "which monsters it may damage",
            involves=[*taunts, mechanic("taunt")],
        )
    hit = {m.name for m in damaged if m.player != attack.player}
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt == "cannot-damage" and monster.name in hit:
                ruling = "mr.taunt.in-your-face" if status.name == "In Your Face" else "mr.taunt.enchant"
                _kept_while_user_ko(context, state, monster, status)
                _forbidden_and_required(context, monster)
                raise context.reject(
                    "taunt-forbids-target",
                    f"{monster.name} has {status.name}: the opponent cannot damage it",
                    ruling, monster=monster.name,
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")],
                )
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt != "must-damage":
                continue
            if monster.ko:
                context.note(
                    "mr.taunt.provoke-ko", f"{monster.name} has {status.name} but is KO'd: other monsters may be attacked",
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt"), mechanic("KO")],
                )
                continue
            if monster.name not in hit:
                _forbidden_and_required(context, monster)
                raise context.reject(
                    "taunt-requires-target",
                    f"{monster.name} has {status.name}: the move must also damage it",
                    "mr.taunt.provoke", monster=monster.name,
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")],
                )
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt and not monster.ko:
                _kept_while_user_ko(context, state, monster, status)
                _taunt_satisfied(context, attack, monster, status, monster.name in hit)
    for monster in damaged:
        if monster.has("damage_immune"):
            context.note(
                "mr.card.doll-not-taunt", f"{monster.name} is under Doll, which is not a taunt: it may be attacked, for 0 damage",
                involves=[monster_entity(monster), status_entity("Doll"), mechanic("taunt")],
            )
    if taunts:
        context.note(
            "mr.attack.taunt-check", "Taunts checked in the Attack Step: the move is allowed",
            involves=[*taunts, mechanic("taunt")],
        )


def _forbidden_and_required(context: Context, monster: Monster) -> None:
    """A monster that must be damaged (Provoke, Nyah Nyah) and cannot be (In Your Face): no damaging move is allowed."""
    required = [s.name for s in monster.statuses if s.definition.taunt == "must-damage"]
    forbidden = [s.name for s in monster.statuses if s.definition.taunt == "cannot-damage"]
    if required and forbidden and not monster.ko:
        context.note(
            "mr.taunt.iyf-with-provoke",
            f"{monster.name} must be damaged ({', '.join(required)}) and cannot be damaged ({', '.join(forbidden)}): "
            f"no damaging move may be used against {monster.player}'s monsters",
            involves=[monster_entity(monster), *map(status_entity, required + forbidden), mechanic("taunt")],
        )


def _taunt_satisfied(context: Context, attack: Attack, monster: Monster, status: Status, damaged: bool) -> None:
    """The taunt a move obeys: it damages a monster that requires it, or spares one that forbids it."""
    several = attack.card.spread != "single"
    if status.definition.taunt == "must-damage":
        ruling = "mr.taunt.provoke-aoe-distributable" if several else "mr.taunt.provoke"
        text = f"{monster.name} has {status.name}: the move damages it, as it must"
    else:
        forbids = "mr.taunt.in-your-face" if status.name == "In Your Face" else "mr.taunt.enchant"
        ruling = "mr.taunt.enchant-aoe-distributable" if several else forbids
        text = f"{monster.name} has {status.name}: the move does not damage it"
    context.note(ruling, text, involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")])


@steps.condition("targets-known")
def targets_known(state: State) -> bool:
    """A distributable move's targets are known only when its damage is split (after the ENV check)."""
    return running(state).card.spread != "distributable"


@steps("check-taunts")
def check_taunts_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    check_taunts(context, state, attack, damaged_by(attack))


@steps("base-damage")
def base_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    attack.raw = attack.card.damage
    attack.expression = f"{attack.raw} ({attack.card.name})"
    context.note("mr.attack.final-base", f"Base damage = {attack.expression}", base=attack.raw)


def _bonus_statuses(attack: Attack) -> list[Status]:
    return [
        s for s in attack.attacker.statuses
        if (s.definition.attack_add or s.definition.attack_multiply != 1)
        and s.definition.attack_type in (None, attack.card.type)
    ]


@steps("additive-bonus")
def additive_bonus(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    attack.bonus_statuses = _bonus_statuses(attack)
    parts = [(c.add, c.name) for c in attack.combos if c.add] + [
        (s.definition.attack_add, s.name) for s in attack.bonus_statuses if s.definition.attack_add
    ]
    if not parts:
        return
    attack.raw += sum(amount for amount, _ in parts)
    attack.expression += "".join(f" + {amount} ({name})" for amount, name in parts)
    context.note(
        "mr.attack.final-additive", f"Additive bonus: {attack.expression} = {attack.raw}", damage=attack.raw,
        involves=[*(status_entity(s.name) for s in attack.bonus_statuses), mechanic("Final Damage")],
    )


@steps("multiplier-bonus")
def multiplier_bonus(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    parts = [(c.multiply, c.name) for c in attack.combos if c.multiply != 1] + [
        (s.definition.attack_multiply, s.name) for s in attack.bonus_statuses if s.definition.attack_multiply != 1
    ]
    if parts:
        for factor, _ in parts:
            attack.raw *= factor
        terms = "".join(f" × {factor} ({name})" for factor, name in parts)
        attack.expression = f"({attack.expression}){terms}" if " + " in attack.expression else attack.expression + terms
        context.note(
            "mr.attack.final-multiplier", f"Multiplier bonus: {attack.expression} = {attack.raw}", damage=attack.raw,
            involves=[*(status_entity(s.name) for s in attack.bonus_statuses), mechanic("Final Damage")],
        )
    for monster in attack.affected:
        versus = attack.card.versus.get(monster.attribute, 1)
        if versus not in (0, 1):
            context.note(
                "mr.attack.final-multiplier",
                f"× {versus} against {monster.attribute}: {monster.name} would take {attack.raw * versus}",
                involves=[monster_entity(monster), mechanic("attribute")],
                monster=monster.name,
            )


def amount_for(attack: Attack, monster: Monster) -> int:
    """Final Damage a monster would take: 0 if the move cannot damage it or it is under Doll."""
    factor = attack.card.versus.get(monster.attribute, 1)
    if factor == 0 or monster.has("damage_immune"):
        return 0
    return attack.raw * factor + attack.env_add


@steps("env-final-damage-modifier")
def env_final_damage_modifier(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    env = state.env_card()
    if env is not None and env.final_damage_add:
        attack.env_add = env.final_damage_add
        attack.expression += f" + {env.final_damage_add} ({env.name})"
        context.note(
            "mr.attack.env-final-modifier",
            f"ENV 'Final Damage' modifier: {attack.expression} = {attack.raw + env.final_damage_add}",
            involves=[card_entity(env), mechanic("Final Damage")],
        )
    if attack.card.spread == "distributable":
        attack.final_damage = attack.raw + attack.env_add
    else:
        for monster in attack.affected:
            if monster.has("damage_immune"):
                context.note(
                    "mr.card.doll-zero", f"{monster.name} is under Doll: it would take 0 damage",
                    involves=[monster_entity(monster), status_entity("Doll")],
                )
        attack.final_damage = max((amount_for(attack, m) for m in attack.affected), default=0)
        if attack.affected and all(m.has("damage_immune") for m in attack.affected):
            context.note(
                "mr.card.doll-final-damage", "The attack only affects monsters under Doll: its Final Damage is 0",
                involves=[status_entity("Doll"), mechanic("Final Damage")],
            )
    how = attack.expression if attack.final_damage == attack.raw + attack.env_add else "its highest against an affected monster"
    context.note(None, f"Final Damage = {how} = {attack.final_damage}", final_damage=attack.final_damage)


@steps("env-prohibition")
def env_prohibition(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    env = state.env_card()
    if env is None:
        return
    damage = attack.final_damage
    for bound, sign, beyond in ((env.forbid_at_most, "≤", operator.le), (env.forbid_at_least, "≥", operator.ge)):
        if bound is None:
            continue
        rule = f"{env.name} forbids Final Damage {sign} {bound}"
        involves = [card_entity(env), mechanic("Final Damage")]
        if beyond(damage, bound):
            raise context.reject("env-forbids-final-damage", f"{rule}: {damage} cannot be used", "mr.attack.env-prohibition",
                                 final_damage=damage, involves=involves)
        context.note("mr.attack.env-prohibition", f"{rule}: {damage} is allowed", final_damage=damage, involves=involves)


def pay_guts(context: Context, breeder: Breeder, cards: list[Card], ruling: str | None = None, *, cost: int | None = None) -> None:
    """Pay for ``cards``: their GUTS costs, or ``cost`` when a card changed what they cost."""
    cost = sum(card.cost for card in cards) if cost is None else cost
    if cost > breeder.guts:
        raise context.reject(
            "not-enough-guts", f"{' + '.join(c.name for c in cards)} costs {cost} GUTS; {breeder.player} has {breeder.guts}",
            ruling, involves=[mechanic("GUTS")],
        )
    breeder.guts -= cost
    spend_cards(breeder, [card.name for card in cards])
    if cost:
        context.note(None, f"{breeder.player} pays {cost} GUTS: {breeder.guts + cost} - {cost} = {breeder.guts}", guts=breeder.guts)


def attack_cost(context: Context, attack: Attack) -> int:
    """The GUTS the move and its combo cards cost. A combo card that halves the move's cost is played by the
    attacker, so the halving is rounded in favour of the opponent: up."""
    move = attack.card.cost
    for combo in attack.combos:
        if combo.halve_move_cost:
            before, move = move, halve(move, round_up=True)
            context.note("mr.rounding.golden-rule", f"{combo.name} halves {attack.card.name}'s GUTS cost: {before} → {move} "
                         f"(rounded in favour of {opponent(attack.player)}, who did not play {combo.name})",
                         before=before, after=move, involves=[card_entity(combo), mechanic("rounding"), mechanic("GUTS")])
    return move + sum(combo.cost for combo in attack.combos)


@steps("pay-guts")
def pay_guts_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    pay_guts(context, state.breeder(attack.player), [attack.card, *attack.combos], "mr.attack.guts-paid-last",
             cost=attack_cost(context, attack))
    context.note("mr.attack.guts-paid-last", "GUTS are paid after every check has passed", involves=[mechanic("GUTS")])
    for status in attack.bonus_statuses:
        if status.definition.consumed:
            attack.attacker.statuses.remove(status)
    grant(attack.attacker, state.statuses["Exhausted"], 1, "attack")


@steps("spread-damage")
def spread_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    hits: list[Hit] = []
    if attack.card.spread == "distributable":
        split = action["split"]
        foes = state.breeder(opponent(attack.player))
        attack.affected = [monster_of(state, foes.player, name, ("split", name)) for name in split]
        if sum(split.values()) != attack.final_damage:
            raise context.reject(
                "split-does-not-match", f"the split adds up to {sum(split.values())}, not the Final Damage {attack.final_damage}"
            )
        check_taunts(context, state, attack, damaged_by(attack, split))
        shares = ", ".join(f"{amount} to {name}" for name, amount in split.items())
        context.note(
            "mr.attack.distribute-after", f"Damage split after the ENV check: {shares}",
            involves=[mechanic("distributable damage"), *map(monster_entity, attack.affected)],
        )
        for monster in attack.affected:
            hits.append(_hit(monster, split[monster.name], attack.card, 0))
    else:
        for monster in attack.affected:
            hits.append(_hit(monster, attack.raw, attack.card, attack.env_add))
        if attack.card.spread == "aoe":
            context.note(
                "mr.attack.aoe-all-applicable", "AoE: every affected monster takes damage: " + _hits_text(hits),
                involves=[mechanic("AoE"), *map(monster_entity, attack.affected)],
            )
    affected = frozenset((m.player, m.name) for m in attack.affected)
    state.attacks.append(
        {"attacker": attack.attacker.name, "card": attack.card.name, "combo": [c.name for c in attack.combos],
         "final_damage": attack.final_damage,
         "dealt": {player: {m.name: 0 for m in b.monsters} for player, b in state.players.items()}}
    )
    state.pending = PendingAttack(
        player=attack.player, monster=attack.attacker.name, card=attack.card.name, move_type=attack.card.type,
        hits=hits, affected=affected, only=attack.card.only, not_reduced_by_blk=attack.card.not_reduced_by_blk,
        self_damage=attack.card.self_damage, on_damage=attack.card.on_damage, record=len(state.attacks) - 1,
    )


def _hit(monster: Monster, pre_attribute: int, card: Card, env_add: int) -> Hit:
    return Hit(
        player=monster.player, monster=monster.name, pre_attribute=pre_attribute, versus=dict(card.versus),
        attribute_checked=monster.attribute, env_add=env_add, original_target=(monster.player, monster.name),
        declared_factor=card.versus.get(monster.attribute, 1),
    )


def _hits_text(hits: list[Hit]) -> str:
    return ", ".join(f"{hit.monster} {hit.amount}" for hit in hits) or "none"
