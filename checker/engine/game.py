"""What a game provides to the core, and the context a rules module runs in.

A game is a :class:`Game`: its rulings catalogue, its procedure, its vocabulary
(actions, effect kinds, reject reasons) and the JSON Schema fragment for its
scenarios, and a rules module with three functions: ``setup`` (a state from the
scenario), ``observe`` (the facts a scenario may assert) and, optionally,
``settle`` (what the end of a scenario finishes), ``before_action`` (what any
action finishes first) and ``after_action`` (what the rules work out again once an
action has been played, for ``observe`` to report). The core refuses an action the game's procedure does not
allow where play stands, then dispatches it to the handler its vocabulary
registers, on a state nothing else holds (a copy the core made): a handler
changes the state it is given and never sees the expected outcome.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, NoReturn, Protocol, TypeVar

from checker.engine.catalogue import Catalogue, load_catalogue
from checker.engine.datafile import read_yaml
from checker.engine.described import definitions
from checker.engine.errors import Rejection
from checker.engine.procedure import GameState, S, Phase, Procedure, Step, StepHandlers, Walker, load_procedure
from checker.engine.statecopy import Shared, deep_copy
from checker.engine.trace import MECHANIC, Entity, TraceStep
from checker.engine.vocabulary import Vocabulary


#: A game's state type, as its moves module only reads it.
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Book(Shared, dict[str, Any]):
    """A read-only mapping of static definitions (a card book) that every copy of a state shares.

    Its values must be immutable (frozen dataclasses): copying a state never copies the book. It is
    a ``dict`` whose every changing method refuses, so that looking a card up costs a dict lookup
    (the rules look up a hundred cards a scenario).
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a Book is read-only: every copy of the state shares it")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type["Book"], tuple[dict[str, Any]]]:
        return Book, (dict(self),)

    def __repr__(self) -> str:
        return f"Book({len(self)} entries)"


#: A trace step from its eight fields: what ``TraceStep(*fields)`` makes, without a call to its ``__new__``.
_trace_step = functools.partial(tuple.__new__, TraceStep)


class Context:
    """Everything a rules module may consult or record while it runs.

    It records the trace and which readings of ambiguous rulings were
    consulted. Readings come from the scenario's pins, else the catalogue's
    default, and every consultation is written to the trace. It walks the
    game's procedure (:meth:`advance`, :meth:`walk`, :meth:`run_step`), so that
    each trace line names its phase and step, and keeps who may act there
    (:meth:`take_turn`, :meth:`pass_turn`, :meth:`give_priority`).
    """

    def __init__(self, game: "Game[Any]", pins: Mapping[str, str] | None = None) -> None:
        self.catalogue = game.catalogue
        self._rulings = game.catalogue.by_id
        self.entity_kinds = game.entity_kinds
        self.mechanics = game.data.mechanics
        self.walker = game.walker
        self.reject_reasons = game.vocabulary.reject_reasons
        self.pins = dict(pins or {})
        self.trace: list[TraceStep] = []
        self.consulted: dict[str, str] = {}
        self.action: int | None = None
        self.settling = False
        self._where: tuple[str | None, str | None] = (None, None)  # the phase's title and the step's id, for each note
        self._scope: list[Entity] = []
        self._named = game.named  # entities steps have named: checked once a game

    # --- The procedure -----------------------------------------------------------------------

    def advance(self, state: GameState, to: str, action: Mapping[str, Any] = {}, **options: Any) -> None:
        """Walk from the state's step up to ``to`` (see :meth:`checker.engine.procedure.Walker.advance`)."""
        self.walker.advance(self, state, to, action, **options)

    def walk(self, state: GameState, phase_id: str, action: Mapping[str, Any] = {}) -> None:
        """Run a whole phase (see :meth:`checker.engine.procedure.Walker.walk`)."""
        self.walker.walk(self, state, phase_id, action)

    def run_step(self, state: GameState, step_id: str, action: Mapping[str, Any] = {}) -> None:
        """Run one step (a repeating one, driven by an action)."""
        self.walker.run(self, state, step_id, action)

    def start_at(self, state: GameState, step_id: str) -> None:
        """In ``setup``, for a scenario that starts mid-game: the game stands at ``step_id``, no step run."""
        self.walker.start_at(state, step_id)

    def reached(self, state: GameState, step_id: str) -> bool:
        """Whether play stands at ``step_id`` or after it in the order of play."""
        return self.walker.reached(state, step_id)

    def check_window(self, state: GameState, classes: Iterable[str], *, name: str, involves: Iterable[Entity] = ()) -> None:
        """Refuse what the window of the state's step does not allow, with its declared reason and ruling."""
        self.walker.check_window(self, state.step, classes, name=name, involves=involves)

    # --- Who may act ---------------------------------------------------------------------------

    def take_turn(self, state: GameState, player: str, *, in_turn: bool = True) -> None:
        """``player`` performs an action at the step the game stands at (see
        :meth:`checker.engine.procedure.Walker.take_turn`): refused out of turn, with the rule's reason and ruling,
        unless ``in_turn=False`` (an action that needs no priority)."""
        self.walker.take_turn(self, state, player, in_turn=in_turn)

    def pass_turn(self, state: GameState, player: str | None, action: Mapping[str, Any] = {}) -> bool:
        """``player`` passes (``None``: every player at once); whether the passes end the step, play then moving on
        where the rule says (see :meth:`checker.engine.procedure.Walker.pass_turn`)."""
        return self.walker.pass_turn(self, state, player, action)

    def give_priority(self, state: GameState, player: str) -> None:
        """``player`` acts next, as a rule of the game decides."""
        self.walker.give_priority(state, player)

    # --- The trace ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def involving(self, *entities: Entity) -> Iterator[None]:
        """Every step noted inside also involves ``entities`` (the move being resolved, say)."""
        depth = len(self._scope)
        self._scope.extend(entities)
        try:
            yield
        finally:
            del self._scope[depth:]

    def in_step(self, phase: Phase, step: Step, handler: Callable[..., None], *args: Any) -> None:
        """``handler(self, *args)``, every step it notes named after ``phase`` and ``step``."""
        outer = self._where
        self._where = phase.title, step.id
        try:
            handler(self, *args)
        finally:
            self._where = outer

    def note(self, ruling: str | None, text: str, *, involves: Iterable[Entity] = (), **values: Any) -> None:
        """Record one trace step: what was done, under which ruling, with which numbers, between which entities.

        A step that decides something cites its ruling; a step with no ruling is bookkeeping.
        """
        if ruling is not None and ruling not in self._rulings:
            raise KeyError(f"the rules cite {ruling!r}, which is not in the catalogue")
        if not isinstance(text, str) or not text:
            raise TypeError(f"a trace step needs a text, got {text!r}")
        entities = (*self._scope, *involves)
        if entities:
            if len(entities) > 1:
                entities = tuple(dict.fromkeys(entities))
            if not self._named.issuperset(entities):
                self._check_entities(entities)
        phase, step = self._where
        self.trace.append(_trace_step((text, ruling, phase, step, self.action, values, entities, self.settling)))

    def _check_entities(self, entities: tuple[Entity, ...]) -> None:
        """Check entities no earlier step named: (kind, name) texts of kinds the game declares."""
        malformed = [e for e in entities if not (isinstance(e, tuple) and len(e) == 2 and all(isinstance(p, str) and p for p in e))]
        if malformed:
            raise TypeError(f"a trace step's entities are (kind, name) texts, got {malformed!r}")
        undeclared = [e for e in entities if e[0] not in self.entity_kinds or (e[0] == MECHANIC and e[1] not in self.mechanics)]
        if undeclared:
            raise TypeError(f"a trace step names entities the game does not declare (entity_kinds, mechanics.yaml): {undeclared!r}")
        self._named.update(entities)

    @contextlib.contextmanager
    def quietly(self) -> Iterator[None]:
        """Leave no trace of what runs inside: for rules that redo, on another copy of the state, what the trace already shows."""
        mark, consulted = len(self.trace), dict(self.consulted)
        try:
            yield
        finally:
            del self.trace[mark:]
            self.consulted = consulted

    def reading(self, ruling_id: str) -> str:
        """The reading in force for an ambiguous ruling (a named switch).

        Asking for a ruling that is not an ambiguous ruling of the catalogue is a bug in the rules.
        """
        if ruling_id not in self.catalogue or self.catalogue[ruling_id].status != "ambiguous":
            raise KeyError(f"the rules ask for a reading of {ruling_id!r}, which is not an ambiguous ruling of the catalogue")
        ruling = self.catalogue[ruling_id]
        pinned = ruling_id in self.pins
        name = self.pins[ruling_id] if pinned else ruling.default_reading
        if ruling_id not in self.consulted:
            self.consulted[ruling_id] = name
            how = "pinned by the scenario" if pinned else "the default; pin another with `readings:`"
            self.note(ruling_id, f"Ambiguous ruling: reading '{name}' ({how})", reading=name)
        return name

    def read(self, ruling_id: str, reading: str) -> bool:
        """Whether ``reading`` is the reading in force; a name the catalogue does not list is a bug in the rules."""
        names = self.catalogue[ruling_id].reading_names if ruling_id in self.catalogue else ()
        if reading not in names:
            raise KeyError(f"the rules test {ruling_id!r} for reading {reading!r}, which the catalogue does not list")
        return self.reading(ruling_id) == reading

    def reject(
        self, reason: str, message: str, ruling: str | None = None, *, involves: Iterable[Entity] = (), **values: Any
    ) -> Rejection:
        """Build a :class:`Rejection` and note it in the trace (callers ``raise`` it).

        The reason must be one the game's vocabulary declares.
        """
        if reason not in self.reject_reasons:
            raise KeyError(f"the rules reject with {reason!r}, which the game's vocabulary does not declare")
        self.note(ruling, f"Rejected ({reason}): {message}", involves=involves, **values)
        return Rejection(reason, message, ruling, values)


@dataclass(frozen=True)
class EntityKind:
    """A kind of entity a game's traces name (for the site's pages and graphs)."""

    description: str
    hub: bool = False  # starts hidden in the game's overview graph: it meets nearly everything
    open_questions: bool = False  # two of this kind that never interact are an open question
    from_rules: bool = False  # the rules name every entity of this kind (Elements, abilities): none is a scenario's own


@dataclass(frozen=True)
class GameData:
    """The data files beside a rules module."""

    catalogue: Catalogue
    procedure: Procedure
    schema: dict[str, Any]
    cards: dict[str, Any]
    starter: dict[str, Any]  # where a new scenario starts: assumptions, cards, initial, actions
    mechanics: dict[str, Any]  # the mechanics the rules name in the trace, each with where the document defines it

    @classmethod
    def beside(cls, module_file: str) -> "GameData":
        folder = Path(module_file).parent
        return cls(
            catalogue=load_catalogue(folder / "rulings.yaml"),
            procedure=load_procedure(folder / "procedure.yaml"),
            schema=read_yaml(folder / "schema.yaml"),
            cards=_optional(folder / "cards.yaml"),
            starter=_optional(folder / "starter.yaml"),
            mechanics=_optional(folder / "mechanics.yaml"),
        )


def _optional(path: Path) -> dict[str, Any]:
    """A data file's mapping, or nothing when the game has no such file."""
    return read_yaml(path) if path.exists() else {}


class RulesModule(Protocol[S]):
    """What a game's rules module provides, for its own state type ``S`` (``settle``, ``before_action`` and
    ``after_action`` are optional)."""

    steps: StepHandlers[S]
    vocabulary: Vocabulary

    def setup(self, context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> S: ...

    def observe(self, state: S, /) -> dict[str, Any]: ...


class MovesModule(Protocol[S_contra]):
    """What a game's moves module provides: the actions its rules might allow at a state, each with its choices
    written out (the core keeps those the rules accept: :mod:`checker.engine.legal`). It may also give ``canonical(action)``,
    the action with the choices the rules default written out, and ``invariants(first, state)``, what random play
    from ``first`` must never break, in words."""

    def candidates(self, state: S_contra, /) -> Iterable[Mapping[str, Any]]: ...


class Game(Generic[S]):
    """One game's rules, as the core sees them.

    ``S`` is the game's own state type, which stands at a step of its procedure (:class:`GameState`). :meth:`apply` and :meth:`settle` give a new
    state and never change the one they are given; :meth:`before_action`, :meth:`act`
    and :meth:`finish` change a working state where it stands, for a caller that
    decides itself when to copy (the runner). A subclass names its ``rules`` module;
    its data files are read from beside the subclass's module, and its procedure is
    bound to the rules module's step handlers once, here.
    """

    id: str
    title: str
    source: str  # file name of the source document
    rules: RulesModule[S]
    moves: MovesModule[S] | None = None  # what may be done next (see checker.engine.legal)
    entity_kinds: Mapping[str, EntityKind] = {}
    #: The game's described types (checker.engine.described): their schema definitions, and those of
    #: the described types their fields hold, join the definitions ``schema.yaml`` writes.
    types: tuple[type, ...] = ()

    def __init__(self) -> None:
        self.data = GameData.beside(sys.modules[type(self).__module__].__file__ or "")
        self.walker: Walker[S] = Walker(self.data.procedure, self.rules.steps)
        self.named: set[Entity] = set()  # the entities trace steps have named, found well formed and declared

    @property
    def vocabulary(self) -> Vocabulary:
        return self.rules.vocabulary

    @property
    def catalogue(self) -> Catalogue:
        return self.data.catalogue

    @property
    def procedure(self) -> Procedure:
        return self.data.procedure

    @functools.cached_property
    def schema(self) -> dict[str, Any]:
        """The game's part of the scenario format: the definitions ``schema.yaml`` writes, then those its
        described types give (:attr:`types`)."""
        written = self.data.schema
        generated = definitions(self.types)
        clash = sorted(set(written.get("definitions", {})) & set(generated))
        if clash:
            raise ValueError(f"{self.id}: schema.yaml defines {clash}, which the game's described types give")
        return {**written, "definitions": {**written.get("definitions", {}), **generated}}

    @property
    def starter(self) -> dict[str, Any]:
        """Where ``checker new`` starts a scenario (``starter.yaml``): a small valid state and actions."""
        return self.data.starter

    @property
    def reject_reasons(self) -> tuple[str, ...]:
        return tuple(self.vocabulary.reject_reasons)

    @property
    def question_kinds(self) -> tuple[str, ...]:
        """The entity kinds two of which that never interact are an open question."""
        return tuple(k for k, kind in self.entity_kinds.items() if kind.open_questions)

    def setup(self, initial: Mapping[str, Any], cards: Mapping[str, Any], context: Context) -> S:
        """Build the initial state from the scenario and the game's card catalogue.

        Raises :class:`InputError` with a data path on bad input, :class:`Rejection` when a
        preparation rule refuses the state (a deck that breaks a construction rule).
        """
        return self.rules.setup(context, initial, cards, self.data.cards)

    def apply(self, state: S, action: Mapping[str, Any], context: Context) -> S:
        """The state after ``action``, played on a copy: ``state`` itself is never changed.

        Raises :class:`Rejection` when the rules refuse the action, carrying where play stands as
        :attr:`Rejection.standing` (see :meth:`refused_from`).
        """
        working = deep_copy(state)
        self.before_action(working, action, context)
        try:
            self.act(working, action, context)
        except Rejection as rejection:
            rejection.standing = self.refused_from(state, action, context)
            raise
        return working

    def refused_from(self, state: S, action: Mapping[str, Any], context: Context) -> S:
        """Where play stands once ``action`` was refused from ``state``: ``state`` itself, unless ``before_action``
        finished something first (a Defense Step the attacker moved on from, say), which stays finished even so.
        ``state`` itself is never changed."""
        if getattr(self.rules, "before_action", None) is None:
            return state
        standing = deep_copy(state)
        with context.quietly():  # done again on a copy of its own, the trace already showing it
            self.before_action(standing, action, context)
        return standing

    def settle(self, state: S, context: Context) -> S:
        """The state once the end of the scenario has finished whatever the last action left pending, settled on a
        copy: ``state`` itself is never changed."""
        if getattr(self.rules, "settle", None) is None:
            return state
        working = deep_copy(state)
        self.finish(working, context)
        return working

    # --- On a working state: one that nothing else holds, changed where it stands ---------------

    def before_action(self, working: S, action: Mapping[str, Any], context: Context) -> None:
        """Finish on ``working`` what any action finishes first (the rules' ``before_action``, if any): what it
        finishes stays finished even when the action is then refused."""
        before = getattr(self.rules, "before_action", None)
        if before is not None:
            before(context, working, action)

    def act(self, working: S, action: Mapping[str, Any], context: Context) -> None:
        """Play ``action`` itself on ``working`` (its handler), after :meth:`before_action`. Raises
        :class:`Rejection` when the game is over or the step the game stands at does not allow the action (as its
        procedure declares), or when the rules refuse it, leaving ``working`` as far as the handler got."""
        self.walker.check_action(context, working, action)
        self.vocabulary.actions[action["action"]].handler(context, working, action)
        self._after_action(working, context)

    def finish(self, working: S, context: Context) -> None:
        """Finish on ``working`` whatever the last action left pending (the rules' ``settle``, if any)."""
        settle = getattr(self.rules, "settle", None)
        if settle is not None:
            settle(context, working)
            self._after_action(working, context)

    def _after_action(self, working: S, context: Context) -> None:
        """What the rules work out again on ``working`` once an action has been played (their ``after_action``, if any)."""
        after = getattr(self.rules, "after_action", None)
        if after is not None:
            after(context, working)

    def observe(self, state: S) -> dict[str, Any]:
        """The facts a scenario may assert on, as plain nested data."""
        return self.rules.observe(state)

    def describe(self, kind: str, name: str) -> dict[str, Any] | None:
        """What the game's own data says of an entity: a mechanic's entry in ``mechanics.yaml``, else
        :meth:`card_entry`."""
        entry = self.data.mechanics.get(name) if kind == MECHANIC else self.card_entry(kind, name)
        return dict(entry) if entry is not None else None

    def card_entry(self, kind: str, name: str) -> Mapping[str, Any] | None:
        """What the game's card catalogue (``cards.yaml``) says of an entity (a card, a status), if anything."""
        return None


#: A game of whatever state type: what the core holds when it holds the games side by side.
AnyGame = Game[Any]
