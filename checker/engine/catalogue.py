"""A game's rulings catalogue: every atomic ruling of its source document.

The catalogue is data (``rulings.yaml`` beside the game's rules module). Each
ruling has a stable id, the section path and line where the document states it,
the verbatim quote, and a status:

``rule``
    a statement of how the game works; needs a passing scenario.
``trivia``
    the document's own *Trivia* label; needs a passing scenario.
``example``
    a worked example of other rulings (``example_of``); its scenario uses the
    document's own numbers.
``ambiguous``
    the text is unclear or contradicts itself; ``readings`` lists the competing
    readings, one of them the engine's default, each a named switch.
``not-testable``
    credits, community links, editorial notes; ``reason`` says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping

from checker.engine.datafile import read_yaml

CONTENTS_LEADER = re.compile(r"\.{5,}")  # "Spell Book Construction..... 3": no sentence has five dots in a row

Status = Literal["rule", "trivia", "example", "ambiguous", "not-testable"]
STATUSES: tuple[Status, ...] = ("rule", "trivia", "example", "ambiguous", "not-testable")
#: Statuses that a passing scenario must demonstrate.
MUST_BE_COVERED: frozenset[str] = frozenset({"rule", "trivia", "example"})


@dataclass(frozen=True)
class Reading:
    name: str
    description: str
    default: bool = False


@dataclass(frozen=True)
class Ruling:
    id: str
    section: tuple[str, ...]
    line: int
    status: Status
    quote: str
    summary: str = ""
    related: tuple[str, ...] = ()
    example_of: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()
    reason: str = ""
    entities: tuple[str, ...] = ()

    @property
    def default_reading(self) -> str:
        for reading in self.readings:
            if reading.default:
                return reading.name
        raise LookupError(f"ruling {self.id} has no default reading")

    @property
    def reading_names(self) -> tuple[str, ...]:
        return tuple(reading.name for reading in self.readings)

    @property
    def is_contents(self) -> bool:
        """Whether the passage is part of a table of contents: headings with dot leaders to their page numbers."""
        return CONTENTS_LEADER.search(self.quote) is not None


@dataclass(frozen=True)
class Catalogue:
    game: str
    document: str
    rulings: tuple[Ruling, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {ruling.id: ruling for ruling in self.rulings})

    def __contains__(self, ruling_id: object) -> bool:
        return ruling_id in self._by_id  # type: ignore[attr-defined]

    @property
    def by_id(self) -> Mapping[str, Ruling]:
        return self._by_id  # type: ignore[attr-defined,no-any-return]

    def __getitem__(self, ruling_id: str) -> Ruling:
        return self._by_id[ruling_id]  # type: ignore[attr-defined,no-any-return]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(ruling.id for ruling in self.rulings)

    def with_status(self, *statuses: str) -> tuple[Ruling, ...]:
        return tuple(ruling for ruling in self.rulings if ruling.status in statuses)


class CatalogueError(ValueError):
    """The catalogue file itself is inconsistent (a bug in the repository)."""


def load_catalogue(path: Path) -> Catalogue:
    raw: dict[str, Any] = read_yaml(path)
    rulings = tuple(_ruling(entry) for entry in raw["rulings"])
    catalogue = Catalogue(game=raw["game"], document=raw["document"], rulings=rulings)
    _check(catalogue)
    return catalogue


def _ruling(entry: dict[str, Any]) -> Ruling:
    return Ruling(
        id=entry["id"],
        section=tuple(entry["section"]),
        line=int(entry["line"]),
        status=entry["status"],
        quote=entry["quote"].strip(),
        summary=entry.get("summary", "").strip(),
        related=tuple(entry.get("related", ())),
        example_of=tuple(entry.get("example_of", ())),
        readings=tuple(
            Reading(r["name"], r["description"].strip(), bool(r.get("default", False)))
            for r in entry.get("readings", ())
        ),
        reason=entry.get("reason", "").strip(),
        entities=tuple(entry.get("entities", ())),
    )


def _check(catalogue: Catalogue) -> None:
    seen: set[str] = set()
    for ruling in catalogue.rulings:
        where = f"{catalogue.game}: ruling {ruling.id}"
        if ruling.id in seen:
            raise CatalogueError(f"{where}: duplicate id")
        seen.add(ruling.id)
        if ruling.status not in STATUSES:
            raise CatalogueError(f"{where}: unknown status {ruling.status!r}")
        if ruling.status == "ambiguous":
            defaults = [r for r in ruling.readings if r.default]
            if len(ruling.readings) < 2 or len(defaults) != 1:
                raise CatalogueError(f"{where}: needs two or more readings, exactly one default")
        elif ruling.readings:
            raise CatalogueError(f"{where}: only ambiguous rulings have readings")
        if ruling.status == "not-testable" and not ruling.reason:
            raise CatalogueError(f"{where}: a not-testable ruling needs a reason")
        if ruling.status == "example" and not ruling.example_of:
            raise CatalogueError(f"{where}: an example names the rulings it illustrates")
    for ruling in catalogue.rulings:
        for other in ruling.related + ruling.example_of:
            if other not in seen:
                raise CatalogueError(f"{catalogue.game}: ruling {ruling.id} refers to unknown {other}")
