"""My Crypto Saga: a battle of three games between 2 to 4 players.

Each player has a deck of 10 cards (Kami Type, Number, Element, KP). A game deals 3 cards to
each hand, then plays a Pre-Round, Round 1 and Round 2, and ends with the Final Count and the
KP tally. Skills are per Card Type ("Fire Zeus") and the page defines none: scenarios define
the skills they use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Book

ELEMENTS = ("Fire", "Water", "Leaf")


@dataclass(frozen=True)
class Skill:
    kind: str  # add, element
    amount: int = 0
    element: str | None = None
    to: str = "self"  # self, opponents, own-next


@dataclass
class Card:
    id: str
    owner: str
    kami: str
    number: int
    element: str
    kp: int
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


@dataclass
class Player:
    seat: str
    deck: list[str]
    hand: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)  # every card dealt to this player in this battle
    disconnected: bool = False
    escaped: bool = False  # in the current game
    bonus_next: int = 0  # from an "own-next" skill, for the next card this game
    played: dict[str, Played] = field(default_factory=dict)  # by stage
    received: int = 0
    charged: int = 0


@dataclass
class State:
    seats: tuple[str, ...]
    players: dict[str, Player]
    cards: dict[str, Card]
    skills: Book  # Card Type -> its skills (a tuple of Skill), shared by every copy of the state
    charge_regulation: int
    wait_kp: int
    step: str | None = None  # the procedure step the battle stands at
    game: int = 1
    stage: str = "deal"  # deal, pre-round, round-1, round-2, over
    pool: int = 0
    jackpot: int = 0
    burned: int = 0
    set_aside: int = 0  # pools of games nobody won
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    ranking: dict[str, Any] | None = None

    def in_game(self) -> list[Player]:
        """Players still in the current game, in seat order."""
        return [self.players[s] for s in self.seats if not self.players[s].escaped]


def build_state(initial: Mapping[str, Any], inline: Mapping[str, Any]) -> State:
    """The battle as the scenario writes it; the rules of deck construction are checked by ``rules.setup``."""
    seats = tuple(initial["players"])
    if len(set(seats)) != len(seats):
        raise InputError("a player is listed twice", path=("initial", "players"), expected="2 to 4 different seats")
    cards: dict[str, Card] = {}
    players: dict[str, Player] = {}
    for seat in seats:
        at = ("initial", "decks", seat)
        if seat not in initial["decks"]:
            raise InputError(f"player {seat} has no deck", path=("initial", "decks"), expected=f"a deck for {seat}")
        deck = initial["decks"][seat]
        for index, raw in enumerate(deck):
            card = Card(raw["id"], seat, raw["kami"], raw["number"], raw["element"], raw["kp"])
            if card.id in cards:
                raise InputError(f"card id {card.id!r} is used twice", path=at + (index, "id"), expected="ids unique across all decks")
            cards[card.id] = card
        players[seat] = Player(seat, [raw["id"] for raw in deck])
    skills = Book({
        card_type: tuple(Skill(**s) for s in raw.get("skills", ()))
        for card_type, raw in inline.items()
    })
    return State(seats=seats, players=players, cards=cards, skills=skills,
                 charge_regulation=initial["charge_regulation"], wait_kp=initial["wait_kp"])


def observe(state: State) -> dict[str, Any]:
    return {
        "game": state.game,
        "stage": state.stage,
        "pool": state.pool,
        "jackpot": state.jackpot,
        "burned": state.burned,
        "set_aside": state.set_aside,
        "games": state.games,
        "ranking": state.ranking,
        "cards": {card.id: {"kp": card.kp} for card in state.cards.values()},
        "players": {
            seat: {"hand": list(p.hand), "disconnected": p.disconnected, "escaped": p.escaped,
                   "received": p.received, "charged": p.charged}
            for seat, p in state.players.items()
        },
    }
