"""Monster Rancher Battle Card Episode II: the state of a battle, in the game's words.

Two Breeders (``A`` and ``B``), each with GUTS, a hand, a deck, a discard pile,
monsters and Breeder statuses; the ENV card in play; the step of the procedure
the battle stands at; the attack whose Attack Step is running and the one whose
Defense Step is still open; the record of resolved attacks. Cards and statuses
are described in a small vocabulary (``cards.yaml`` and a scenario's ``cards:``)
and kept in books every copy of the state shares.

What a scenario gives (a card, an effect, a status, the battle as it sets it) and what observing
reports are described types: their schema, their parsing and their observation follow from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from checker.engine.described import described, fact, facts, parse, spec
from checker.engine.errors import InputError
from checker.engine.game import Book
from checker.engine.errors import nearest

Attribute = Literal["Ground", "Air"]
PLAYERS = ("A", "B")


def opponent(player: str) -> str:
    return "B" if player == "A" else "A"


@described("status-definition")
@dataclass(frozen=True)
class StatusDef:
    """What a status does while a monster (or a Breeder) has it."""

    name: str  # the key it is listed under
    taunt: Literal["must-damage", "cannot-damage"] | None = spec(None)
    damage_immune: bool = spec(False)
    ends_if_damaged: bool = spec(False)
    attribute: str | None = spec(None, ref="attribute")
    attack_add: int = spec(0)
    attack_multiply: int = spec(1, minimum=0)
    attack_type: str | None = spec(None, enum=["POW", "INT"])  # the bonus applies only to moves of this type
    consumed: bool = spec(False)  # the bonus is used up by the next matching move
    cannot_attack: bool = spec(False)
    exhausted: bool = spec(False)
    unlimited_attacks: bool = spec(False)
    hidden: bool = spec(False)  # no visible status icon in the game
    guts_each_turn_end: int = spec(0)
    monster_spe_forbidden: bool = spec(False)


@described(tag="kind")
@dataclass(frozen=True)
class Effect:
    """One effect of a skill, defense, ENV or attack card: each kind, registered in the ``rules`` package with its
    family (skill-effect, defense-effect, on-damage-effect), takes the parameters its registration names."""

    kind: str = spec(description="What the effect does (the kinds of its family).")
    status: str | None = spec(None, "A status of the catalogue or of the scenario's 'cards:'.", per_kind=True)
    amount: int = spec(0, minimum=0, per_kind=True)
    attribute: str | None = spec(None, ref="attribute", per_kind=True)
    to: str = spec("self", "Who the effect acts on (default: the monster using the card).",
                   enum=["self", "allies", "target", "own-monster", "breeder", "opponent-breeder"], per_kind=True)
    turns: int | None = spec(None, "Turn ends before the status expires (omit: until removed).", minimum=1, per_kind=True)
    move_type: str | None = spec(None, enum=["POW", "INT", "SPE"], per_kind=True)


@described("final-damage-limit")
@dataclass(frozen=True)
class FinalDamageLimit:
    """An ENV card's rule: a final damage of at most or at least so much is forbidden."""

    at_most: int | None = spec(None)
    at_least: int | None = spec(None)


#: Which effects a card's ``effects`` hold, by the card's kind.
EFFECTS_BY_KIND = [
    {"if": {"properties": {"kind": {"const": "defense"}}, "required": ["kind"]},
     "then": {"properties": {"effects": {"items": {"$ref": "#/defense-effect"}}}}},
    {"if": {"properties": {"kind": {"const": "skill"}}, "required": ["kind"]},
     "then": {"properties": {"effects": {"items": {"$ref": "#/skill-effect"}}}}},
    {"if": {"properties": {"kind": {"const": "env"}}, "required": ["kind"]},
     "then": {"properties": {"effects": {"items": {"$ref": "#/skill-effect", "properties": {"kind": {"const": "draw"}}}}}}},
]


@described("card", description="A card with its numbers, or (with 'status:') a status definition.", schema={"allOf": EFFECTS_BY_KIND})
@dataclass(frozen=True, kw_only=True)
class Card:
    name: str  # the key it is listed under
    status: Mapping[str, Any] | None = spec(None, ref="status-definition")  # such an entry defines a status instead (books)
    kind: Literal["attack", "combo", "defense", "skill", "env"] = spec(required=False)
    type: str | None = spec(None, enum=["POW", "INT", "SPE", "BLK", "ENV"])  # None where the document does not say
    user: str = spec(description="A monster species, 'any' (Any Monster card) or 'breeder'.", required=False)
    cost: int = spec(0, "GUTS cost.", minimum=0)
    damage: int = spec(0, minimum=0)
    spread: Literal["single", "distributable", "aoe"] = spec("single")
    only: str | None = spec(None, "AoE that affects only this attribute.", ref="attribute")
    hits_own_side: bool = spec(False)
    versus: Mapping[str, int] = spec({}, "Damage factor against an attribute: 2 = double, 0 = no damage.", keys=("Ground", "Air"),
                                     keys_required=False, values={"type": "integer", "minimum": 0})
    not_reduced_by_blk: bool = spec(False)
    self_damage: int = spec(0, minimum=0)
    on_damage: tuple[Effect, ...] = spec((), items={"$ref": "#/on-damage-effect"})
    requires_status: str | None = spec(None)
    add: int = spec(0)
    multiply: int = spec(1, minimum=0)
    halve_move_cost: bool = spec(False, "A combo card that halves the GUTS cost of the move it is played with.")
    effects: tuple[Effect, ...] = spec((), "A skill or Breeder card's skill effects, a defense card's defense effects, an ENV card's "
                                       "draw when played.", items={"anyOf": [{"$ref": "#/skill-effect"}, {"$ref": "#/defense-effect"}]})
    # ENV rules
    final_damage_add: int = spec(0)
    forbid_final_damage: FinalDamageLimit | None = spec(None)
    freeze_attributes: bool = spec(False)
    blocks_draw: bool = spec(False)
    lp_loss_each_turn_end: int = spec(0, minimum=0)

    @property
    def forbid_at_most(self) -> int | None:
        return self.forbid_final_damage.at_most if self.forbid_final_damage else None

    @property
    def forbid_at_least(self) -> int | None:
        return self.forbid_final_damage.at_least if self.forbid_final_damage else None


@dataclass
class Status:
    definition: StatusDef
    turns: int | None  # turn ends left before it expires; None lasts until removed
    source: str = ""

    @property
    def name(self) -> str:
        return self.definition.name


@dataclass
class Monster:
    player: str
    name: str
    species: str
    base_attribute: str
    lp: int
    statuses: list[Status] = field(default_factory=list)

    @property
    def ko(self) -> bool:
        return self.lp <= 0

    @property
    def attribute(self) -> str:
        """The current attribute: the latest attribute-changing status, else the printed one."""
        for status in reversed(self.statuses):
            if status.definition.attribute:
                return status.definition.attribute
        return self.base_attribute

    def has(self, predicate: str) -> bool:
        return any(getattr(status.definition, predicate) for status in self.statuses)

    def status(self, name: str) -> Status | None:
        return next((s for s in self.statuses if s.name == name), None)


@dataclass
class Breeder:
    player: str
    guts: int
    hand: list[str]
    deck: list[str]
    discard: list[str]
    monsters: list[Monster]
    statuses: list[Status] = field(default_factory=list)

    def monster(self, name: str) -> Monster | None:
        return next((m for m in self.monsters if m.name == name), None)


@dataclass(frozen=True)
class Reduction:
    """One defense card's cut to the damage its user takes: halve it, take ``amount`` off, or make it 0."""

    kind: Literal["halve", "minus", "zero"]
    amount: int = 0

    def apply(self, damage: int) -> int:
        if self.kind == "zero":
            return 0
        if self.kind == "minus":
            return max(0, damage - self.amount)
        # The defender played the card: the rounding favours the attacker.
        return halve(damage, round_up=True)


@dataclass
class Hit:
    """Damage waiting in the Defense Step for the monster that holds it.

    The amount is computed, not stored: the attack's attribute condition is
    re-applied whenever the holder's attribute changes, and reductions apply
    on top. A redirected hit carries the damage it was redirected with.
    """

    player: str
    monster: str
    pre_attribute: int  # damage before the attribute condition
    versus: Mapping[str, int]
    attribute_checked: str | None  # the attribute the condition was judged against; None = not checked
    env_add: int = 0
    declared_factor: int = 1  # the attribute condition against the original target when the attack was declared
    original_factor: int = 1  # a redirected hit: the condition applied on the original target before redirecting
    reductions: tuple[Reduction, ...] = ()  # in the order the defense cards were played
    redirected_from: tuple[str, str] | None = None
    original_target: tuple[str, str] | None = None
    reflected: bool = False
    grit: bool = False

    @property
    def factor(self) -> int:
        if self.attribute_checked is None:
            return 1
        return self.versus.get(self.attribute_checked, 1)

    @property
    def amount(self) -> int:
        if self.factor == 0:
            return 0
        value = self.pre_attribute * self.factor + self.env_add
        for reduction in self.reductions:
            value = reduction.apply(value)
        return value


@dataclass
class PendingAttack:
    """An attack whose Defense Step is open."""

    player: str
    monster: str
    card: str
    move_type: str | None
    hits: list[Hit]
    affected: frozenset[tuple[str, str]]
    only: str | None
    not_reduced_by_blk: bool
    self_damage: int
    on_damage: tuple[Effect, ...]
    record: int  # index into State.attacks


@dataclass
class Attack:
    """The working record of one attack while its Attack Step runs."""

    player: str
    attacker: Monster
    card: Card
    combos: list[Card]
    affected: list[Monster] = field(default_factory=list)
    raw: int = 0
    expression: str = ""  # how ``raw`` was reached, for the trace
    env_add: int = 0
    final_damage: int = 0
    bonus_statuses: list[Status] = field(default_factory=list)

    @property
    def names(self) -> str:
        return " + ".join([self.card.name, *(c.name for c in self.combos)])


@dataclass
class State:
    active: str
    turn: int
    env: str | None
    players: dict[str, Breeder]
    cards: Book  # name -> Card
    statuses: Book  # name -> StatusDef
    step: str | None = None  # the procedure step the battle stands at
    attack: Attack | None = None  # while its Attack Step runs
    pending: PendingAttack | None = None  # while its Defense Step is open
    attacks: list[dict[str, Any]] = field(default_factory=list)
    loser: str | None = None
    ko_before_turn: set[tuple[str, str]] = field(default_factory=set)  # (side, monster) KO'd when this turn began

    def mark_ko_before_turn(self) -> None:
        self.ko_before_turn = {(m.player, m.name) for m in self.monsters() if m.ko}

    def breeder(self, player: str) -> Breeder:
        return self.players[player]

    def monsters(self) -> list[Monster]:
        return [m for player in PLAYERS for m in self.players[player].monsters]

    def env_card(self) -> Card | None:
        return self.cards[self.env] if self.env else None


def halve(value: int, *, round_up: bool) -> int:
    """Half of ``value``, rounded as the Rounding Golden Rule decides (see the rules)."""
    return -(-value // 2) if round_up else value // 2


# --- Building from scenario data -------------------------------------------------------------


def card_from(name: str, raw: Mapping[str, Any]) -> Card:
    return parse(Card, raw, ("cards", name), name=name)


def status_from(name: str, raw: Mapping[str, Any]) -> StatusDef:
    return parse(StatusDef, raw, ("cards", name, "status"), name=name)


_BUILT: dict[int, tuple[Mapping[str, Any], dict[str, Card], dict[str, StatusDef]]] = {}


def _catalogue_books(catalogue: Mapping[str, Any]) -> tuple[dict[str, Card], dict[str, StatusDef]]:
    """The catalogue's cards and statuses, built once per catalogue (they are immutable, so shared)."""
    built = _BUILT.get(id(catalogue))
    if built is None or built[0] is not catalogue:
        statuses = {name: status_from(name, raw) for name, raw in catalogue.get("statuses", {}).items()}
        cards = {name: card_from(name, raw) for name, raw in catalogue.get("cards", {}).items()}
        built = _BUILT[id(catalogue)] = (catalogue, cards, statuses)
    return built[1], built[2]


def books(catalogue: Mapping[str, Any], inline: Mapping[str, Any]) -> tuple[dict[str, Card], dict[str, StatusDef]]:
    """The card and status books: the game's catalogue, then the scenario's own definitions."""
    shared_cards, shared_statuses = _catalogue_books(catalogue)
    cards, statuses = dict(shared_cards), dict(shared_statuses)
    for name, raw in inline.items():
        if "status" in raw:
            statuses[name] = status_from(name, raw["status"])
        else:
            cards[name] = card_from(name, raw)
    return cards, statuses


def lookup(book: Mapping[str, Any], name: str, what: str, path: tuple[str | int, ...]) -> Any:
    if name not in book:
        raise InputError(
            f"unknown {what} {name!r}{nearest(name, book)}",
            path=path,
            expected=f"a {what} of the catalogue or one defined under 'cards:'",
        )
    return book[name]


@described("monster")
@dataclass(frozen=True, kw_only=True)
class MonsterEntry:
    """A monster as the scenario sets it."""

    name: str = spec(description="Unique on its side.")
    species: str | None = spec(None, "Whose cards it uses; defaults to the name.")
    attribute: str = spec(ref="attribute")
    lp: int = spec(minimum=0)
    statuses: dict[str, int | None] = spec({}, ref="status-list")


@described("breeder")
@dataclass(frozen=True, kw_only=True)
class BreederEntry:
    """A Breeder as the scenario sets it."""

    guts: int = spec(0, minimum=0)
    hand: tuple[str, ...] = spec((), ref="card-list")
    deck: tuple[str, ...] = spec((), "Top card first.", ref="card-list")
    discard: tuple[str, ...] = spec((), ref="card-list")
    statuses: dict[str, int | None] = spec({}, ref="status-list")
    monsters: tuple[MonsterEntry, ...] = spec(minItems=1, maxItems=3)


@described("state")
@dataclass(frozen=True, kw_only=True)
class Initial:
    """The battle as the scenario sets it."""

    turn: str = spec("A", "Whose turn it is.", ref="player")
    env: str | None = spec(None, "The ENV card in play.", type=["string", "null"])
    players: dict[str, BreederEntry] = spec(keys=PLAYERS)


def build_state(raw: Mapping[str, Any], cards: dict[str, Card], statuses: dict[str, StatusDef]) -> State:
    initial = parse(Initial, raw, ("initial",))
    players: dict[str, Breeder] = {}
    for player in PLAYERS:
        given = initial.players[player]
        at = ("initial", "players", player)
        for pile, names in (("hand", given.hand), ("deck", given.deck), ("discard", given.discard)):
            for index, name in enumerate(names):
                lookup(cards, name, "card", at + (pile, index))
        monsters: list[Monster] = []
        for index, m in enumerate(given.monsters):
            if any(other.name == m.name for other in monsters):
                raise InputError(
                    f"two monsters named {m.name!r} on side {player}",
                    path=at + ("monsters", index, "name"),
                    expected="names unique per side (give 'species' to field two of a kind)",
                )
            monsters.append(
                Monster(
                    player=player,
                    name=m.name,
                    species=m.species if m.species is not None else m.name,
                    base_attribute=m.attribute,
                    lp=m.lp,
                    statuses=_statuses(m.statuses, statuses, at + ("monsters", index, "statuses")),
                )
            )
        players[player] = Breeder(
            player=player,
            guts=given.guts,
            hand=list(given.hand),
            deck=list(given.deck),
            discard=list(given.discard),
            monsters=monsters,
            statuses=_statuses(given.statuses, statuses, at + ("statuses",)),
        )
    env = initial.env
    if env is not None:
        card = lookup(cards, env, "card", ("initial", "env"))
        if card.kind != "env":
            raise InputError(f"{env!r} is not an ENV card", path=("initial", "env"), expected="an ENV card")
    state = State(
        active=initial.turn,
        turn=1,
        env=env,
        players=players,
        cards=Book(cards),
        statuses=Book(statuses),
    )
    state.mark_ko_before_turn()
    return state


def _statuses(raw: Mapping[str, Any], book: Mapping[str, StatusDef], at: tuple[str | int, ...]) -> list[Status]:
    return [
        Status(lookup(book, name, "status", at + (name,)), turns, source="initial state")
        for name, turns in raw.items()
    ]


# --- What observing reports ------------------------------------------------------------------


@described(facts="monster-facts")
@dataclass
class MonsterFacts:
    lp: int = fact()
    ko: bool = fact()
    attribute: str = fact(ref="attribute")
    statuses: dict[str, int | None] = fact(ref="status-list")


@described(facts="breeder-facts")
@dataclass
class BreederFacts:
    guts: int = fact()
    hand: list[str] = fact(description="The rules give the hand no order.", ref="card-list")
    deck: list[str] = fact(description="The top card first (the order cards are drawn).", ref="card-list")
    discard: list[str] = fact(description="In the order discarded.", ref="card-list")
    statuses: dict[str, int | None] = fact(ref="status-list")
    monsters: dict[str, MonsterFacts] = fact()


@described(facts="outcome", description="Facts to check; only those listed are compared.")
@dataclass
class Outcome:
    turn: int = fact()
    active: str = fact(ref="player")
    env: str | None = fact()
    loser: str | None = fact(enum=["A", "B"])
    defense_step: dict[str, dict[str, int]] | None = fact(
        description="Damage waiting in an open Defense Step, for every monster by side (0 if none), before Doll nullifies it "
                    "when dealt.", schema={"type": ["null", "object"]})
    last_attack: dict[str, Any] | None = fact(description="The last attack (null if none yet).",
                                              schema={"anyOf": [{"$ref": "#/attack-record"}, {"type": "null"}]})
    attacks: list[dict[str, Any]] = fact(items={"$ref": "#/attack-record"})
    players: dict[str, BreederFacts] = fact(keys=PLAYERS)


def observe(state: State) -> dict[str, Any]:
    def statuses(items: list[Status]) -> dict[str, Any]:
        return {status.name: status.turns for status in items}

    pending = None
    if state.pending is not None:
        pending = {player: {m.name: 0 for m in breeder.monsters} for player, breeder in state.players.items()}
        for hit in state.pending.hits:
            pending[hit.player][hit.monster] += hit.amount
    return facts(Outcome(
        turn=state.turn,
        active=state.active,
        env=state.env,
        loser=state.loser,
        defense_step=pending,
        last_attack=state.attacks[-1] if state.attacks else None,
        attacks=state.attacks,
        players={
            player: BreederFacts(
                guts=breeder.guts, hand=breeder.hand, deck=breeder.deck, discard=breeder.discard, statuses=statuses(breeder.statuses),
                monsters={m.name: MonsterFacts(lp=m.lp, ko=m.ko, attribute=m.attribute, statuses=statuses(m.statuses))
                          for m in breeder.monsters},
            )
            for player, breeder in state.players.items()
        },
    ))
