"""Yu-Gi-Oh! Duel Monsters II, Battle Phase: the state of a duel, in the rulebook's words.

Two players (``A`` and ``B``), each with Life Points, five Monster Card Zones numbered 1 to
5 from that player's own left, a hand, set Magic & Trap cards and a Graveyard. The chapter
names card classes but no cards: scenarios define the cards they use (``Card``, ``Effect``).

What a scenario gives (a card and its effects, a monster on the field, the duel as it sets it)
and what observing reports are described types: their schema, their parsing and their
observation follow from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.described import described, fact, facts, parse, spec
from checker.engine.errors import InputError
from checker.engine.game import Book
from checker.engine.errors import nearest
from checker.engine.priority import Priority
from checker.engine.stack import ResponseStack

PLAYERS = ("A", "B")
ZONES = (1, 2, 3, 4, 5)

#: Classes a Magic or Trap card may have (what the chapter distinguishes).
CLASSES = (
    "counter", "quick-play", "attack-response", "stat-change", "damage-step",
    "battle-damage-response", "destroyed-response",
)
#: Where the duel stands before the Battle Phase: the Main Phase, outside this chapter's procedure.
MAIN = "main"
#: The points of the turn an effect may last until, in words.
UNTIL: dict[str, str] = {
    "end-of-damage-step": "the end of the Damage Step",
    "end-of-battle-phase": "the end of the Battle Phase",
    "end-of-turn": "the end of the turn",
}


def opponent(player: str) -> str:
    return "B" if player == "A" else "A"


@described("effect", tag="kind")
@dataclass(frozen=True)
class Effect:
    """A card's effect; each kind takes the parameters its registration names (rules.py)."""

    kind: str = spec(description="What the effect does (the vocabulary's effect kinds).")
    mandatory: bool = spec(False, "A mandatory effect goes first in a Chain of triggered effects.", per_kind=True)
    target: str | None = spec(None, "A fixed target: the monster this card battled.", enum=["battled"], per_kind=True)
    amount: int = spec(0, per_kind=True)
    until: str | None = spec(None, "The change holds until this point of the turn, then is undone (and is dropped if the monster "
                             "leaves the field). Omitted: it lasts.", enum=list(UNTIL), per_kind=True)
    zone: int | None = spec(None, minimum=1, maximum=5, per_kind=True)
    monster: str | None = spec(None, "The monster card placed.", per_kind=True)  # the card special-summoned
    summoned_from: str = spec("deck", "Where the monster comes from; it leaves the controller's hand or Graveyard. Default deck (the duel "
                              "keeps no Deck: nothing is taken from it).", key="from", enum=["hand", "graveyard", "deck"], per_kind=True)
    position: str = spec("attack", enum=["attack", "defense"], per_kind=True)
    to: str = spec("opponent", "Whose Life Points (default: the opponent's).", enum=["opponent", "controller"], per_kind=True)


@described("card")
@dataclass(frozen=True)
class Card:
    name: str  # the key it is listed under
    type: str = spec(enum=["monster", "magic", "trap"])
    classes: frozenset[str] = spec(frozenset(), "What the chapter distinguishes: Counter, Quick-Play, 'When your opponent's monster "
                                   "attacks', ATK/DEF-changing, 'can be activated during the Damage Step', responses to Battle Damage "
                                   "and to destruction by battle.", items={"enum": list(CLASSES)})
    effect: Effect | None = spec(None)
    atk: int = spec(0, minimum=0)
    defence: int = spec(0, key="def", minimum=0)
    flip: Effect | None = spec(None, "A Flip Effect.")
    on_battle: Effect | None = spec(None, "When this card battles a monster.")
    on_battle_damage: Effect | None = spec(None, "When this card inflicts Battle Damage.")
    on_sent_to_graveyard: Effect | None = spec(None, "When this card is sent to the Graveyard.")
    battle_atk: int = spec(0, "ATK it gains only during a battle.")  # applied only during a battle
    end_of_damage_step: Effect | None = spec(None)
    end_of_battle_phase: Effect | None = spec(None)


@described("monster", facts="monster-facts")
@dataclass
class Monster:
    name: str = spec(description="Unique on the field; defaults to the card's name.", required=False)
    card: str = spec()
    controller: str = ""  # the player whose zone it is in (set as the field is built)
    zone: int = fact(0)
    position: str = spec("attack", enum=["attack", "defense"], fact=True)  # attack or defense
    face_up: bool = spec(True, fact=True)
    atk: int = spec(0, "ATK now; defaults to the card's.", required=False, fact=True)
    defence: int = spec(0, "DEF now; defaults to the card's.", key="def", required=False, fact=True)
    attacked: bool = spec(False, "Whether it has attacked this turn.", fact=True)
    destroyed: bool = False  # destroyed by battle, not yet sent to the Graveyard


@dataclass
class Lasting:
    """A change that holds until a point of the turn, then is undone (dropped if the monster leaves the field)."""

    card: str
    monster: str
    kind: str  # change-atk or change-def
    amount: int
    until: str


@dataclass
class Battle:
    """The battle being fought: declared in the Battle Step, resolved in the Damage Step."""

    attackers: list[str]
    targets: list[str | None]  # monster names (None: an empty zone chosen behind a divider); empty for a direct attack
    target_zones: list[int]  # the zones the targets were in when selected
    direct: bool
    defender: str
    placed: list[str] = field(default_factory=list)  # monsters placed on the defender's side since the declaration
    flipped: list[str] = field(default_factory=list)
    damage: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    destroyed: list[str] = field(default_factory=list)
    cancelled: bool = False

    @property
    def fighters(self) -> list[str]:
        """Every monster in the battle, attackers first."""
        return [*self.attackers, *(t for t in self.targets if t)]

    @property
    def simultaneous(self) -> bool:
        return len(self.attackers) > 1 or len(self.targets) > 1


@dataclass
class Player:
    lp: int
    hand: list[str]
    set_cards: list[str]
    graveyard: list[str]

    def pile(self, place: str) -> list[str] | None:
        """The cards in ``place`` (hand or graveyard); None for the Deck, which the duel does not keep."""
        return {"hand": self.hand, "graveyard": self.graveyard}.get(place)


@dataclass
class State:
    turn: int
    active: str
    first_player: str
    players: dict[str, Player]
    monsters: list[Monster]
    cards: Book  # name -> Card, shared by every copy of the state
    step: str | None = None  # the procedure step the duel stands at (MAIN: the Main Phase, before the Battle Phase)
    priority: Priority = Priority(PLAYERS)  # who has passed at a step with a priority rule (the core keeps it)
    chain: ResponseStack[Effect] = field(default_factory=ResponseStack)
    battle: Battle | None = None
    battles: list[dict[str, Any]] = field(default_factory=list)
    lasting: list[Lasting] = field(default_factory=list)

    def monster(self, name: str) -> Monster | None:
        return next((m for m in self.monsters if m.name == name), None)

    def side(self, player: str) -> list[Monster]:
        return sorted((m for m in self.monsters if m.controller == player), key=lambda m: m.zone)

    def in_zone(self, player: str, zone: int) -> Monster | None:
        return next((m for m in self.monsters if m.controller == player and m.zone == zone), None)


# --- Building from scenario data -------------------------------------------------------------


@described("player-state")
@dataclass(frozen=True)
class Side:
    """A player's side as the scenario sets it."""

    lp: int = spec(8000)
    hand: tuple[str, ...] = spec((), ref="name-list")
    set: tuple[str, ...] = spec((), "Magic & Trap cards set face-down.", ref="name-list")
    graveyard: tuple[str, ...] = spec((), ref="name-list")
    monsters: dict[str, Mapping[str, Any]] = spec({}, "Monster Card Zone (1-5, from that player's own left) -> monster.",
                                                  additionalProperties=False, patternProperties={"^[1-5]$": {"$ref": "#/monster"}})


@described("state")
@dataclass(frozen=True, kw_only=True)
class Initial:
    """The duel as the scenario sets it."""

    turn: int = spec(2, "Turn number.", minimum=1)
    first_player: str = spec("A", ref="player")
    active: str | None = spec(None, "The turn player; defaults to the first player.", ref="player")
    players: dict[str, Side] = spec(keys=PLAYERS)


def card_from(name: str, raw: Mapping[str, Any]) -> Card:
    return parse(Card, raw, ("cards", name), name=name)


def lookup_card(cards: Mapping[str, Card], name: str, path: tuple[str | int, ...]) -> Card:
    if name not in cards:
        raise InputError(
            f"unknown card {name!r}{nearest(name, cards)}", path=path,
            expected="a card defined under 'cards:' (this chapter names no cards)",
        )
    return cards[name]


def build_state(raw: Mapping[str, Any], cards: Book) -> State:
    initial = parse(Initial, raw, ("initial",))
    players: dict[str, Player] = {}
    monsters: list[Monster] = []
    for player in PLAYERS:
        side = initial.players[player]
        at = ("initial", "players", player)
        for pile, names in (("hand", side.hand), ("set", side.set), ("graveyard", side.graveyard)):
            for index, name in enumerate(names):
                lookup_card(cards, name, at + (pile, index))
        players[player] = Player(lp=side.lp, hand=list(side.hand), set_cards=list(side.set), graveyard=list(side.graveyard))
        for zone_key, m in side.monsters.items():
            path = at + ("monsters", zone_key)
            card = lookup_card(cards, m["card"], path + ("card",))
            if card.type != "monster":
                raise InputError(f"{card.name!r} is not a monster card", path=path + ("card",), expected="a monster card")
            monster = parse(Monster, m, path, name=card.name, controller=player, zone=int(zone_key), atk=card.atk, defence=card.defence)
            if any(other.name == monster.name for other in monsters):
                raise InputError(
                    f"two monsters named {monster.name!r} on the field", path=path,
                    expected="names unique on the field (give 'name:' to field two of a card)",
                )
            monsters.append(monster)
    first = initial.first_player
    return State(
        turn=initial.turn, active=initial.active or first, first_player=first,
        players=players, monsters=monsters, cards=cards,
    )


# --- What observing reports ------------------------------------------------------------------


@described(facts="player-facts")
@dataclass
class PlayerFacts:
    lp: int = fact()
    hand: list[str] = fact(description="The rules give the hand no order.", ref="name-list")
    set: list[str] = fact(description="The rules give the set cards no order.", ref="name-list")
    graveyard: list[str] = fact(description="In the order sent; cards sent together are in no order the rules give.", ref="name-list")
    monsters: dict[str, Monster] = fact()


@described(facts="outcome")
@dataclass
class Outcome:
    turn: int = fact()
    active: str = fact(ref="player")
    step: str = fact(description="The procedure step the duel is at.")
    chain: list[str] = fact(description="Chain Links, first to last (the rules' order).", ref="name-list")
    last_battle: dict[str, Any] | None = fact(description="The last battle fought (null: none yet).",
                                              schema={"anyOf": [{"$ref": "#/battle-record"}, {"type": "null"}]})
    battles: list[dict[str, Any]] = fact(description="In the order fought.", items={"$ref": "#/battle-record"})
    players: dict[str, PlayerFacts] = fact(keys=PLAYERS)


def observe(state: State) -> dict[str, Any]:
    return facts(Outcome(
        turn=state.turn,
        active=state.active,
        step=state.step,  # type: ignore[arg-type]  # never None: the duel starts in the Main Phase
        chain=state.chain.cards,
        last_battle=state.battles[-1] if state.battles else None,
        battles=state.battles,
        players={
            player: PlayerFacts(lp=p.lp, hand=p.hand, set=p.set_cards, graveyard=p.graveyard,
                                monsters={m.name: m for m in state.side(player)})
            for player, p in state.players.items()
        },
    ))
