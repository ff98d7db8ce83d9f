"""Loading a scenario file: safe YAML, schema validation, core-level checks.

The result is a :class:`Scenario`, or an :class:`InputError` that already
carries the line and column it is about.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.engine.errors import nearest, one_of
from checker.format.schema import Validator
from checker.engine.trace import TraceStep
from checker.format.yamlsafe import Document, load_bytes, load_file

MODELINE = "# yaml-language-server: $schema="


def schema_reference(schema: Path, folder: Path) -> str:
    """The path a modeline in a file of ``folder`` gives to reach ``schema``."""
    return Path(os.path.relpath(schema.resolve(), folder.resolve())).as_posix()


@dataclass(frozen=True)
class Action:
    index: int  # position in the scenario's ``actions`` list, 0-based
    data: Mapping[str, Any]  # the action itself, without ``expect`` / ``reject``
    expect: Mapping[str, Any] | None = None
    reject: str | None = None  # the expected rejection reason

    @property
    def kind(self) -> str:
        return str(self.data["action"])


@dataclass(frozen=True)
class DisputeRuling:
    """The ruling made on a disputed scenario (its ``ruling:`` key).

    What was adopted is either readings of the catalogue's ambiguous rulings or, where no
    reading fits, the outcome in words; the loader checks readings against the catalogue, but
    cannot check that the reasoning quotes the source faithfully.
    """

    readings: Mapping[str, str]  # ruling id -> the reading adopted (empty when ``outcome`` is given)
    outcome: str  # the outcome adopted, in words ('' when ``readings`` are given)
    reasoning: str
    date: datetime.date
    by: str = ""


@dataclass(frozen=True)
class ProposedAmbiguity:
    """An ambiguity a dispute proposes (its ``proposed_ambiguity:`` key): one the catalogue does not list,
    so no engine switch reads it yet; whoever keeps the catalogue decides whether to add it."""

    passage: str  # in the words of the source
    line: int  # in the source document
    readings: tuple[str, ...]  # each in words


@dataclass(frozen=True)
class ExpectedStep:
    """A step the run's trace must hold: one that cites ``cites`` (any ruling or none, when it is
    ``None``), involves at least ``involves`` and shows at least ``values`` (the numbers the step
    records), each equal."""

    cites: str | None
    involves: tuple[tuple[str, str], ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)

    def matches(self, step: TraceStep) -> bool:
        return (
            (self.cites is None or step.ruling == self.cites)
            and all(entity in step.entities for entity in self.involves)
            and all(name in step.values and step.values[name] == value for name, value in self.values.items())
        )

    def describe(self) -> str:
        parts = ["a step" if self.cites is None else f"a step citing {self.cites}"]
        if self.involves:
            parts.append("involving " + ", ".join(f"{kind} {name}" for kind, name in self.involves))
        if self.values:
            parts.append("showing " + ", ".join(f"{name} = {value!r}" for name, value in self.values.items()))
        return " ".join(parts)


@dataclass(frozen=True)
class Scenario:
    path: str
    document: Document = field(repr=False)
    id: str
    game: str
    title: str
    rulings: tuple[str, ...]
    tags: tuple[str, ...]
    status: str
    notes: str
    assumptions: tuple[str, ...]
    readings: Mapping[str, str]
    cards: Mapping[str, Any]
    initial: Mapping[str, Any]
    actions: tuple[Action, ...]
    expect: Mapping[str, Any] | None
    reject: str | None = None  # the reason the game is expected to refuse the initial state
    expect_cites: tuple[str, ...] = ()  # rulings the run's trace must cite
    expect_not_cited: tuple[str, ...] = ()  # rulings the run's trace must not cite
    expect_trace: tuple[ExpectedStep, ...] = ()  # steps the run's trace must hold
    ruling: DisputeRuling | None = None  # the ruling made, when the dispute was ruled on
    proposed: ProposedAmbiguity | None = None  # an ambiguity the catalogue does not list, proposed by the dispute

    @property
    def is_open_dispute(self) -> bool:
        """A disputed scenario no ruling has settled yet."""
        return self.status == "disputed" and self.ruling is None

    @property
    def is_question(self) -> bool:
        """A scenario that asserts nothing: the checker answers it instead."""
        return (
            self.expect is None
            and self.reject is None
            and not self.expect_cites
            and not self.expect_not_cited
            and not self.expect_trace
            and all(a.expect is None and a.reject is None for a in self.actions)
        )

    @property
    def raw(self) -> Any:
        return self.document.data


def load_scenario(path: str | Path, games: Mapping[str, AnyGame], validator: Validator) -> Scenario:
    """Load and validate one file; raise :class:`InputError` (located) if it is not a valid scenario."""
    return load_document(str(path), load_file(str(path)), games, validator)


def load_text(text: str, path: str, games: Mapping[str, AnyGame], validator: Validator) -> Scenario:
    """``text`` as if it were the content of the file ``path``: loaded and validated as :func:`load_scenario` does."""
    return load_document(path, load_bytes(text.encode("utf-8")), games, validator)


def load_document(path: str, document: Document, games: Mapping[str, AnyGame], validator: Validator) -> Scenario:
    try:
        return _build(path, document, games, validator)
    except InputError as error:
        raise document.locate(error) from None


def scenario_from_data(data: Any, path: str, games: Mapping[str, AnyGame], validator: Validator | None) -> Scenario:
    """Plain data as if it were a file's content; errors carry no line (there is no file).

    With no ``validator`` the schema is not checked, only the rulings and readings: for data
    known to be well formed (a generator's), whose schema check would cost more than a run.
    """
    return _build(path, Document(data), games, validator)


def _build(path: str, document: Document, games: Mapping[str, AnyGame], validator: Validator | None) -> Scenario:
    data = document.data
    if not isinstance(data, dict):
        raise InputError("a scenario is a mapping of keys", expected="'id:', 'game:', 'title:' ... at the top level")
    for key, what in (("ruling", "records the ruling made on a dispute"), ("proposed_ambiguity", "is a dispute")):
        if key in data and data.get("status") != "disputed":
            raise InputError(f"a scenario with '{key}:' {what}", path=(key,), on_key=True, expected="'status: disputed' in this file")
    game_id = data.get("game")
    if isinstance(game_id, str) and game_id not in games:
        raise InputError(
            f"unknown game {game_id!r}{nearest(game_id, games)}", path=("game",), expected=one_of(games)
        )
    found = validator.errors(data) if validator is not None else []
    errors = _independent(sorted(found, key=lambda e: _order(document, e)))
    if errors:
        first, *others = errors
        raise first.with_others(others)
    game = games[data["game"]]
    _check_rulings(data, game)
    actions = tuple(
        Action(
            index=index,
            data={k: v for k, v in item.items() if k not in ("expect", "reject")},
            expect=item.get("expect"),
            reject=item["reject"]["reason"] if "reject" in item else None,
        )
        for index, item in enumerate(data.get("actions", []))
    )
    ruling = _dispute_ruling(data["ruling"], game) if "ruling" in data else None
    return Scenario(
        path=path,
        document=document,
        id=data["id"],
        game=game.id,
        title=data["title"],
        rulings=tuple(data.get("rulings", ())),
        tags=tuple(data.get("tags", ())),
        status=data.get("status", "confirmed"),
        notes=data.get("notes", ""),
        assumptions=tuple(data.get("assumptions", ())),
        readings=_in_force(data.get("readings", {}), ruling),
        cards=dict(data.get("cards", {})),
        initial=data["initial"],
        actions=actions,
        expect=data.get("expect"),
        reject=data["reject"]["reason"] if "reject" in data else None,
        expect_cites=tuple(data.get("expect_cites", ())),
        expect_not_cited=tuple(data.get("expect_not_cited", ())),
        expect_trace=tuple(_expected_step(raw) for raw in data.get("expect_trace", ())),
        ruling=ruling,
        proposed=_proposed(data["proposed_ambiguity"]) if "proposed_ambiguity" in data else None,
    )


def _proposed(raw: Mapping[str, Any]) -> ProposedAmbiguity:
    return ProposedAmbiguity(passage=raw["passage"], line=raw["line"], readings=tuple(raw["readings"]))


def _in_force(pinned: Mapping[str, str], ruling: DisputeRuling | None) -> dict[str, str]:
    """The readings a scenario is played under: those it pins, and those its ruling adopted.

    A ruled dispute is checked under the reading adopted; a pin that says otherwise is an error,
    not silently overridden.
    """
    adopted = ruling.readings if ruling else {}
    for ruling_id, reading in pinned.items():
        if ruling_id in adopted and adopted[ruling_id] != reading:
            raise InputError(
                f"'readings:' pins {ruling_id} = {reading}, but the ruling adopted {adopted[ruling_id]}",
                path=("readings", ruling_id),
                expected=f"{ruling_id}: {adopted[ruling_id]} under 'readings:', or no pin: the ruling's reading applies",
            )
    return {**pinned, **adopted}


def _expected_step(raw: Mapping[str, Any]) -> ExpectedStep:
    return ExpectedStep(
        cites=raw.get("cites"),
        involves=tuple((kind, name) for kind, name in raw.get("involves", ())),
        values=dict(raw.get("values", {})),
    )


def _dispute_ruling(raw: Mapping[str, Any], game: AnyGame) -> DisputeRuling:
    """The ``ruling:`` of a scenario the schema has accepted: readings and date checked."""
    adopted = raw["adopted"]
    readings = dict(adopted) if isinstance(adopted, dict) else {}
    _check_readings(readings, game, ("ruling", "adopted"))
    try:
        date = datetime.date.fromisoformat(raw["date"])
    except ValueError:
        raise InputError(f"no such date: {raw['date']!r}", path=("ruling", "date"), expected="a date written YYYY-MM-DD") from None
    return DisputeRuling(
        readings=readings,
        outcome="" if readings else str(adopted),
        reasoning=raw["reasoning"],
        date=date,
        by=raw.get("by", ""),
    )


def _order(document: Document, error: InputError) -> tuple[int, int, int, int]:
    """Earliest object first; within one object an unknown key first (it explains a 'missing' one)."""
    owner = error.path[:-1] if error.on_key else error.path
    position = document.position(owner)
    line, column = (position.line, position.column) if position else (0, 0)
    return (line, column, 0 if error.on_key else 1, -len(error.path))


def _covers(first: InputError, later: InputError) -> bool:
    """Whether ``later`` is a consequence of ``first``: a problem inside a value already found wrong,
    or a 'missing' key of the mapping where an unknown key (most likely its typo) was found."""
    if later.path[: len(first.path)] == first.path:
        return True
    return first.on_key and later.path == first.path[:-1] and not later.on_key


def _independent(errors: list[InputError]) -> list[InputError]:
    """The problems of a file that do not follow from an earlier one, in file order."""
    kept: list[InputError] = []
    for error in errors:
        if not any(_covers(earlier, error) for earlier in kept):
            kept.append(error)
    return kept


def _check_rulings(data: Mapping[str, Any], game: AnyGame) -> None:
    catalogue = game.catalogue
    cited: list[tuple[tuple[str | int, ...], Any]] = [((key, index), ruling_id) for key in ("rulings", "expect_cites", "expect_not_cited") for index, ruling_id in enumerate(data.get(key, ()))]
    cited += [(("expect_trace", index, "cites"), step["cites"]) for index, step in enumerate(data.get("expect_trace", ())) if "cites" in step]
    for path, ruling_id in cited:
        if ruling_id not in catalogue:
            raise InputError(
                f"unknown ruling {ruling_id!r}{nearest(ruling_id, catalogue.ids)}",
                path=path,
                expected=f"a ruling id of {game.id}'s catalogue",
            )
    _check_readings(data.get("readings", {}), game, ("readings",))


def _check_readings(readings: Mapping[str, str], game: AnyGame, at: tuple[str, ...]) -> None:
    """Every key an ambiguous ruling of the catalogue, every value one of its readings."""
    catalogue = game.catalogue
    for ruling_id, reading in readings.items():
        if ruling_id not in catalogue or catalogue[ruling_id].status != "ambiguous":
            ambiguous = [r.id for r in catalogue.with_status("ambiguous")]
            raise InputError(
                f"{ruling_id!r} is not an ambiguous ruling{nearest(ruling_id, ambiguous)}",
                path=(*at, ruling_id),
                on_key=True,
                expected=one_of(ambiguous),
            )
        names = catalogue[ruling_id].reading_names
        if reading not in names:
            raise InputError(
                f"unknown reading {reading!r} of {ruling_id}{nearest(reading, names)}",
                path=(*at, ruling_id),
                expected=one_of(names),
            )
