"""Many Marios 0 combat, as the wiki's Combat page states it.

Read beside ``many-marios-0-combat.txt``: Army construction, Beginning the battle, Damage,
Exhaustion and defeat, Ending the battle, Combat abilities. A battle runs by itself once the
armies are set: the ``battle`` action walks the beginning once, then the combat round of
``procedure.yaml`` round after round, the procedure's loop bringing it back to the leading
units' damage while the battle goes on, until it ends (or for the rounds asked).

Within a round the leading units' damage is simultaneous; ballistic fire follows; exhaustion
damage comes last. A unit whose DE is depleted is removed at once; whether an exhausted unit
defeated earlier in the round still deals its exhaustion damage is a reading, as is how many
combat rounds the page's "turn" spans.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.engine.game import Book, Context
from checker.games.many_marios_0.state import (
    SIDES,
    State,
    Unit,
    army_problems,
    build_state,
    observe,
    other,
    piece_from,
)
from checker.engine.procedure import StepHandlers
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    over_ap_limit="An army's units, items and buildings total more Army Points than the challenge allows.",
    battle_over="The battle has already ended.",
)

# Ambiguous rulings: each is a named switch; the readings are in rulings.yaml.
AE_CAP_ORDER = "mm.amb.ae-cap-order"
TURN = "mm.amb.turn"
ROLES_AFTER_ROTATION = "mm.amb.roles-after-rotation"
BALLISTICS_TARGET = "mm.amb.ballistics-target"
STUN_SILENCES = "mm.amb.stun-silences"
DEFEAT_BEFORE_EXHAUSTION = "mm.amb.defeat-before-exhaustion-damage"
AGILITY_EXHAUSTED_WHEN = "mm.amb.agility-exhausted-when"

#: A battle that has not ended after this many rounds is a bug: stalemates are detected.
ROUND_LIMIT = 10_000


def rounds_per_turn(context: Context) -> int:
    """How many combat rounds the page's "turn" spans."""
    return 2 if context.read(TURN, "exchange-of-roles") else 1


def next_turn(context: Context, round_number: int) -> range:
    """The rounds of the turn after the one ``round_number`` belongs to (turns counted from round 1)."""
    per = rounds_per_turn(context)
    start = ((round_number - 1) // per + 1) * per + 1
    return range(start, start + per)


def unit_entity(unit: Unit) -> Entity:
    return ("unit", unit.piece)


def ability(name: str) -> Entity:
    return ("ability", name)


@dataclass
class Hit:
    by: Unit
    by_side: str
    to: Unit
    amount: int
    kind: str  # lead, ballistics, exhaustion


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    """The armies as the scenario sets them, with its units, items and buildings."""
    pieces = Book({name: piece_from(name, raw) for name, raw in {**book.get("cards", {}), **cards}.items()})
    return build_state(initial, pieces)


__all__ = ["steps", "vocabulary", "setup", "observe"]


# === Army construction and Beginning the battle ===================================================


@steps("check-armies")
def check_armies(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """Both armies are checked, so a refusal names every army over the limit."""
    over: dict[str, int] = {}
    for side in SIDES:
        army = state.armies[side]
        context.note("mm.army.composition", f"Army {side}: " + " + ".join(
            f"{name} {ap} ({kind})" for kind, name, ap in army.composition) + f" = {army.ap} AP",
            involves=[mechanic("Army Points")], total=army.ap)
        if "over-ap-limit" in army_problems(army, state.ap_limit):
            over[side] = army.ap
            context.note("mm.army.ap-limit", f"Army {side}: {army.ap} AP, over the challenge's {state.ap_limit}: "
                         "not a legal army", involves=[mechanic("Army Points")], total=army.ap, limit=state.ap_limit)
        else:
            context.note("mm.army.ap-limit", f"Army {side}: {army.ap} AP, within the challenge's {state.ap_limit}",
                         involves=[mechanic("Army Points")], total=army.ap)
    if over:
        raise context.reject(
            "over-ap-limit", " and ".join(f"army {side} totals {ap} AP" for side, ap in over.items())
            + f", over the challenge's {state.ap_limit}",
            "mm.army.ap-limit", involves=[mechanic("Army Points")], totals=over, limit=state.ap_limit,
        )


def _starting(energy: str, value: int, unit: Unit) -> str:
    if energy not in unit.overridden:
        return f"{energy} {value}"
    return f"{energy} {value} (set by the scenario; energy plus modifiers would make it {unit.overridden[energy]})"


@steps("set-energy")
def set_energy(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for side in SIDES:
        for unit in state.armies[side].lineup:
            if unit.full_energy is not None and unit.energy < unit.full_energy:
                context.note("mm.begin.partial-energy", f"{side} {unit.name} enters the battle at {unit.energy} of its "
                             f"{unit.full_energy} energy", involves=[unit_entity(unit)], energy=unit.energy)
            context.note("mm.begin.energy", f"{side} {unit.name}: {_starting('AE', unit.ae, unit)}, "
                         f"{_starting('DE', unit.de, unit)}", involves=[unit_entity(unit)], ae=unit.ae, de=unit.de,
                         set_by_scenario=sorted(unit.overridden))
        context.note("mm.army.lineup", f"{side}'s lineup: " + ", ".join(u.name for u in state.armies[side].lineup),
                     involves=[mechanic("lineup")])


@steps("first-player")
def first_player(context: Context, state: State, action: Mapping[str, Any]) -> None:
    state.offense = state.first_player
    context.note("mm.begin.first-player", f"{state.first_player} is the first player: its leading unit begins on the offense",
                 involves=[mechanic("offense and defense")])


# === Damage ========================================================================================


def _lead_hit(context: Context, state: State, side: str, unit: Unit, foe: Unit) -> Hit | None:
    """The damage a leading unit deals the other leading unit this round (None: negated or deferred)."""
    offense = side == state.offense
    if unit.exhausted:
        state.deferred.append((side, unit.name))
        context.note("mm.exhaustion.last", f"{unit.name} is exhausted: its damage is exhaustion damage, dealt only after "
                     "all other damage", involves=[unit_entity(unit), mechanic("exhaustion")])
        return None  # its attack is exhaustion damage, dealt last
    if state.round in unit.silenced_rounds:
        context.note("mm.ability.stun", f"{unit.name} was stunned: it deals no damage this turn",
                     involves=[unit_entity(unit), ability("stun")])
        return None
    if offense and unit.has("defender"):
        context.note("mm.ability.defender", f"{unit.name} has defender and is on the offensive: it deals no damage",
                     involves=[unit_entity(unit), ability("defender")])
        return None
    if not offense and foe.has("defender"):
        context.note("mm.ability.defender", f"{foe.name} has defender and is on the offensive: it takes no damage",
                     involves=[unit_entity(foe), ability("defender")])
        return None
    effects: list[tuple[str, int]] = []
    if offense and unit.has("flying"):
        if foe.has("flying"):
            context.note("mm.ability.flying", f"{unit.name} flies against a flying unit: no +1",
                         involves=[unit_entity(unit), unit_entity(foe), ability("flying")])
        else:
            effects.append(("flying", 1))
            context.note("mm.ability.flying", f"{unit.name} flies, on the offense against a unit that does not: +1 damage",
                         involves=[unit_entity(unit), unit_entity(foe), ability("flying")])
    effects += list(unit.bonuses)
    amount = 1 + sum(bonus for _, bonus in effects)
    if effects:
        context.note("mm.damage.effects", f"{unit.name}: 1 + " + " + ".join(f"{b} ({n})" for n, b in effects) + f" = {amount}",
                     involves=[unit_entity(unit), *(ability(n) for n, _ in effects if n == "flying")])
    while amount > unit.ae and effects:
        dropped = effects.pop() if context.read(AE_CAP_ORDER, "latest-first") else effects.pop(0)
        amount -= dropped[1]
        context.note("mm.damage.ae-cap", f"{unit.name} would deal more than its AE {unit.ae}: {dropped[0]} is ignored, "
                     f"damage {amount}", involves=[unit_entity(unit), mechanic("AE")])
    return Hit(unit, side, foe, amount, "lead")


def deal(context: Context, state: State, hits: list[Hit]) -> int:
    """Apply hits together: each point dealt consumes the dealer's AE (DE when exhausted), each taken the taker's DE."""
    total = 0
    for hit in hits:
        before = (hit.by.ae, hit.by.de, hit.to.de)
        if hit.kind == "exhaustion":
            hit.by.de = max(0, hit.by.de - hit.amount)
        else:
            hit.by.ae = max(0, hit.by.ae - hit.amount)
        hit.to.de = max(0, hit.to.de - hit.amount)
        total += hit.amount
        spent = "DE" if hit.kind == "exhaustion" else "AE"
        context.note(
            "mm.exhaustion.consumes-de" if hit.kind == "exhaustion" else "mm.damage.consumption",
            f"{hit.by.name} deals {hit.amount} to {hit.to.name} ({hit.kind}): {hit.by.name} {spent} "
            f"{before[0] if spent == 'AE' else before[1]} → {hit.by.ae if spent == 'AE' else hit.by.de}, "
            f"{hit.to.name} DE {before[2]} → {hit.to.de}",
            involves=[unit_entity(hit.by), unit_entity(hit.to)], amount=hit.amount,
        )
        _record(state, hit)
        if hit.kind != "exhaustion" and hit.by.exhausted:
            context.note("mm.exhaustion.exhausted", f"{hit.by.name}'s AE is depleted: it is exhausted and stays in the lead",
                         involves=[unit_entity(hit.by), mechanic("exhaustion")])
    _remove_defeated(context, state)
    return total


def _record(state: State, hit: Hit) -> None:
    entry = state.rounds[str(state.round)]
    entry["damage"].append({"by": hit.by.name, "to": hit.to.name, "amount": hit.amount, "kind": hit.kind})


def _remove_defeated(context: Context, state: State) -> None:
    for side in SIDES:
        army = state.armies[side]
        for unit in [u for u in army.lineup if u.de <= 0]:
            army.lineup.remove(unit)
            army.defeated.append(unit)
            state.rounds[str(state.round)]["defeated"].append(unit.name)
            following = f"; {army.lineup[0].name} leads" if army.lineup else ""
            context.note("mm.defeat", f"{unit.name}'s DE is depleted: defeated and removed{following}",
                         involves=[unit_entity(unit), mechanic("defeat")])


def _begin_round(state: State) -> None:
    state.round += 1
    state.rounds[str(state.round)] = {
        "offense": state.offense,
        "leads": {side: state.armies[side].lineup[0].name for side in SIDES},
        "damage": [], "defeated": [], "dealt": 0, "rotated": False,
    }
    state.exhausted_at_start = {(side, unit.name) for side in SIDES for unit in state.armies[side].lineup if unit.exhausted}


@steps("leading-units-damage")
def leading_units_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _begin_round(state)
    leads = {side: state.lead(side) for side in SIDES}
    a, b = leads["A"], leads["B"]
    assert a is not None and b is not None
    context.note("mm.army.leading-units", f"Round {state.round}: {a.name} ({'offense' if state.offense == 'A' else 'defense'}) "
                 f"against {b.name} ({'offense' if state.offense == 'B' else 'defense'})",
                 involves=[unit_entity(a), unit_entity(b), mechanic("offense and defense")])
    hits = [h for h in (_lead_hit(context, state, "A", a, b), _lead_hit(context, state, "B", b, a)) if h]
    if len(hits) == 2 and all(h.amount == 1 for h in hits) and not any(h.by.bonuses for h in hits):
        context.note("mm.damage.base", "The leading units deal 1 damage to each other", involves=[unit_entity(a), unit_entity(b)])
    state.rounds[str(state.round)]["dealt"] += deal(context, state, hits)
    _stun(context, state, hits)


def _stun(context: Context, state: State, hits: list[Hit]) -> None:
    for hit in hits:
        if hit.by_side != state.offense or not hit.to.has("stun") or hit.amount <= 0:
            continue
        silenced = hit.by if context.read(STUN_SILENCES, "attacker-silenced") else hit.to
        turn = next_turn(context, state.round)
        silenced.silenced_rounds |= frozenset(turn)
        context.note("mm.ability.stun", f"{hit.by.name}, on the offense, damaged {hit.to.name}, which has stun: "
                     f"{silenced.name} deals no damage on its next turn (round{'s' if len(turn) > 1 else ''} "
                     + ", ".join(str(r) for r in turn) + ")",
                     involves=[unit_entity(hit.by), unit_entity(hit.to), ability("stun")])


def _ballistic_units(state: State) -> list[Unit]:
    """The defense's ballistic units behind its leading unit (none while either army is defeated)."""
    if not state.armies[state.offense].lineup:
        return []
    return [u for u in state.armies[other(state.offense)].lineup[1:] if u.has("ballistics")]


@steps.condition("defense-has-ballistic-unit")
def defense_has_ballistic_unit(state: State) -> bool:
    return bool(_ballistic_units(state))


@steps("ballistics")
def ballistics(context: Context, state: State, action: Mapping[str, Any]) -> None:
    side = other(state.offense)
    army = state.armies[side]
    ballistic = _ballistic_units(state)
    names = [u.name for u in ballistic]
    start = names.index(army.last_fired) + 1 if army.last_fired in names else 0
    shooter = (ballistic[start:] + ballistic[:start])[0]
    army.last_fired = shooter.name
    foes = state.armies[state.offense].lineup
    if context.read(BALLISTICS_TARGET, "opposing-lead") or len(foes) == 1:
        target = foes[0]
    else:
        target = foes[1]
    if shooter.exhausted:
        context.note("mm.damage.ae-cap", f"{shooter.name} has no AE left: its ballistic fire is ignored",
                     involves=[unit_entity(shooter), ability("ballistics")])
        return
    if target is foes[0] and target.has("defender"):
        context.note("mm.ability.defender", f"{target.name} has defender and is on the offensive: it takes no damage",
                     involves=[unit_entity(target), ability("defender")])
        return
    context.note("mm.ability.ballistics", f"{side} is on the defense: {shooter.name} fires for 1 damage at {target.name}",
                 involves=[unit_entity(shooter), unit_entity(target), ability("ballistics")])
    context.note("mm.damage.effects", f"An effect lets {shooter.name}, not a leading unit, deal damage",
                 involves=[unit_entity(shooter), ability("ballistics")])
    state.rounds[str(state.round)]["dealt"] += deal(context, state, [Hit(shooter, side, target, 1, "ballistics")])


def _exhausted_striker(context: Context, state: State, side: str, name: str) -> Unit | None:
    """The exhausted unit due to deal exhaustion damage this round, unless its defeat took it away."""
    lead = state.lead(side)
    if lead is not None and lead.name == name:
        return lead
    fallen = next(u for u in state.armies[side].defeated if u.name == name)
    if context.read(DEFEAT_BEFORE_EXHAUSTION, "removed-at-once"):
        context.note("mm.defeat", f"{name} was defeated and removed earlier this round: it deals no exhaustion damage",
                     involves=[unit_entity(fallen), mechanic("defeat"), mechanic("exhaustion")])
        return None
    context.note(DEFEAT_BEFORE_EXHAUSTION, f"{name} was defeated earlier this round: its exhaustion damage, "
                 "determined with the round's, is still dealt", involves=[unit_entity(fallen), mechanic("exhaustion")])
    return fallen


@steps.condition("exhausted-units-attack")
def exhausted_units_attack(state: State) -> bool:
    return bool(state.deferred)


@steps("exhaustion-damage")
def exhaustion_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    hits: list[Hit] = []
    deferred, state.deferred = state.deferred, []
    for side, name in deferred:
        unit, foe = _exhausted_striker(context, state, side, name), state.lead(other(side))
        if unit is None or foe is None:
            continue
        offense = side == state.offense
        if state.round in unit.silenced_rounds or (offense and unit.has("defender")) or (not offense and foe.has("defender")):
            context.note("mm.damage.negated", f"{unit.name}'s exhaustion damage is negated", involves=[unit_entity(unit)])
            continue
        if foe.has("agility") and not exhausted_for_agility(context, state, other(side), foe):
            context.note("mm.ability.agility", f"{foe.name} has agility and is not exhausted: it cannot be dealt "
                         f"{unit.name}'s exhaustion damage", involves=[unit_entity(unit), unit_entity(foe), ability("agility")])
            context.note("mm.damage.negated", f"{unit.name}'s exhaustion damage is negated: neither AE nor DE is consumed",
                         involves=[unit_entity(unit)])
            continue
        if foe.has("agility"):
            context.note("mm.ability.agility", f"{foe.name} has agility but is exhausted: it can be dealt "
                         f"{unit.name}'s exhaustion damage", involves=[unit_entity(unit), unit_entity(foe), ability("agility")])
        if unit.bonuses or unit.has("flying"):
            context.note("mm.exhaustion.no-damage-abilities", f"{unit.name} is exhausted: abilities that increase its damage "
                         "are ignored", involves=[unit_entity(unit), mechanic("exhaustion")])
        context.note("mm.exhaustion.last", f"{unit.name} is exhausted: it attacks last, consuming DE",
                     involves=[unit_entity(unit), mechanic("exhaustion")])
        hits.append(Hit(unit, side, foe, 1, "exhaustion"))
    state.rounds[str(state.round)]["dealt"] += deal(context, state, hits)
    _stun(context, state, hits)


def exhausted_for_agility(context: Context, state: State, side: str, unit: Unit) -> bool:
    """Whether a unit with agility is "also exhausted" against exhaustion damage: as it is when that damage is dealt,
    after the round's other damage, or as it was when the round began (an ambiguous ruling)."""
    at_start = (side, unit.name) in state.exhausted_at_start
    if unit.exhausted == at_start or context.read(AGILITY_EXHAUSTED_WHEN, "when-dealt"):
        return unit.exhausted
    context.note(AGILITY_EXHAUSTED_WHEN, f"{unit.name} was exhausted only by this round's damage: not exhausted when the "
                 "round began, so not exhausted for agility", involves=[unit_entity(unit), ability("agility")])
    return at_start


@steps("rotation")
def rotation(context: Context, state: State, action: Mapping[str, Any]) -> None:
    entry = state.rounds[str(state.round)]
    if entry["dealt"]:
        state.quiet_rounds = 0
        return
    state.quiet_rounds += 1
    context.note("mm.damage.negated", f"No damage dealt or taken this round ({state.quiet_rounds} in a row)",
                 involves=[mechanic("rotation")])
    if state.quiet_rounds < 2 or any(not state.armies[side].lineup for side in SIDES):
        return
    per_turn = rounds_per_turn(context)
    if state.quiet_rounds < 2 * per_turn or state.round % per_turn:
        return  # not yet two whole turns without damage
    for side in SIDES:
        lineup = state.armies[side].lineup
        lineup.append(lineup.pop(0))
    state.quiet_rounds = 0
    entry["rotated"] = True
    context.note("mm.damage.rotation", "Two turns without damage: both leading units move to the back; "
                 f"{state.armies['A'].lineup[0].name} and {state.armies['B'].lineup[0].name} lead",
                 involves=[mechanic("rotation")])


@steps("end-of-round")
def end_of_round(context: Context, state: State, action: Mapping[str, Any]) -> None:
    left = {side: bool(state.armies[side].lineup) for side in SIDES}
    if not all(left.values()):
        state.over = True
        if any(left.values()):
            state.winner = next(side for side in SIDES if left[side])
            context.note("mm.end.winner", f"{other(state.winner)}'s army is defeated: {state.winner} wins",
                         involves=[mechanic("end of battle")])
        else:
            context.note("mm.end.draw", "No player has any units left: a draw", involves=[mechanic("end of battle")])
        return
    if state.rounds[str(state.round)].get("rotated") and context.read(ROLES_AFTER_ROTATION, "restart-with-first-player"):
        state.offense = state.first_player
        context.note(ROLES_AFTER_ROTATION, f"New leading units: {state.first_player}'s begins on the offense again",
                     involves=[mechanic("offense and defense"), mechanic("rotation")])
    else:
        state.offense = other(state.offense)
        context.note("mm.begin.roles-swap", f"Roles exchanged: {state.offense} is on the offense next",
                     involves=[mechanic("offense and defense")])
    fingerprint = state.fingerprint()
    if fingerprint in state.seen:
        state.over, state.stalemate = True, True
        context.note("mm.end.stalemate", "The battle is back in a position it has been in: negated damage makes further "
                     "damage impossible. Stalemate: a draw", involves=[mechanic("end of battle"), mechanic("stalemate")])
    state.seen.add(fingerprint)


@steps.condition("battle-goes-on")
def battle_goes_on(state: State) -> bool:
    return not state.over


@steps.condition("battle-ended")
def battle_ended(state: State) -> bool:
    return state.over


# === Actions ========================================================================================


@vocabulary.action("battle", "Fight: set the battle up (the first time), then fight this many rounds, or to the end.",
                   params={"rounds": {"type": "integer", "minimum": 1}})
def battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """Set the battle up (once), then fight the rounds asked for, or to the end."""
    context.advance(state, "first-player", action)  # the beginning, unless the battle has begun
    limit = action.get("rounds")
    fought = 0
    while not state.over and (limit is None or fought < limit):
        if state.round >= ROUND_LIMIT:
            raise RuntimeError(f"no end after {ROUND_LIMIT} rounds")
        context.advance(state, "end-of-round", action)
        fought += 1
