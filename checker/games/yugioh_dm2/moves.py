"""What may be done next in the Battle Phase of Duel Monsters II: every action the rules might allow, with its choices.

The core keeps those the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try, drawn
from the state in the chapter's words (``yugioh-duel-monsters-2-battle-phase.txt``):

- Start Step: the turn player announces "I'm entering the Battle Phase" (``battle-phase``); either player may end
  the turn (``end-turn``): the rules keep the turn player's.
- Battle Step: "Select 1 monster on your side of the field to attack with, and 1 of your opponent's monsters as
  your attack target": each of the turn player's face-up Attack Position monsters that has not attacked ("each
  face-up Attack Position monster is allowed 1 attack per turn") against each of the opponent's monsters; "you can
  attack directly" (``direct: true``); behind "a divider, you choose one of your opponent's Monster Card Zones"
  (``target_zone``, zones 1 to 5). "At the Same Time": every group of those monsters against one target, one
  monster against every group of targets, every group against every group, and groups attacking directly or a
  zone. A declaration names its monsters as a group: the chapter compares them "starting from your left"
  whatever order they are written in, so :func:`canonical` writes a group in name order.
- Chains: "you or your opponent may respond by activating Magic & Trap cards": each player's cards in hand or set
  that have an effect; an effect that targets a monster (ATK/DEF change, destroy, return to the hand, move, swap)
  against each monster on the field; a move, a swap or a Special Summon that names no zone into each of the zones
  1 to 5. "When
  neither player wishes to Chain" the Chain resolves (``resolve-chain``).
- Damage Step: play proceeds to it (``damage-step``), calculates damage (``calculate``), sends destroyed monsters
  to the Graveyard (``graveyard``) and ends it (``end-damage-step``). "If you need to select a monster for the Flip
  Effect to target": each face-down monster that the attack flips (a target, or the monster in a target's zone)
  and whose Flip Effect targets, against each monster on the field; the rules refuse "a monster that has already
  been destroyed during damage calculation".
- End Step: "announce to your opponent that you are ending your Battle Phase" (``end-battle-phase``).

Only the turn player conducts the Battle Phase: the attack and the steps after it are written without ``player``
(the rules take the turn player's and refuse anyone else's), so :func:`canonical` drops it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any, Iterator, Mapping

from .state import MAIN, PLAYERS, ZONES, Monster, State, opponent

#: Effect kinds that name a monster as their target (the activation's, or the Flip Effect's, ``target``).
TARGETED = frozenset({"change-atk", "change-def", "destroy", "return-to-hand", "move", "swap"})
#: Effect kinds that put a monster in a zone the player may choose when the card names none.
ZONED = frozenset({"move", "swap", "special-summon"})
#: Actions only the turn player takes, written with or without ``player``.
TURN_PLAYERS = frozenset({"attack", "damage-step", "calculate", "graveyard", "end-damage-step", "end-battle-phase"})
#: Steps of the Damage Step from which the attack's face-down targets have been flipped (``battle.flipped``).
FLIPPED_BY_NOW = frozenset({"before-damage-calculation", "battle-only-effects", "damage-calculation",
                            "after-damage-calculation", "send-to-graveyard", "end-of-damage-step"})


def actor(state: State, action: Mapping[str, Any]) -> str | None:
    """Who takes an action written without ``player``: the turn player conducts the Battle Phase; a Chain resolves
    when neither player wishes to Chain, by nobody's action."""
    return state.active if action.get("action") in TURN_PLAYERS else None


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """Every action the rules might allow at ``state``, each with every choice written out."""
    for player in PLAYERS:
        yield {"action": "battle-phase", "player": player}
    yield from _activations(state)
    yield {"action": "resolve-chain"}
    yield from _attacks(state)
    yield {"action": "damage-step"}
    yield from _calculations(state)
    yield {"action": "graveyard"}
    yield {"action": "end-damage-step"}
    yield {"action": "end-battle-phase"}
    for player in PLAYERS:
        yield {"action": "end-turn", "player": player}


def _activations(state: State) -> Iterator[dict[str, Any]]:
    names = [m.name for m in state.monsters]
    for player in PLAYERS:
        own = state.players[player]
        for name in dict.fromkeys([*own.hand, *own.set_cards]):
            card = state.cards.get(name)
            if card is None or card.type == "monster" or card.effect is None:
                continue
            base = {"action": "activate", "player": player, "card": name}
            targets: list[dict[str, Any]] = [{"target": t} for t in names] if card.effect.kind in TARGETED else [{}]
            zones: list[dict[str, Any]] = [{}]
            if card.effect.kind in ZONED and card.effect.zone is None:
                zones = [{"zone": zone} for zone in ZONES]
            for target, zone in product(targets, zones):
                yield {**base, **target, **zone}


def _attackers(state: State) -> list[Monster]:
    """The turn player's face-up Attack Position monsters that have not attacked, from their left."""
    return [m for m in state.side(state.active) if m.face_up and m.position == "attack" and not m.attacked]


def _groups(names: list[str]) -> Iterator[list[str]]:
    for size in range(1, len(names) + 1):
        for group in combinations(names, size):
            yield list(group)


def _attacks(state: State) -> Iterator[dict[str, Any]]:
    attackers = [m.name for m in _attackers(state)]
    foes = [m.name for m in state.side(opponent(state.active))]
    for group in _groups(attackers):
        who = _named("attacker", group)
        yield {"action": "attack", **who, "direct": True}
        for zone in ZONES:
            yield {"action": "attack", **who, "target_zone": zone}
        for targets in _groups(foes):
            yield {"action": "attack", **who, **_named("target", targets)}


def _named(key: str, names: list[str]) -> dict[str, Any]:
    """One monster as ``attacker:``/``target:``, a group as ``attackers:``/``targets:`` in name order."""
    return {key: names[0]} if len(names) == 1 else {key + "s": sorted(names)}


def _flip_targeting(state: State) -> list[str]:
    """The monsters whose Flip Effect needs a target when this battle's damage is calculated."""
    battle = state.battle
    if battle is None:
        return []
    if state.step in FLIPPED_BY_NOW:
        flipped = [state.monster(name) for name in battle.flipped]
    else:
        flipped = [m for m in state.side(battle.defender)
                   if not m.face_up and (m.name in battle.targets or m.zone in battle.target_zones)]
    return [m.name for m in flipped if m is not None and _targets(state.cards[m.card].flip)]


def _targets(effect: Any) -> bool:
    return effect is not None and effect.kind in TARGETED


def _calculations(state: State) -> Iterator[dict[str, Any]]:
    flipping = _flip_targeting(state)
    if not flipping:
        yield {"action": "calculate"}
        return
    names = [m.name for m in state.monsters]
    for chosen in product(names, repeat=len(flipping)):
        yield {"action": "calculate", "flip_targets": dict(zip(flipping, chosen))}


def canonical(action: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
    """The action as :func:`candidates` writes it: the turn player's actions without ``player``, an attack's
    monsters as ``attacker``/``target`` or, for a group, ``attackers``/``targets`` in name order, and only the
    target form the rules read (``direct`` over ``target_zone`` over ``targets`` over ``target``); a calculation
    without Flip Effect targets without ``flip_targets``."""
    out = dict(action)
    kind = out.get("action")
    if kind in TURN_PLAYERS:
        out.pop("player", None)
    if kind == "calculate" and not out.get("flip_targets"):
        out.pop("flip_targets", None)
    if kind != "attack":
        return out
    attackers = out.pop("attackers", None) or ([out.pop("attacker")] if "attacker" in out else [])
    out.pop("attacker", None)
    if attackers:
        out.update(_named("attacker", list(attackers)))
    direct = out.pop("direct", False)
    zone = out.pop("target_zone", None)
    targets = out.pop("targets", None) or ([out.pop("target")] if "target" in out else [])
    out.pop("target", None)
    if direct:
        out["direct"] = True
    elif zone is not None:
        out["target_zone"] = zone
    elif targets:
        out.update(_named("target", list(targets)))
    return out


# === Invariants ==================================================================================


def _holdings(state: State, player: str) -> Counter[str]:
    """Every card a player holds: hand, set Magic & Trap cards, Graveyard, and monsters on the field."""
    own = state.players[player]
    return Counter([*own.hand, *own.set_cards, *own.graveyard, *(m.card for m in state.side(player))])


def _from_deck(state: State) -> set[str]:
    """The monsters a card may Special Summon from the Deck (which the duel does not keep)."""
    found = set()
    for card in state.cards.values():
        for effect in (card.effect, card.flip, card.on_battle, card.on_battle_damage, card.on_sent_to_graveyard,
                       card.end_of_damage_step, card.end_of_battle_phase):
            if effect is not None and effect.kind == "special-summon" and effect.summoned_from == "deck":
                found.add(effect.monster or "")
    return found


def invariants(first: State, state: State) -> Iterator[str]:
    """What the chapter keeps true in any duel played on from ``first``, each broken one in words.

    - Cards only move between the hand, the set Magic & Trap cards, the Graveyard ("sends it to the Graveyard")
      and the Monster Card Zones, numbered 1 to 5, one monster each; none is lost, none is set, and only a Special
      Summon from the Deck (which the duel does not keep) brings a new one.
    - The turns alternate, and "the player who goes first cannot conduct a Battle Phase in their very first turn".
    - A battle fought stays as it was fought; a direct attack has no target; a battle destroys only its own
      monsters; Battle Damage is the amount one value "exceeds" the other, or the attacker's ATK: never negative.
    - The battle under way is the turn player's ("1 monster on your side of the field"), against the opponent;
      its attackers have used their attack ("allowed 1 attack per turn"), unless "nothing happens"; its face-down
      targets are "face-up Defense Position"; it ends with the Damage Step, where "monsters that have been
      destroyed in battle are sent to the Graveyard", and before the End Step.
    """
    for player in PLAYERS:
        before, now = _holdings(first, player), _holdings(state, player)
        lost = before - now
        if lost:
            yield f"{player} lost cards: {sorted(lost.elements())} are in no hand, set, Graveyard or Monster Card Zone"
        extra = [name for name in now - before if name not in _from_deck(state)]
        if extra:
            yield f"{player} gained cards from nowhere: {sorted(extra)}"
        if len(state.players[player].set_cards) > len(first.players[player].set_cards):
            yield f"{player} has more cards set than at the start: the chapter sets none"
        zones = [m.zone for m in state.side(player)]
        if len(zones) != len(set(zones)) or not set(zones) <= set(ZONES):
            yield f"{player}'s monsters are not each in their own Monster Card Zone 1-5: zones {zones}"
    names = [m.name for m in state.monsters]
    if len(names) != len(set(names)):
        yield f"two monsters share a name on the field: {names}"
    turn_player = first.active if (state.turn - first.turn) % 2 == 0 else opponent(first.active)
    if state.turn < first.turn or state.active != turn_player:
        yield f"turn {state.turn} is {state.active}'s: the turns did not alternate from turn {first.turn} ({first.active})"
    if state.battles[:len(first.battles)] != first.battles:
        yield "battles already fought were changed"
    fought = len(state.battles) > len(first.battles)
    if state.turn == 1 and state.active == state.first_player and (state.step != MAIN or fought):
        yield f"{state.active} went first and conducted a Battle Phase in their very first turn (at {state.step})"
    for record in state.battles[len(first.battles):]:
        if record["direct"] and record["targets"]:
            yield f"a direct attack had targets: {record}"
        fighters = {*record["attackers"], *record["targets"]}
        if not set(record["destroyed"]) <= fighters:
            yield f"a monster outside the battle was destroyed by it: {record}"
        negative = {player: amount for player, amount in record["battle_damage"].items() if amount < 0}
        if negative:
            yield f"negative Battle Damage: {negative}"
    if state.battle is None:
        destroyed = [m.name for m in state.monsters if m.destroyed]
        if destroyed:
            yield f"monsters destroyed in battle stayed on the field after the Damage Step: {destroyed}"
    elif state.step == MAIN or state.step in ("end-of-battle-phase", "end-step-activations"):
        yield f"a battle is under way outside the Battle and Damage Steps (at {state.step})"
    else:
        if state.battle.defender != opponent(state.active):
            yield f"{state.active}'s attack is defended by {state.battle.defender}"
        for name in state.battle.attackers:
            monster = state.monster(name)
            if monster is not None and monster.controller != state.active:
                yield f"{name} attacks for {state.active} and is {monster.controller}'s"
        for name in state.battle.flipped:
            monster = state.monster(name)
            if monster is not None and (not monster.face_up or monster.position != "defense"):
                yield f"{name} was attacked face-down and is not face-up in Defense Position"
        for name in state.battle.attackers:
            monster = state.monster(name)
            if monster is not None and not monster.attacked and not state.battle.cancelled:
                yield f"{name} is attacking and has not used its attack"
