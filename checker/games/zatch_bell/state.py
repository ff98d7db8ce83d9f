"""The state of a game of Zatch Bell! The Card Battle: two Spell Books, the cards in play, the turn and the Battle.

A Spell Book has 32 pages, one card a page. It opens on page 1 alone, then on two pages at a
time (2 and 3, 4 and 5, ... 30 and 31), and ends on page 32 alone: turning 1 page moves to the
next of these 17 openings ("both of the open pages", "the newly open pages" of the manual). A
card that leaves its page (a MAMODO or PARTNER put in play, a SPELL out for a Battle) leaves the
page empty; the page keeps its number.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Book
from checker.engine.priority import Priority
from checker.engine.stack import ResponseStack
from checker.engine.statecopy import Snapshot

PLAYERS = ("A", "B")
BOOK_PAGES = 32
LAST_OPENING = 16  # page 32 alone
CARD_TYPES = ("MAMODO", "PARTNER", "MJ12", "SPELL", "EVENT")
BLANK = "(blank page {page})"


def other(player: str) -> str:
    return "B" if player == "A" else "A"


def open_pages(opening: int) -> tuple[int, ...]:
    """The page numbers open at an opening: (1), (2, 3), ..., (30, 31), (32)."""
    if opening == 0:
        return (1,)
    if opening == LAST_OPENING:
        return (BOOK_PAGES,)
    return (2 * opening, 2 * opening + 1)


def base_name(name: str) -> str:
    """A name without anything in parentheses: "Robnos (Double)" is a Robnos."""
    return re.sub(r"\s*\([^)]*\)", "", name).strip()


@dataclass(frozen=True)
class Effect:
    """One effect of a card, in the manual's terms: its tag, its cost, its icons, when it acts and what it does."""

    kind: str
    tag: str = "declare"  # declare ([DECLARE TO USE]), mp ([X MP]), discard ([SEND THIS CARD ...]), in-play ([IN PLAY])
    mp: int = 0  # the X of an [X MP] effect
    icons: tuple[str, ...] = ()  # battle, attack, defend
    timing: str | None = None  # in-play effects: start-phase, end-phase, put-in-play; SPELL effects: on-damage, other, regardless
    amount: int = 0
    whose: str = "opponent"  # self or opponent
    target: str | None = None  # a card the effect names
    also: tuple["Effect", ...] = ()  # what the same effect goes on to do, in order
    phase: str | None = None  # own or opponent: the BATTLE PHASE the effect is applied in
    keep: str | None = None  # stay ([STAY]: active until ``until``) or standby ([STANDBY]: waits for ``until``, then activates)
    until: str | None = None  # a [STAY] effect's end, a [STANDBY] effect's activation: end-phase, start-phase, battle-out
    negates: tuple[str, ...] = ()  # negate, prohibit: what it negates or prohibits (effect, event, no-battle, stay, standby, in-play)
    cannot_be_negated: bool = False  # "Cannot be negated"
    even_when_prohibited: bool = False  # "... even when prohibited to do so"
    regardless_of_card_effects: bool = False  # "... regardless of card effects": the same (line 1153)
    times: int = 1  # "Damage your opponent's Spell Book X times": each infliction PROTECTED separately
    stone_tablet: bool = False  # the effect selects only Stone Tablet MAMODO cards
    once_per_game: bool = False  # "This effect can be applied only once per game (per player)"
    if_mp_at_least: int = 0  # the effect does something only if the player it affects has at least this many MP
    of_type: str | None = None  # prohibit: only the effects of cards of this type (PARTNER, MAMODO, MJ12); select: "Select 1 *type* card"
    coins: int = 0  # "Flip X coins" as the effect is declared: it acts once for each heads
    min_power: int = 0  # the effect selects only a MAMODO card with at least this much Power
    only_as: str | None = None  # "When you are the Attacker (Defender)": attacker or defender
    select_all: bool = False  # "Select all *type* cards": every card of the type on the opponent's side

    @property
    def passes_prohibitions(self) -> bool:
        return self.even_when_prohibited or self.regardless_of_card_effects

    @property
    def is_cut_in(self) -> bool:
        return "cut-in" in self.icons

    @property
    def is_battle_effect(self) -> bool:
        return "battle" in self.icons


@dataclass(frozen=True)
class Card:
    """A card as printed: its type, number, class, Power, MP cost, Damage, names and effects."""

    name: str
    type: str
    number: str
    card_class: str | None = None  # intermediate, superior (None: neither)
    power: int = 0
    mp: int = 0
    damage: int = 0
    injure: int = 0
    icons: tuple[str, ...] = ()  # attack, defend (SPELL, EVENT)
    mamodo: str | None = None  # the MAMODO name a SPELL or PARTNER card names
    counter: bool = False
    regular: bool = True  # a MAMODO's standard form (not one put on top of another)
    placed_on: str | None = None  # card rule: put in play on top of this in-play MAMODO
    same_as: tuple[str, ...] = ()  # card rule: this MAMODO is the same as these
    spells_of: tuple[str, ...] = ()  # card rule: may play the SPELL cards of these MAMODO
    spell_attributes: tuple[str, ...] = ()  # card rule: may play SPELL cards of these Attributes
    attribute: str | None = None
    partner_names: tuple[str, ...] = ()  # a MAMODO's PARTNER Name(s)
    effects: tuple[Effect, ...] = ()
    stone_tablet: bool = False  # a Stone Tablet MAMODO card
    dual: tuple[str, ...] = ()  # a DUAL MAMODO card: its 2 MAMODO names

    @property
    def names(self) -> tuple[str, ...]:
        """The MAMODO names a MAMODO card counts as: a DUAL MAMODO card's 2, another MAMODO card's own."""
        return self.dual or (self.mamodo_name,)

    @property
    def is_no_battle(self) -> bool:
        """A No Battle SPELL card (it has the "No Battle" icon)."""
        return self.type == "SPELL" and "no-battle" in self.icons

    @property
    def mamodo_name(self) -> str:
        """A MAMODO's name for the one-name rule (anything in parentheses excluded); other cards' own name."""
        return base_name(self.name) if self.type == "MAMODO" else self.name

    @property
    def is_blank(self) -> bool:
        return self.number.startswith("BLANK-")


@functools.cache
def blank_card(page: int) -> Card:
    """A page the scenario leaves unnamed: a SPELL card of its own number that no MAMODO in the game can play."""
    return Card(name=BLANK.format(page=page), type="SPELL", number=f"BLANK-{page}", mamodo="(no MAMODO)")


@dataclass
class Mamodo:
    """A MAMODO card in play, with its PARTNER and the MAMODO cards underneath it."""

    card: str
    page: int
    status: str = "normal"  # normal, injured, petrified
    partner: str | None = None
    partner_page: int | None = None
    under: list[tuple[str, int]] = field(default_factory=list)
    effects_negated: bool = False  # this turn, by a card effect (its card rules stand)


@dataclass
class SpellOut:
    """A SPELL card out of its page, on the SPELL card zone for a Battle."""

    card: str
    page: int
    mamodo: str
    by_effect: bool = False  # played by a card effect, not from the book by the player


@dataclass
class Player:
    name: str
    pages: list[str | None]  # the card on each page (index 0 is page 1); None once it has left its page
    size: int  # the number of cards the book was built with
    opening: int = 0
    mp: int = 0
    mamodo: list[Mamodo] = field(default_factory=list)
    mj12: list[tuple[str, int]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    event_played: bool = False  # this turn
    used_effects: set[str] = field(default_factory=set)  # once-per-turn effects applied this turn
    used_this_game: set[str] = field(default_factory=set)  # once-per-game effects applied
    negated_cards: set[str] = field(default_factory=set)  # cards whose Attack or Defense was negated this turn
    spells_used: set[tuple[str, int]] = field(default_factory=set)  # SPELL cards (and pages) played this turn
    no_battle_out: list[tuple[str, int]] = field(default_factory=list)  # No Battle SPELL cards (and pages) off their page
    turn_power: int = 0  # Power an EVENT card gives until the END PHASE
    battle_power: int = 0  # Power an EVENT card gives "during the Battle" (between Battle In and Battle Out) until the END PHASE
    events_shown: list[int] = field(default_factory=list)  # pages of EVENT cards played this turn
    events_allowed: int = 1  # EVENT cards this player may play this turn (a card effect may allow more)
    discarded_by_effect: set[str] = field(default_factory=set)  # cards a card effect sent to the Discard Pile
    kept: list["Kept"] = field(default_factory=list)  # the [STAY] and [STANDBY] zones, and this turn's "Cannot" effects
    unnegatable: set[str] = field(default_factory=set)  # kinds of this player's effects an effect made "cannot be negated"

    @property
    def open(self) -> tuple[int, ...]:
        return open_pages(self.opening)

    def card_on(self, page: int) -> str | None:
        return self.pages[page - 1] if 1 <= page <= len(self.pages) else None

    def find(self, name: str) -> Mamodo | None:
        return next((m for m in self.mamodo if m.card == name), None)

    def in_play_cards(self) -> list[str]:
        cards: list[str] = []
        for m in self.mamodo:
            cards += [m.card, *[c for c, _ in m.under]] + ([m.partner] if m.partner else [])
        return cards + [c for c, _ in self.mj12]


@dataclass
class Kept:
    """An effect kept after it resolved: a copy in the [STAY] or [STANDBY] zone, or a "Cannot" effect of this turn."""

    owner: str
    source: str
    effect: Effect
    zone: str  # stay, standby, turn
    turn: int = 0  # the turn it was applied in

    @property
    def label(self) -> str:
        return f"{self.source}: {self.effect.kind}"


@dataclass(frozen=True)
class Applied:
    """An effect applied or a card played, resolved at once but open to a cut-in effect until the next Action that is none."""

    effects: tuple[Effect, ...]
    classes: frozenset[str]  # what a cut-in effect must negate to negate it: effect, battle, event, no-battle, stay, standby, cut-in
    action: Mapping[str, Any] = field(default_factory=dict)  # the choices made when it was applied (target, protect)
    cannot_be_negated: bool = False
    before: "Snapshot[State] | None" = None  # the State once its costs were paid, before it resolved: what negating it returns to

    @property
    def negates(self) -> bool:
        """A cut-in effect: it negates the card or effect below it."""
        return "cut-in" in self.classes


@dataclass
class Battle:
    """The Battle under way: the Attack, the Defense, the Power effects add and what was decided."""

    attacker: str
    mamodo: str
    spell: SpellOut | None
    defender_mamodo: str | None = None
    defense: SpellOut | None = None
    defense_waived: bool = False
    defense_set_total: int | None = None  # a Defense without a SPELL card: the Total Power its effect gives
    attack_set_total: int | None = None  # an Attack without a SPELL card ("&" effect): the Total Power its effect gives
    attack_effect: Effect | None = None  # that "&" effect: it resolves when its MAMODO wins the Battle
    coin: str | None = None  # how the Attack's coin lands, written with the "Battle In"
    power: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    attack_negated: bool = False
    defense_negated: bool = False
    damage_negated: set[str] = field(default_factory=set)  # players a "Negate Damage" effect spares this Battle's Damage and Injury
    undefendable: tuple[Kept, ...] = ()  # "cannot be Defended" effects applied before this Battle: it is their "next Battle"
    totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None  # attacker or defender, once compared


@dataclass
class State:
    players: dict[str, Player]
    cards: Book  # card name -> Card, shared by every copy of the state
    first_attacker: str
    attacker: str
    step: str | None = None  # the procedure step the game stands at
    turn: int = 1
    priority: Priority = Priority(PLAYERS)  # who may perform the next Action, who has passed (the core keeps it)
    pending_battle_in: dict[str, Any] | None = None  # a "Battle In" the Defender has not yet let through
    answered_battle_in: dict[str, Any] | None = None  # a "Battle In" the Defender answered with an Action
    battle: Battle | None = None
    last_battle: dict[str, Any] | None = None
    loser: str | None = None
    sent_in: list[str] = field(default_factory=list)  # players who put a MAMODO card in play by the no-MAMODO rule
    end_recovery_first: bool = False  # the Attacker ordered Petrified recovery before the END PHASE effects
    log: list[str] = field(default_factory=list)  # effects resolved, in order
    stack: ResponseStack[Applied] = field(default_factory=ResponseStack)  # effects just applied and the cut-ins against them
    current_action: tuple[str, str] | None = None  # (player, card) of the Action being performed, if it plays or applies a card
    previous_action: tuple[str, str] | None = None  # the same for the Action before it
    preparation_effects: list[tuple[str, str]] = field(default_factory=list)  # (owner, card) of effects resolved in the PREPARATION PHASE
    coin_toss: tuple[str, str] | None = None  # (player, card) of the effect whose coins were just flipped
    coin_redo: str | None = None  # the card whose effect re-did those coins

    @property
    def defender(self) -> str:
        return other(self.attacker)

    @property
    def end_pending(self) -> bool:
        """Both players passed in Non-Battle: the BATTLE PHASE is over, the END PHASE waits for its choices."""
        return self.priority.step == "non-battle" and self.priority.ended

    @property
    def compared(self) -> bool:
        """Total Power has been compared: the Battle waits for its resolution (step 5, with the players' choices)."""
        return self.battle is not None and self.battle.winner is not None

    def card(self, name: str) -> Card:
        return self.cards[name]  # type: ignore[no-any-return]


# --- Building the state from a scenario ------------------------------------------------------------


def _effect(raw: Mapping[str, Any]) -> Effect:
    return Effect(kind=raw["kind"], tag=raw.get("tag", "declare"), mp=raw.get("mp", 0), icons=tuple(raw.get("icons", ())),
                  timing=raw.get("timing"), amount=raw.get("amount", 0), whose=raw.get("whose", "opponent"),
                  target=raw.get("target"), also=tuple(_effect(e) for e in raw.get("also", ())),
                  phase=raw.get("phase"), keep=raw.get("keep"), until=raw.get("until"), negates=tuple(raw.get("negates", ())),
                  cannot_be_negated=raw.get("cannot_be_negated", False), even_when_prohibited=raw.get("even_when_prohibited", False),
                  regardless_of_card_effects=raw.get("regardless_of_card_effects", False),
                  times=raw.get("times", 1), stone_tablet=raw.get("stone_tablet", False),
                  once_per_game=raw.get("once_per_game", False), if_mp_at_least=raw.get("if_mp_at_least", 0), of_type=raw.get("of_type"),
                  coins=raw.get("coins", 0), min_power=raw.get("min_power", 0), only_as=raw.get("only_as"),
                  select_all=raw.get("select_all", False))


def make_card(name: str, raw: Mapping[str, Any]) -> Card:
    return Card(
        name=name, type=raw["type"], number=str(raw.get("number", name)), card_class=raw.get("class"),
        power=raw.get("power", 0), mp=raw.get("mp", 0), damage=raw.get("damage", 0), injure=raw.get("injure", 0),
        icons=tuple(raw.get("icons", ())), mamodo=raw.get("mamodo"), counter=raw.get("counter", False),
        regular=raw.get("regular", True), placed_on=raw.get("placed_on"), same_as=tuple(raw.get("same_as", ())),
        spells_of=tuple(raw.get("spells_of", ())), spell_attributes=tuple(raw.get("spell_attributes", ())),
        attribute=raw.get("attribute"), partner_names=tuple(raw.get("partners", ())),
        effects=tuple(_effect(e) for e in raw.get("effects", ())),
        stone_tablet=raw.get("stone_tablet", False), dual=tuple(raw.get("dual", ())),
    )


def card_book(catalogue: Mapping[str, Any], inline: Mapping[str, Any]) -> dict[str, Card]:
    """The cards of ``cards.yaml`` with the scenario's own: a scenario's numbers complete or replace the manual's."""
    manual = catalogue.get("cards", {})
    cards = dict(_manual_cards(catalogue))
    for name, entry in inline.items():
        cards[name] = _card_of(name, {**manual.get(name, {}), **entry})
    return cards


_manual: tuple[Mapping[str, Any], dict[str, Card]] | None = None  # the catalogue last built, and its cards


def _manual_cards(catalogue: Mapping[str, Any]) -> dict[str, Card]:
    """The cards of ``cards.yaml``, built once (they are frozen: every state shares them)."""
    global _manual
    if _manual is None or _manual[0] is not catalogue:
        _manual = catalogue, {name: _card_of(name, entry) for name, entry in catalogue.get("cards", {}).items()}
    return _manual[1]


def _card_of(name: str, entry: Mapping[str, Any]) -> Card:
    if "type" not in entry:
        raise InputError(f"card {name!r} has no type", path=("cards", name), expected=f"type: one of {', '.join(CARD_TYPES)}")
    return make_card(name, entry)


def _pages(raw: Any, size: int, cards: dict[str, Card], at: tuple[str | int, ...]) -> list[str]:
    """The book's pages from a list, or from a mapping of pages (``12`` or ``"2-5"``) whose other pages are blank."""
    if isinstance(raw, list):
        pages = [str(name) for name in raw]
    else:
        named: dict[int, str] = {}
        for key, name in raw.items():
            first, _, last = str(key).partition("-")
            for page in range(int(first), int(last or first) + 1):
                named[page] = str(name)
        pages = [named.get(page, "") for page in range(1, max([size, *named]) + 1)]
    for index, name in enumerate(pages):
        if not name:
            blank = blank_card(index + 1)
            cards[blank.name] = blank
            pages[index] = blank.name
        elif name not in cards:
            raise InputError(f"page {index + 1} holds {name!r}, which no card definition names",
                             path=at, expected="a card of cards.yaml or of the scenario's cards:")
    return pages


def build_players(initial: Mapping[str, Any], cards: dict[str, Card]) -> dict[str, Player]:
    players: dict[str, Player] = {}
    for name in PLAYERS:
        raw = initial["players"][name]
        size = raw.get("size", BOOK_PAGES)
        pages = _pages(raw["book"], size, cards, ("initial", "players", name, "book"))
        players[name] = Player(name=name, pages=list(pages), size=len(pages), mp=raw.get("mp", 0))
    return players


def take_from_book(player: Player, card: str, page: int | None, where: tuple[str | int, ...]) -> int:
    """Take a card the scenario says has left the book (in play, in the Discard Pile) from its page."""
    candidates = [page] if page is not None else [i + 1 for i, c in enumerate(player.pages) if c == card]
    for number in candidates:
        if player.card_on(number) == card:
            player.pages[number - 1] = None
            return number
    raise InputError(f"{player.name}'s book holds no {card!r} to take" + (f" from page {page}" if page else ""),
                     path=where, expected="a card the book holds, on the page given")


def observe(state: State) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "attacker": state.attacker,
        "step": state.step,
        "priority": state.priority.holder,
        "battle": _battle_facts(state.battle) if state.battle else None,
        "last_battle": state.last_battle,
        "loser": state.loser,
        "winner": other(state.loser) if state.loser else None,
        "resolved": list(state.log),
        "players": {name: _player_facts(state, p) for name, p in state.players.items()},
    }


def _battle_facts(battle: Battle) -> dict[str, Any]:
    return {
        "mamodo": battle.mamodo,
        "spell": battle.spell.card if battle.spell else None,
        "defender_mamodo": battle.defender_mamodo,
        "defense": battle.defense.card if battle.defense else None,
        "totals": dict(battle.totals),
        "winner": battle.winner,
    }


def _player_facts(state: State, player: Player) -> dict[str, Any]:
    return {
        "mp": player.mp,
        "open_pages": list(player.open),
        "pages": {str(i + 1): c for i, c in enumerate(player.pages) if c is not None and not state.card(c).is_blank},
        "empty_pages": [i + 1 for i, c in enumerate(player.pages) if c is None],
        "in_play": {
            m.card: {"status": m.status, "partner": m.partner, "under": [c for c, _ in m.under]} for m in player.mamodo
        },
        "mamodo_count": len(player.mamodo),
        "mj12": [c for c, _ in player.mj12],
        "discard": list(player.discard),
        "stay": [k.label for k in player.kept if k.zone == "stay"],
        "standby": [k.label for k in player.kept if k.zone == "standby"],
    }
