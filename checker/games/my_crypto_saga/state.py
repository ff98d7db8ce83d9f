"""My Crypto Saga: a battle of three games between 2 to 4 players.

Each player has a deck of 10 cards (Kami Type, Number, Element, KP). A game deals 3 cards to
each hand, then plays a Pre-Round, Round 1 and Round 2, and ends with the Final Count and the
KP tally. Skills are per Card Type ("Fire Zeus") and the page defines none: scenarios define
the skills they use.

The scenario's initial state, a deck's card, a Card Type's skills and the facts observing reports
are described types: their schema, their parsing and their observation follow from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.described import described, fact, facts, parse, spec
from checker.engine.errors import InputError
from checker.engine.game import Book
from checker.engine.vocabulary import ref

ELEMENTS = ("Fire", "Water", "Leaf")
SEATS = ("A", "B", "C", "D")


@described("skill", tag="kind")
@dataclass(frozen=True)
class Skill:
    """A skill of a Card Type; each kind takes the parameters its registration names (rules.py)."""

    kind: str = spec(description="What the skill changes: the Number (add) or the Element (element).")
    amount: int = spec(0, per_kind=True)
    element: str | None = spec(None, enum=["Fire", "Water", "Leaf", "Light"], per_kind=True)
    to: str = spec("self", "The card itself (default), the opponents' opened cards, or the player's next card this game.",
                   enum=["self", "opponents", "own-next"], per_kind=True)


@described("card", description="The skills of a Card Type, keyed by its name (Element and Kami: 'Fire Zeus').")
@dataclass(frozen=True)
class CardType:
    skills: tuple[Skill, ...] = spec(())


@described("deck-card", facts="card-facts")
@dataclass(kw_only=True)
class Card:
    id: str = spec()
    owner: str = ""  # the seat whose deck holds it (set as the decks are built)
    kami: str = spec()
    number: int = spec(description="Each card has a number between 1 and 10 (the game refuses others).")
    element: str = spec(description="Light exists only through skills (the game refuses a Light card).",
                        enum=["Fire", "Water", "Leaf", "Light"])
    kp: int = spec(minimum=0, fact=True)
    kept_change: int = 0  # a Number change the card keeps from an earlier game of the battle

    @property
    def card_type(self) -> str:
        return f"{self.element} {self.kami}"

    @property
    def current_number(self) -> int:
        """The Number the card is played at: its own, with any change it keeps from an earlier game."""
        return self.number + self.kept_change


@dataclass
class Played:
    card: str
    number: int
    element: str
    charge: int = 0
    opened: bool = True


@described(facts="player-facts")
@dataclass
class Player:
    seat: str
    deck: list[str]
    hand: list[str] = fact(list, "Left to right, as dealt (a Time Out takes the leftmost of equal Numbers).")
    dealt: list[str] = field(default_factory=list)  # every card dealt to this player in this battle
    disconnected: bool = fact(False)
    escaped: bool = fact(False)  # in the current game
    bonus_next: int = 0  # from an "own-next" skill, for the next card this game
    played: dict[str, Played] = field(default_factory=dict)  # by stage
    received: int = fact(0)
    charged: int = fact(0)


@described("state")
@dataclass(frozen=True, kw_only=True)
class Initial:
    """The battle as the scenario writes it; the rules of deck construction are checked by ``rules.setup``."""

    players: tuple[str, ...] = spec(description="2 to 4 players, in seat order (the game refuses another number).", items=ref("seat"))
    charge_regulation: int = spec(description="The Pre-Charge (10 to 50 KP).", minimum=10, maximum=50)
    wait_kp: int = spec(description="KP a Wait takes (the Charge Action page is not part of the source).", minimum=0)
    decks: dict[str, tuple[Card, ...]] = spec(description="Each player's deck of 10 cards (the game refuses another size).",
                                              keys=SEATS, keys_required=False)


@described(facts="outcome")
@dataclass(kw_only=True)
class State:
    seats: tuple[str, ...]
    skills: Book  # Card Type -> its skills (a tuple of Skill), shared by every copy of the state
    charge_regulation: int
    wait_kp: int
    step: str | None = None  # the procedure step the battle stands at
    game: int = fact(1)
    stage: str = fact("deal", enum=["deal", "pre-round", "round-1", "round-2", "over"])
    pool: int = fact(0)
    jackpot: int = fact(0)
    burned: int = fact(0)
    set_aside: int = fact(0, "KP of pools that no winner received.")
    games: dict[str, dict[str, Any]] = fact(dict, "Game number -> its record (played cards, totals, winners, the KP tally).",
                                            schema={"type": "object", "additionalProperties": {"$ref": "#/game-record"}})
    ranking: dict[str, Any] | None = fact(None, schema={"$ref": "#/ranking"})
    cards: dict[str, Card] = fact()
    players: dict[str, Player] = fact()

    def in_game(self) -> list[Player]:
        """Players still in the current game, in seat order."""
        return [self.players[s] for s in self.seats if not self.players[s].escaped]


def build_state(raw: Mapping[str, Any], inline: Mapping[str, Any]) -> State:
    """The battle as the scenario writes it; the rules of deck construction are checked by ``rules.setup``."""
    initial = parse(Initial, raw, ("initial",))
    seats = initial.players
    if len(set(seats)) != len(seats):
        raise InputError("a player is listed twice", path=("initial", "players"), expected="2 to 4 different seats")
    cards: dict[str, Card] = {}
    players: dict[str, Player] = {}
    for seat in seats:
        at = ("initial", "decks", seat)
        if seat not in initial.decks:
            raise InputError(f"player {seat} has no deck", path=("initial", "decks"), expected=f"a deck for {seat}")
        deck = initial.decks[seat]
        for index, card in enumerate(deck):
            card.owner = seat
            if card.id in cards:
                raise InputError(f"card id {card.id!r} is used twice", path=at + (index, "id"), expected="ids unique across all decks")
            cards[card.id] = card
        players[seat] = Player(seat, [card.id for card in deck])
    skills = Book({card_type: parse(CardType, entry, ("cards", card_type)).skills for card_type, entry in inline.items()})
    return State(seats=seats, players=players, cards=cards, skills=skills,
                 charge_regulation=initial.charge_regulation, wait_kp=initial.wait_kp)


observe = facts
