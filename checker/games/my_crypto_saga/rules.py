"""My Crypto Saga battles, as "[Help] Battle: Basic Rules" states them.

Read beside ``my-crypto-saga-battle-rules.txt``: Overview, Card, Composition of one game,
Game Flow (Handout, Pre-round, Round 1 / Round 2, Elemental Boost), Final Count (Number
tally, KP tally), Battle Rankings, Timeouts and Disconnection. Each action walks one phase of
``procedure.yaml``; its loops decide what follows: after Round 1, Round 2; after Round 2, the
Final Count, then the next deal until three games are played, and then the battle ranking.

KP is counted in whole units. Every figure of the KP tally is written to the trace with the
arithmetic that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from checker.engine.described import spec, takes
from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.my_crypto_saga.state import (
    ELEMENTS,
    Card,
    Played,
    Player,
    Skill,
    State,
    build_state,
    observe,
)
from checker.engine.procedure import StepHandlers
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary, ref

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    player_count="A battle is played by 2 to 4 players.",
    deck_size="A deck holds 10 cards.",
    number_out_of_range="Each card has a Number between 1 and 10.",
    kami_number_differs="The Number is fixed for each Kami Type: every card of one Kami has the same Number.",
    light_in_deck="The Light Element is generated only by skill effects: no card of a deck is Light.",
    wrong_stage="The action is not the next one of the game (a deal, the Pre-Round or a Round).",
    card_already_dealt="A card dealt in an earlier game of the battle cannot be dealt again.",
    card_not_in_hand="The card is not in the player's hand.",
    not_enough_kp="The card has less KP than the charge takes.",
    player_disconnected="A disconnected player cannot return to the battle.",
    battle_over="The three games are played: the battle is over.",
)

# Ambiguous rulings: each is a named switch; the readings are in rulings.yaml.
DEALT_CARD_REUSE = "mcs.amb.dealt-card-reuse"
NUMBER_CHANGE_LASTS = "mcs.amb.number-change-lasts"
LIGHT_WITH_THREE = "mcs.amb.light-with-three"
LIGHT_WITH_TWO = "mcs.amb.light-with-two"
ESCAPED_CARD_ELEMENT = "mcs.amb.escaped-card-element"
SEVERAL_WINNERS = "mcs.amb.several-winners"
NO_WINNER = "mcs.amb.no-winner"
FULL_CHARGE = "mcs.amb.full-charge"
WINNINGS = "mcs.amb.winnings"
FEE_ROUNDING = "mcs.amb.fee-rounding"
KP_EARNED = "mcs.amb.kp-earned"
LEFTOVER_TO_PRE_ROUND = "mcs.amb.leftover-to-pre-round"

BEATS = {"Fire": "Leaf", "Leaf": "Water", "Water": "Fire"}  # the Elemental Boost's three-way relationship
GAMES_PER_BATTLE = 3
PLAYERS = range(2, 5)
DECK_SIZE = 10
NUMBERS = range(1, 11)
SELECT_SECONDS = 30
SEAT = ref("seat")


def card_entity(card: Card) -> Entity:
    return ("card type", card.card_type)


def element(name: str) -> Entity:
    return ("element", name)


__all__ = ["steps", "vocabulary", "setup", "observe"]


# === Overview and Card: the players and their decks =============================================


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    """The battle as the scenario sets it (players, decks, the skills of its Card Types), if its decks can be played."""
    state = build_state(initial, cards)
    context.walk(state, "players-and-decks")
    return state


@steps("check-decks")
def check_players_and_decks(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if len(state.seats) not in PLAYERS:
        raise context.reject("player-count", f"{len(state.seats)} player(s); a battle is played by 2 to 4",
                             "mcs.overview.players", players=len(state.seats))
    context.note("mcs.overview.players", f"{len(state.seats)} players: {', '.join(state.seats)}", players=len(state.seats))
    for seat in state.seats:
        check_deck(context, state, seat)
    check_kami_numbers(context, state)
    decks = [mechanic("deck")]
    context.note("mcs.overview.three-games", f"Each deck ({', '.join(state.seats)}) holds {DECK_SIZE} cards for the "
                 "battle's three games", involves=decks)
    context.note("mcs.card.number", "Every card's Number is between 1 and 10", involves=decks)
    context.note("mcs.card.kami-types", "Every card of one Kami, in every deck, has the same Number", involves=decks)
    context.note("mcs.card.light", "No card of a deck is Light: Light comes only from skills", involves=decks)


def check_deck(context: Context, state: State, seat: str) -> None:
    deck = state.players[seat].deck
    if len(deck) != DECK_SIZE:
        raise context.reject("deck-size", f"{seat}'s deck holds {len(deck)} cards, not {DECK_SIZE}",
                             "mcs.overview.three-games", involves=[mechanic("deck")], cards=len(deck))
    for card in (state.cards[card_id] for card_id in deck):
        if card.number not in NUMBERS:
            raise context.reject("number-out-of-range", f"{card.id} ({card.card_type}) has Number {card.number}, not 1 to 10",
                                 "mcs.card.number", involves=[card_entity(card)], number=card.number)
        if card.element == "Light":
            raise context.reject("light-in-deck", f"{card.id} ({card.kami}) is a Light card; Light comes only from skills",
                                 "mcs.card.light", involves=[mechanic("deck"), element("Light")])


def check_kami_numbers(context: Context, state: State) -> None:
    numbers: dict[str, Card] = {}
    for card in state.cards.values():
        first = numbers.setdefault(card.kami, card)
        if first.number != card.number:
            raise context.reject("kami-number-differs", f"{card.id} ({card.card_type}) has Number {card.number}, but "
                                 f"{first.id} ({first.card_type}) has Number {first.number}", "mcs.card.kami-types",
                                 involves=[card_entity(first), card_entity(card)])


@steps.condition("battle-ranked")
def battle_ranked(state: State) -> bool:
    """The three games are played and the battle ranked: it is over."""
    return state.ranking is not None


def choices(description: str, value: Mapping[str, Any]) -> dict[str, Any]:
    """One choice per seat: ``{A: ..., B: ...}``."""
    return {"type": "object", "description": description, "additionalProperties": False,
            "patternProperties": {"^[ABCD]$": value}}


# === Handout / Deal ================================================================================


@vocabulary.action("deal", "Deal 3 cards to each player (the random deal, fixed by the scenario).",
                   params={"hands": choices("Each player's hand.", {"type": "array", "minItems": 3, "maxItems": 3,
                                                                     "items": {"type": "string"}})},
                   required=["hands"])
def deal(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.walk(state, "handout", action)
    state.stage = "pre-round"


@steps("deal")
def deal_hands(context: Context, state: State, action: Mapping[str, Any]) -> None:
    hands = action["hands"]
    for seat in state.seats:
        if seat not in hands:
            raise InputError(f"no hand dealt to {seat}", path=("hands",), expected=f"3 cards for each of {', '.join(state.seats)}")
        player = state.players[seat]
        for index, card_id in enumerate(hands[seat]):
            if card_id not in player.deck:
                raise InputError(f"{card_id!r} is not in {seat}'s deck", path=("hands", seat, index),
                                 expected=f"a card of {seat}'s deck: {', '.join(player.deck)}")
            if card_id in player.dealt and context.read(DEALT_CARD_REUSE, "later-games"):
                raise context.reject("card-already-dealt", f"{card_id} was dealt in an earlier game of this battle",
                                     "mcs.overview.deal", involves=[mechanic("deal")])
        end_number_changes(context, state, player, state.game - 1, battle_over=False)
        player.hand = list(hands[seat])
        player.dealt += hands[seat]
        player.escaped, player.bonus_next, player.played = False, 0, {}
    state.pool = 0
    state.games[str(state.game)] = {"played": {}}
    context.note("mcs.overview.deal", f"Game {state.game}: 3 cards dealt to each player (the deal is fixed by the scenario)",
                 involves=[mechanic("deal")])


def end_number_changes(context: Context, state: State, player: Player, game: int, *, battle_over: bool) -> None:
    """The Numbers a game's skills and boosts changed end with the game, or with the battle (an ambiguous ruling)."""
    changed = [(played, state.cards[played.card]) for played in player.played.values()
               if played.number != state.cards[played.card].current_number]
    if changed and not battle_over and context.read(NUMBER_CHANGE_LASTS, "until-the-battle-ends"):
        for played, card in changed:
            card.kept_change = played.number - card.number
        context.note(NUMBER_CHANGE_LASTS, f"Game {game}'s changes to {player.seat}'s Numbers last until the battle ends: "
                     + ", ".join(f"{card.id}, played at {played.number}, keeps that Number" for played, card in changed),
                     involves=[card_entity(card) for _, card in changed])
    elif changed:
        for _, card in changed:
            card.kept_change = 0
        context.note("mcs.card.number-temporary", f"Game {game}'s changes to {player.seat}'s Numbers were temporary: "
                     + ", ".join(f"{card.id}, played at {played.number}, keeps its Number {card.number}"
                                 for played, card in changed),
                     involves=[card_entity(card) for _, card in changed])
    if player.bonus_next:
        context.note(None, f"{player.seat}'s {player.bonus_next:+d} for its next card this game is never used",
                     involves=[mechanic("skill")])


# === Selecting cards, timeouts, disconnection ======================================================


def _choice(context: Context, state: State, action: Mapping[str, Any], key: str, player: Player) -> Any:
    choices = action.get(key, {})
    if player.disconnected:
        if player.seat in choices:
            raise context.reject("player-disconnected", f"{player.seat} is disconnected and cannot return to the battle",
                                 "mcs.disconnect.no-return", involves=[mechanic("disconnection")])
        context.note("mcs.disconnect.continues", f"{player.seat} is disconnected: the action is chosen as on a timeout",
                     involves=[mechanic("disconnection")])
        return "timeout"
    if player.seat not in choices:
        raise InputError(f"no {key} for {player.seat}", path=(key,), expected=f"a {key} for each player in the game, or 'timeout'")
    return choices[player.seat]


def select_card(context: Context, state: State, action: Mapping[str, Any], player: Player) -> Card:
    choice = _choice(context, state, action, "select", player)
    if choice == "timeout":
        if not player.disconnected:
            context.note("mcs.flow.select-time", f"{player.seat} selects no card within the {SELECT_SECONDS} seconds",
                         involves=[mechanic("timeout")])
        lowest = min(state.cards[c].current_number for c in player.hand)
        card_id = next(c for c in player.hand if state.cards[c].current_number == lowest)
        context.note("mcs.timeout.card", f"{player.seat} times out: the lowest Number in hand, leftmost first, is {card_id} "
                     f"({lowest})", involves=[mechanic("timeout")])
    else:
        card_id = choice
        if card_id not in player.hand:
            raise context.reject("card-not-in-hand", f"{card_id} is not in {player.seat}'s hand", "mcs.game.play-a-card")
    player.hand.remove(card_id)
    return state.cards[card_id]


def note_kept_change(context: Context, card: Card) -> None:
    if card.kept_change:
        context.note(NUMBER_CHANGE_LASTS, f"{card.id} is played at {card.current_number}: its Number {card.number} "
                     f"{card.kept_change:+d} kept from an earlier game of the battle", involves=[card_entity(card)])


@vocabulary.action("disconnect", "A player is disconnected; from now on their actions are chosen as on a timeout.",
                   params={"player": SEAT}, required=["player"])
def disconnect(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = state.players[action["player"]]
    if player.disconnected:
        raise context.reject("player-disconnected", f"{player.seat} is already disconnected", "mcs.disconnect.no-return")
    player.disconnected = True
    context.note("mcs.disconnect.continues", f"{player.seat} is disconnected; the battle continues to the end",
                 involves=[mechanic("disconnection")])


def _charge(context: Context, state: State, player: Player, card: Card, amount: int, why: str) -> None:
    before = card.kp
    card.kp -= amount
    player.charged += amount
    state.pool += amount
    context.note("mcs.card.kp", f"{card.id}'s KP is used to Charge ({why}): {before} - {amount} = {card.kp}",
                 involves=[card_entity(card), mechanic("KP")], kp=card.kp)
    context.note("mcs.flow.charge-pool", f"{player.seat} charges {amount} KP from {card.id} into the pool: "
                 f"{state.pool - amount} + {amount} = {state.pool}",
                 involves=[mechanic("KP"), mechanic("Charge Action")], pool=state.pool)


# === Pre-round =====================================================================================


@vocabulary.action("pre-round", "Pre-Round: each player's card ('timeout' for the automatic choice), the Pre-Charge, skills.",
                   params={"select": choices("Each player's card, or 'timeout'.", {"type": "string"})}, required=["select"])
def pre_round(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.walk(state, "pre-round", action)
    state.stage = "round-1"


@steps("pre-round-select")
def pre_round_select(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for player in state.in_game():
        card = select_card(context, state, action, player)
        note_kept_change(context, card)
        player.played["pre-round"] = Played(card.id, card.current_number, card.element)
        context.note("mcs.flow.pre-round-number", f"{player.seat} plays {card.id} ({card.card_type}, {card.current_number}) in the "
                     "Pre-Round: its Number will not count, its skill will", involves=[card_entity(card)])


@steps("pre-charge")
def pre_charge(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for player in state.in_game():
        played = player.played["pre-round"]
        card = state.cards[played.card]
        if card.kp < state.charge_regulation:
            raise context.reject("not-enough-kp", f"{card.id} has {card.kp} KP, less than the Charge Regulation's "
                                 f"{state.charge_regulation}", "mcs.flow.pre-charge", involves=[mechanic("KP")])
        played.charge = state.charge_regulation
        context.note("mcs.flow.pre-charge", f"{player.seat}'s Pre-Charge is the Charge Regulation, {state.charge_regulation} KP",
                     involves=[mechanic("KP")])
        _charge(context, state, player, card, state.charge_regulation, "Pre-Charge, the Charge Regulation")


@steps("pre-round-skills")
def pre_round_skills(context: Context, state: State, action: Mapping[str, Any]) -> None:
    activate_skills(context, state, "pre-round")
    _record_played(state, "pre-round")


def _record_played(state: State, stage: str) -> None:
    state.games[str(state.game)]["played"][stage] = {
        p.seat: {"card": p.played[stage].card, "opened": p.played[stage].opened,
                 "number": p.played[stage].number, "element": p.played[stage].element}
        for p in state.players.values() if stage in p.played
    }


# === Round 1 / Round 2 ==============================================================================


CHARGE_CHOICE = {"oneOf": [
    {"enum": ["wait", "escape", "timeout"]},
    {"type": "object", "additionalProperties": False, "required": ["charge"],
     "properties": {"charge": {"type": "integer", "minimum": 0}}},
]}


@vocabulary.action("round", "Round 1 or 2: cards, Charge Actions ('wait', 'escape', 'timeout' or {charge: N}), skills, "
                   "Elemental Boost.",
                   params={"select": choices("Each player's card, or 'timeout'.", {"type": "string"}),
                           "charge": choices("Each player's Charge Action.", CHARGE_CHOICE)},
                   required=["select", "charge"])
def play_round(context: Context, state: State, action: Mapping[str, Any]) -> None:
    first = round_2_follows(state)  # the Elemental Boost's loop brings play back for Round 2
    context.walk(state, "round", action)
    if first:
        state.stage = "round-2"
        return
    context.note("mcs.game.composition", f"Game {state.game}'s Pre-Round, Round 1 and Round 2 are played: the game is "
                 "complete and its Final Count follows", involves=[mechanic("Final Count")])
    context.advance(state, "kp-tally", action)
    if games_remain(state):  # the KP tally's loop brought play back to the next deal
        state.game += 1
        state.stage = "deal"
        return
    context.advance(state, "ranking", action)
    state.stage = "over"


@steps.condition("round-2-follows")
def round_2_follows(state: State) -> bool:
    return state.stage == "round-1"


@steps("round-select")
def round_select(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for player in state.in_game():
        card = select_card(context, state, action, player)
        note_kept_change(context, card)
        number = card.current_number + player.bonus_next
        if player.bonus_next:
            context.note("mcs.flow.skill-activation", f"{card.id} gets the +{player.bonus_next} a skill gave {player.seat}'s "
                         f"next card: {card.current_number} + {player.bonus_next} = {number}", involves=[card_entity(card)])
            player.bonus_next = 0
        player.played[state.stage] = Played(card.id, number, card.element)
        context.note("mcs.game.play-a-card", f"{player.seat} plays {card.id} ({card.card_type}, {number})",
                     involves=[card_entity(card)])


@steps("charge-action")
def charge_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for player in state.in_game():
        played = player.played[state.stage]
        card = state.cards[played.card]
        choice = _choice(context, state, action, "charge", player)
        if choice == "timeout":
            choice = "wait" if card.kp >= state.wait_kp else "escape"
            context.note("mcs.timeout.charge", f"{player.seat}'s Charge Action times out: {choice} ({card.id} has {card.kp} KP, "
                         f"a Wait takes {state.wait_kp})", involves=[mechanic("timeout"), mechanic("Charge Action")])
        if choice == "escape":
            player.escaped, played.opened = True, False
            context.note("mcs.flow.charge-action", f"{player.seat} Escapes: out of this game", involves=[mechanic("Charge Action")])
            context.note("mcs.flow.escape-not-opened", f"{card.id} is not opened", involves=[mechanic("Charge Action")])
            continue
        context.note("mcs.flow.charge-action", f"{player.seat} {'Waits' if choice == 'wait' else 'Charges'}: in the game",
                     involves=[mechanic("Charge Action")])
        amount = state.wait_kp if choice == "wait" else choice["charge"]
        if card.kp < amount:
            raise context.reject("not-enough-kp", f"{card.id} has {card.kp} KP, less than the {amount} this Charge Action "
                                 "takes", "mcs.flow.charge-pool", involves=[mechanic("KP")])
        played.charge = amount
        _charge(context, state, player, card, amount, "Wait" if choice == "wait" else "Charge")


@steps("round-skills")
def round_skills(context: Context, state: State, action: Mapping[str, Any]) -> None:
    activate_skills(context, state, state.stage)


def activate_skills(context: Context, state: State, stage: str) -> None:
    opened = [(p, p.played[stage]) for p in state.in_game() if stage in p.played and p.played[stage].opened]
    for player, played in opened:
        card = state.cards[played.card]
        skills = state.skills.get(card.card_type, ())
        if skills:
            context.note("mcs.card.card-type", f"{card.id}, Kami {card.kami} with the Element {card.element}, is the Card Type "
                         f"{card.card_type}", involves=[card_entity(card)])
            context.note("mcs.card.skills", f"{card.id} is a {card.card_type}: the skills set for that Card Type activate",
                         involves=[card_entity(card), mechanic("skill")])
        for skill in skills:
            vocabulary.effect_handler("skill", skill.kind)(context, state, stage, player, played, skill)


def _targets(state: State, stage: str, player: Player, played: Played, skill: Skill) -> list[Played]:
    if skill.to == "self":
        return [played]
    return [p.played[stage] for p in state.in_game() if p is not player and stage in p.played and p.played[stage].opened]


@vocabulary.effect("add", "Adds `amount` (negative: subtracts) to the Number of the cards `to` names.", family="skill",
                   params=takes(Skill, "amount", "to"), required=["amount"])
def skill_add(context: Context, state: State, stage: str, player: Player, played: Played, skill: Skill) -> None:
    card = state.cards[played.card]
    if skill.to == "own-next":
        player.bonus_next += skill.amount
        context.note("mcs.flow.skill-activation", f"{card.card_type}'s skill: {player.seat}'s next card this game gets "
                     f"{skill.amount:+d}", involves=[card_entity(card), mechanic("skill")])
        return
    for target in _targets(state, stage, player, played, skill):
        before = target.number
        target.number += skill.amount
        context.note("mcs.flow.skill-activation", f"{card.card_type}'s skill: {target.card} {before} {skill.amount:+d} = "
                     f"{target.number}", involves=[card_entity(card), card_entity(state.cards[target.card]), mechanic("skill")])


@dataclass(frozen=True)
class ElementSkill(Skill):
    """An element skill changes opened cards: the player's next card is no target of it."""

    to: str = spec("self", "The card itself (default), the opponents' opened cards, or the player's next card this game.",
                   enum=["self", "opponents"])


@vocabulary.effect("element", "Changes the Element of the cards `to` names to `element` (Light only this way).",
                   family="skill", params=takes(ElementSkill, "element"), required=["element"])
def skill_element(context: Context, state: State, stage: str, player: Player, played: Played, skill: Skill) -> None:
    card = state.cards[played.card]
    for target in _targets(state, stage, player, played, skill):
        before = target.element
        target.element = skill.element or before
        context.note("mcs.card.light" if target.element == "Light" else "mcs.flow.skill-activation",
                     f"{card.card_type}'s skill: {target.card} changes from {before} to {target.element}",
                     involves=[card_entity(card), element(target.element), mechanic("skill")])


@steps("elemental-boost")
def elemental_boost(context: Context, state: State, action: Mapping[str, Any]) -> None:
    stage = state.stage
    opened = [p.played[stage] for p in state.in_game() if p.played[stage].opened]
    closed = escaped_elements(context, state, stage, opened)
    present = {played.element for played in opened} | closed
    three = set(ELEMENTS) <= present
    involved = [element(e) for e in sorted(present)] + [mechanic("Elemental Boost")]
    of_three = [e for e in ELEMENTS if e in present]
    counted = "cards counted" if closed else "opened cards"
    context.note("mcs.card.elements", f"Of the three Elements ({', '.join(ELEMENTS)}), the {counted} show "
                 f"{', '.join(of_three) or 'none'}", involves=[element(e) for e in of_three])
    if "Light" in present and not (three and context.read(LIGHT_WITH_THREE, "tie")):
        winners = [p for p in opened if p.element == "Light"]
        losers = [p for p in opened if p.element != "Light"]
        _boost(context, state, winners, losers, "mcs.boost.light", "Light wins against all Fire, Water and Leaf", involved)
        if len(of_three) == 2 and context.read(LIGHT_WITH_TWO, "cycle-too"):
            _cycle(context, state, opened, of_three, involved)
    elif three:
        context.note("mcs.boost.tie", "Fire, Water and Leaf are all present: a tie, no Number is added", involves=involved)
    elif len(of_three) == 2:
        _cycle(context, state, opened, of_three, involved)
    else:
        context.note("mcs.flow.boost-when", "Only one Element is present: no Elemental Boost", involves=involved)
    _record_played(state, stage)


def escaped_elements(context: Context, state: State, stage: str, opened: list[Played]) -> set[str]:
    """The Elements of the cards left unopened by an Escape that the opened cards do not show, when they count
    (an ambiguous ruling: they take no part in the Elemental Boost, or count toward the Elements present)."""
    shown = {played.element for played in opened}
    closed = [p.played[stage] for p in state.players.values()
              if p.escaped and stage in p.played and not p.played[stage].opened and p.played[stage].element not in shown]
    if not closed or context.read(ESCAPED_CARD_ELEMENT, "no-part"):
        return set()
    context.note(ESCAPED_CARD_ELEMENT, "The unopened cards of the players who Escaped count toward the Elements present: "
                 + ", ".join(f"{played.card} ({played.element})" for played in closed),
                 involves=[element(played.element) for played in closed])
    return {played.element for played in closed}


def _cycle(context: Context, state: State, opened: list[Played], pair: list[str], involved: list[Entity]) -> None:
    """Two of the three Elements: the one strong against the other wins (Numbers as they stood before the Boost)."""
    a, b = pair
    win, lose = (a, b) if BEATS[a] == b else (b, a)
    context.note("mcs.card.element-cycle", f"{lose} < {win}: {win} is strong against {lose}", involves=involved)
    _boost(context, state, [p for p in opened if p.element == win], [p for p in opened if p.element == lose],
           "mcs.boost.cycle", f"{win} beats {lose}", involved)


def _boost(context: Context, state: State, winners: list[Played], losers: list[Played], ruling: str, why: str,
           involved: list[Entity]) -> None:
    if not losers:
        return
    added = sum(p.number for p in losers)
    context.note(ruling, f"Elemental Boost: {why}", involves=involved)
    beaten = [card_entity(state.cards[p.card]) for p in losers]
    for winner in winners:
        before = winner.number
        winner.number += added
        terms = " + ".join(str(p.number) for p in losers)
        context.note("mcs.boost.add", f"{winner.card}: {before} + {terms} (losing cards) = {winner.number}",
                     involves=[card_entity(state.cards[winner.card]), *beaten, *involved], number=winner.number)


# === Final Count ======================================================================================


@steps("number-tally")
def number_tally(context: Context, state: State, action: Mapping[str, Any]) -> None:
    record = state.games[str(state.game)]
    totals = {}
    for player in state.in_game():
        r1, r2 = player.played["round-1"].number, player.played["round-2"].number
        totals[player.seat] = r1 + r2
        context.note("mcs.final.tally", f"{player.seat}: Round 1 {r1} + Round 2 {r2} = {r1 + r2}",
                     involves=[mechanic("Final Count")], total=r1 + r2)
    best = max(totals.values(), default=None)
    winners = [seat for seat, total in totals.items() if total == best]
    if totals:
        ranked = sorted(totals, key=lambda seat: -totals[seat])
        context.note("mcs.card.number-scores", "The higher the Numbers, the better the score: "
                     + ", ".join(f"{seat} {totals[seat]}" for seat in ranked), involves=[mechanic("Final Count")])
    record.update(totals=totals, winners=winners)
    if len(winners) > 1:
        context.note("mcs.final.shared-win", f"{', '.join(winners)} share the highest total {best}: all are winners",
                     involves=[mechanic("Final Count")])
    elif winners:
        context.note("mcs.game.winner", f"{winners[0]} has the highest total, {best}: the game's winner",
                     involves=[mechanic("Final Count")])


@steps("kp-tally")
def kp_tally(context: Context, state: State, action: Mapping[str, Any]) -> None:
    record = state.games[str(state.game)]
    winners = [state.players[s] for s in record["winners"]]
    pool = state.pool
    record.update(pool=pool, refunds={}, shares={}, play_charge=0, jackpot=0, victory_reward=0, undistributed=0)
    received_before = {p.seat: p.received for p in state.players.values()}
    if not winners and context.read(NO_WINNER, "refunded"):
        for player in state.players.values():
            for played in player.played.values():
                _pay(state, player, played.card, played.charge)
                record["refunds"][played.card] = played.charge
        context.note(NO_WINNER, f"No winner: every card gets back what it charged ({pool} KP in all)", involves=[mechanic("KP")])
    elif not winners:
        record["undistributed"] = pool
        state.set_aside += pool
        context.note(NO_WINNER, f"No winner: the pool of {pool} KP is not paid out", involves=[mechanic("KP")])
    elif len(winners) == 1 or context.read(SEVERAL_WINNERS, "pooled"):
        context.note("mcs.kp.to-winner", f"The pool of {pool} KP goes to the cards used by {', '.join(p.seat for p in winners)}",
                     involves=[mechanic("KP")])
        _tally(context, state, record, winners, pool)
    else:
        base, extra = divmod(pool, len(winners))
        for index, player in enumerate(winners):
            part = base + (1 if index < extra else 0)
            context.note(SEVERAL_WINNERS, f"{player.seat}'s equal part of the pool: {pool} / {len(winners)} = {part}",
                         involves=[mechanic("KP")])
            _tally(context, state, record, [player], part)
    record["received"] = {p.seat: p.received - received_before[p.seat] for p in state.players.values()}
    for player in winners:
        context.note("mcs.overview.winner-earns", f"{player.seat}, a winner of game {state.game}, earns "
                     f"{record['received'][player.seat]} KP", involves=[mechanic("KP")], earned=record["received"][player.seat])
    record["charged"] = {p.seat: sum(x.charge for x in p.played.values()) for p in state.players.values()}
    state.pool = 0


def _tally(context: Context, state: State, record: dict[str, Any], winners: list[Player], won: int) -> None:
    order = ("round-2", "round-1", "pre-round")  # for what the division leaves over
    used = [(p, stage, p.played[stage]) for stage in order for p in winners if stage in p.played]
    kp_before = {played.card: state.cards[played.card].kp for _, _, played in used}
    refunds = sum(played.charge for _, _, played in used)
    refund_paid = min(refunds, won)
    backs = [played.charge * refund_paid // refunds if refunds else 0 for _, _, played in used]
    for index in range(refund_paid - sum(backs)):  # only when a winner's part is less than its charges
        backs[index] += 1
    for (player, _, played), back in zip(used, backs, strict=True):
        _pay(state, player, played.card, back)
        record["refunds"][played.card] = record["refunds"].get(played.card, 0) + back
    context.note("mcs.kp.refund", "(1) Each winning card gets back the KP it charged: "
                 + " + ".join(f"{played.charge} ({played.card})" for _, _, played in used) + f" = {refunds}",
                 involves=[mechanic("KP")], refunds=refunds)
    reward = won - refund_paid
    record["victory_reward"] += reward
    context.note("mcs.kp.refund", f"Victory Reward = KP won {won} - refunds {refund_paid} = {reward}", involves=[mechanic("KP")])
    basis = reward if context.read(WINNINGS, "victory-reward") else won
    burn, jackpot = _fee(context, basis, 8), _fee(context, basis, 2)
    burn = min(burn, reward)
    jackpot = min(jackpot, reward - burn)
    state.burned += burn
    state.jackpot += jackpot
    record["play_charge"] += burn
    record["jackpot"] += jackpot
    context.note("mcs.kp.fees", f"(2) Play Charge 8% of {basis} = {basis * 8 / 100:g} → {burn} burned; "
                 f"Jackpot 2% of {basis} = {basis * 2 / 100:g} → {jackpot}",
                 involves=[mechanic("KP"), mechanic("Jackpot")], burn=burn, jackpot=jackpot)
    rest = reward - burn - jackpot
    context.note("mcs.kp.shares", f"(3) To share: {reward} - {burn} - {jackpot} = {rest}", involves=[mechanic("KP")])
    weights = [_weight(context, state, played) for _, _, played in used]
    total_weight = sum(weights)
    exact = [rest * w / total_weight if total_weight else Fraction(0) for w in weights]
    shares = [int(x) for x in exact]
    left = rest - sum(shares)
    takers = _leftover_takers(context, used, left)
    if left:
        to = "Round 1 and Pre-Round" if len(takers) == len(used) else "Round 1"
        context.note("mcs.kp.shares", f"{left} KP left over by the division go one by one to the Round 2, {to} cards",
                     involves=[mechanic("KP")])
    extra = [0] * len(shares)
    for index in range(left):
        extra[takers[index % len(takers)]] += 1
    for (player, stage, played), share, more, x, weight in zip(used, shares, extra, exact, weights, strict=True):
        _pay(state, player, played.card, share + more)
        record["shares"][played.card] = record["shares"].get(played.card, 0) + share + more
        leftover = f" + {more} left over = {share + more}" if more else ""
        context.note("mcs.kp.shares", f"{played.card} ({stage}): {rest} × {weight} / {total_weight} = {float(x):g} → "
                     f"{share}{leftover}", involves=[mechanic("KP")], share=share + more)
    for card_id, before in kp_before.items():
        card = state.cards[card_id]
        context.note("mcs.card.kp", f"{card_id}'s KP is increased by winning: {before} + {card.kp - before} = {card.kp}",
                     involves=[card_entity(card), mechanic("KP")], kp=card.kp)


def _leftover_takers(context: Context, used: list[tuple[Player, str, Played]], left: int) -> list[int]:
    """The cards (indices into ``used``, Round 2 cards first) that take what the division leaves over, one KP each in
    turn: "in the order of Round 2 and Round 1"; whether the Pre-Round cards follow is an ambiguous ruling."""
    rounds = [index for index, (_, stage, _) in enumerate(used) if stage != "pre-round"]
    if left <= len(rounds) or context.read(LEFTOVER_TO_PRE_ROUND, "pre-round-last"):
        return list(range(len(used)))
    context.note(LEFTOVER_TO_PRE_ROUND, f"{left} KP left over and {len(rounds)} Round 2 and Round 1 cards: only they take "
                 "the left-over KP, again from the Round 2 cards", involves=[mechanic("KP")])
    return rounds


def _fee(context: Context, basis: int, percent: int) -> int:
    exact = Fraction(basis * percent, 100)
    if context.read(FEE_ROUNDING, "down"):
        return int(exact)
    return int(exact + Fraction(1, 2))


def _weight(context: Context, state: State, played: Played) -> Fraction:
    """A card's part of the allocation ratio: the "amount of charge KP used", adjusted below the Full Charge."""
    charge = Fraction(played.charge)
    full_charge = state.charge_regulation
    if context.read(FULL_CHARGE, "proportional") or played.charge >= full_charge:
        return charge
    scaled = charge * Fraction(played.charge, full_charge)
    context.note(FULL_CHARGE, f"{played.card} charged {played.charge}, less than the Full Charge {full_charge}: "
                 f"its part of the ratio is scaled by {played.charge}/{full_charge}, {played.charge} → {float(scaled):g}",
                 involves=[mechanic("KP")])
    return scaled


@steps.condition("games-remain")
def games_remain(state: State) -> bool:
    return state.game < GAMES_PER_BATTLE


def _pay(state: State, player: Player, card_id: str, amount: int) -> None:
    state.cards[card_id].kp += amount
    player.received += amount


# === Battle Rankings ===================================================================================


@steps("ranking")
def ranking(context: Context, state: State, action: Mapping[str, Any]) -> None:
    net = context.read(KP_EARNED, "net")
    earned = {seat: p.received - (p.charged if net else 0) for seat, p in state.players.items()}
    order = sorted(state.seats, key=lambda seat: -earned[seat])
    state.ranking = {"earned": earned, "order": order}
    context.note("mcs.ranking.three-games", f"{GAMES_PER_BATTLE} games played: the battle is over", involves=[mechanic("ranking")])
    for player in state.players.values():
        end_number_changes(context, state, player, state.game, battle_over=True)
    context.note("mcs.overview.ranking", "Ranked by the KP earned in the three games: "
                 + ", ".join(f"{s} {earned[s]:+d} KP" for s in order), involves=[mechanic("ranking")])

