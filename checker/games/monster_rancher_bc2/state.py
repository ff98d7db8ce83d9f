"""Monster Rancher Battle Card Episode II: the state of a battle, in the game's words.

Two Breeders (``A`` and ``B``), each with GUTS, a hand, a deck, a discard pile,
monsters and Breeder statuses; the ENV card in play; the step of the procedure
the battle stands at; the attack whose Attack Step is running and the one whose
Defense Step is still open; the record of resolved attacks. Cards and statuses
are described in a small vocabulary (``cards.yaml`` and a scenario's ``cards:``)
and kept in books every copy of the state shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Book
from checker.engine.errors import nearest

Attribute = Literal["Ground", "Air"]
PLAYERS = ("A", "B")


def opponent(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass(frozen=True)
class StatusDef:
    """What a status does while a monster (or a Breeder) has it."""

    name: str
    taunt: Literal["must-damage", "cannot-damage"] | None = None
    damage_immune: bool = False
    ends_if_damaged: bool = False
    attribute: str | None = None
    attack_add: int = 0
    attack_multiply: int = 1
    attack_type: str | None = None  # the bonus applies only to moves of this type
    consumed: bool = False  # the bonus is used up by the next matching move
    cannot_attack: bool = False
    exhausted: bool = False
    unlimited_attacks: bool = False
    hidden: bool = False  # no visible status icon in the game
    guts_each_turn_end: int = 0
    monster_spe_forbidden: bool = False


@dataclass(frozen=True)
class Effect:
    """One effect of a skill, defense, ENV or attack card (the kinds are registered in the ``rules`` package)."""

    kind: str
    status: str | None = None
    to: str = "self"
    turns: int | None = None
    amount: int = 0
    attribute: str | None = None
    move_type: str | None = None


@dataclass(frozen=True)
class Card:
    name: str
    kind: Literal["attack", "combo", "defense", "skill", "env"]
    user: str  # a monster species, "any" (Any Monster card) or "breeder"
    type: str | None = None  # POW, INT, SPE, BLK or ENV; None where the document does not say
    cost: int = 0
    damage: int = 0
    spread: Literal["single", "distributable", "aoe"] = "single"
    only: str | None = None  # an AoE that affects only Ground or only Air monsters
    hits_own_side: bool = False
    versus: Mapping[str, int] = field(default_factory=dict)  # 2 = double, 0 = no damage vs that attribute
    not_reduced_by_blk: bool = False
    self_damage: int = 0
    on_damage: tuple[Effect, ...] = ()
    requires_status: str | None = None
    add: int = 0
    multiply: int = 1
    effects: tuple[Effect, ...] = ()
    # ENV rules
    final_damage_add: int = 0
    forbid_at_most: int | None = None
    forbid_at_least: int | None = None
    freeze_attributes: bool = False
    blocks_draw: bool = False
    lp_loss_each_turn_end: int = 0


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


def _effect(raw: Mapping[str, Any]) -> Effect:
    return Effect(
        kind=raw["kind"],
        status=raw.get("status"),
        to=raw.get("to", "self"),
        turns=raw.get("turns"),
        amount=raw.get("amount", 0),
        attribute=raw.get("attribute"),
        move_type=raw.get("move_type"),
    )


def card_from(name: str, raw: Mapping[str, Any]) -> Card:
    fields = {key: value for key, value in raw.items() if key in Card.__dataclass_fields__}
    fields["versus"] = dict(raw.get("versus", {}))
    fields["on_damage"] = tuple(_effect(e) for e in raw.get("on_damage", ()))
    fields["effects"] = tuple(_effect(e) for e in raw.get("effects", ()))
    forbid = raw.get("forbid_final_damage", {})
    fields["forbid_at_most"] = forbid.get("at_most")
    fields["forbid_at_least"] = forbid.get("at_least")
    fields.pop("forbid_final_damage", None)
    return Card(name=name, **fields)


def status_from(name: str, raw: Mapping[str, Any]) -> StatusDef:
    return StatusDef(name=name, **raw)


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


def build_state(initial: Mapping[str, Any], cards: dict[str, Card], statuses: dict[str, StatusDef]) -> State:
    players: dict[str, Breeder] = {}
    for player in PLAYERS:
        raw = initial["players"][player]
        at = ("initial", "players", player)
        for pile in ("hand", "deck", "discard"):
            for index, name in enumerate(raw.get(pile, [])):
                lookup(cards, name, "card", at + (pile, index))
        monsters: list[Monster] = []
        for index, m in enumerate(raw["monsters"]):
            if any(other.name == m["name"] for other in monsters):
                raise InputError(
                    f"two monsters named {m['name']!r} on side {player}",
                    path=at + ("monsters", index, "name"),
                    expected="names unique per side (give 'species' to field two of a kind)",
                )
            monsters.append(
                Monster(
                    player=player,
                    name=m["name"],
                    species=m.get("species", m["name"]),
                    base_attribute=m["attribute"],
                    lp=m["lp"],
                    statuses=_statuses(m.get("statuses", {}), statuses, at + ("monsters", index, "statuses")),
                )
            )
        players[player] = Breeder(
            player=player,
            guts=raw.get("guts", 0),
            hand=list(raw.get("hand", [])),
            deck=list(raw.get("deck", [])),
            discard=list(raw.get("discard", [])),
            monsters=monsters,
            statuses=_statuses(raw.get("statuses", {}), statuses, at + ("statuses",)),
        )
    env = initial.get("env")
    if env is not None:
        card = lookup(cards, env, "card", ("initial", "env"))
        if card.kind != "env":
            raise InputError(f"{env!r} is not an ENV card", path=("initial", "env"), expected="an ENV card")
    state = State(
        active=initial.get("turn", "A"),
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


def observe(state: State) -> dict[str, Any]:
    def statuses(items: list[Status]) -> dict[str, Any]:
        return {status.name: status.turns for status in items}

    pending = None
    if state.pending is not None:
        pending = {player: {m.name: 0 for m in breeder.monsters} for player, breeder in state.players.items()}
        for hit in state.pending.hits:
            pending[hit.player][hit.monster] += hit.amount
    return {
        "turn": state.turn,
        "active": state.active,
        "env": state.env,
        "loser": state.loser,
        "defense_step": pending,
        "last_attack": state.attacks[-1] if state.attacks else None,
        "attacks": state.attacks,
        "players": {
            player: {
                "guts": breeder.guts,
                "hand": list(breeder.hand),
                "deck": list(breeder.deck),
                "discard": list(breeder.discard),
                "statuses": statuses(breeder.statuses),
                "monsters": {
                    m.name: {"lp": m.lp, "ko": m.ko, "attribute": m.attribute, "statuses": statuses(m.statuses)}
                    for m in breeder.monsters
                },
            }
            for player, breeder in state.players.items()
        },
    }
