"""What may be done next in a My Crypto Saga battle: the actions the rules might allow, each with every choice.

Read beside "[Help] Battle: Basic Rules" (``my-crypto-saga-battle-rules.txt``). The core keeps the candidates
the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try.

- **deal** (Handout/Deal: "you are dealt 3 cards at random from your deck of 10 cards"): the random deal,
  made explicit as the scenario fixes it. Each player's hand is 3 different cards of their deck, in every order
  (the order is the hand's, "from left to right", which a timeout reads). The cards "dealt" in an earlier game
  come last: one reading of "once a card has been dealt it cannot be re-used" refuses them, the other allows them.
- **pre-round** ("Choose one card from your hand of three cards"): each player's card, or ``timeout`` ("the card
  with the lowest number in the remaining hand is selected"). The Pre-Charge is automatic: no choice; a card
  that cannot pay it ("A certain amount of KP ... from the card used is used as a charge") is not tried.
- **round** (Round 1 / Round 2: "choose a card from your hand to play", then the Charge Action): each player's
  card or ``timeout``, with each Charge Action: ``wait``, ``escape``, ``timeout`` ("Wait if the remaining KP allows
  it, or Escape"), or ``{charge: N}``. The Charge Action page is not part of the source, so N is any whole KP the
  card holds; the candidates try every multiple of 10 KP up to the card's KP (a coarser multiple of 10 above
  200 KP, so that at most 21 are tried), the card's whole KP, the KP of a Wait and the Charge Regulation. A charge
  the card cannot pay is not tried ("KP ... is reduced by using it to Charge"), nor a Wait it cannot pay.
- **disconnect** (Disconnection): any player not yet disconnected ("he or she will not be able to return").

Players choose at once, each on their own. A disconnected player chooses nothing ("automatically selected in the
same way as Timeout"), nor does one who Escaped (the Charge Action "is a choice to continue the game or not"):
their seats are left out. The rules judge
each player's choice on its own, so the listed actions combine the players' choices in one of two ways: every
combination when there are at most :data:`PRODUCT_LIMIT`; otherwise a covering set, in which each choice of each
player appears in at least one listed action (the i-th action gives each player their i-th choice, each player's
list turned by a different offset so that the same choices do not always meet). A deal of 3 of 10 cards to
each of two players has 720 × 720 combinations; the covering set has 720 deals (about 40 ms of trials; a
Round's covering set, about 45 actions, about 5 ms). :func:`parts` says how an action splits into its players'
choices, so that an action combining listed choices counts as listed (:func:`checker.engine.legal.listed`).
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator, Mapping, Sequence

from .state import Card, Player, State

#: At most this many combinations of the players' choices are listed one by one; above it, a covering set.
PRODUCT_LIMIT = 64
#: A charge's amounts are multiples of 10 KP ("10KP to 50KP", the Charge Regulation's steps) ...
CHARGE_STEP = 10
#: ... at most this many of them (a coarser multiple of 10 above 200 KP).
CHARGE_AMOUNTS = 20
HAND = 3


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """The next deal, Pre-Round or Round, with each player's choices, then each possible disconnection."""
    if state.stage == "deal":
        yield from _deals(state)
    elif state.stage == "pre-round":
        yield from _pre_rounds(state)
    elif state.stage in ("round-1", "round-2"):
        yield from _rounds(state)
    for seat in state.seats:
        if not state.players[seat].disconnected:
            yield {"action": "disconnect", "player": seat}


def parts(action: Mapping[str, Any]) -> tuple[Any, dict[str, Any]] | None:
    """A deal, Pre-Round or Round split into what it shares (its name and the seats that choose) and each player's
    own choice (a hand; a card; a card and a Charge Action); ``None`` for a disconnection."""
    name = action.get("action")
    if name == "deal":
        hands = action.get("hands", {})
        return ("deal", tuple(sorted(hands))), {seat: list(hand) for seat, hand in hands.items()}
    if name == "pre-round":
        select = action.get("select", {})
        return ("pre-round", tuple(sorted(select))), dict(select)
    if name == "round":
        select, charge = action.get("select", {}), action.get("charge", {})
        seats = sorted(set(select) | set(charge))
        shared = ("round", tuple(sorted(select)), tuple(sorted(charge)))
        return shared, {seat: (select.get(seat), charge.get(seat)) for seat in seats}
    return None


# === Handout / Deal ================================================================================


def _deals(state: State) -> Iterator[dict[str, Any]]:
    hands = {seat: _hands(state.players[seat]) for seat in state.seats}
    for choice in _combine(hands):
        yield {"action": "deal", "hands": choice}


def _hands(player: Player) -> list[list[list[str]]]:
    """Every hand of 3 different cards of the player's deck, in every order: those of cards not dealt yet first,
    then those with a card dealt in an earlier game (as tiers, so that the covering set pairs like with like)."""
    fresh = [card for card in player.deck if card not in player.dealt]
    new = [list(hand) for hand in itertools.permutations(fresh, HAND)]
    again = [list(hand) for hand in itertools.permutations(player.deck, HAND) if any(c in player.dealt for c in hand)]
    return [tier for tier in (new, again) if tier]


# === Pre-round =====================================================================================


def _choosing(state: State) -> list[Player]:
    """The players who choose: in the game (not Escaped) and not disconnected, in seat order."""
    return [player for player in state.in_game() if not player.disconnected]


def _pre_rounds(state: State) -> Iterator[dict[str, Any]]:
    choices = {player.seat: [_pre_round_choices(state, player)] for player in _choosing(state)}
    for select in _combine(choices):
        yield {"action": "pre-round", "select": select}


def _pre_round_choices(state: State, player: Player) -> list[str]:
    """Each card in hand, and ``timeout``, whose card can pay the Pre-Charge (the Charge Regulation)."""
    found = []
    for select in [*dict.fromkeys(player.hand), "timeout"]:
        card = state.cards[select] if select != "timeout" else _timeout_card(state, player)
        if card is not None and card.kp >= state.charge_regulation:
            found.append(select)
    return found


# === Round 1 / Round 2 ==============================================================================


def _rounds(state: State) -> Iterator[dict[str, Any]]:
    choices = {player.seat: [_round_choices(state, player)] for player in _choosing(state)}
    for chosen in _combine(choices):
        yield {"action": "round", "select": {seat: card for seat, (card, _) in chosen.items()},
               "charge": {seat: charge for seat, (_, charge) in chosen.items()}}


def _round_choices(state: State, player: Player) -> list[tuple[str, Any]]:
    """Each card the player may select (or ``timeout``), with each Charge Action that card can pay for."""
    found = []
    for select in [*dict.fromkeys(player.hand), "timeout"]:
        card = state.cards[select] if select != "timeout" else _timeout_card(state, player)
        if card is None:
            continue
        actions: list[Any] = ["wait"] if card.kp >= state.wait_kp else []
        actions += ["escape", "timeout"]
        actions += [{"charge": amount} for amount in _amounts(state, card)]
        found += [(select, action) for action in actions]
    return found


def _timeout_card(state: State, player: Player) -> Card | None:
    """ "The card with the lowest number in the remaining hand ... in order from left to right"."""
    cards = [state.cards[card] for card in player.hand]
    return min(cards, key=lambda card: card.current_number) if cards else None


def _amounts(state: State, card: Card) -> list[int]:
    step = CHARGE_STEP * max(1, -(-card.kp // (CHARGE_STEP * CHARGE_AMOUNTS)))
    amounts = set(range(0, card.kp + 1, step)) | {card.kp, state.wait_kp, state.charge_regulation}
    return sorted(amount for amount in amounts if 0 <= amount <= card.kp)


# === Combining the players' choices =================================================================


def _combine(choices: Mapping[str, Sequence[Sequence[Any]]]) -> Iterator[dict[str, Any]]:
    """Each player's choices (in tiers), combined: every combination when there are at most ``PRODUCT_LIMIT``, else a
    covering set, tier by tier: the i-th action of a tier gives each player their i-th choice of it, each player's
    list turned by a different offset. Players whose tiers differ in number are combined tier by tier as far as
    they go, then with their last tier."""
    seats = list(choices)
    if not seats:
        yield {}
        return
    flat = {seat: [choice for tier in choices[seat] for choice in tier] for seat in seats}
    if any(not options for options in flat.values()):
        return
    total = 1
    for options in flat.values():
        total *= len(options)
    if total <= PRODUCT_LIMIT:
        for combination in itertools.product(*(flat[seat] for seat in seats)):
            yield dict(zip(seats, combination))
        return
    depth = max(len(choices[seat]) for seat in seats)
    for level in range(depth):
        tier = {seat: choices[seat][min(level, len(choices[seat]) - 1)] for seat in seats}
        size = max(len(options) for options in tier.values())
        for index in range(size):
            yield {seat: options[(index + place * len(options) // len(seats)) % len(options)]
                   for place, (seat, options) in enumerate(tier.items())}


# === What random play must keep =====================================================================


def invariants(first: State, state: State) -> Iterator[str]:
    """What no battle breaks, from the page:

    - KP is only moved: "reduced by using it to Charge", "stored into the Pool", paid to the winners' cards, burned
      as "Play Charge" or put in the "Jackpot" (or set aside when no one wins): the cards' KP, the pool, the burned,
      the Jackpot and the set-aside KP add up to what the cards held at the start; no card, pool or fee is negative,
      and the burned KP and the Jackpot never shrink;
    - each game's KP tally pays out its pool: received + Play Charge + Jackpot + undistributed = pool;
    - cards stay with their owner's deck of 10: a hand holds at most 3 different cards of its owner's deck;
    - "Each battle consists of three games": the game number only grows, from 1 to 3; a ranking only once over;
    - "Once a player is disconnected, he or she will not be able to return".
    """
    total = sum(card.kp for card in first.cards.values())
    kept = state.pool + state.burned + state.jackpot + state.set_aside
    held = sum(card.kp for card in state.cards.values())
    if held + kept != total + first.pool + first.burned + first.jackpot + first.set_aside:
        yield (f"KP is not conserved: cards {held} + pool {state.pool} + burned {state.burned} + Jackpot {state.jackpot} "
               f"+ set aside {state.set_aside} != {total} held at the start (with what was kept then)")
    for card in state.cards.values():
        if card.kp < 0:
            yield f"{card.id} has {card.kp} KP"
    for name in ("pool", "burned", "jackpot", "set_aside"):
        if getattr(state, name) < 0:
            yield f"the {name} is {getattr(state, name)} KP"
    if state.burned < first.burned or state.jackpot < first.jackpot:
        yield f"burned {first.burned} -> {state.burned}, Jackpot {first.jackpot} -> {state.jackpot}: KP came back"
    for number, record in state.games.items():
        if "received" in record:
            paid = sum(record["received"].values()) + record["play_charge"] + record["jackpot"] + record["undistributed"]
            if paid != record["pool"]:
                yield f"game {number}'s tally pays out {paid} KP of a pool of {record['pool']}"
    for seat, player in state.players.items():
        before = first.players[seat]
        if player.deck != before.deck:
            yield f"{seat}'s deck changed: {before.deck} -> {player.deck}"
        if len(player.hand) > HAND or len(set(player.hand)) != len(player.hand) or not set(player.hand) <= set(player.deck):
            yield f"{seat}'s hand is not up to 3 different cards of their deck: {player.hand}"
        if before.disconnected and not player.disconnected:
            yield f"{seat} was disconnected and returned to the battle"
    if not first.game <= state.game <= 3:
        yield f"the battle went from game {first.game} to game {state.game}"
    if (state.ranking is not None) != (state.stage == "over"):
        yield f"a ranking ({state.ranking}) at the stage {state.stage}"
