"""What a game provides to the core, and the context a rules module runs in.

A game is a :class:`Game`: its rulings catalogue, its procedure, the JSON
Schema fragment for its scenarios, and four functions from state to state:
:meth:`Game.setup`, :meth:`Game.apply`, :meth:`Game.settle` and
:meth:`Game.observe`. The expected outcome of a scenario is never handed to a
game: it computes from the initial state and the actions only.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Protocol

import yaml

from checker.catalogue import Catalogue, load_catalogue
from checker.errors import Rejection
from checker.procedure import Phase, Procedure, Step, StepHandlers, load_procedure
from checker.trace import Entity, TraceStep


class Context:
    """Everything a rules module may consult or record while it runs.

    It records the trace and which readings of ambiguous rulings were
    consulted. Readings come from the scenario's pins, else the catalogue's
    default, and every consultation is written to the trace.
    """

    def __init__(self, catalogue: Catalogue, pins: Mapping[str, str] | None = None) -> None:
        self.catalogue = catalogue
        self.pins = dict(pins or {})
        self.trace: list[TraceStep] = []
        self.consulted: dict[str, str] = {}
        self.action: int | None = None
        self._phase: Phase | None = None
        self._step: Step | None = None
        self._scope: list[Entity] = []

    @contextlib.contextmanager
    def involving(self, *entities: Entity) -> Iterator[None]:
        """Every step noted inside also involves ``entities`` (the move being resolved, say)."""
        depth = len(self._scope)
        self._scope.extend(entities)
        try:
            yield
        finally:
            del self._scope[depth:]

    @contextlib.contextmanager
    def in_step(self, phase: Phase, step: Step) -> Iterator[None]:
        outer = (self._phase, self._step)
        self._phase, self._step = phase, step
        try:
            yield
        finally:
            self._phase, self._step = outer

    def note(self, ruling: str | None, text: str, *, involves: Iterable[Entity] = (), **values: Any) -> None:
        """Record one trace step: what was done, under which ruling, with which numbers, between which entities."""
        if ruling is not None and ruling not in self.catalogue:
            raise KeyError(f"the rules cite {ruling!r}, which is not in the catalogue")
        self.trace.append(
            TraceStep(
                text=text,
                ruling=ruling,
                phase=self._phase.title if self._phase else None,
                step=self._step.id if self._step else None,
                action=self.action,
                values=values,
                entities=tuple(dict.fromkeys([*self._scope, *involves])),
            )
        )

    def reading(self, ruling_id: str) -> str:
        """The reading in force for an ambiguous ruling (a named switch)."""
        ruling = self.catalogue[ruling_id]
        pinned = ruling_id in self.pins
        name = self.pins[ruling_id] if pinned else ruling.default_reading
        if ruling_id not in self.consulted:
            self.consulted[ruling_id] = name
            how = "pinned by the scenario" if pinned else "the default; pin another with `readings:`"
            self.note(ruling_id, f"Ambiguous ruling: reading '{name}' ({how})", reading=name)
        return name

    def reject(
        self, reason: str, message: str, ruling: str | None = None, *, involves: Iterable[Entity] = (), **values: Any
    ) -> Rejection:
        """Build a :class:`Rejection` and note it in the trace (callers ``raise`` it)."""
        self.note(ruling, f"Rejected ({reason}): {message}", involves=involves, **values)
        return Rejection(reason, message, ruling, values)


@dataclass(frozen=True)
class EntityKind:
    """A kind of entity a game's traces name (for the site's pages and graphs)."""

    description: str
    hub: bool = False  # starts hidden in the game's overview graph: it meets nearly everything
    open_questions: bool = False  # two of this kind that never interact are an open question


@dataclass(frozen=True)
class GameData:
    """The data files beside a rules module."""

    catalogue: Catalogue
    procedure: Procedure
    schema: dict[str, Any]
    cards: dict[str, Any]

    @classmethod
    def beside(cls, module_file: str) -> "GameData":
        folder = Path(module_file).parent
        cards_file = folder / "cards.yaml"
        return cls(
            catalogue=load_catalogue(folder / "rulings.yaml"),
            procedure=load_procedure(folder / "procedure.yaml"),
            schema=yaml.safe_load((folder / "schema.yaml").read_text(encoding="utf-8")),
            cards=yaml.safe_load(cards_file.read_text(encoding="utf-8")) if cards_file.exists() else {},
        )


class RulesModule(Protocol):
    """What a game's rules module provides: its step handlers, how a state is built and observed,
    and two functions from state to state."""

    steps: StepHandlers

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], catalogue: Mapping[str, Any]) -> Any: ...

    def observe(self, state: Any) -> dict[str, Any]: ...

    def apply(self, state: Any, action: Mapping[str, Any], context: Context, procedure: Procedure) -> Any: ...

    def settle(self, state: Any, context: Context, procedure: Procedure) -> Any: ...


class Game:
    """One game's rules, as the core sees them.

    ``State`` is the game's own type; the core only passes it back. ``apply``
    must not mutate the state it is given: it returns a new one, or raises
    :class:`Rejection` and the caller keeps the old one. A subclass names its
    ``rules`` module; its data files are read from beside the subclass's module.
    """

    id: str
    title: str
    source: str  # file name of the source document
    rules: RulesModule
    entity_kinds: Mapping[str, EntityKind] = {}

    def __init__(self) -> None:
        self.data = GameData.beside(sys.modules[type(self).__module__].__file__ or "")

    @property
    def handlers(self) -> StepHandlers:
        """One handler per step of ``procedure``."""
        return self.rules.steps

    @property
    def catalogue(self) -> Catalogue:
        return self.data.catalogue

    @property
    def procedure(self) -> Procedure:
        return self.data.procedure

    @property
    def schema(self) -> dict[str, Any]:
        return self.data.schema

    @property
    def reject_reasons(self) -> tuple[str, ...]:
        return tuple(self.schema.get("reject_reasons", ()))

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], context: Context) -> Any:
        """Build the initial state from the scenario and the game's card catalogue.

        Raises :class:`InputError` with a data path on bad input.
        """
        return self.rules.setup(initial, cards, self.data.cards)

    def apply(self, state: Any, action: Mapping[str, Any], context: Context) -> Any:
        """Apply one action; return the new state or raise :class:`Rejection`."""
        return self.rules.apply(state, action, context, self.procedure)

    def settle(self, state: Any, context: Context) -> Any:
        """Finish whatever the last action left pending."""
        return self.rules.settle(state, context, self.procedure)

    def observe(self, state: Any) -> dict[str, Any]:
        """The facts a scenario may assert on, as plain nested data."""
        return self.rules.observe(state)

    def describe(self, kind: str, name: str) -> dict[str, Any] | None:
        """What the game's own catalogue says of an entity (a card, a status), if anything."""
        return None
