"""Yu-Gi-Oh! Duel Monsters II, Battle Phase: the state of a duel, in the rulebook's words.

Two players (``A`` and ``B``), each with Life Points, five Monster Card Zones numbered 1 to
5 from that player's own left, a hand, set Magic & Trap cards and a Graveyard. The chapter
names card classes but no cards: scenarios define the cards they use in the vocabulary
of ``schema.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

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


def opponent(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass(frozen=True)
class Effect:
    kind: str  # change-atk, change-def, destroy, return-to-hand, move, special-summon, negate, damage, gain-lp
    amount: int = 0
    zone: int | None = None
    monster: str | None = None  # the card special-summoned
    summoned_from: str = "deck"  # hand, graveyard, or deck (the duel keeps no Deck: nothing is taken from it)
    position: str = "attack"
    to: str = "opponent"  # damage / gain-lp: "opponent" or "controller"
    target: str | None = None  # fixed target: "battled" (the monster this card battled)
    mandatory: bool = False
    until: str | None = None  # end-of-damage-step, end-of-battle-phase, end-of-turn; None: the effect lasts


@dataclass(frozen=True)
class Card:
    name: str
    type: str  # monster, magic, trap
    classes: frozenset[str] = frozenset()
    effect: Effect | None = None
    atk: int = 0
    defence: int = 0
    flip: Effect | None = None
    on_battle: Effect | None = None
    on_battle_damage: Effect | None = None
    on_sent_to_graveyard: Effect | None = None
    battle_atk: int = 0  # applied only during a battle
    end_of_damage_step: Effect | None = None
    end_of_battle_phase: Effect | None = None


@dataclass
class Monster:
    name: str  # unique on the field
    card: str
    controller: str
    zone: int
    position: str  # attack or defense
    face_up: bool
    atk: int
    defence: int
    attacked: bool = False
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


def _effect(raw: Mapping[str, Any] | None) -> Effect | None:
    """An effect as the schema writes it (``from:`` is ``summoned_from``)."""
    if not raw:
        return None
    return Effect(**{("summoned_from" if key == "from" else key): value for key, value in raw.items()})


def card_from(name: str, raw: Mapping[str, Any]) -> Card:
    def effect(key: str) -> Effect | None:
        return _effect(raw.get(key))

    return Card(
        name=name,
        type=raw["type"],
        classes=frozenset(raw.get("classes", ())),
        effect=effect("effect"),
        atk=raw.get("atk", 0),
        defence=raw.get("def", 0),
        flip=effect("flip"),
        on_battle=effect("on_battle"),
        on_battle_damage=effect("on_battle_damage"),
        on_sent_to_graveyard=effect("on_sent_to_graveyard"),
        battle_atk=raw.get("battle_atk", 0),
        end_of_damage_step=effect("end_of_damage_step"),
        end_of_battle_phase=effect("end_of_battle_phase"),
    )


def lookup_card(cards: Mapping[str, Card], name: str, path: tuple[str | int, ...]) -> Card:
    if name not in cards:
        raise InputError(
            f"unknown card {name!r}{nearest(name, cards)}", path=path,
            expected="a card defined under 'cards:' (this chapter names no cards)",
        )
    return cards[name]


def build_state(initial: Mapping[str, Any], cards: Book) -> State:
    players: dict[str, Player] = {}
    monsters: list[Monster] = []
    for player in PLAYERS:
        raw = initial["players"][player]
        at = ("initial", "players", player)
        for pile in ("hand", "set", "graveyard"):
            for index, name in enumerate(raw.get(pile, [])):
                lookup_card(cards, name, at + (pile, index))
        players[player] = Player(
            lp=raw.get("lp", 8000), hand=list(raw.get("hand", [])),
            set_cards=list(raw.get("set", [])), graveyard=list(raw.get("graveyard", [])),
        )
        for zone_key, m in raw.get("monsters", {}).items():
            zone = int(zone_key)
            path = at + ("monsters", zone_key)
            card = lookup_card(cards, m["card"], path + ("card",))
            if card.type != "monster":
                raise InputError(f"{card.name!r} is not a monster card", path=path + ("card",), expected="a monster card")
            name = m.get("name", card.name)
            if any(other.name == name for other in monsters):
                raise InputError(
                    f"two monsters named {name!r} on the field", path=path,
                    expected="names unique on the field (give 'name:' to field two of a card)",
                )
            monsters.append(Monster(
                name=name, card=card.name, controller=player, zone=zone,
                position=m.get("position", "attack"), face_up=m.get("face_up", True),
                atk=m.get("atk", card.atk), defence=m.get("def", card.defence), attacked=m.get("attacked", False),
            ))
    first = initial.get("first_player", "A")
    return State(
        turn=initial.get("turn", 2), active=initial.get("active", first), first_player=first,
        players=players, monsters=monsters, cards=cards,
    )


def observe(state: State) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "active": state.active,
        "step": state.step,
        "chain": state.chain.cards,
        "last_battle": state.battles[-1] if state.battles else None,
        "battles": state.battles,
        "players": {
            player: {
                "lp": p.lp,
                "hand": list(p.hand),
                "set": list(p.set_cards),
                "graveyard": list(p.graveyard),
                "monsters": {
                    m.name: {"zone": m.zone, "position": m.position, "face_up": m.face_up, "atk": m.atk,
                             "def": m.defence, "attacked": m.attacked}
                    for m in state.side(player)
                },
            }
            for player, p in state.players.items()
        },
    }
