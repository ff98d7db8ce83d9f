"""Yu-Gi-Oh! Duel Monsters II, the Battle Phase, as the tournament rulebook's chapter states it.

Read beside ``yugioh-duel-monsters-2-battle-phase.txt``: Start Step, Battle Step, Replay
Rules, Damage Step, End Step, At the Same Time. The duel always stands at one step of
``procedure.yaml``; a player's action names the step it belongs to and the core walks every
step in between, in the declared order. A turn begins in its Main Phase (the procedure's
``main``, before this chapter), where the turn player may enter the Battle Phase. The Chain is
the core's response stack: it resolves last link first (the general rule of Chains, which this
chapter relies on) when the players stop adding links. What may be activated at each step is the
step's ``window:`` there; which actions may be taken, its ``actions:`` (the core refuses the rest).
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.described import takes
from checker.engine.errors import InputError
from checker.engine.game import Book, Context
from checker.games.yugioh_dm2.state import (
    MAIN,
    UNTIL,
    Battle,
    Card,
    Effect,
    Lasting,
    Monster,
    State,
    build_state,
    card_from,
    lookup_card,
    observe,
    opponent,
)
from checker.engine.procedure import StepHandlers
from checker.engine.errors import nearest
from checker.engine.stack import Link, ResponseStack
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary, ref

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    first_turn_no_battle_phase="The player who goes first cannot conduct a Battle Phase in their very first turn.",
    not_your_turn="It is the other player's turn.",
    not_in_battle_phase="The turn player has not entered the Battle Phase.",
    battle_phase_over="The Battle Phase has already been entered, or has ended, this turn.",
    not_attack_position="Only a face-up Attack Position monster may attack.",
    already_attacked="Each monster may attack only once per turn.",
    opponent_has_monsters="A direct attack needs the opponent to control no monsters.",
    no_battle="No attack has been declared.",
    card_not_available="The card is neither in the player's hand nor set.",
    no_activation_now="Cards cannot be activated at this step.",
    attack_response_too_late="A card that responds to attacks is activated only in response to the declaration.",
    not_allowed_in_damage_step="During the Damage Step only Counter, ATK/DEF-changing and Damage Step cards may be activated.",
    after_damage_calculation="The card can only be activated before damage calculation.",
    not_quick_play_or_trap="Only Quick-Play and Trap cards may be activated in the End Step.",
    flip_target_destroyed="A Flip Effect cannot target a monster destroyed in damage calculation.",
    monster_not_available="The monster a card Special Summons is not where it comes from.",
)
Chain = ResponseStack[Effect]

# Ambiguous rulings: each is a named switch; the readings are in rulings.yaml.
EMPTY_ZONE_ATTACK_USED = "ygo.amb.replay-empty-zone-attack-used"
REPLAY_DIRECT_ATTACK = "ygo.amb.replay-direct-attack"
NEW_MONSTER_OR_OLD_ZONE = "ygo.amb.replay-new-monster-or-old-zone"
NEW_MONSTER_MANY_TARGETS = "ygo.amb.replay-new-monster-many-targets"
TRIGGERED_ORDER = "ygo.amb.triggered-effects-order"
SAME_TIME_TIE = "ygo.amb.same-time-tie"

#: Windows after damage calculation, where a card of these classes is refused because it comes too late.
AFTER_CALCULATION = frozenset({"after-damage-calculation", "send-to-graveyard"})
BEFORE_CALCULATION_ONLY = frozenset({"stat-change", "damage-step"})


def card_entity(name: str) -> Entity:
    return ("card", name)


def effect_entity(state: State, name: str) -> Entity:
    """What an effect on the Chain comes from: a Magic or Trap card, or a monster (its Flip or trigger effect)."""
    return ("monster", name) if state.cards[name].type == "monster" else card_entity(name)


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


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    """The duel as the scenario sets it; every card is the scenario's (the chapter names none)."""
    defined = {name: card_from(name, raw) for name, raw in {**book.get("cards", {}), **cards}.items()}
    state = build_state(initial, Book(defined))
    context.advance(state, MAIN)
    return state


__all__ = ["steps", "vocabulary", "setup", "observe", "settle"]


# === Walking the procedure =======================================================================


def advance(context: Context, state: State, to: str, action: Mapping[str, Any]) -> None:
    """Move on to step ``to``: a Chain left open resolves first, and so does one left open at a window on the way."""
    if state.chain:
        resolve_chain(context, state)

    def resolve_left_open(step_id: str) -> None:
        if state.chain and context.walker.window(step_id) is not None:
            resolve_chain(context, state)

    context.advance(state, to, action, between=resolve_left_open)


def finish_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """Walk to the end of the Damage Step; its loop brings the duel back to the Battle Step's further Chains.

    The loop leaves the cursor just before ``further-chains``; the duel then stands at that step (which
    notes nothing without a battle), where new Chains may start. A Chain that the end of the Damage Step
    opened stays open there, as the players may add to it.
    """
    advance(context, state, "end-of-damage-step", action)
    context.advance(state, "further-chains", action)


@steps.condition("in-battle")
def in_battle(state: State) -> bool:
    """An attack has been declared and its Damage Step is not over."""
    return state.battle is not None


@steps.condition("battle-to-fight")
def battle_to_fight(state: State) -> bool:
    """There is a battle, and the replay rules left something to fight."""
    return state.battle is not None and not state.battle.cancelled


def the_battle(state: State) -> Battle:
    assert state.battle is not None, "the walk runs battle steps only during a battle"
    return state.battle


# === The Main Phase, before this chapter ==========================================================


@steps("main")
def main_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The turn player's Main Phase: any Magic or Trap card may be activated (the general rule, its window)."""


@steps("next-turn")
def next_turn(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The turn ends: what lasted until its end is undone, and the other player's turn begins."""
    end_durations(context, state, frozenset(UNTIL), None)
    for monster in state.monsters:
        monster.attacked = False
    state.active, state.turn = opponent(state.active), state.turn + 1
    context.note(None, f"Turn {state.turn}: {state.active} to play")


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
    context.note("ygo.phase.order", "The Battle Phase runs in order: Start Step, Battle Step, Damage Step, End Step",
                 involves=[mechanic("Battle Phase")])


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


@vocabulary.action("activate", "Activate a Magic or Trap card from the hand or set: a new link of the current Chain.",
                   params={"player": ref("player"), "card": {"type": "string"}, "target": {"type": "string"},
                           "zone": {"type": "integer", "minimum": 1, "maximum": 5}},
                   required=["player", "card"])
def activate(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = action["player"]
    card = lookup_card(state.cards, action["card"], ("card",))
    if card.type == "monster" or card.effect is None:
        raise InputError(f"{card.name} is not a Magic or Trap card with an effect", path=("card",))
    owner = state.players[player]
    if card.name not in owner.hand and card.name not in owner.set_cards:
        raise context.reject("card-not-available", f"{card.name} is neither in {player}'s hand nor set")
    _check_window(context, state, card)
    _check_summoned_monster(context, state, card, player)
    pile = owner.set_cards if card.name in owner.set_cards else owner.hand
    pile.remove(card.name)
    owner.graveyard.append(card.name)
    zone = {"zone": action["zone"]} if "zone" in action else {}
    state.chain = state.chain.push(Link(player, card.name, card.effect, action.get("target"), params=zone,
                                                 action=context.action))
    context.note(None, f"Chain Link {len(state.chain)}: {player} activates {card.name}", involves=[card_entity(card.name)])


def _check_window(context: Context, state: State, card: Card) -> None:
    """What the window of the duel's step allows (in the Main Phase, before this chapter: anything)."""
    step = state.step
    if context.walker.window(step) is None:
        raise context.reject("no-activation-now", f"cards cannot be activated during {step}")
    classes = card.classes | ({"trap"} if card.type == "trap" else set())
    involves = [card_entity(card.name)]
    if "attack-response" in card.classes:
        involves.append(mechanic("attack response"))
        _check_attack_response(context, state, card, involves)
    assert step is not None  # a step with a window is a step of the procedure
    if context.walker.where(step)[0].id == "damage-step":
        involves.append(mechanic("Damage Step"))
    window = context.walker.window(step)
    if step in AFTER_CALCULATION and window is not None and not window.admits(classes) and classes & BEFORE_CALCULATION_ONLY:
        raise context.reject(window.refuse, f"{card.name} cannot be activated after damage calculation",
                             "ygo.damage.before-calculation", involves=involves)
    context.check_window(state, classes, name=card.name, involves=involves)
    if step == "after-damage-calculation":
        _note_after_calculation(context, state, card, classes, involves)


def _check_attack_response(context: Context, state: State, card: Card, involves: list[Entity]) -> None:
    """A card that responds to attacks is activated only in the Chain that responds to the declaration."""
    if state.step == "attack-responses" and state.battle is not None:
        return
    ruling = "ygo.battle.later-chains" if state.step == "further-chains" else "ygo.battle.respond"
    raise context.reject("attack-response-too-late",
                         f"{card.name} responds to attacks and can only be activated in response to the declaration",
                         ruling, involves=involves)


def _note_after_calculation(context: Context, state: State, card: Card, classes: frozenset[str], involves: list[Entity]) -> None:
    """After damage calculation a Counter may Chain to a Flip Effect; other cards respond to Battle Damage."""
    below = state.chain.top
    if "counter" in classes and below is not None and _is_flip_effect(state, below):
        context.note("ygo.damage.flip-chain-counter", f"{card.name}, a Counter card, Chains to {below.card}'s Flip Effect",
                     involves=[*involves, ("monster", below.card), mechanic("flip")])
        return
    context.note("ygo.damage.battle-triggers", f"{card.name} responds to Battle Damage, or Chains to such a card as a Counter",
                 involves=[*involves, mechanic("Battle Damage")])


def _is_flip_effect(state: State, link: Link[Effect]) -> bool:
    return link.source is not None and link.effect == state.cards[link.card].flip


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
    """Both players pass: the Chain resolves, last link first; what activates meanwhile starts a new Chain."""
    chain, state.chain = state.chain, Chain()

    def resolve(number: int, link: Link[Effect], below: Chain) -> Chain:
        return apply_effect(context, state, link, below)

    chain.resolve(context, resolve, label="Chain Link", entity=lambda link: effect_entity(state, link.card))


@vocabulary.action("resolve-chain", "Both players pass: the Chain resolves, last link first.")
def resolve_chain_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    resolve_chain(context, state)
    context.pass_turn(state, None, action)  # both pass: after the attack's responses, further Chains may start


def apply_effect(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    """Apply one effect (a Chain Link's, or one that applies without a Chain); the Chain below it afterwards."""
    handler = vocabulary.effect_handler("effect", link.effect.kind)
    result: Chain = handler(context, state, link, below)
    return result


def _target(state: State, link: Link[Effect]) -> Monster:
    if link.target is None:
        raise InputError(f"{link.card} needs a target: name it with 'target:'", expected="a 'target:' key")
    return monster_named(state, link.target, ("target",))


@vocabulary.effect("change-atk", "The target's ATK changes by `amount`.", params=takes(Effect, "mandatory", "target", "amount", "until"),
                   required=["amount"])
@vocabulary.effect("change-def", "The target's DEF changes by `amount`.", params=takes(Effect, "mandatory", "target", "amount", "until"),
                   required=["amount"])
def change_stat(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    monster = _target(state, link)
    before, after = _add_to_stat(monster, link.effect.kind, link.effect.amount)
    lasts = "" if link.effect.until is None else f" until {UNTIL[link.effect.until]}"
    context.note(None, f"{link.card}: {monster.name}'s {_stat_name(link.effect.kind)} {before} → {after}{lasts}",
                 involves=[effect_entity(state, link.card), monster_entity(state, monster)])
    if link.effect.until is not None:
        state.lasting.append(Lasting(link.card, monster.name, link.effect.kind, link.effect.amount, link.effect.until))
    return below


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
                     involves=[effect_entity(state, lasting.card), monster_entity(state, monster)])


def leave_field(state: State, monster: Monster) -> None:
    """The monster leaves the field; changes that were to last on it until later go with it."""
    state.monsters.remove(monster)
    state.lasting = [lasting for lasting in state.lasting if lasting.monster != monster.name]


@vocabulary.effect("destroy", "The target is destroyed and sent to the Graveyard.", params=takes(Effect, "mandatory", "target"))
def destroy(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    monster = _target(state, link)
    send_to_graveyard(context, state, monster, f"destroyed by {link.card}")
    return below


@vocabulary.effect("return-to-hand", "The target returns from the field to its owner's hand.", params=takes(Effect, "mandatory", "target"))
def return_to_hand(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    """The monster leaves the field for its owner's hand (no card here changes control: the controller owns it)."""
    monster = _target(state, link)
    leave_field(state, monster)
    state.players[monster.controller].hand.append(monster.card)
    context.note(None, f"{link.card}: {monster.name} leaves zone {monster.zone} and returns to {monster.controller}'s hand",
                 involves=[effect_entity(state, link.card), monster_entity(state, monster)])
    return below


@vocabulary.effect("move", "The target moves to another, empty Monster Card Zone of its controller (`zone`, or the "
                   "activation's `zone:`).", params=takes(Effect, "mandatory", "target", "zone"))
def move(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    monster = _target(state, link)
    zone = link.params.get("zone") or link.effect.zone
    if zone is None or state.in_zone(monster.controller, zone) is not None:
        raise InputError(f"{link.card} moves {monster.name} to an empty Monster Card Zone: give 'zone:'", path=("zone",))
    context.note(None, f"{link.card}: {monster.name} moves from zone {monster.zone} to zone {zone}",
                 involves=[effect_entity(state, link.card), monster_entity(state, monster)])
    monster.zone = zone
    return below


@vocabulary.effect("swap", "The target and the monster in its controller's Monster Card Zone `zone` (or the activation's "
                   "`zone:`) swap zones.", params=takes(Effect, "mandatory", "target", "zone"))
def swap(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    monster = _target(state, link)
    zone = link.params.get("zone") or link.effect.zone
    other = state.in_zone(monster.controller, zone) if zone is not None else None
    if zone is None or other is None or other is monster:
        raise InputError(f"{link.card} swaps {monster.name} with another monster of {monster.controller}: give 'zone:', "
                         "a zone that holds one", path=("zone",))
    context.note(None, f"{link.card}: {monster.name} (zone {monster.zone}) and {other.name} (zone {zone}) swap zones",
                 involves=[effect_entity(state, link.card), monster_entity(state, monster), monster_entity(state, other)])
    monster.zone, other.zone = zone, monster.zone
    return below


@vocabulary.effect(
    "special-summon", "A monster card is placed on its controller's field, in an empty zone (`zone`, or the activation's `zone:`).",
    params=takes(Effect, "mandatory", "zone", "monster", "from", "position"), required=["monster"])
def special_summon(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    card = lookup_card(state.cards, link.effect.monster or "", ("card",))
    zone = link.params.get("zone") or link.effect.zone
    if zone is None or state.in_zone(link.player, zone) is not None:
        raise InputError(f"{link.card} places {card.name} in an empty Monster Card Zone: give 'zone:'", path=("zone",))
    pile = state.players[link.player].pile(link.effect.summoned_from)
    if pile is not None:
        if card.name not in pile:
            context.note(None, f"{link.card}: {card.name} is no longer in {link.player}'s {link.effect.summoned_from}: "
                         "nothing is placed", involves=[effect_entity(state, link.card), ("monster", card.name)])
            return below
        pile.remove(card.name)
    name = card.name if state.monster(card.name) is None else f"{card.name} ({link.player}{zone})"
    state.monsters.append(Monster(name, card.name, link.player, zone, link.effect.position, True, card.atk, card.defence))
    context.note(None, f"{link.card}: {card.name} is placed from {link.player}'s {link.effect.summoned_from} "
                 f"in zone {zone}",
                 involves=[effect_entity(state, link.card), ("monster", card.name)])
    if state.battle is not None and link.player == state.battle.defender:
        state.battle.placed.append(name)
    return below


@vocabulary.effect("negate", "A Counter's effect: the Chain Link before it is negated and resolves to nothing.", params=takes(Effect))
def negate(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    if below.top is None:
        return below
    context.note(None, f"{link.card} negates {below.top.card}", involves=[effect_entity(state, link.card), effect_entity(state, below.top.card)])
    return below.negate(len(below))


@vocabulary.effect("damage", "`amount` of damage to a player's Life Points (`to`).", params=takes(Effect, "mandatory", "amount", "to"), required=["amount"])
@vocabulary.effect("gain-lp", "A player (`to`) gains `amount` Life Points.", params=takes(Effect, "mandatory", "amount", "to"), required=["amount"])
def life_points(context: Context, state: State, link: Link[Effect], below: Chain) -> Chain:
    player = link.player if link.effect.to == "controller" else opponent(link.player)
    change = link.effect.amount if link.effect.kind == "gain-lp" else -link.effect.amount
    before = state.players[player].lp
    state.players[player].lp += change
    context.note(None, f"{link.card}: {player}'s Life Points {before} → {before + change}",
                 involves=[effect_entity(state, link.card), mechanic("Life Points")])
    return below


def send_to_graveyard(context: Context, state: State, monster: Monster, why: str) -> None:
    leave_field(state, monster)
    state.players[monster.controller].graveyard.append(monster.card)
    context.note(None, f"{monster.name} is sent to the Graveyard ({why})", involves=[monster_entity(state, monster)])
    effect = state.cards[monster.card].on_sent_to_graveyard
    if effect is not None:
        state.chain = state.chain.push(Link(monster.controller, monster.card, effect, source=monster.name))
        context.note("ygo.damage.to-graveyard", f"\"When this card is sent to the Graveyard\": {monster.card} activates",
                     involves=[monster_entity(state, monster), mechanic("Graveyard trigger")])


# === Replay Rules ================================================================================


@steps("attack-responses")
def attack_responses(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The window right after the declaration; passing it means no one responded."""


@steps("further-chains")
def further_chains(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The first Chain resolved (the duel stands here), or no one responded and play passes on to the Damage Step.

    After the Damage Step the loop brings the duel back here, with no battle: nothing to note.
    """
    if state.battle is None:
        return
    if action.get("action") == "resolve-chain":
        context.note("ygo.battle.later-chains", "The first Chain is over: later Chains may not respond to the attack",
                     involves=[mechanic("attack response")])
        return
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
    if placed is not None and _new_monster_wins(context, state, battle) and _new_monster_targeted(context, state, battle, placed):
        return
    kept: list[tuple[str | None, int]] = []
    for name, zone in zip(battle.targets, battle.target_zones, strict=True):
        if _still_in_place(state, battle, name, zone):
            kept.append((name, zone))
            continue
        now = state.in_zone(battle.defender, zone)
        if now is None:
            if name is not None:
                context.note("ygo.replay.moved-or-removed", f"{name} is no longer in zone {zone}: the attack goes to "
                             "that zone, which contained the target when it was selected", involves=[mechanic("replay")])
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


def _new_monster_targeted(context: Context, state: State, battle: Battle, placed: Monster) -> bool:
    """The placed monster becomes the attack target; an attack on several targets (the sentence speaks of one) may
    instead have it replace them all, join them, or leave them as they are (an ambiguous ruling). False: the targets
    declared stand, and the replay rules for each follow."""
    many = len(battle.targets) > 1
    reading = context.reading(NEW_MONSTER_MANY_TARGETS) if many else "replaces-all-targets"
    if reading == "targets-unchanged":
        context.note(NEW_MONSTER_MANY_TARGETS, f"{placed.name} was placed before the Damage Step; the attack keeps its "
                     f"targets, {', '.join(str(t) for t in battle.targets)}", involves=[monster_entity(state, placed), mechanic("replay")])
        return False
    if reading == "joins-the-targets":
        battle.targets, battle.target_zones = [*battle.targets, placed.name], [*battle.target_zones, placed.zone]
        context.note(NEW_MONSTER_MANY_TARGETS, f"{placed.name} was placed before the Damage Step: it becomes an attack target "
                     "beside the others", involves=[monster_entity(state, placed), mechanic("replay")])
        return False
    battle.targets, battle.target_zones = [placed.name], [placed.zone]
    context.note("ygo.replay.new-monster", f"{placed.name} was placed on {battle.defender}'s side before the Damage Step: "
                 "it becomes the attack target", involves=[monster_entity(state, placed), mechanic("replay")])
    return True


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
    triggered: list[Link[Any]] = []
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
    ordered = _chain_order(context, state, triggered)
    if len(ordered) > 1:
        context.note("ygo.damage.mandatory-first", "Several effects activate: they form a Chain, mandatory effects first: "
                     + ", ".join(f"{i}. {link.card}" for i, link in enumerate(ordered, 1)), involves=[mechanic("Chain")])
    state.chain = state.chain.extend(ordered)


def _chain_order(context: Context, state: State, triggered: list[Link[Effect]]) -> list[Link[Effect]]:
    """The Chain of the effects activated after damage calculation: mandatory effects first; among effects of both
    players, in the order they activated or the turn player's first (an ambiguous ruling)."""
    groups = [[link for link in triggered if link.effect.mandatory], [link for link in triggered if not link.effect.mandatory]]
    if any(len({link.player for link in group}) > 1 for group in groups) and context.read(TRIGGERED_ORDER, "turn-player-first"):
        groups = [sorted(group, key=lambda link: link.player != state.active) for group in groups]
        context.note(TRIGGERED_ORDER, f"Among effects of both players, the turn player {state.active}'s go first",
                     involves=[mechanic("Chain")])
    return [*groups[0], *groups[1]]


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
        apply_effect(context, state, Link(monster.controller, monster.card, effect, target, source=name), Chain())
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
            apply_effect(context, state, Link(monster.controller, monster.card, effect, source=monster.name), Chain())


@steps("end-step-activations")
def end_step_activations(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The window where Quick-Play and Trap cards may be activated."""


# === Actions =====================================================================================


def _turn_players(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The turn player conducts the Battle Phase (where it may be conducted is declared: procedure.yaml)."""
    if action.get("player", state.active) != state.active:
        raise context.reject("not-your-turn", f"it is {state.active}'s turn")


@vocabulary.action("battle-phase", "Start Step: the turn player enters the Battle Phase.",
                   params={"player": ref("player")}, required=["player"])
def enter(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _turn_players(context, state, action)
    advance(context, state, "enter-battle-phase", action)


@vocabulary.action(
    "attack",
    "Battle Step: declare an attack (one attacker and target, a direct attack, a zone behind a divider, or several at the same time).",
    params={"player": ref("player"), "attacker": {"type": "string"}, "attackers": ref("name-list"),
            "target": {"type": "string"}, "targets": ref("name-list"),
            "target_zone": {"type": "integer", "minimum": 1, "maximum": 5}, "direct": {"type": "boolean"}})
def attack(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _turn_players(context, state, action)
    if state.battle is not None:
        finish_battle(context, state, action)
        context.note("ygo.phase.repeat", "Back in the Battle Step for another attack", involves=[mechanic("Battle Step")])
    elif state.chain:
        resolve_chain(context, state)
    context.run_step(state, "declare-attack", action)
    advance(context, state, "attack-responses", action)


def _move_battle_on(context: Context, state: State, action: Mapping[str, Any], target: str) -> None:
    """Move the declared battle on to the step ``target``."""
    _turn_players(context, state, action)
    if state.battle is None:
        raise context.reject("no-battle", "no attack has been declared", "ygo.battle.declare")
    if target == "end-of-damage-step":
        finish_battle(context, state, action)
    else:
        advance(context, state, target, action)


@vocabulary.action("damage-step", "Neither player wishes to Chain: proceed to the Damage Step (up to the activations before damage calculation).")
def damage_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _move_battle_on(context, state, action, "before-damage-calculation")


@vocabulary.action("calculate", "Damage calculation, then the triggered effects; choose the targets of Flip Effects.",
                   params={"flip_targets": {"type": "object", "additionalProperties": {"type": "string"},
                                            "description": "Flipped monster -> the monster its Flip Effect targets."}})
def calculate(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _move_battle_on(context, state, action, "after-damage-calculation")


@vocabulary.action("graveyard", "Send the monsters destroyed in battle to the Graveyard.")
def graveyard(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _move_battle_on(context, state, action, "send-to-graveyard")


@vocabulary.action("end-damage-step", "End of the Damage Step; back to the Battle Step.")
def end_damage_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _move_battle_on(context, state, action, "end-of-damage-step")


@vocabulary.action("end-battle-phase", "No more attacks: the End Step.", params={"player": ref("player")})
def end_battle_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _turn_players(context, state, action)
    if state.battle is None and not context.reached(state, "replay-check"):  # in the Start or Battle Step, no attack under way
        context.note("ygo.battle.no-attack", "No more attacks: proceed to the End Step", involves=[mechanic("Battle Phase")])
        context.note("ygo.battle.optional", "Monsters that have not attacked need not attack", involves=[mechanic("Battle Phase")])
    advance(context, state, "end-step-activations", action)


@vocabulary.action("end-turn", "End the turn.", params={"player": ref("player")}, required=["player"])
def end_turn(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _turn_players(context, state, action)
    if context.reached(state, "enter-battle-phase"):  # a Battle Phase entered this turn runs to its end
        advance(context, state, "end-step-activations", action)
    if state.chain:
        resolve_chain(context, state)
    context.run_step(state, "next-turn", action)
    context.advance(state, MAIN, action)


def settle(context: Context, state: State) -> None:
    """At the end of a scenario, finish the battle under way (to the end of its Damage Step)."""
    if state.battle is not None:
        finish_battle(context, state, {})
    elif state.chain:
        resolve_chain(context, state)
