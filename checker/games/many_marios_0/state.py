"""Many Marios 0 combat: two armies in lineups, fighting round by round.

The page gives no unit statistics (they are in the game's Army Builder): scenarios define
the units, items and buildings they use, with their Army Points and modifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.errors import nearest

SIDES = ("A", "B")
ABILITIES = ("agility", "ballistics", "defender", "flying", "stun")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class Piece:
    """A unit, item or building as the scenario defines it."""

    name: str
    kind: str  # unit, item, building
    ap: int = 0
    full_energy: int | None = None
    abilities: frozenset[str] = frozenset()
    ae: int = 0  # modifier (items: the unit carrying it; buildings: every unit of the army)
    de: int = 0
    damage: int = 0  # an effect raising the unit's damage


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
    return Piece(
        name=name, kind=raw["kind"], ap=raw.get("ap", 0), full_energy=raw.get("full_energy"),
        abilities=frozenset(raw.get("abilities", ())), ae=raw.get("ae", 0), de=raw.get("de", 0),
        damage=raw.get("damage", 0),
    )


def _piece(book: Mapping[str, Piece], name: str, kind: str, path: tuple[str | int, ...]) -> Piece:
    if name not in book or book[name].kind != kind:
        names = [n for n, p in book.items() if p.kind == kind]
        raise InputError(f"unknown {kind} {name!r}{nearest(name, names)}", path=path,
                         expected=f"a {kind} defined under 'cards:'")
    return book[name]


def build_state(initial: Mapping[str, Any], book: Mapping[str, Piece]) -> State:
    armies: dict[str, Army] = {}
    for side in SIDES:
        raw = initial["armies"][side]
        at = ("initial", "armies", side)
        buildings = [_piece(book, b, "building", at + ("buildings", i)) for i, b in enumerate(raw.get("buildings", []))]
        pieces: list[Piece] = []
        lineup: list[Unit] = []
        for index, entry in enumerate(raw["lineup"]):
            path = at + ("lineup", index)
            piece = _piece(book, entry["unit"], "unit", path + ("unit",))
            items = [_piece(book, i, "item", path + ("items", n)) for n, i in enumerate(entry.get("items", []))]
            energy = entry.get("energy", piece.full_energy or 0)
            if piece.full_energy is not None and energy > piece.full_energy:
                raise InputError(f"{piece.name} has {energy} energy, above its full {piece.full_energy}",
                                 path=path + ("energy",), expected=f"at most {piece.full_energy}")
            name = entry.get("name", piece.name)
            if any(u.name == name for u in lineup):
                raise InputError(f"two units named {name!r} in army {side}", path=path,
                                 expected="names unique per army (give 'name:' to field two of a unit)")
            modifiers = [*items, *buildings]
            computed = {"AE": energy + sum(m.ae for m in modifiers), "DE": energy + sum(m.de for m in modifiers)}
            preset = {key: entry[key.lower()] for key in computed if key.lower() in entry}
            lineup.append(Unit(
                name=name, piece=piece.name, ae=preset.get("AE", computed["AE"]), de=preset.get("DE", computed["DE"]),
                abilities=piece.abilities, bonuses=tuple((m.name, m.damage) for m in modifiers if m.damage),
                energy=energy, full_energy=piece.full_energy, overridden={key: computed[key] for key in preset},
            ))
            pieces += [piece, *items]
        pieces += buildings
        armies[side] = Army(ap=sum(p.ap for p in pieces), lineup=lineup,
                            composition=tuple((p.kind, p.name, p.ap) for p in pieces))
    first = initial.get("first_player", "A")
    return State(ap_limit=initial["ap_limit"], first_player=first, armies=armies, offense=first)


def observe(state: State) -> dict[str, Any]:
    return {
        "round": state.round,
        "offense": state.offense,
        "result": {"over": state.over, "winner": state.winner, "draw": state.over and state.winner is None,
                   "stalemate": state.stalemate},
        "rounds": state.rounds,
        "armies": {
            side: {
                "ap": army.ap,
                "legal": not army_problems(army, state.ap_limit),
                "problems": army_problems(army, state.ap_limit),
                "lineup": [u.name for u in army.lineup],
                "defeated": [u.name for u in army.defeated],
                "units": {u.name: {"ae": u.ae, "de": u.de, "exhausted": u.exhausted}
                          for u in [*army.lineup, *army.defeated]},
            }
            for side, army in state.armies.items()
        },
    }
