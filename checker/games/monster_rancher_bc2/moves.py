"""What may be done next in a Monster Rancher battle: the actions the rules might allow, each with its choices.

The core keeps those the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try, drawn
from the state in the words of ``monster-rancher-battle-card-2.md``:

- Nothing is tried once a Breeder has lost.
- ``attack`` ("Commence your Attack Step"): the Breeder whose turn it is uses an attack card of its hand with one of
  its monsters that may use it (the card's monster, or Any Monster), combined with up to :data:`MOST_COMBINED` of the
  cards of its hand made to be combined with a move ("Critical", "Will Power"), in the order they sit in the hand.
  "For moves that only damage one monster (single target), declare now": each opposing monster is a target. "For
  moves that damage multiple monsters (AoE), you don't need to declare": no target. "For distributable damage, you
  now decide how to split the damage": every split of the Final Damage (base damage, additive bonus, multiplier
  bonus, the ENV's 'Final Damage' modifier) among the opposing monsters; past :data:`MOST_SPLITS` splits, only the
  splits putting it all on one monster or as evenly as can be on two or three.
- ``defend`` ("Proceed to the opponent's Defense Step"): while an attack's Defense Step is open, the other Breeder
  plays a defense card of its hand with one of its monsters that may use it; a redirection names each other monster
  of its side as the ally, an attribute change its user (the short form) or another monster of its side.
- ``skill``: the Breeder whose turn it is uses a skill or a Breeder card of its hand (a monster's card with each of
  its monsters that may use it; a Breeder card with no monster, unless an effect acts on its user), alone or combined
  with one other card of its hand its user may use ("Joy's Support" with "Last Trump"). An effect on a target names
  each monster of the side it acts on; cards chosen from the hand or the discard pile are each choice of as many as
  the effect asks ("you generally need to have sufficient cards"); a shuffle's result (a chance event) is every order
  of the deck and the returned cards while they are at most :data:`MOST_SHUFFLED`, else every place of the returned
  cards in the deck kept in its order.
- ``env``: the Breeder whose turn it is plays an ENV card of its hand.
- ``draw``: either Breeder draws from 1 card up to one more than its deck holds ("Drawing with insufficient cards
  will lead to an immediate loss").
- ``end-turn``: the Breeder whose turn it is ends it.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any, Iterable, Iterator, Mapping

from .state import PLAYERS, Breeder, Card, Monster, State, opponent

#: Cards combined with one attack, at most: the document's largest combination ("Critical" and "Will Power").
MOST_COMBINED = 2
#: Splits of a distributable move's Final Damage listed in full, at most.
MOST_SPLITS = 40
#: Cards a shuffle orders in every way, at most (4 cards: 24 orders).
MOST_SHUFFLED = 4
#: The skill effects that act on someone ('to': the user, its allies, a target, a Breeder); the others act on the
#: Breeder's cards.
ACTING_ON = frozenset({"grant-status", "lose-lp", "halve-lp", "revive", "change-attribute"})

Action = dict[str, Any]


def candidates(state: State) -> Iterator[Action]:
    """Every action the rules might allow at ``state``, each with its choices written out."""
    if state.loser is not None:
        return
    active = state.active
    breeder = state.breeder(active)
    if state.pending is not None:
        yield from _defenses(state, opponent(state.pending.player))
    yield from _attacks(state, breeder)
    yield from _skills(state, breeder)
    for name in _kinds(state, breeder.hand, "env"):
        yield {"action": "env", "player": active, "card": name}
    for player in PLAYERS:
        for amount in range(1, len(state.breeder(player).deck) + 2):
            yield {"action": "draw", "player": player, "amount": amount}
    yield {"action": "end-turn", "player": active}


def canonical(action: Mapping[str, Any], state: Any = None) -> Action:
    """The action with the choices the rules default written out: no cards combined (``combo: []``), one card drawn;
    a split's shares of 0 left out (a share of 0 damages nothing) and no cards chosen left out."""
    normal = dict(action)
    kind = normal.get("action")
    if kind in ("attack", "skill"):
        normal.setdefault("combo", [])
    if kind == "attack" and isinstance(normal.get("split"), Mapping):
        normal["split"] = {name: share for name, share in normal["split"].items() if share != 0}
    if kind == "skill" and normal.get("choose_cards") == []:
        del normal["choose_cards"]
    if kind == "draw":
        normal.setdefault("amount", 1)
    return normal


# --- Attacks ---------------------------------------------------------------------------------


def _attacks(state: State, breeder: Breeder) -> Iterator[Action]:
    foes = [m.name for m in state.breeder(opponent(breeder.player)).monsters]
    combos = _kinds(state, breeder.hand, "combo")
    for card_name in _kinds(state, breeder.hand, "attack"):
        card: Card = state.cards[card_name]
        for monster in breeder.monsters:
            if not _may_use(card, monster):
                continue
            usable = [name for name in combos if _may_use(state.cards[name], monster)]
            for combined in _sub_multisets(usable, Counter(breeder.hand), MOST_COMBINED):
                action = {"action": "attack", "player": breeder.player, "monster": monster.name, "card": card_name,
                          "combo": list(combined)}
                if card.spread == "single":
                    for target in foes:
                        yield {**action, "target": target}
                elif card.spread == "distributable":
                    total = _final_damage(state, monster, card, [state.cards[name] for name in combined])
                    for split in _splits(total, foes):
                        yield {**action, "split": split}
                else:
                    yield action


def _final_damage(state: State, attacker: Monster, card: Card, combined: list[Card]) -> int:
    """The Final Damage ("Now, calculate the Final Damage"): the move's base damage, the additive bonus (the cards combined with it and the
    attacker's statuses), the multiplier bonus, then the ENV's 'Final Damage' modifier."""
    bonuses = [
        s.definition for s in attacker.statuses
        if (s.definition.attack_add or s.definition.attack_multiply != 1)
        and s.definition.attack_type in (None, card.type)
    ]
    damage = card.damage + sum(c.add for c in combined) + sum(b.attack_add for b in bonuses)
    for factor in [c.multiply for c in combined] + [b.attack_multiply for b in bonuses]:
        damage *= factor
    env = state.env_card()
    return damage + (env.final_damage_add if env is not None else 0)


def _splits(total: int, foes: list[str]) -> list[dict[str, int]]:
    """Every way to split ``total`` among ``foes`` (shares of 0 left out), or, past :data:`MOST_SPLITS`, all of it
    on one, or as evenly as can be on two or three."""
    if total <= 0:
        return [{}]
    if math.comb(total + len(foes) - 1, len(foes) - 1) <= MOST_SPLITS:
        return [{name: share for name, share in zip(foes, shares) if share} for shares in _compositions(total, len(foes))]
    even = []
    for size in range(1, len(foes) + 1):
        for chosen in itertools.combinations(foes, size):
            base, extra = divmod(total, size)
            even.append({name: base + (1 if index < extra else 0) for index, name in enumerate(chosen) if base or index < extra})
    return even


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 0:
        if total == 0:
            yield ()
        return
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


# --- Defense Step ----------------------------------------------------------------------------


def _defenses(state: State, player: str) -> Iterator[Action]:
    breeder = state.breeder(player)
    for card_name in _kinds(state, breeder.hand, "defense"):
        card: Card = state.cards[card_name]
        kinds = {effect.kind for effect in card.effects}
        for monster in breeder.monsters:
            if not _may_use(card, monster):
                continue
            action = {"action": "defend", "player": player, "monster": monster.name, "card": card_name}
            others = [m.name for m in breeder.monsters if m is not monster]
            if kinds & {"take-for-ally", "pass-to-ally"}:
                for ally in others:
                    yield {**action, "choose": ally}
                continue
            yield action
            if "change-attribute" in kinds:
                for ally in others:
                    yield {**action, "choose": ally}


# --- Skills and Breeder cards ------------------------------------------------------------------


def _skills(state: State, breeder: Breeder) -> Iterator[Action]:
    player = breeder.player
    for card_name in _kinds(state, breeder.hand, "skill"):
        card: Card = state.cards[card_name]
        users: list[Monster | None]
        if card.user != "breeder":
            users = [m for m in breeder.monsters if _may_use(card, m)]
        elif any(effect.to == "self" for effect in _acting(card)):
            users = list(breeder.monsters)  # a Breeder card acting on its user names the monster
        elif any(effect.to == "allies" for effect in _acting(card)):
            users = [None, *breeder.monsters]  # all its monsters, or the allies of one
        else:
            users = [None]
        rest = Counter(breeder.hand)
        rest[card_name] -= 1
        for user in users:
            partners = [name for name in dict.fromkeys(rest.elements()) if _may_use(state.cards[name], user)]
            for combined in [(), *((name,) for name in partners)]:
                action: Action = {"action": "skill", "player": player, "card": card_name, "combo": list(combined)}
                if user is not None:
                    action["monster"] = user.name
                yield from _skill_choices(state, breeder, card, action, [card_name, *combined])


def _skill_choices(state: State, breeder: Breeder, card: Card, action: Action, played: list[str]) -> Iterator[Action]:
    """The skill's targets, the cards it chooses and the shuffle's results."""
    sides = {breeder.player if e.to == "own-monster" else opponent(breeder.player)
             for e in _acting(card) if e.to in ("target", "own-monster")}
    targets: list[str | None] = [None]
    if sides:
        targets = list(dict.fromkeys(m.name for side in sorted(sides) for m in state.breeder(side).monsters))
    hand = Counter(breeder.hand)
    hand.subtract(played)
    hand = +hand
    discard = Counter(breeder.discard) + Counter(played)
    choices: list[tuple[str, ...] | None] = [None]
    returned = 0
    for effect in card.effects:
        if effect.kind == "return-to-deck":
            ordered = [name for name in breeder.hand if hand[name]]
            if sum(hand.values()) < effect.amount:
                returned = min(effect.amount, 1)  # the hand is short: a card played with it goes back instead
            else:
                choices = list(_sub_multisets(list(dict.fromkeys(ordered)), hand, effect.amount, exactly=True))
                returned = effect.amount
        elif effect.kind in ("discard-from-hand", "take-from-discard"):
            pool = hand if effect.kind == "discard-from-hand" else discard
            names = [n for n in dict.fromkeys([*breeder.hand, *breeder.discard, *played]) if pool[n]]
            choices = list(_sub_multisets(names, pool, effect.amount, exactly=True))
    deck = _deck_before_shuffle(state, breeder, card)
    for target in targets:
        for chosen in choices:
            base = dict(action)
            if target is not None:
                base["target"] = target
            if chosen is not None:
                base["choose_cards"] = list(chosen)
            if deck is None:
                yield base
                continue
            for order in _shuffles(deck, returned):
                yield {**base, "shuffle": order}


def _deck_before_shuffle(state: State, breeder: Breeder, card: Card) -> int | None:
    """How many cards the deck holds when the card's effects shuffle cards into it (None: no shuffle)."""
    deck = len(breeder.deck)
    env = state.env_card()
    for effect in card.effects:
        if effect.kind == "return-to-deck":
            return deck
        if effect.kind == "draw" and not (env is not None and env.blocks_draw) and effect.amount <= deck:
            deck -= effect.amount
        elif effect.kind == "deck-to-guts":
            deck -= min(effect.amount, deck)
    return None


def _shuffles(deck: int, returned: int) -> Iterator[list[int]]:
    """A shuffle's results: every order of the pool while it is small, else each place of the returned cards in
    the deck kept in order (positions: 0 .. deck-1 the old deck, top first; then the returned cards)."""
    size = deck + returned
    if size <= MOST_SHUFFLED:
        yield from (list(order) for order in itertools.permutations(range(size)))
        return
    kept = list(range(deck))
    for places in itertools.combinations(range(size), returned):
        order, old, new = [], iter(kept), iter(range(deck, size))
        for position in range(size):
            order.append(next(new) if position in places else next(old))
        yield order


# --- Shared ------------------------------------------------------------------------------------


def _kinds(state: State, names: Iterable[str], kind: str) -> list[str]:
    """The distinct cards of ``names`` (in their order) of a kind."""
    return [name for name in dict.fromkeys(names) if name in state.cards and state.cards[name].kind == kind]


def _acting(card: Card) -> list[Any]:
    return [effect for effect in card.effects if effect.kind in ACTING_ON]


def _may_use(card: Card, user: Monster | None) -> bool:
    """The card's user: a Breeder card is the Breeder's, Any Monster's any monster's, others their monster's."""
    if card.user == "breeder":
        return True
    return user is not None and card.user in ("any", user.species)


def _sub_multisets(names: list[str], available: Counter[str], most: int, *, exactly: bool = False) -> Iterator[tuple[str, ...]]:
    """The choices of up to ``most`` (or exactly ``most``) cards among ``names``, as many of each as ``available``
    holds, each listed once in the order of ``names``."""
    pool = [name for name in names for _ in range(available[name])]
    seen: set[tuple[str, ...]] = set()
    sizes = [most] if exactly else range(0, most + 1)
    for size in sizes:
        for chosen in itertools.combinations(pool, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


# --- Invariants --------------------------------------------------------------------------------


def invariants(first: State, state: State) -> Iterator[str]:
    """What holds in every state reached from ``first``, in the document's terms:

    - a Breeder's cards only move between its hand, deck and discard pile ("Hand/Deck/Discard Manipulation"), or
      leave the deck as GUTS ("convert all those cards into Guts"): none appears, none changes sides;
    - GUTS are paid, never owed: never below 0;
    - Life Points never fall below 0 (a KO'd monster has 0), and a monster keeps its name and side;
    - a loss is final: a Breeder who has lost stays the loser;
    - turns alternate between the two Breeders; the ENV in play is an ENV card, or none;
    - a status lasts some turn ends yet (it expires when none is left), or until removed.
    """
    if first.loser is not None and state.loser != first.loser:
        yield f"{first.loser} had lost, and now the loser is {state.loser}"
    if state.turn < first.turn:
        yield f"the turn went back from {first.turn} to {state.turn}"
    elif state.active != (first.active if (state.turn - first.turn) % 2 == 0 else opponent(first.active)):
        yield f"turn {state.turn} is {state.active}'s, yet turns alternate from {first.active}'s turn {first.turn}"
    if state.env is not None and (state.env not in state.cards or state.cards[state.env].kind != "env"):
        yield f"{state.env!r} is in play as the ENV, and is not an ENV card"
    for player in PLAYERS:
        before, now = first.breeder(player), state.breeder(player)
        had = Counter(before.hand) + Counter(before.deck) + Counter(before.discard)
        has = Counter(now.hand) + Counter(now.deck) + Counter(now.discard)
        if has - had:
            yield f"{player} has cards it did not have: {dict(has - had)}"
        if now.guts < 0:
            yield f"{player} has {now.guts} GUTS"
        if [m.name for m in now.monsters] != [m.name for m in before.monsters]:
            yield f"{player}'s monsters changed: {[m.name for m in before.monsters]} -> {[m.name for m in now.monsters]}"
        for holder, statuses in [(f"Breeder {player}", now.statuses), *((m.name, m.statuses) for m in now.monsters)]:
            for status in statuses:
                if status.turns is not None and status.turns < 1:
                    yield f"{holder}'s {status.name} has {status.turns} turn ends left and did not expire"
        for monster in now.monsters:
            if monster.lp < 0:
                yield f"{player}'s {monster.name} has {monster.lp} LP"
