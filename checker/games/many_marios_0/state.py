"""Many Marios 0 combat: two armies in lineups, fighting round by round.

The page gives no unit statistics (they are in the game's Army Builder): scenarios define
the units, items and buildings they use, with their Army Points and modifiers.

What a scenario gives (a piece, the armies as it sets them) and what observing reports are
described types: their schema, their parsing and their observation follow from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.described import described, fact, facts, parse, spec
from checker.engine.errors import InputError
from checker.engine.errors import nearest

SIDES = ("A", "B")
ABILITIES = ("agility", "ballistics", "defender", "flying", "stun")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@described("card", description="A unit, item or building with its Army Points and modifiers.")
@dataclass(frozen=True)
class Piece:
    """A unit, item or building as the scenario defines it."""

    name: str  # the key it is listed under
    kind: str = spec(enum=["unit", "item", "building"])
    ap: int = spec(0, minimum=0)
    full_energy: int | None = spec(None, "Units: energy when full.", minimum=0)
    abilities: frozenset[str] = spec(frozenset(), items={"enum": list(ABILITIES)})
    ae: int = spec(0, "Modifier to AE (items: their unit; buildings: every unit of the army).")  # items: the unit carrying it
    de: int = spec(0, "Modifier to DE.")
    damage: int = spec(0, "An effect raising the unit's damage by this much.")


@described("unit-entry")
@dataclass(frozen=True)
class UnitEntry:
    """A unit of a lineup as the scenario fields it."""

    unit: str = spec()
    name: str | None = spec(None, "Unique in the army; defaults to the unit's name.")
    energy: int | None = spec(None, "Current energy (a unit need not be at full energy); defaults to the unit's full energy.",
                              minimum=0)
    ae: int | None = spec(None, "AE at the start of the battle, set directly instead of energy plus modifiers.", minimum=0)
    de: int | None = spec(None, "DE at the start of the battle, set directly instead of energy plus modifiers.", minimum=1)
    items: tuple[str, ...] = spec((), ref="name-list")


@described("army")
@dataclass(frozen=True)
class ArmyEntry:
    """An army as the scenario sets it."""

    lineup: tuple[UnitEntry, ...] = spec(description="First unit leads.", minItems=1)
    buildings: tuple[str, ...] = spec((), ref="name-list")


@described("state")
@dataclass(frozen=True, kw_only=True)
class Initial:
    """The battle as the scenario sets it."""

    ap_limit: int = spec(description="The challenge's Army Point value.", minimum=0)
    first_player: str = spec("A", "The random choice of first player, fixed by the scenario.", ref="side")
    armies: dict[str, ArmyEntry] = spec(keys=SIDES)


@dataclass
class Unit:
    name: str
    piece: str
    ae: int
    de: int
    abilities: frozenset[str]
    bonuses: tuple[tuple[str, int], ...]  # damage-raising effects, in the order they apply
    energy: int = 0  # the energy it enters the battle with
    full_energy: int | None = None
    silenced_rounds: frozenset[int] = frozenset()  # "deals no damage on its next turn"
    #: "AE"/"DE" the scenario set directly -> what energy plus modifiers would have made it
    overridden: dict[str, int] = field(default_factory=dict)

    @property
    def exhausted(self) -> bool:
        return self.ae <= 0

    def has(self, ability: str) -> bool:
        return ability in self.abilities


@dataclass
class Army:
    ap: int
    lineup: list[Unit]
    #: what the AP total is made of: (kind, name, AP) for every unit, item and building
    composition: tuple[tuple[str, str, int], ...] = ()
    defeated: list[Unit] = field(default_factory=list)
    last_fired: str | None = None  # the ballistic unit that fired last


@dataclass
class State:
    ap_limit: int
    first_player: str
    armies: dict[str, Army]
    step: str | None = None  # the procedure step the battle stands at
    round: int = 0
    offense: str = "A"
    quiet_rounds: int = 0  # consecutive rounds without damage
    over: bool = False
    winner: str | None = None
    stalemate: bool = False
    seen: set[str] = field(default_factory=set)
    rounds: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: this round's exhausted leading units, as (side, name), whose attack waits for the exhaustion damage step
    deferred: list[tuple[str, str]] = field(default_factory=list)
    #: the units, as (side, name), that were exhausted when this round began
    exhausted_at_start: set[tuple[str, str]] = field(default_factory=set)

    def lead(self, side: str) -> Unit | None:
        lineup = self.armies[side].lineup
        return lineup[0] if lineup else None

    def fingerprint(self) -> str:
        """Everything that decides the rest of the battle; a repeat means it would go on forever."""
        parts = [self.offense, str(self.quiet_rounds)]
        for side in SIDES:
            army = self.armies[side]
            parts.append(f"{army.last_fired}|" + ";".join(
                f"{u.name}:{u.ae}:{u.de}:{self._silenced_ahead(u)}" for u in army.lineup
            ))
        return "/".join(parts)

    def _silenced_ahead(self, unit: Unit) -> str:
        """The rounds still to come in which the unit deals no damage, counted from this one."""
        return ",".join(str(r - self.round) for r in sorted(unit.silenced_rounds) if r > self.round)


def army_problems(army: Army, ap_limit: int) -> list[str]:
    """Why the army may not fight this challenge, as reject reasons (none: it is legal)."""
    return ["over-ap-limit"] if army.ap > ap_limit else []


def piece_from(name: str, raw: Mapping[str, Any]) -> Piece:
    return parse(Piece, raw, ("cards", name), name=name)


def _piece(book: Mapping[str, Piece], name: str, kind: str, path: tuple[str | int, ...]) -> Piece:
    if name not in book or book[name].kind != kind:
        names = [n for n, p in book.items() if p.kind == kind]
        raise InputError(f"unknown {kind} {name!r}{nearest(name, names)}", path=path,
                         expected=f"a {kind} defined under 'cards:'")
    return book[name]


def build_state(raw: Mapping[str, Any], book: Mapping[str, Piece]) -> State:
    initial = parse(Initial, raw, ("initial",))
    armies: dict[str, Army] = {}
    for side in SIDES:
        given = initial.armies[side]
        at = ("initial", "armies", side)
        buildings = [_piece(book, b, "building", at + ("buildings", i)) for i, b in enumerate(given.buildings)]
        pieces: list[Piece] = []
        lineup: list[Unit] = []
        for index, entry in enumerate(given.lineup):
            path = at + ("lineup", index)
            piece = _piece(book, entry.unit, "unit", path + ("unit",))
            items = [_piece(book, i, "item", path + ("items", n)) for n, i in enumerate(entry.items)]
            energy = entry.energy if entry.energy is not None else piece.full_energy or 0
            if piece.full_energy is not None and energy > piece.full_energy:
                raise InputError(f"{piece.name} has {energy} energy, above its full {piece.full_energy}",
                                 path=path + ("energy",), expected=f"at most {piece.full_energy}")
            name = entry.name if entry.name is not None else piece.name
            if any(u.name == name for u in lineup):
                raise InputError(f"two units named {name!r} in army {side}", path=path,
                                 expected="names unique per army (give 'name:' to field two of a unit)")
            modifiers = [*items, *buildings]
            computed = {"AE": energy + sum(m.ae for m in modifiers), "DE": energy + sum(m.de for m in modifiers)}
            preset = {key: value for key, value in (("AE", entry.ae), ("DE", entry.de)) if value is not None}
            lineup.append(Unit(
                name=name, piece=piece.name, ae=preset.get("AE", computed["AE"]), de=preset.get("DE", computed["DE"]),
                abilities=piece.abilities, bonuses=tuple((m.name, m.damage) for m in modifiers if m.damage),
                energy=energy, full_energy=piece.full_energy, overridden={key: computed[key] for key in preset},
            ))
            pieces += [piece, *items]
        pieces += buildings
        armies[side] = Army(ap=sum(p.ap for p in pieces), lineup=lineup,
                            composition=tuple((p.kind, p.name, p.ap) for p in pieces))
    first = initial.first_player
    return State(ap_limit=initial.ap_limit, first_player=first, armies=armies, offense=first)


# --- What observing reports -------------------------------------------------------------------------


@described(facts="unit-facts")
@dataclass
class UnitFacts:
    ae: int = fact()
    de: int = fact()
    exhausted: bool = fact()


@described(facts="army-facts")
@dataclass
class ArmyFacts:
    ap: int = fact()
    legal: bool = fact(description="Whether the army may fight this challenge.")
    problems: list[str] = fact(description="Why it may not, as reject reasons (empty when legal).", items={"enum": ["over-ap-limit"]})
    lineup: list[str] = fact(description="In lineup order, the leading unit first (the rules' order).", ref="name-list")
    defeated: list[str] = fact(description="In the order defeated; units defeated together are in no order the rules give.",
                               ref="name-list")
    units: dict[str, UnitFacts] = fact()


@described(facts="result")
@dataclass
class Result:
    over: bool = fact()
    winner: str | None = fact(enum=["A", "B"])
    draw: bool = fact()
    stalemate: bool = fact()


@described(facts="outcome")
@dataclass
class Outcome:
    round: int = fact(description="Rounds fought.")
    offense: str = fact(description="The side on the offense next round.", ref="side")
    result: Result = fact()
    rounds: dict[str, dict[str, Any]] = fact(description="Round number -> what happened in it.",
                                             schema={"type": "object", "additionalProperties": {"$ref": "#/round"}})
    armies: dict[str, ArmyFacts] = fact(keys=SIDES)


def observe(state: State) -> dict[str, Any]:
    return facts(Outcome(
        round=state.round,
        offense=state.offense,
        result=Result(over=state.over, winner=state.winner, draw=state.over and state.winner is None, stalemate=state.stalemate),
        rounds=state.rounds,
        armies={
            side: ArmyFacts(
                ap=army.ap,
                legal=not army_problems(army, state.ap_limit),
                problems=army_problems(army, state.ap_limit),
                lineup=[u.name for u in army.lineup],
                defeated=[u.name for u in army.defeated],
                units={u.name: UnitFacts(ae=u.ae, de=u.de, exhausted=u.exhausted) for u in [*army.lineup, *army.defeated]},
            )
            for side, army in state.armies.items()
        },
    ))
