"""A game's procedure, declared once as data, walked by the core, drawn by the site.

``procedure.yaml`` lists the phases of play in order; a phase holds ordered steps
and may hold phases of its own (a Battle inside a Battle Phase inside a turn).
The steps in declaration order, depth first, are the order of play. A step may
declare:

``rulings``
    the rulings it applies (the site links them);
``when``
    in words, when the step happens (shown on the site);
``repeat``
    it runs once per player action (a defense card, a later Chain), never by a walk;
``condition``
    the name of a predicate on the state: the step exists only while it holds;
``returns_to``
    after this step play goes back to that step (a cycle), unless ``returns_while``
    names a predicate that no longer holds;
``window``
    which classes of card or effect may be played while the game stands at the step
    (``allows: any`` or a list), and the rejection, with its ruling, for the rest.

The rules module binds one handler per step id and one predicate per condition
name (:class:`StepHandlers`); :class:`Walker` checks the binding once and keeps
the cursor (the state's ``step``) as it walks. Every declared attribute is read
here or by the site, so the engine and the graphs cannot drift apart.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, Protocol, TypeVar

from checker.engine.datafile import read_yaml

#: Every class of card or effect is admitted by a window that ``allows: any``.
ANY = "any"


class Positioned(Protocol):
    """A game state that stands at one step of its procedure (``None`` or a name outside it: before the first)."""

    step: str | None


S = TypeVar("S", bound=Positioned)
Action = Mapping[str, Any]
#: What every step handler receives: the run's context, the working state, the action being applied ({} if none).
StepHandler = Callable[[Any, S, Action], None]
Condition = Callable[[S], bool]


@dataclass(frozen=True)
class Window:
    """What may be played while the game stands at a step."""

    allows: frozenset[str] | None  # None: any class
    refuse: str = ""  # the reject reason for a class the window does not allow
    ruling: str | None = None  # the ruling that refusal applies
    admits_ruling: str | None = None  # the ruling noted when a card is admitted, if the step has one

    def admits(self, classes: Iterable[str]) -> bool:
        return self.allows is None or bool(self.allows & set(classes))


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    rulings: tuple[str, ...] = ()
    when: str = ""
    repeat: bool = False
    condition: str = ""
    returns_to: str = ""
    returns_while: str = ""
    window: Window | None = None

    #: The attributes the walk acts on (``rulings``, ``when`` and ``title`` are for the site).
    ENGINE_ATTRIBUTES = ("repeat", "condition", "returns_to", "returns_while", "window")

    def declared(self) -> Iterator[str]:
        """The engine attributes this step declares."""
        return (name for name in self.ENGINE_ATTRIBUTES if getattr(self, name))


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    steps: tuple[Step, ...] = ()
    phases: tuple["Phase", ...] = ()
    section: str = ""

    def all_steps(self) -> Iterator[tuple["Phase", Step]]:
        """This phase's steps, then its inner phases' steps, each with the phase that holds it."""
        for step in self.steps:
            yield self, step
        for inner in self.phases:
            yield from inner.all_steps()


@dataclass(frozen=True)
class Procedure:
    id: str
    title: str
    phases: tuple[Phase, ...]

    def all_phases(self) -> Iterator[tuple[Phase, Phase | None]]:
        """Every phase, outer before inner, with the phase that holds it (``None`` at the top)."""
        return _phases_within(self.phases, None)

    def steps(self) -> Iterator[tuple[Phase, Step]]:
        """Every step in the order of play, with the phase that holds it."""
        for phase in self.phases:
            yield from phase.all_steps()

    def step(self, step_id: str) -> Step:
        for _, step in self.steps():
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    def phase(self, phase_id: str) -> Phase:
        for phase, _ in self.all_phases():
            if phase.id == phase_id:
                return phase
        raise KeyError(phase_id)

    @functools.cached_property
    def order(self) -> tuple[str, ...]:
        return tuple(step.id for _, step in self.steps())

    def repeats(self, phase: Phase) -> bool:
        """Whether play can come back into ``phase``: a step at or after its start returns to it or before it."""
        order = self.order
        ids = [step.id for _, step in phase.all_steps()]
        if not ids:
            return False
        first, last = order.index(ids[0]), order.index(ids[-1])
        return any(
            step.returns_to and order.index(step.id) >= first and order.index(step.returns_to) <= last
            for _, step in self.steps()
        )

    @property
    def conditions(self) -> frozenset[str]:
        """Every predicate name the declaration uses."""
        return frozenset(
            name for _, step in self.steps() for name in (step.condition, step.returns_while) if name
        )


def _phases_within(phases: tuple[Phase, ...], parent: Phase | None) -> Iterator[tuple[Phase, Phase | None]]:
    for phase in phases:
        yield phase, parent
        yield from _phases_within(phase.phases, phase)


class StepHandlers(Generic[S]):
    """The rules module's handlers, one per procedure step id, and its predicates, one per condition name."""

    def __init__(self) -> None:
        self.handlers: dict[str, StepHandler[S]] = {}
        self.predicates: dict[str, Condition[S]] = {}

    def __call__(self, step_id: str) -> Callable[[StepHandler[S]], StepHandler[S]]:
        """Decorator: ``@steps("declare-attack")`` binds the handler of that step."""
        return _binder(self.handlers, step_id, f"step {step_id!r} has two handlers")

    def condition(self, name: str) -> Callable[[Condition[S]], Condition[S]]:
        """Decorator: ``@steps.condition("in-battle")`` binds the predicate a step's ``condition`` names."""
        return _binder(self.predicates, name, f"condition {name!r} has two predicates")

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(self.handlers)


F = TypeVar("F", bound=Callable[..., Any])


def _binder(table: dict[str, F], key: str, twice: str) -> Callable[[F], F]:
    """A decorator that enters a function in ``table`` under ``key``, once."""

    def bind(function: F) -> F:
        if key in table:
            raise ValueError(twice)
        table[key] = function
        return function

    return bind


class BindingError(ValueError):
    """A procedure and its rules module do not match (a bug in the repository, found at import)."""


class Walker(Generic[S]):
    """A procedure bound to its handlers: it keeps the cursor and runs the steps in declared order.

    The context (``checker.engine.game.Context``) is passed in, so that each step's trace lines
    name the phase and step they belong to.
    """

    def __init__(self, procedure: Procedure, handlers: StepHandlers[S]) -> None:
        declared = set(procedure.order)
        if len(declared) != len(procedure.order):
            raise BindingError(f"{procedure.id}: a step id is declared twice")
        problems = [f"step {s!r} has no handler" for s in sorted(declared - handlers.ids)]
        problems += [f"handler for undeclared step {s!r}" for s in sorted(handlers.ids - declared)]
        problems += [f"condition {c!r} has no predicate" for c in sorted(procedure.conditions - set(handlers.predicates))]
        problems += [f"predicate {c!r} is named by no step" for c in sorted(set(handlers.predicates) - procedure.conditions)]
        problems += [
            f"step {s.id!r} returns to undeclared {s.returns_to!r}"
            for _, s in procedure.steps() if s.returns_to and s.returns_to not in declared
        ]
        if problems:
            raise BindingError(f"{procedure.id}: " + "; ".join(problems))
        self.procedure = procedure
        self.handlers = handlers
        self._located = {step.id: (phase, step) for phase, step in procedure.steps()}
        #: (step id, attribute) pairs the walk has acted on: a declared attribute never read is dead data.
        self.read: set[tuple[str, str]] = set()

    def where(self, step_id: str) -> tuple[Phase, Step]:
        return self._located[step_id]

    def window(self, step_id: str | None) -> Window | None:
        """The window open while the game stands at ``step_id`` (``None``: nothing may be played)."""
        if step_id not in self._located:
            return None
        self.read.add((step_id, "window"))
        return self._located[step_id][1].window

    def exists(self, state: S, step: Step) -> bool:
        """A step with a ``condition`` exists only while its predicate holds."""
        if not step.condition:
            return True
        self.read.add((step.id, "condition"))
        return self.handlers.predicates[step.condition](state)

    def run(self, context: Any, state: S, step_id: str, action: Action) -> None:
        """Run one step and stand at it (a repeating step, say, driven by a player's action)."""
        phase, step = self.where(step_id)
        if step.repeat:
            self.read.add((step_id, "repeat"))
        context.in_step(phase, step, self.handlers.handlers[step_id], state, action)
        state.step = step_id

    def advance(
        self, context: Any, state: S, to: str, action: Action, *, between: Callable[[str], None] | None = None
    ) -> None:
        """Run every step after the cursor up to and including ``to``, in declared order.

        Repeating steps are skipped (only an action runs them), and so is a step whose
        condition does not hold. After a step that ``returns_to`` another (while its
        ``returns_while`` holds), the cursor goes back there. ``between(step_id)`` is
        called after each step but the last (a Chain left open resolves, say).
        """
        order = self.procedure.order
        if to not in self._located:
            raise KeyError(to)
        start = order.index(state.step) + 1 if state.step in self._located else 0
        for step_id in order[start: order.index(to) + 1]:
            step = self._located[step_id][1]
            if step.repeat:
                self.read.add((step_id, "repeat"))
                continue
            if not self.exists(state, step):
                continue
            self.run(context, state, step_id, action)
            if between is not None and step_id != to:
                between(step_id)
            self._loop(state, step)

    def walk(self, context: Any, state: S, phase_id: str, action: Action) -> None:
        """Run a whole phase from its first step (inner phases included), then follow its loop, if any."""
        steps = [step for _, step in self.procedure.phase(phase_id).all_steps()]
        self._stand_before(state, steps[0].id)
        self.advance(context, state, steps[-1].id, action)

    def _loop(self, state: S, step: Step) -> None:
        if not step.returns_to:
            return
        if step.returns_while:
            self.read.add((step.id, "returns_while"))
            if not self.handlers.predicates[step.returns_while](state):
                return
        self.read.add((step.id, "returns_to"))
        self._stand_before(state, step.returns_to)

    def _stand_before(self, state: S, step_id: str) -> None:
        """Put the cursor just before ``step_id``, so that the next walk starts there."""
        order = self.procedure.order
        index = order.index(step_id)
        state.step = order[index - 1] if index else None

    def check_window(self, context: Any, step_id: str | None, classes: Iterable[str], *, name: str, involves: Iterable[Any] = ()) -> None:
        """Refuse, with the step's declared reason and ruling, a card whose classes the window does not allow."""
        window = self.window(step_id)
        if window is None:
            raise context.reject("no-window", f"nothing may be played during {step_id}")
        if window.admits(classes):
            assert step_id is not None  # only a step of the procedure has a window
            if window.admits_ruling:
                context.note(window.admits_ruling, f"{name} may be played now ({self._located[step_id][1].title})",
                             involves=involves)
            return
        allowed = ", ".join(sorted(window.allows or ()))
        raise context.reject(window.refuse, f"{name} cannot be played now: only {allowed}", window.ruling,
                             involves=involves)


# --- Reading the declaration -------------------------------------------------------------------

_STEP_KEYS = {"id", "title", "rulings", "when", "repeat", "condition", "returns_to", "returns_while", "window"}
_PHASE_KEYS = {"id", "title", "steps", "phases", "section"}


def _known_keys(raw: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = set(raw) - known
    if unknown:
        raise BindingError(f"{where}: unknown keys {sorted(unknown)}")


def _window(raw: Any, where: str) -> Window:
    if raw == ANY:
        return Window(None)
    _known_keys(raw, {"allows", "refuse", "ruling", "admits_ruling"}, f"window of {where!r}")
    allows = raw.get("allows", ANY)
    return Window(
        allows=None if allows == ANY else frozenset(allows),
        refuse=raw.get("refuse", ""),
        ruling=raw.get("ruling"),
        admits_ruling=raw.get("admits_ruling"),
    )


def _step(raw: Mapping[str, Any]) -> Step:
    _known_keys(raw, _STEP_KEYS, f"step {raw.get('id')!r}")
    return Step(
        id=raw["id"],
        title=raw["title"],
        rulings=tuple(raw.get("rulings", ())),
        when=raw.get("when", ""),
        repeat=bool(raw.get("repeat", False)),
        condition=raw.get("condition", ""),
        returns_to=raw.get("returns_to", ""),
        returns_while=raw.get("returns_while", ""),
        window=_window(raw["window"], raw["id"]) if "window" in raw else None,
    )


def _phase(raw: Mapping[str, Any]) -> Phase:
    _known_keys(raw, _PHASE_KEYS, f"phase {raw.get('id')!r}")
    return Phase(
        id=raw["id"],
        title=raw["title"],
        section=raw.get("section", ""),
        steps=tuple(_step(step) for step in raw.get("steps", ())),
        phases=tuple(_phase(inner) for inner in raw.get("phases", ())),
    )


def load_procedure(path: Path) -> Procedure:
    raw: dict[str, Any] = read_yaml(path)
    return Procedure(id=raw["id"], title=raw["title"], phases=tuple(_phase(phase) for phase in raw["phases"]))


