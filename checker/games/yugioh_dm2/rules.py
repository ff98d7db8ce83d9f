"""Yu-Gi-Oh! Duel Monsters II, the Battle Phase, as the tournament rulebook's chapter states it.

Read beside ``yugioh-duel-monsters-2-battle-phase.txt``: Start Step, Battle Step, Replay
Rules, Damage Step, End Step, At the Same Time. The duel always stands at one step of
``procedure.yaml``; a player's action names the step it belongs to and :func:`advance` walks
every step in between, in the declared order. Chains resolve last link first (the general
rule of Chains, which this chapter relies on) when the players stop adding links.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from checker.errors import InputError
from checker.game import Context
from checker.games.yugioh_dm2.state import (
    Battle,
    Card,
    Lasting,
    Link,
    Monster,
    State,
    build_state,
    card_from,
    lookup_card,
    observe,
    opponent,
)
from checker.procedure import Procedure, StepHandlers
from checker.schema import nearest
from checker.trace import Entity, mechanic

steps = StepHandlers()

# Ambiguous rulings: each is a named switch; the readings are in rulings.yaml.
EMPTY_ZONE_ATTACK_USED = "ygo.amb.replay-empty-zone-attack-used"
REPLAY_DIRECT_ATTACK = "ygo.amb.replay-direct-attack"
NEW_MONSTER_OR_OLD_ZONE = "ygo.amb.replay-new-monster-or-old-zone"
SAME_TIME_TIE = "ygo.amb.same-time-tie"

#: Steps where players may activate cards, and what each allows (None: any Magic or Trap).
WINDOWS: dict[str, frozenset[str] | None] = {
    "main": None,
    "enter-battle-phase": None,
    "attack-responses": None,
    "further-chains": None,
    "before-damage-calculation": frozenset({"counter", "stat-change", "damage-step"}),
    "after-damage-calculation": frozenset({"counter", "battle-damage-response"}),
    "send-to-graveyard": frozenset({"counter", "destroyed-response"}),
    "end-step-activations": frozenset({"quick-play", "trap"}),
}
#: The points of the turn an effect may last until, in words.
UNTIL: dict[str, str] = {
    "end-of-damage-step": "the end of the Damage Step",
    "end-of-battle-phase": "the end of the Battle Phase",
    "end-of-turn": "the end of the turn",
}
#: Steps that belong to a declared battle; the walk skips them when there is none.
BATTLE_ONLY_STEPS = frozenset({
    "replay-check", "flip-face-down", "before-damage-calculation", "battle-only-effects", "damage-calculation",
    "after-damage-calculation", "send-to-graveyard", "end-of-damage-step",
})


def card_entity(name: str) -> Entity:
    return ("card", name)


def monster_entity(state: State, monster: Monster) -> Entity:
    return ("monster", monster.card)


def monster_named(state: State, name: str, path: tuple[str | int, ...]) -> Monster:
    monster = state.monster(name)
    if monster is None:
        names = [m.name for m in state.monsters]
        raise InputError(f"no monster named {name!r} on the field{nearest(name, names)}", path=path,
                         expected="one of: " + (", ".join(names) or "no monster is on the field"))
    return monster


def attack_value(state: State, monster: Monster, battling: bool) -> int:
    bonus = state.cards[monster.card].battle_atk if battling and monster.face_up else 0
    return monster.atk + bonus


def setup(initial: Mapping[str, Any], cards: Mapping[str, Any], catalogue: Mapping[str, Any]) -> State:
    """The duel as the scenario sets it; every card is the scenario's (the chapter names none)."""
    book = {name: card_from(name, raw) for name, raw in {**catalogue.get("cards", {}), **cards}.items()}
    return build_state(initial, book)


__all__ = ["steps", "setup", "observe", "apply", "settle"]


# === Walking the procedure =======================================================================


def advance(context: Context, state: State, procedure: Procedure, to: str, action: Mapping[str, Any]) -> None:
    """Walk from the current step to ``to``, running every step in between, in order."""
    order = [step.id for _, step in procedure.steps()]
    if state.chain:
        resolve_chain(context, state)
    start = order.index(state.step) + 1 if state.step in order else 0
    for step_id in order[start: order.index(to) + 1]:
        if step_id == "declare-attack" or (step_id in BATTLE_ONLY_STEPS and not _fought(state, step_id)):
            continue
        procedure.run(step_id, steps, context, state, action)
        state.step = step_id
        if step_id in WINDOWS and step_id != to and state.chain:
            resolve_chain(context, state)
        if procedure.step(step_id).returns_to:
            state.step = procedure.step(step_id).returns_to


def _fought(state: State, step_id: str) -> bool:
    """Whether a battle step applies: there is a battle, and the replay rules left something to fight."""
    if state.battle is None:
        return False
    return step_id in ("replay-check", "end-of-damage-step") or not state.battle.cancelled


def the_battle(state: State) -> Battle:
    assert state.battle is not None, "the walk runs battle steps only during a battle"
    return state.battle


# === Start Step ==================================================================================


@steps("enter-battle-phase")
def enter_battle_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if state.turn == 1 and state.active == state.first_player:
        raise context.reject(
            "first-turn-no-battle-phase",
            f"{state.active} went first and cannot conduct a Battle Phase in their very first turn",
            "ygo.start.first-turn", involves=[mechanic("Battle Phase")],
        )
    context.note("ygo.start.announce", f"{state.active}: \"I'm entering the Battle Phase.\"", involves=[mechanic("Battle Phase")])


# === Battle Step =================================================================================


@steps("declare-attack")
def declare_attack(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, defender = state.active, opponent(state.active)
    names = action.get("attackers") or [action["attacker"]]
    attackers = [monster_named(state, name, ("attacker",)) for name in names]
    for attacker in attackers:
        if attacker.controller != player:
            raise InputError(f"{attacker.name} is not {player}'s monster", path=("attacker",))
        if attacker.position != "attack" or not attacker.face_up:
            raise context.reject("not-attack-position", f"{attacker.name} is not a face-up Attack Position monster",
                                 "ygo.battle.once-per-turn", involves=[monster_entity(state, attacker)])
        if attacker.attacked:
            raise context.reject("already-attacked", f"{attacker.name} has already attacked this turn",
                                 "ygo.battle.once-per-turn", involves=[monster_entity(state, attacker)])
    foes = state.side(defender)
    if action.get("direct"):
        if foes:
            raise context.reject("opponent-has-monsters", f"{defender} controls monsters: a direct attack is not allowed",
                                 "ygo.battle.direct", involves=[mechanic("direct attack")])
        battle = Battle([a.name for a in attackers], [], [], True, defender)
        context.note("ygo.battle.direct", f"{defender} has no monsters: {', '.join(names)} attacks directly",
                     involves=[*(monster_entity(state, a) for a in attackers), mechanic("direct attack")])
    else:
        targets, zones = _targets(context, state, action, defender)
        battle = Battle([a.name for a in attackers], [t.name if t else None for t in targets], zones, False, defender)
        shown = ", ".join(t.name if t else f"zone {z}" for t, z in zip(targets, zones, strict=True))
        ruling = "ygo.same-time.declare" if battle.simultaneous else "ygo.battle.declare"
        context.note(ruling, f"{player} declares an attack: {', '.join(names)} → {shown}",
                     involves=[*(monster_entity(state, a) for a in attackers), *(monster_entity(state, t) for t in targets if t)])
    if battle.simultaneous:
        context.note("ygo.same-time.basic-flow", "Attack at the same time: it follows the basic flow of a single battle",
                     involves=[mechanic("attack at the same time")])
    for attacker in attackers:
        attacker.attacked = True
    state.battle = battle
    state.chains_resolved = 0


def _targets(context: Context, state: State, action: Mapping[str, Any], defender: str) -> tuple[list[Monster | None], list[int]]:
    if "target_zone" in action:
        zone = action["target_zone"]
        monster = state.in_zone(defender, zone)
        context.note("ygo.battle.divider", f"The field is hidden: the attack targets {defender}'s Monster Card Zone {zone}",
                     involves=[mechanic("divider")])
        return [monster], [zone]
    names = action.get("targets") or ([action["target"]] if "target" in action else [])
    if not names:
        raise InputError("an attack names its target ('target:'), targets, a 'target_zone:', or is 'direct: true'")
    targets = [monster_named(state, name, ("target",)) for name in names]
    for target in targets:
        if target.controller != defender:
            raise InputError(f"{target.name} is not {defender}'s monster", path=("target",))
    return list(targets), [t.zone for t in targets]


def activate(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    player = action["player"]
    card = lookup_card(state.cards, action["card"], ("card",))
    if card.type == "monster" or card.effect is None:
        raise InputError(f"{card.name} is not a Magic or Trap card with an effect", path=("card",))
    owner = state.players[player]
    if card.name not in owner.hand and card.name not in owner.set_cards:
        raise context.reject("card-not-available", f"{card.name} is neither in {player}'s hand nor set")
    step = state.step
    if step not in WINDOWS:
        raise context.reject("no-activation-now", f"cards cannot be activated during {step}")
    _check_window(context, state, card, step)
    _check_summoned_monster(context, state, card, player)
    pile = owner.set_cards if card.name in owner.set_cards else owner.hand
    pile.remove(card.name)
    owner.graveyard.append(card.name)
    link = Link(player, card.name, card.effect, action.get("target"), action.get("zone"))
    state.chain.append(link)
    context.note(None, f"Chain Link {len(state.chain)}: {player} activates {card.name}", involves=[card_entity(card.name)])


def _check_window(context: Context, state: State, card: Card, step: str) -> None:
    classes = card.classes | ({"trap"} if card.type == "trap" else set())
    if "attack-response" in card.classes:
        if step == "attack-responses" and state.battle is not None:
            context.note("ygo.battle.respond", f"{card.name} responds to the attack declaration",
                         involves=[card_entity(card.name), mechanic("attack response")])
        else:
            ruling = "ygo.battle.later-chains" if step == "further-chains" else "ygo.battle.respond"
            raise context.reject("attack-response-too-late",
                                 f"{card.name} responds to attacks and can only be activated in response to the declaration",
                                 ruling, involves=[card_entity(card.name), mechanic("attack response")])
    allowed = WINDOWS[step]
    if allowed is None or classes & allowed:
        if step == "before-damage-calculation":
            context.note("ygo.damage.activation-limits", f"{card.name} may be activated in the Damage Step",
                         involves=[card_entity(card.name), mechanic("Damage Step")])
        if step == "end-step-activations":
            context.note("ygo.end.quick-play-trap", f"{card.name} may be activated in the End Step",
                         involves=[card_entity(card.name)])
        return
    if step == "before-damage-calculation":
        raise context.reject("not-allowed-in-damage-step",
                             f"{card.name} is not a Counter card, does not change ATK or DEF, and does not say it can be "
                             "activated during the Damage Step", "ygo.damage.activation-limits",
                             involves=[card_entity(card.name), mechanic("Damage Step")])
    if step in ("after-damage-calculation", "send-to-graveyard"):
        ruling = "ygo.damage.before-calculation" if classes & {"stat-change", "damage-step"} else "ygo.damage.activation-limits"
        raise context.reject("after-damage-calculation", f"{card.name} cannot be activated after damage calculation",
                             ruling, involves=[card_entity(card.name), mechanic("Damage Step")])
    raise context.reject("not-quick-play-or-trap", "only Quick-Play and Trap cards may be activated in the End Step",
                         "ygo.end.quick-play-trap", involves=[card_entity(card.name)])


def _check_summoned_monster(context: Context, state: State, card: Card, player: str) -> None:
    """A Special Summon from the hand or the Graveyard needs the monster there."""
    effect = card.effect
    if effect is None or effect.kind != "special-summon":
        return
    pile = state.players[player].pile(effect.summoned_from)
    if pile is not None and effect.monster not in pile:
        raise context.reject("monster-not-available",
                             f"{card.name} Special Summons {effect.monster} from {player}'s {effect.summoned_from}, "
                             "which does not hold it", involves=[card_entity(card.name)])


def resolve_chain(context: Context, state: State) -> None:
    """Both players pass: the Chain resolves, last link first."""
    links, state.chain = state.chain, []
    for number in range(len(links), 0, -1):
        link = links[number - 1]
        if link.negated:
            context.note(None, f"Chain Link {number} ({link.card}) was negated", involves=[card_entity(link.card)])
            continue
        context.note(None, f"Chain Link {number} resolves: {link.card}", involves=[card_entity(link.card)])
        apply_effect(context, state, link, links[: number - 1])
    if links:
        state.chains_resolved += 1


def resolve_chain_action(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    resolve_chain(context, state)
    if state.step == "attack-responses":
        state.step = "further-chains"
        context.note("ygo.battle.later-chains", "The first Chain is over: later Chains may not respond to the attack",
                     involves=[mechanic("attack response")])


def apply_effect(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    EFFECTS[link.effect.kind](context, state, link, earlier)


def _target(state: State, link: Link) -> Monster:
    if link.target is None:
        raise InputError(f"{link.card} needs a target: name it with 'target:'", expected="a 'target:' key")
    return monster_named(state, link.target, ("target",))


def change_stat(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    monster = _target(state, link)
    before, after = _add_to_stat(monster, link.effect.kind, link.effect.amount)
    lasts = "" if link.effect.until is None else f" until {UNTIL[link.effect.until]}"
    context.note(None, f"{link.card}: {monster.name}'s {_stat_name(link.effect.kind)} {before} → {after}{lasts}",
                 involves=[card_entity(link.card), monster_entity(state, monster)])
    if link.effect.until is not None:
        state.lasting.append(Lasting(link.card, monster.name, link.effect.kind, link.effect.amount, link.effect.until))


def _add_to_stat(monster: Monster, kind: str, amount: int) -> tuple[int, int]:
    """Add ``amount`` to the ATK (change-atk) or DEF (change-def); the value before and after."""
    if kind == "change-atk":
        monster.atk += amount
        return monster.atk - amount, monster.atk
    monster.defence += amount
    return monster.defence - amount, monster.defence


def _stat_name(kind: str) -> str:
    return "ATK" if kind == "change-atk" else "DEF"


def end_durations(context: Context, state: State, ending: frozenset[str], ruling: str | None) -> None:
    """The changes that held until this point are undone."""
    for lasting in [lasting for lasting in state.lasting if lasting.until in ending]:
        state.lasting.remove(lasting)
        monster = state.monster(lasting.monster)
        assert monster is not None, "a monster's lasting changes are dropped when it leaves the field"
        before, after = _add_to_stat(monster, lasting.kind, -lasting.amount)
        context.note(ruling, f"{lasting.card} lasted until {UNTIL[lasting.until]}: "
                     f"{monster.name}'s {_stat_name(lasting.kind)} {before} → {after}",
                     involves=[card_entity(lasting.card), monster_entity(state, monster)])


def leave_field(state: State, monster: Monster) -> None:
    """The monster leaves the field; changes that were to last on it until later go with it."""
    state.monsters.remove(monster)
    state.lasting = [lasting for lasting in state.lasting if lasting.monster != monster.name]


def destroy(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    monster = _target(state, link)
    send_to_graveyard(context, state, monster, f"destroyed by {link.card}")


def return_to_hand(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    """The monster leaves the field for its owner's hand (no card here changes control: the controller owns it)."""
    monster = _target(state, link)
    leave_field(state, monster)
    state.players[monster.controller].hand.append(monster.card)
    context.note(None, f"{link.card}: {monster.name} leaves zone {monster.zone} and returns to {monster.controller}'s hand",
                 involves=[card_entity(link.card), monster_entity(state, monster)])


def move(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    monster = _target(state, link)
    zone = link.zone or link.effect.zone
    if zone is None or state.in_zone(monster.controller, zone) is not None:
        raise InputError(f"{link.card} moves {monster.name} to an empty Monster Card Zone: give 'zone:'", path=("zone",))
    context.note(None, f"{link.card}: {monster.name} moves from zone {monster.zone} to zone {zone}",
                 involves=[card_entity(link.card), monster_entity(state, monster)])
    monster.zone = zone


def special_summon(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    card = lookup_card(state.cards, link.effect.monster or "", ("card",))
    zone = link.zone or link.effect.zone
    if zone is None or state.in_zone(link.player, zone) is not None:
        raise InputError(f"{link.card} places {card.name} in an empty Monster Card Zone: give 'zone:'", path=("zone",))
    pile = state.players[link.player].pile(link.effect.summoned_from)
    if pile is not None:
        if card.name not in pile:
            context.note(None, f"{link.card}: {card.name} is no longer in {link.player}'s {link.effect.summoned_from}: "
                         "nothing is placed", involves=[card_entity(link.card), ("monster", card.name)])
            return
        pile.remove(card.name)
    name = card.name if state.monster(card.name) is None else f"{card.name} ({link.player}{zone})"
    state.monsters.append(Monster(name, card.name, link.player, zone, link.effect.position, True, card.atk, card.defence))
    context.note(None, f"{link.card}: {card.name} is placed from {link.player}'s {link.effect.summoned_from} "
                 f"in zone {zone}",
                 involves=[card_entity(link.card), ("monster", card.name)])
    if state.battle is not None and link.player == state.battle.defender:
        state.battle.placed.append(name)


def negate(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    if earlier:
        earlier[-1].negated = True
        context.note(None, f"{link.card} negates {earlier[-1].card}", involves=[card_entity(link.card), card_entity(earlier[-1].card)])


def life_points(context: Context, state: State, link: Link, earlier: list[Link]) -> None:
    player = link.player if link.effect.to == "controller" else opponent(link.player)
    change = link.effect.amount if link.effect.kind == "gain-lp" else -link.effect.amount
    before = state.players[player].lp
    state.players[player].lp += change
    context.note(None, f"{link.card}: {player}'s Life Points {before} → {before + change}",
                 involves=[card_entity(link.card), mechanic("Life Points")])


EFFECTS: dict[str, Callable[[Context, State, Link, list[Link]], None]] = {
    "change-atk": change_stat, "change-def": change_stat, "destroy": destroy, "return-to-hand": return_to_hand, "move": move,
    "special-summon": special_summon, "negate": negate, "damage": life_points, "gain-lp": life_points,
}


def send_to_graveyard(context: Context, state: State, monster: Monster, why: str) -> None:
    leave_field(state, monster)
    state.players[monster.controller].graveyard.append(monster.card)
    context.note(None, f"{monster.name} is sent to the Graveyard ({why})", involves=[monster_entity(state, monster)])
    effect = state.cards[monster.card].on_sent_to_graveyard
    if effect is not None:
        state.chain.append(Link(monster.controller, monster.card, effect, source=monster.name))
        context.note("ygo.damage.to-graveyard", f"\"When this card is sent to the Graveyard\": {monster.card} activates",
                     involves=[monster_entity(state, monster), mechanic("Graveyard trigger")])


# === Replay Rules ================================================================================


@steps("attack-responses")
def attack_responses(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The window right after the declaration; passing it means no one responded."""


@steps("further-chains")
def further_chains(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("ygo.battle.to-damage-step", "Neither player wishes to Chain: play proceeds to the Damage Step",
                 involves=[mechanic("Damage Step")])


@steps("replay-check")
def replay_check(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    if battle.direct:
        if state.side(battle.defender) and context.reading(REPLAY_DIRECT_ATTACK) == "new-monster-becomes-target":
            new = state.side(battle.defender)[0]
            battle.direct, battle.targets, battle.target_zones = False, [new.name], [new.zone]
            context.note("ygo.replay.new-monster", f"{new.name} was placed before the Damage Step: it becomes the attack target",
                         involves=[monster_entity(state, new), mechanic("replay")])
        return
    placed = state.monster(battle.placed[-1]) if battle.placed else None
    if placed is not None and _new_monster_wins(context, state, battle):
        battle.targets, battle.target_zones = [placed.name], [placed.zone]
        context.note("ygo.replay.new-monster", f"{placed.name} was placed on {battle.defender}'s side before the Damage Step: "
                     "it becomes the attack target", involves=[monster_entity(state, placed), mechanic("replay")])
        return
    kept: list[tuple[str | None, int]] = []
    for name, zone in zip(battle.targets, battle.target_zones, strict=True):
        if _still_in_place(state, battle, name, zone):
            kept.append((name, zone))
            continue
        now = state.in_zone(battle.defender, zone)
        if now is None:
            context.note("ygo.replay.empty-zone", f"Zone {zone} holds no monster: nothing happens",
                         involves=[mechanic("replay")])
            continue
        kept.append((now.name, zone))
        if name is None:
            continue
        context.note("ygo.replay.moved-or-removed", f"{name} is no longer in zone {zone}: the attack goes to {now.name}, "
                     "which is there now", involves=[monster_entity(state, now), mechanic("replay")])
    battle.targets, battle.target_zones = [n for n, _ in kept], [z for _, z in kept]
    if not battle.targets:
        battle.cancelled = True
        if context.reading(EMPTY_ZONE_ATTACK_USED) == "attack-not-used":
            for name in battle.attackers:
                attacker = state.monster(name)
                if attacker is not None:
                    attacker.attacked = False


def _new_monster_wins(context: Context, state: State, battle: Battle) -> bool:
    """A monster was placed: it becomes the target, unless a removed or moved target's zone decides instead."""
    if all(_still_in_place(state, battle, name, zone) for name, zone in zip(battle.targets, battle.target_zones, strict=True)):
        return True
    return context.reading(NEW_MONSTER_OR_OLD_ZONE) == "new-monster-becomes-target"


def _still_in_place(state: State, battle: Battle, name: str | None, zone: int) -> bool:
    target = state.monster(name) if name else None
    return target is not None and target.zone == zone and target.controller == battle.defender


# === Damage Step =================================================================================


@steps("flip-face-down")
def flip_face_down(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    for name in battle.targets:
        target = state.monster(name) if name else None
        if target is not None and not target.face_up:
            target.face_up, target.position = True, "defense"
            battle.flipped.append(target.name)
            ruling = "ygo.same-time.flip" if battle.simultaneous else "ygo.damage.flip"
            context.note(ruling, f"{name} was face-down: it is flipped face-up in Defense Position (DEF {target.defence})",
                         involves=[monster_entity(state, target), mechanic("flip")])


@steps("before-damage-calculation")
def before_damage_calculation(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The window where Counter, ATK/DEF-changing and Damage Step cards may be activated."""


@steps("battle-only-effects")
def battle_only_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    for name in battle.fighters:
        monster = state.monster(name)
        if monster is not None and monster.face_up and state.cards[monster.card].battle_atk:
            context.note("ygo.damage.battle-only-effects",
                         f"{monster.name}'s effect applies only during battle: ATK {monster.atk} + "
                         f"{state.cards[monster.card].battle_atk} = {attack_value(state, monster, True)}",
                         involves=[monster_entity(state, monster), mechanic("battle-only effect")])


@steps("damage-calculation")
def damage_calculation(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    attackers = [m for m in (state.monster(n) for n in battle.attackers) if m is not None]
    if battle.direct:
        for attacker in attackers:
            damage = attack_value(state, attacker, True)
            _battle_damage(context, state, battle, battle.defender, damage, "ygo.damage.direct",
                           f"Direct attack: {attacker.name}'s full ATK {damage} is Battle Damage to {battle.defender}")
        _record(state, battle)
        return
    targets = [m for m in (state.monster(n) for n in battle.targets if n) if m is not None]
    if not attackers or not targets:
        return
    if battle.simultaneous:
        _simultaneous(context, state, battle, attackers, targets)
    else:
        _single(context, state, battle, attackers[0], targets[0])
    _record(state, battle)


def _battle_damage(context: Context, state: State, battle: Battle, player: str, amount: int, ruling: str, text: str) -> None:
    before = state.players[player].lp
    state.players[player].lp -= amount
    battle.damage[player] += amount
    context.note(ruling, f"{text}: {player}'s LP {before} - {amount} = {before - amount}",
                 involves=[mechanic("Battle Damage")], damage=amount)


def _single(context: Context, state: State, battle: Battle, attacker: Monster, target: Monster) -> None:
    atk = attack_value(state, attacker, True)
    who = [monster_entity(state, attacker), monster_entity(state, target)]
    if target.position == "attack":
        other = attack_value(state, target, True)
        context.note("ygo.damage.by-position", f"{target.name} is in Attack Position: ATK {atk} against ATK {other}", involves=who)
        if atk > other:
            _destroy_in_battle(context, state, battle, target, "ygo.damage.atk-higher", f"ATK {atk} > {other}: {target.name} is destroyed")
            _battle_damage(context, state, battle, target.controller, atk - other, "ygo.damage.atk-higher", f"{atk} - {other}")
        elif atk == other:
            _destroy_in_battle(context, state, battle, attacker, "ygo.damage.atk-equal", f"ATK {atk} = {other}: a tie, both are destroyed")
            _destroy_in_battle(context, state, battle, target, "ygo.damage.atk-equal", "and no Battle Damage")
        else:
            _destroy_in_battle(context, state, battle, attacker, "ygo.damage.atk-lower", f"ATK {atk} < {other}: {attacker.name} is destroyed")
            _battle_damage(context, state, battle, attacker.controller, other - atk, "ygo.damage.atk-lower", f"{other} - {atk}")
        return
    defence = target.defence
    context.note("ygo.damage.by-position", f"{target.name} is in Defense Position: ATK {atk} against DEF {defence}", involves=who)
    if atk > defence:
        _destroy_in_battle(context, state, battle, target, "ygo.damage.def-lower", f"ATK {atk} > DEF {defence}: {target.name} is destroyed, no Battle Damage")
    elif atk == defence:
        context.note("ygo.damage.def-equal", f"ATK {atk} = DEF {defence}: neither monster is destroyed, no Battle Damage", involves=who)
    else:
        context.note("ygo.damage.def-higher", f"ATK {atk} < DEF {defence}: neither monster is destroyed", involves=who)
        _battle_damage(context, state, battle, attacker.controller, defence - atk, "ygo.damage.def-higher", f"{defence} - {atk}")


def _destroy_in_battle(context: Context, state: State, battle: Battle, monster: Monster, ruling: str, text: str) -> None:
    if monster.name not in battle.destroyed:
        battle.destroyed.append(monster.name)
    monster.destroyed = True
    context.note(ruling, text, involves=[monster_entity(state, monster), mechanic("destruction by battle")])


def _simultaneous(context: Context, state: State, battle: Battle, attackers: list[Monster], targets: list[Monster]) -> None:
    """Compare from the left, mark, then apply every mark together."""
    attackers = sorted(attackers, key=lambda m: m.zone)  # the attacker's own zones, from their left
    targets = sorted(targets, key=lambda m: -m.zone)  # the opponent's zones, seen from the attacker's left
    if len(attackers) == 1:
        pairs, ruling = [(attackers[0], t) for t in targets], "ygo.same-time.one-vs-many"
    elif len(targets) == 1:
        pairs, ruling = [(a, targets[0]) for a in attackers], "ygo.same-time.many-vs-one"
    else:
        ruling = "ygo.same-time.many-vs-many"
        pairs = [(a, t) for a in attackers for t in targets if t.position == "attack"]
        pairs += [(a, t) for a in attackers for t in targets if t.position != "attack"]
    context.note(ruling, "Comparisons, starting from the attacking player's left: "
                 + ", ".join(f"{a.name} → {t.name}" for a, t in pairs), involves=[mechanic("attack at the same time")])
    marked: list[Monster] = []
    depletion = {"A": 0, "B": 0}
    for attacker, target in pairs:
        atk = attack_value(state, attacker, True)
        who = [monster_entity(state, attacker), monster_entity(state, target), mechanic("attack at the same time")]
        if target.position == "attack":
            other = attack_value(state, target, True)
            if other < atk:
                marked.append(target)
                depletion[target.controller] += atk - other
                context.note("ygo.same-time.atk-target-lower", f"{target.name} ATK {other} < {atk}: marked for destruction, "
                             f"{atk - other} of {target.controller}'s LP marked for depletion", involves=who)
            elif other > atk:
                marked.append(attacker)
                depletion[attacker.controller] += other - atk
                context.note("ygo.same-time.atk-target-higher", f"{target.name} ATK {other} > {atk}: {attacker.name} marked "
                             f"for destruction, {other - atk} of {attacker.controller}'s LP marked for depletion", involves=who)
            elif context.reading(SAME_TIME_TIE) == "as-single-battle":
                marked += [attacker, target]
                context.note(SAME_TIME_TIE, f"{target.name} ATK {other} = {atk}: both marked, as in a single battle", involves=who)
            else:
                context.note(SAME_TIME_TIE, f"{target.name} ATK {other} = {atk}: no listed case, nothing is marked", involves=who)
        else:
            if target.defence < atk:
                marked.append(target)
                context.note("ygo.same-time.def-target-lower", f"{target.name} DEF {target.defence} < {atk}: marked for destruction",
                             involves=who)
            elif target.defence > atk:
                depletion[attacker.controller] += target.defence - atk
                context.note("ygo.same-time.def-target-higher", f"{target.name} DEF {target.defence} > {atk}: "
                             f"{target.defence - atk} of {attacker.controller}'s LP marked for depletion", involves=who)
            else:
                context.reading(SAME_TIME_TIE)
                context.note(SAME_TIME_TIE, f"{target.name} DEF {target.defence} = {atk}: nothing is marked", involves=who)
    context.note("ygo.same-time.apply-marks", "All comparisons made: the marks apply together",
                 involves=[mechanic("attack at the same time")])
    for monster in marked:
        if monster.name not in battle.destroyed:
            battle.destroyed.append(monster.name)
            monster.destroyed = True
            context.note("ygo.same-time.apply-marks", f"{monster.name} is destroyed", involves=[monster_entity(state, monster)])
    for player, amount in depletion.items():
        if amount:
            _battle_damage(context, state, battle, player, amount, "ygo.same-time.apply-marks", "Marked Life Points depleted")


def _record(state: State, battle: Battle) -> None:
    state.battles.append({
        "attackers": list(battle.attackers), "targets": [t for t in battle.targets if t], "direct": battle.direct,
        "battle_damage": dict(battle.damage), "destroyed": list(battle.destroyed),
    })


@steps("after-damage-calculation")
def after_damage_calculation(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    triggered: list[Link] = []
    choices = action.get("flip_targets", {})
    for name in battle.flipped:
        monster = state.monster(name)
        card = state.cards[monster.card] if monster else None
        if monster is None or card is None or card.flip is None:
            continue
        target = choices.get(name)
        if target is not None:
            chosen = state.monster(target)
            if chosen is None or chosen.destroyed:
                raise context.reject("flip-target-destroyed",
                                     f"{target} was destroyed in damage calculation: the Flip Effect of {name} cannot target it",
                                     "ygo.damage.flip-target-not-destroyed", involves=[("monster", monster.card), mechanic("flip")])
        triggered.append(Link(monster.controller, monster.card, card.flip, target, source=name))
        context.note("ygo.damage.flip-effects-after", f"{name} was flipped face-up: its Flip Effect activates after damage calculation",
                     involves=[("monster", monster.card), mechanic("flip")])
    for name in battle.fighters:
        monster = state.monster(name)
        if monster is None:
            continue
        card = state.cards[monster.card]
        if card.on_battle is not None:
            triggered.append(Link(monster.controller, monster.card, card.on_battle, source=name))
            context.note("ygo.damage.battle-triggers", f"{name} battled a monster: its effect activates",
                         involves=[("monster", monster.card), mechanic("battle trigger")])
        if card.on_battle_damage is not None and battle.damage[opponent(monster.controller)] > 0 and name in battle.attackers:
            triggered.append(Link(monster.controller, monster.card, card.on_battle_damage, source=name))
            context.note("ygo.damage.battle-triggers", f"{name} inflicted Battle Damage: its effect activates",
                         involves=[("monster", monster.card), mechanic("battle trigger")])
    ordered = [link for link in triggered if link.effect.mandatory] + [link for link in triggered if not link.effect.mandatory]
    if len(ordered) > 1:
        context.note("ygo.damage.mandatory-first", "Several effects activate: they form a Chain, mandatory effects first: "
                     + ", ".join(f"{i}. {link.card}" for i, link in enumerate(ordered, 1)), involves=[mechanic("Chain")])
    state.chain.extend(ordered)


@steps("send-to-graveyard")
def send_destroyed_to_graveyard(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    destroyed = [m for m in state.monsters if m.destroyed]
    for monster in destroyed:
        ruling = "ygo.same-time.graveyard" if battle.simultaneous else "ygo.damage.to-graveyard"
        context.note(ruling, f"{monster.name}, destroyed in battle, is sent to the Graveyard now",
                     involves=[monster_entity(state, monster), mechanic("destruction by battle")])
        send_to_graveyard(context, state, monster, "destroyed by battle")


@steps("end-of-damage-step")
def end_of_damage_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = the_battle(state)
    for name in battle.fighters:
        monster = state.monster(name)
        if monster is None or state.cards[monster.card].end_of_damage_step is None:
            continue
        effect = state.cards[monster.card].end_of_damage_step
        assert effect is not None
        others = [t for t in battle.targets if t] if name in battle.attackers else battle.attackers
        target = others[0] if effect.target == "battled" and others and state.monster(others[0]) else None
        context.note("ygo.damage.end-of-step", f"End of the Damage Step: {name}'s effect applies",
                     involves=[("monster", monster.card), mechanic("end of Damage Step")])
        apply_effect(context, state, Link(monster.controller, monster.card, effect, target, source=name), [])
    end_durations(context, state, frozenset({"end-of-damage-step"}), "ygo.damage.end-of-step")
    context.note("ygo.damage.end-of-step", "The Damage Step is over: back to the Battle Step", involves=[mechanic("Damage Step")])
    state.battle = None


# === End Step ====================================================================================


@steps("end-of-battle-phase")
def end_of_battle_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("ygo.end.announce", f"{state.active} ends the Battle Phase", involves=[mechanic("Battle Phase")])
    end_durations(context, state, frozenset({"end-of-battle-phase"}), "ygo.end.effects")
    for monster in state.side(state.active) + state.side(opponent(state.active)):
        effect = state.cards[monster.card].end_of_battle_phase
        if effect is not None and monster.face_up:
            context.note("ygo.end.effects", f"End of the Battle Phase: {monster.name}'s effect applies",
                         involves=[("monster", monster.card), mechanic("end of Battle Phase")])
            apply_effect(context, state, Link(monster.controller, monster.card, effect, source=monster.name), [])


@steps("end-step-activations")
def end_step_activations(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The window where Quick-Play and Trap cards may be activated."""


# === Actions =====================================================================================


def _in_battle_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if action.get("player", state.active) != state.active:
        raise context.reject("not-your-turn", f"it is {state.active}'s turn")
    if state.step == "main":
        raise context.reject("not-in-battle-phase", "enter the Battle Phase first", "ygo.start.announce",
                             involves=[mechanic("Battle Phase")])
    if state.step in ("end-of-battle-phase", "end-step-activations"):
        raise context.reject("battle-phase-over", "the Battle Phase has ended", "ygo.phase.order", involves=[mechanic("Battle Phase")])


def enter(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    if action["player"] != state.active:
        raise context.reject("not-your-turn", f"it is {state.active}'s turn")
    if state.step != "main":
        raise context.reject("battle-phase-over", "the Battle Phase has already been entered this turn", "ygo.phase.order")
    advance(context, state, procedure, "enter-battle-phase", action)


def attack(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    _in_battle_phase(context, state, action)
    if state.battle is not None:
        advance(context, state, procedure, "end-of-damage-step", action)
        context.note("ygo.phase.repeat", "Back in the Battle Step for another attack", involves=[mechanic("Battle Step")])
    elif state.chain:
        resolve_chain(context, state)
    procedure.run("declare-attack", steps, context, state, action)
    state.step = "attack-responses"


def to_step(target: str) -> Callable[[Context, State, Mapping[str, Any], Procedure], None]:
    def go(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
        _in_battle_phase(context, state, action)
        if state.battle is None:
            raise context.reject("no-battle", "no attack has been declared", "ygo.battle.declare")
        advance(context, state, procedure, target, action)
    return go


def end_battle_phase(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    _in_battle_phase(context, state, action)
    if state.battle is None and state.step in ("enter-battle-phase", "further-chains"):
        context.note("ygo.battle.no-attack", "No more attacks: proceed to the End Step", involves=[mechanic("Battle Phase")])
        context.note("ygo.battle.optional", "Monsters that have not attacked need not attack", involves=[mechanic("Battle Phase")])
    advance(context, state, procedure, "end-step-activations", action)


def end_turn(context: Context, state: State, action: Mapping[str, Any], procedure: Procedure) -> None:
    if action["player"] != state.active:
        raise context.reject("not-your-turn", f"it is {state.active}'s turn")
    if state.step not in ("main", "end-step-activations"):
        advance(context, state, procedure, "end-step-activations", action)
    if state.chain:
        resolve_chain(context, state)
    end_durations(context, state, frozenset(UNTIL), None)
    for monster in state.monsters:
        monster.attacked = False
    state.active, state.turn, state.step = opponent(state.active), state.turn + 1, "main"
    context.note(None, f"Turn {state.turn}: {state.active} to play")


ACTIONS: dict[str, Callable[[Context, State, Mapping[str, Any], Procedure], None]] = {
    "battle-phase": enter,
    "attack": attack,
    "activate": activate,
    "resolve-chain": resolve_chain_action,
    "damage-step": to_step("before-damage-calculation"),
    "calculate": to_step("after-damage-calculation"),
    "graveyard": to_step("send-to-graveyard"),
    "end-damage-step": to_step("end-of-damage-step"),
    "end-battle-phase": end_battle_phase,
    "end-turn": end_turn,
}


def apply(state: State, action: Mapping[str, Any], context: Context, procedure: Procedure) -> State:
    following = state.evolve()
    ACTIONS[action["action"]](context, following, action, procedure)
    return following


def settle(state: State, context: Context, procedure: Procedure) -> State:
    """At the end of a scenario, finish the battle under way (to the end of its Damage Step)."""
    if state.battle is None and not state.chain:
        return state
    following = state.evolve()
    if following.battle is not None:
        advance(context, following, procedure, "end-of-damage-step", {})
    elif following.chain:
        resolve_chain(context, following)
    return following
