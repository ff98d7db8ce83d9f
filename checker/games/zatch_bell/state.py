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

from checker.engine.described import described, fact, facts, parse, spec
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


@described("effect", tag="kind")
@dataclass(frozen=True)
class Effect:
    """One effect of a card, in the manual's terms: its tag, its cost, its icons, when it acts and what it does.

    Each field made with ``spec`` is a parameter a card's effect may give (``{kind: power, amount: 500}``);
    an effect kind takes those of its registration (``takes(Effect, "amount")``), per-kind ones only when named.
    """

    kind: str = spec(description="The effect's kind: what it does (the vocabulary's effect kinds).")
    tag: str = spec("declare", "[DECLARE TO USE], [X MP], [SEND THIS CARD TO THE DISCARD PILE] or [IN PLAY] (default declare).",
                    enum=["declare", "mp", "discard", "in-play"])
    mp: int = spec(0, "The X of an [X MP] effect.", minimum=0)
    icons: tuple[str, ...] = spec((), "The effect's icons.", items={"enum": ["battle", "attack", "defend", "cut-in"]})
    timing: str | None = spec(None, "When an [IN PLAY] effect activates (PREPARATION PHASE, START PHASE, END PHASE, as put in play, when "
                              "its player inflicts Damage or Injury); on an EVENT card's Power: during-battle; on a SPELL card: on Damage or "
                              "Injury, other effects, or regardless of Power.",
                              enum=["preparation", "during-battle", "start-phase", "end-phase", "put-in-play", "on-inflict", "on-damage",
                                    "other", "regardless"])
    whose: str = spec("opponent", "Whose book or MP (default opponent).", enum=["self", "opponent"])
    also: tuple[Effect, ...] = spec((), "Effects the same effect goes on to apply, in order.")
    extra_mp: int = spec(0, "\"You may pay X more MP to ...\": an optional cost, paid with the effect's own cost when the action says "
                         "pay_extra, for the effects in 'extra'.", minimum=0)
    extra: tuple[Effect, ...] = spec((), "What the optional cost extra_mp buys, applied after the effect and 'also'.")
    phase: str | None = spec(None, "The effect is applied only in its owner's (own) or the opponent's BATTLE PHASE.", enum=["own", "opponent"])
    keep: str | None = spec(None, "[STAY]: active until 'until'; [STANDBY]: waits for 'until', then activates.", enum=["stay", "standby"])
    until: str | None = spec(None, "When a [STAY] effect expires or a [STANDBY] effect activates (default end-phase: the END PHASE of this "
                             "turn; start-phase: the next START PHASE; own-start-phase: the START PHASE of its owner's next turn; "
                             "own-next-end-phase: the END PHASE of its owner's next turn; opponent-event: when the opponent next plays an "
                             "EVENT card this turn, a [STANDBY] effect that expires unmet at the END PHASE).",
                             enum=["end-phase", "start-phase", "own-start-phase", "own-next-end-phase", "battle-out", "opponent-event"])
    negates: tuple[str, ...] = spec((), "What a negate, prohibit or make-unnegatable effect applies to (put-in-play: putting a "
                                    "card in play; attack, defense: the Attack or Defense just declared; declare, mp, discard: the "
                                    "effects with that tag only).",
                                    items={"enum": ["effect", "battle", "cut-in", "event", "no-battle", "spell", "stay", "standby",
                                                    "in-play", "preparation", "put-in-play", "attack", "defense", "declare", "mp",
                                                    "discard"]})
    cannot_be_negated: bool = spec(False, "\"Cannot be negated\".")
    even_when_prohibited: bool = spec(False, "\"... even when prohibited to do so\".")
    regardless_of_card_effects: bool = spec(False, "\"... regardless of card effects\": the same as even_when_prohibited.")  # line 1153
    times: int = spec(1, "Damage X times: each infliction is PROTECTED against separately.", minimum=1, per_kind=True)
    stone_tablet: bool = spec(False, "The effect selects only Stone Tablet MAMODO cards.", per_kind=True)
    if_mp_at_least: int = spec(0, "The effect does something only if the player it affects has at least this many MP.", minimum=0)
    once_per_game: bool = spec(False, "\"This effect can be applied only once per game (per player)\".")
    of_type: str | None = spec(None, "A prohibit effect: only the effects of cards of this type; an effect that selects: \"Select 1 *type* "
                               "card\" (without it, \"Select 1 card\": any type).", enum=["MAMODO", "PARTNER", "MJ12"])
    coins: int = spec(0, "\"Flip X coins\": flipped as the effect is declared (apply-effect coins), it acts once for each heads.",
                      minimum=1)
    min_power: int = spec(0, "The effect selects only a MAMODO card with at least this much Power.", minimum=0, per_kind=True)
    only_as: str | None = spec(None, "\"When you are the Attacker (Defender)\": the effect is applied only in that role.",
                               enum=["attacker", "defender"])
    select_all: bool = spec(False, "\"Select all *type* cards\": every such card of the opponent's side (of_type names the type).")
    amount: int = spec(0, minimum=0, per_kind=True)
    target: str | None = spec(None, ref="card-name", per_kind=True)  # a card the effect names

    @property
    def passes_prohibitions(self) -> bool:
        return self.even_when_prohibited or self.regardless_of_card_effects

    @property
    def is_cut_in(self) -> bool:
        return "cut-in" in self.icons

    @property
    def is_battle_effect(self) -> bool:
        return "battle" in self.icons


@described("card", description="A card as printed (a card of cards.yaml named here is completed or changed by these keys).")
@dataclass(frozen=True)
class Card:
    """A card as printed: its type, number, class, Power, MP cost, Damage, names and effects."""

    name: str  # the key it is listed under
    type: str = spec(enum=list(CARD_TYPES), required=False)  # required of a card once the catalogue's keys complete it
    number: str = spec(description="The card number (S-001); copies are counted per number. Defaults to the card's name.", required=False)
    card_class: str | None = spec(None, "The card's Class, when Intermediate or Superior.", key="class", enum=["intermediate", "superior"])
    power: int = spec(0, "A MAMODO card's Power; the Power a SPELL card adds.")
    mp: int = spec(0, "A SPELL or EVENT card's MP cost.", minimum=0)
    damage: int = spec(0, "A SPELL card's Damage: the pages the loser of the Battle turns.", minimum=0)
    times: int = spec(1, "A SPELL card's Damage X times: each infliction is PROTECTED against separately (resolve protect_each).",
                      minimum=1)
    injure: int = spec(0, "How many MAMODO cards a SPELL card's Attack inflicts Injury to.", minimum=0)
    icons: tuple[str, ...] = spec((), "A SPELL or EVENT card's Attack, Defend and No Battle icons.",
                                  items={"enum": ["attack", "defend", "no-battle"]})
    mamodo: str | None = spec(None, "The MAMODO name a SPELL or PARTNER card names.")
    counter: bool = spec(False, "A SPELL card with [COUNTER]: its Damage applies when it wins as a Defense.")
    regular: bool = spec(True, "A MAMODO card's standard ('regular') form (default true).")
    placed_on: str | None = spec(None, "Card rule: the MAMODO card is put in play on top of this in-play MAMODO card.")
    same_as: tuple[str, ...] = spec((), "Card rule: the MAMODO card is the same as these MAMODO.")
    spells_of: tuple[str, ...] = spec((), "Card rule: it may play the SPELL cards of these MAMODO.")
    spell_attributes: tuple[str, ...] = spec((), "Card rule: it may play SPELL cards of these Attributes.")
    attribute: str | None = spec(None, "A SPELL card's Attribute.")
    partner_names: tuple[str, ...] = spec((), "A MAMODO card's PARTNER Name(s).", key="partners")
    effects: tuple[Effect, ...] = spec(())
    stone_tablet: bool = spec(False, "A Stone Tablet MAMODO card.")
    dual: tuple[str, ...] = spec((), "A DUAL MAMODO card's 2 MAMODO names.", minItems=2, maxItems=2)
    source: str | None = spec(None, "Where the manual gives the card's numbers (cards.yaml).")

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


@described(facts="mamodo-facts")
@dataclass
class Mamodo:
    """A MAMODO card in play, with its PARTNER and the MAMODO cards underneath it."""

    card: str
    page: int
    status: str = fact("normal", enum=["normal", "injured", "petrified"])
    partner: str | None = fact(None)
    partner_page: int | None = None
    under: list[tuple[str, int]] = fact(list, observed=lambda under: [c for c, _ in under], schema={"type": "array", "items": {"type": "string"}})
    effects_negated: bool = False  # this turn, by a card effect (its card rules stand)
    petrified_injured: bool = False  # it was Injured when it became Petrified
    power: int = fact(0, "Its Power now: the card's, with what [IN PLAY] and [STAY] effects and EVENT cards add (none to a Petrified "
                      "card's own and PARTNER's), \"during the Battle\" boosts only in a Battle.")


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


@described(facts="battle-facts")
@dataclass
class Battle:
    """The Battle under way: the Attack, the Defense, the Power effects add and what was decided."""

    attacker: str
    mamodo: str = fact()
    spell: SpellOut | None = fact(observed=lambda out: out.card, schema={"type": ["string", "null"]})
    defender_mamodo: str | None = fact(None)
    defense: SpellOut | None = fact(None, observed=lambda out: out.card, schema={"type": ["string", "null"]})
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
    protected: bool = False  # a MAMODO card PROTECTED a Spell Book from this Battle's Damage
    totals: dict[str, int] = fact(dict, "Total Power by player, once compared.")
    winner: str | None = fact(None, enum=["attacker", "defender"])  # once compared


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


def make_card(name: str, raw: Mapping[str, Any], path: tuple[str | int, ...] = ()) -> Card:
    at = path or ("cards", name)
    made = parse(Card, raw, at, name=name, number=name)
    _check_durations(made.effects, (*at, "effects"))
    return made


def _check_durations(effects: tuple[Effect, ...], at: tuple[str | int, ...]) -> None:
    """'until' is the time of a [STAY] or [STANDBY] effect: without 'keep' nothing would read it."""
    for index, effect in enumerate(effects):
        if effect.until is not None and effect.keep is None:
            raise InputError("'until' without 'keep': an effect that remains active until a specified time is a [STAY] effect, one "
                             "that waits for a timing a [STANDBY] effect (manual lines 1229-1230)", path=(*at, index, "until"),
                             on_key=True, expected="'keep: stay' or 'keep: standby' beside it, or no 'until' (an EVENT card's "
                             "effects remain active until the END PHASE without it, line 418)")
        _check_durations(effect.also, (*at, index, "also"))


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
    made = make_card(name, entry, ("cards", name))
    _check_select_all(name, made.effects, ("cards", name, "effects"))
    return made


def _check_select_all(name: str, effects: tuple[Effect, ...], at: tuple[str | int, ...]) -> None:
    """ "Select all *type* cards" names the type it selects (the glossary has no "select all cards")."""
    for index, effect in enumerate(effects):
        if effect.select_all and effect.of_type is None:
            raise InputError(f"card {name!r}: an effect that selects all cards names their type", path=(*at, index),
                             expected="of_type: MAMODO, PARTNER or MJ12 (\"Select all *type* cards\")")
        _check_select_all(name, effect.also, (*at, index, "also"))


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


@described("in-play")
@dataclass(frozen=True, kw_only=True)
class InPlay:
    """A MAMODO card a scenario starts in play."""

    card: str = spec(ref="card-name")
    page: int | None = spec(None, "The page it came from (default: the first page holding it).")
    status: str = spec("normal", enum=["normal", "injured", "petrified"])
    partner: str | None = spec(None, ref="card-name")
    under: tuple[str, ...] = spec((), "MAMODO cards underneath it.", items={"$ref": "#/card-name"})


@described("player-state")
@dataclass(frozen=True, kw_only=True)
class Side:
    """A player's Spell Book, MP and, mid-game, open pages and cards in play, as the scenario sets them."""

    book: list[str] | dict[Any, str] = spec(ref="book")
    size: int = spec(BOOK_PAGES, "The number of cards in a book given as a mapping (default 32).", minimum=1)
    mp: int = spec(0, minimum=0)
    page: int = spec(2, "Mid-game: the first of the open pages (1, an even page, or 32).")
    in_play: tuple[InPlay, ...] | None = spec(None, "Mid-game: the MAMODO cards in play (default: page 1's).")
    mj12: tuple[str, ...] = spec((), "Mid-game: MJ12 cards in play.", items={"$ref": "#/card-name"})
    discard: tuple[str, ...] = spec((), "Mid-game: the Discard Pile.", items={"$ref": "#/card-name"})


@described("state")
@dataclass(frozen=True, kw_only=True)
class Initial:
    """The game as the scenario starts it."""

    start: str = spec("preparation", "Where play begins: the PREPARATION PHASE, or mid-game before the START PHASE or in the BATTLE "
                      "PHASE (Non-Battle).", enum=["preparation", "start-phase", "battle-phase"])
    first_attacker: str = spec("A", "The coin toss: who goes first.", ref="player")
    attacker: str | None = spec(None, "Mid-game: the Attacker of this turn (defaults to first_attacker).", ref="player")
    turn: int = spec(1, minimum=1)
    players: dict[str, Side] = spec(keys=PLAYERS)


def initial_of(raw: Mapping[str, Any]) -> Initial:
    """The scenario's initial state, parsed."""
    return parse(Initial, raw, ("initial",))


def build_players(initial: Initial, cards: dict[str, Card]) -> dict[str, Player]:
    players: dict[str, Player] = {}
    for name in PLAYERS:
        side = initial.players[name]
        pages = _pages(side.book, side.size, cards, ("initial", "players", name, "book"))
        players[name] = Player(name=name, pages=list(pages), size=len(pages), mp=side.mp)
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


# --- What observing reports -------------------------------------------------------------------------


@described(facts="player-facts")
@dataclass
class PlayerFacts:
    mp: int = fact(description="The player's MP.")
    open_pages: list[int] = fact(description="The open pages of the Spell Book.")
    pages: dict[str, str] = fact(description="Page -> the card on it (blank pages left out).")
    empty_pages: list[int] = fact(description="Pages whose card has left them.")
    in_play: dict[str, Mamodo] = fact(description="In-play MAMODO cards by name.")
    mamodo_count: int = fact(description="MAMODO cards on the player's side, Petrified ones included.")
    mj12: list[str] = fact(description="MJ12 cards in play.")
    discard: list[str] = fact(description="The Discard Pile, in order.")
    stay: list[str] = fact(description="The [STAY] zone: active [STAY] effects ('card: kind').")
    standby: list[str] = fact(description="The [STANDBY] zone: waiting [STANDBY] effects ('card: kind').")


@described(facts="outcome")
@dataclass
class Outcome:
    turn: int = fact(description="The turn number.")
    attacker: str = fact(description="The Attacker of the turn.", ref="player")
    step: str | None = fact(description="The procedure step the game stands at.")
    priority: str | None = fact(description="Who performs the next Action (null outside the BATTLE PHASE).")
    battle: Battle | None = fact(description="The Battle under way.")
    last_battle: dict[str, Any] | None = fact(description="The last Battle, after Battle Out.",
                                              schema={"oneOf": [{"type": "null"}, {"$ref": "#/battle-facts"}]})
    loser: str | None = fact(description="The player who lost the game.")
    winner: str | None = fact(description="The player who won the game.")
    resolved: list[str] = fact(description="Effects resolved, in order ('card: kind').")
    players: dict[str, PlayerFacts] = fact(keys=PLAYERS)


def observe(state: State) -> dict[str, Any]:
    return facts(Outcome(
        turn=state.turn,
        attacker=state.attacker,
        step=state.step,
        priority=state.priority.holder,
        battle=state.battle,
        last_battle=state.last_battle,
        loser=state.loser,
        winner=other(state.loser) if state.loser else None,
        resolved=state.log,
        players={name: _player_facts(state, p) for name, p in state.players.items()},
    ))


def _player_facts(state: State, player: Player) -> PlayerFacts:
    return PlayerFacts(
        mp=player.mp,
        open_pages=list(player.open),
        pages={str(i + 1): c for i, c in enumerate(player.pages) if c is not None and not state.card(c).is_blank},
        empty_pages=[i + 1 for i, c in enumerate(player.pages) if c is None],
        in_play={m.card: m for m in player.mamodo},
        mamodo_count=len(player.mamodo),
        mj12=[c for c, _ in player.mj12],
        discard=player.discard,
        stay=[k.label for k in player.kept if k.zone == "stay"],
        standby=[k.label for k in player.kept if k.zone == "standby"],
    )
