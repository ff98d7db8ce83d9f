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
    (``allows: any`` or a list), and the rejection, with its ruling, for the rest;
``actions``
    which actions may be taken while the game stands at the step, and the rejection, with
    its ruling, for any other (a phase may declare them for every step within it that
    declares none);
``priority``
    who may act there (:class:`PriorityRule`): who acts first (a role the rules bind by
    name), whether play alternates, what a pass does, when passes end the step and where
    play then moves on to.

The procedure may declare ``over``: a predicate that, while it holds, ends the game, and the
rejection, with its ruling, of every action then.

The rules module binds one handler per step id, one predicate per condition name and one
role per name a priority rule gives (:class:`StepHandlers`); :class:`Walker` checks the
binding once, keeps the cursor (the state's ``step``) as it walks and the priority record
(the state's ``priority``, :class:`checker.engine.priority.Priority`) as play comes to a
step with a rule. Every declared attribute is read here or by the site, so the engine and
the graphs cannot drift apart; :meth:`Step.rules_in_words` says them in words for the site.

Where a repeating step follows the step the cursor stands at, and that step declares
neither actions nor priority, the game waits at the repeating step (it runs once per player
action): its declarations are in force.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, Protocol, TypeVar

from checker.engine.datafile import read_yaml
from checker.engine.priority import Priority

#: Every class of card or effect is admitted by a window that ``allows: any``.
ANY = "any"


class GameState(Protocol):
    """What the core knows of any game's state: the step of its procedure it stands at, its cursor (``None`` or a
    name outside the procedure: before the first step). The rest of a state is the game's own."""

    step: str | None


S = TypeVar("S", bound=GameState)
Action = Mapping[str, Any]
#: What every step handler receives: the run's context, the working state, the action being applied ({} if none).
StepHandler = Callable[[Any, S, Action], None]
Condition = Callable[[S], bool]
#: Who plays a role (the attacker, the turn player) at a state: a player's name, or ``None`` when no one does.
Role = Callable[[S], "str | None"]


@dataclass(frozen=True)
class Window:
    """What may be played while the game stands at a step."""

    allows: frozenset[str] | None  # None: any class
    refuse: str = ""  # the reject reason for a class the window does not allow
    ruling: str | None = None  # the ruling that refusal applies
    admits_ruling: str | None = None  # the ruling noted when a card is admitted, if the step has one

    def admits(self, classes: Iterable[str]) -> bool:
        return self.allows is None or bool(self.allows & set(classes))

    def in_words(self) -> str:
        if self.allows is None:
            return "any card may be played"
        return (f"only {_listed(self.allows)} may be played" + (f" (refused: {self.refuse})" if self.refuse else ""))


@dataclass(frozen=True)
class Actions:
    """Which actions may be taken while the game stands at a step; any other is refused, with a ruling."""

    allows: frozenset[str]
    refuse: str  # the reject reason for an action the step does not allow
    ruling: str | None = None  # the ruling that refusal applies
    involves: tuple[tuple[str, str], ...] = ()  # the entities that refusal names in the trace

    def in_words(self) -> str:
        allowed = f"only {_listed(self.allows)}" if self.allows else "no action"
        return f"{allowed} (refused: {self.refuse})"


#: When passes end a step: the first pass, or a pass from every player since the last action.
PASS_ENDS = {"one-pass": "one pass ends the step", "all-pass": "when every player has passed since the last action, the step ends"}
#: What a pass does besides being recorded.
PASS_DOES = {"records": "a pass is recorded", "gives": "a pass gives priority to the other player"}


@dataclass(frozen=True)
class PriorityRule:
    """Who may act while the game stands at a step, and how passes end it."""

    first: str = ""  # the role (bound by the rules) who holds priority when play comes to the step; "": either player
    alternates: bool = False  # after a player's action, the other player holds priority
    passes: str = "records"  # what a pass does (PASS_DOES)
    ends: str = ""  # when passes end the step (PASS_ENDS); "": they never do
    then: str = ""  # the step play moves on to when passes end this one; "": it waits there, the step over
    refuse: str = ""  # the reject reason for an action or a pass out of turn
    ruling: str | None = None  # the ruling that refusal applies
    involves: tuple[tuple[str, str], ...] = ()  # the entities that refusal names in the trace

    @property
    def gives(self) -> bool:
        return self.passes == "gives"

    def in_words(self, title: Callable[[str], str]) -> str:
        words = [f"the {_words(self.first)} acts first" if self.first else "either player may act"]
        if self.alternates:
            words.append("play alternates")
        if self.ends:
            words.append(PASS_DOES[self.passes])
            ending = PASS_ENDS[self.ends]
            words.append(f"{ending}, and play moves on to “{title(self.then)}”" if self.then else ending)
        if self.refuse:
            words.append(f"out of turn: {self.refuse}")
        return "; ".join(words)


@dataclass(frozen=True)
class Over:
    """When the game is over: while the predicate holds, every action is refused, with a ruling."""

    condition: str
    refuse: str
    ruling: str | None = None
    involves: tuple[tuple[str, str], ...] = ()  # the entities that refusal names in the trace

    def in_words(self) -> str:
        return f"once {_words(self.condition)}, every action is refused ({self.refuse})"


def _listed(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))


def _words(name: str) -> str:
    """A predicate's or a role's name as words: 'battle-goes-on' -> 'battle goes on'."""
    return name.replace("-", " ").replace("_", " ")


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
    actions: Actions | None = None
    priority: PriorityRule | None = None

    #: The attributes the walk acts on (``rulings``, ``when`` and ``title`` are for the site).
    ENGINE_ATTRIBUTES = ("repeat", "condition", "returns_to", "returns_while", "window", "actions", "priority")

    def declared(self) -> Iterator[str]:
        """The engine attributes this step declares."""
        return (name for name in self.ENGINE_ATTRIBUTES if getattr(self, name))

    def rules_in_words(self, procedure: "Procedure") -> list[str]:
        """What the step's window, actions and priority rule say, in words (its own or its phase's actions)."""
        words = []
        if self.window is not None:
            words.append(self.window.in_words())
        actions = procedure.actions_at(self.id)
        if actions is not None:
            words.append(actions.in_words())
        if self.priority is not None:
            words.append(self.priority.in_words(lambda step_id: procedure.step(step_id).title))
        return words


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    steps: tuple[Step, ...] = ()
    phases: tuple["Phase", ...] = ()
    section: str = ""
    actions: Actions | None = None  # for every step within that declares none

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
    over: Over | None = None

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
        names = {name for _, step in self.steps() for name in (step.condition, step.returns_while) if name}
        if self.over is not None:
            names.add(self.over.condition)
        return frozenset(names)

    @property
    def roles(self) -> frozenset[str]:
        """Every role name the priority rules use."""
        return frozenset(step.priority.first for _, step in self.steps() if step.priority is not None and step.priority.first)

    @property
    def has_priority(self) -> bool:
        return any(step.priority is not None for _, step in self.steps())

    @functools.cached_property
    def _actions(self) -> dict[str, tuple[Actions, str]]:
        """Each step's actions, its own or its nearest phase's, with where they are declared (a step id or ``phase:ID``)."""
        found: dict[str, tuple[Actions, str]] = {}

        def within(phase: Phase, inherited: tuple[Actions, str] | None) -> None:
            here = (phase.actions, f"phase:{phase.id}") if phase.actions is not None else inherited
            for step in phase.steps:
                own = (step.actions, step.id) if step.actions is not None else here
                if own is not None:
                    found[step.id] = own
            for inner in phase.phases:
                within(inner, here)

        for phase in self.phases:
            within(phase, None)
        return found

    def actions_at(self, step_id: str) -> Actions | None:
        """The actions allowed at a step (its own declaration, else its nearest phase's), if declared."""
        entry = self._actions.get(step_id)
        return entry[0] if entry else None

    def actions_declared_by(self, step_id: str) -> str | None:
        """Where the actions of a step are declared: the step's id, or ``phase:ID``."""
        entry = self._actions.get(step_id)
        return entry[1] if entry else None

    def declared(self) -> Iterator[tuple[str, str]]:
        """Every (step id, ``phase:ID`` or ``procedure``; attribute) the engine must act on."""
        for _, step in self.steps():
            for name in step.declared():
                yield step.id, name
        for phase, _ in self.all_phases():
            if phase.actions is not None:
                yield f"phase:{phase.id}", "actions"
        if self.over is not None:
            yield "procedure", "over"


def _phases_within(phases: tuple[Phase, ...], parent: Phase | None) -> Iterator[tuple[Phase, Phase | None]]:
    for phase in phases:
        yield phase, parent
        yield from _phases_within(phase.phases, phase)


class StepHandlers(Generic[S]):
    """The rules module's handlers, one per procedure step id, and its predicates, one per condition name."""

    def __init__(self) -> None:
        self.handlers: dict[str, StepHandler[S]] = {}
        self.predicates: dict[str, Condition[S]] = {}
        self.roles: dict[str, Role[S]] = {}
        self.passes: dict[str, StepHandler[S]] = {}

    def __call__(self, step_id: str) -> Callable[[StepHandler[S]], StepHandler[S]]:
        """Decorator: ``@steps("declare-attack")`` binds the handler of that step."""
        return _binder(self.handlers, step_id, f"step {step_id!r} has two handlers")

    def condition(self, name: str) -> Callable[[Condition[S]], Condition[S]]:
        """Decorator: ``@steps.condition("in-battle")`` binds the predicate a step's ``condition`` names."""
        return _binder(self.predicates, name, f"condition {name!r} has two predicates")

    def role(self, name: str) -> Callable[[Role[S]], Role[S]]:
        """Decorator: ``@steps.role("attacker")`` binds who plays the role a priority rule's ``first`` names."""
        return _binder(self.roles, name, f"role {name!r} has two binders")

    def passed(self, step_id: str) -> Callable[[StepHandler[S]], StepHandler[S]]:
        """Decorator: ``@steps.passed("attack")`` binds what a pass means at that step, by the game's rules (the
        Defender waives the Defense, say); the core calls it once the pass is recorded (``state.priority`` says
        whether it ended the step), before play moves on."""
        return _binder(self.passes, step_id, f"step {step_id!r} has two meanings of a pass")

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
        problems += [f"role {r!r} has no binder" for r in sorted(procedure.roles - set(handlers.roles))]
        problems += [f"role binder {r!r} is named by no priority rule" for r in sorted(set(handlers.roles) - procedure.roles)]
        problems += [
            f"step {s.id!r}: passes move play on to undeclared {s.priority.then!r}"
            for _, s in procedure.steps() if s.priority is not None and s.priority.then and s.priority.then not in declared
        ]
        problems += [
            f"step {s.id!r}: passes move play on to {s.priority.then!r}, but no pass ends the step"
            for _, s in procedure.steps() if s.priority is not None and s.priority.then and not s.priority.ends
        ]
        ruled = {s.id for _, s in procedure.steps() if s.priority is not None}
        problems += [f"a pass is given a meaning at {s!r}, which has no priority rule" for s in sorted(set(handlers.passes) - ruled)]
        if problems:
            raise BindingError(f"{procedure.id}: " + "; ".join(problems))
        self.procedure = procedure
        self.handlers = handlers
        self._located = {step.id: (phase, step) for phase, step in procedure.steps()}
        order = procedure.order
        self._following = {step_id: self._located[order[i + 1]][1] for i, step_id in enumerate(order[:-1])}
        #: (step id, ``phase:ID`` or ``procedure``; attribute) pairs the walk has acted on: a declared attribute never
        #: read is dead data.
        self.read: set[tuple[str, str]] = set()

    def where(self, step_id: str) -> tuple[Phase, Step]:
        return self._located[step_id]

    def window(self, step_id: str | None) -> Window | None:
        """The window open while the game stands at ``step_id`` (``None``: nothing may be played)."""
        if step_id not in self._located:
            return None
        self.read.add((step_id, "window"))
        return self._located[step_id][1].window

    def reached(self, state: S, step_id: str) -> bool:
        """Whether play stands at ``step_id`` or after it in the order of play (before the first step: nowhere)."""
        order, at = self.procedure.order, state.step
        return at is not None and at in self._located and order.index(at) >= order.index(step_id)

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
        self._leave(state, step_id)
        context.in_step(phase, step, self.handlers.handlers[step_id], state, action)
        state.step = step_id
        self._follow(state)

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
        self._follow(state)

    # --- Who may act, and what -------------------------------------------------------------------

    def _declares(self, step: Step) -> bool:
        return step.priority is not None or self.procedure.actions_at(step.id) is not None

    def standing(self, state: S) -> Step | None:
        """The step whose actions and priority rule are in force: the cursor's, or the repeating step the game waits
        at just after it (when the cursor's step declares neither). ``None`` before the first step."""
        located = self._located.get(state.step)  # type: ignore[arg-type]
        if located is None:
            first = self._located[self.procedure.order[0]][1]
            return first if first.repeat and self._declares(first) else None
        step = located[1]
        if self._declares(step):
            return step
        following = self._following.get(step.id)
        return following if following is not None and following.repeat and self._declares(following) else step

    def _follow(self, state: S) -> None:
        """Play has come to a step: open the record of its priority rule, or close the record where there is none.

        A step that play comes back to while its rule is under way (a repeating step run again) keeps its record; a
        game that is over has none (no one acts)."""
        record = getattr(state, "priority", None)
        if not isinstance(record, Priority):
            return
        step = self.standing(state)
        rule = step.priority if step is not None else None
        if rule is None or step is None or self._over(state):  # no rule here, or no one acts once the game is over
            if record.step is not None:
                state.priority = record.closed()  # type: ignore[attr-defined]
            return
        if record.step == step.id:
            return
        self.read.add((step.id, "priority"))
        holder = self.handlers.roles[rule.first](state) if rule.first else None
        state.priority = record.opened(step.id, holder)  # type: ignore[attr-defined]

    def _leave(self, state: S, step_id: str) -> None:
        """A step runs: the record of another step's rule closes, play having left that step."""
        record = getattr(state, "priority", None)
        if isinstance(record, Priority) and record.step not in (None, step_id):
            state.priority = record.closed()  # type: ignore[attr-defined]

    def _rule(self, state: S) -> tuple[Step, PriorityRule, Priority] | None:
        """The step the game stands at, its priority rule and the record of it, if the step has a rule."""
        step = self.standing(state)
        record = getattr(state, "priority", None)
        if step is None or step.priority is None:
            return None
        if not isinstance(record, Priority):
            raise TypeError(f"step {step.id!r} declares a priority rule: the state needs a `priority` record (Priority)")
        self.read.add((step.id, "priority"))
        return step, step.priority, record

    def check_action(self, context: Any, state: S, action: Action) -> None:
        """Refuse an action once the game is over, or one the step the game stands at does not allow, with the
        declared reason and ruling."""
        name = action["action"]
        over = self.procedure.over
        if over is not None and self._over(state):
            self.read.add(("procedure", "over"))
            raise context.reject(over.refuse, f"{name}: the game is over ({_words(over.condition)})", over.ruling,
                                 involves=over.involves)
        step = self.standing(state)
        if step is None:
            return
        actions = self.procedure.actions_at(step.id)
        if actions is None:
            return
        self.read.add((self.procedure.actions_declared_by(step.id) or step.id, "actions"))
        if name not in actions.allows:
            allowed = f"only {_listed(actions.allows)}" if actions.allows else "no action"
            raise context.reject(actions.refuse, f"{name} is not taken at “{step.title}”: {allowed}", actions.ruling,
                                 involves=actions.involves)

    def _over(self, state: S) -> bool:
        over = self.procedure.over
        return over is not None and self.handlers.predicates[over.condition](state)

    def allows(self, state: S, name: str) -> bool:
        """Whether :meth:`check_action` lets the action ``name`` through at ``state`` (nothing is noted)."""
        if self._over(state):
            return False
        step = self.standing(state)
        actions = self.procedure.actions_at(step.id) if step is not None else None
        return actions is None or name in actions.allows

    def take_turn(self, context: Any, state: S, player: str, *, in_turn: bool = True) -> None:
        """``player`` performs an action: refused out of turn (unless the rules say it needs no priority,
        ``in_turn=False``: a response that interrupts, say); the passes are forgotten and, where play alternates, the
        next player acts."""
        found = self._rule(state)
        if found is None:
            return
        step, rule, record = found
        if in_turn:
            self._in_turn(context, step, rule, record, player, "act")
        state.priority = record.acted(player, alternates=rule.alternates)  # type: ignore[attr-defined]

    def pass_turn(self, context: Any, state: S, player: str | None, action: Action) -> bool:
        """``player`` passes (``None``: every player at once): refused out of turn; recorded. Whether the passes end
        the step: then no one holds priority and, if the rule says where, play moves on there. Where no rule is in
        force, a pass ends nothing."""
        found = self._rule(state)
        if found is None:
            return False  # no rule is in force: a pass ends nothing
        step, rule, record = found
        if player is None:
            record = replace(record, passed=record.players)
        else:
            self._in_turn(context, step, rule, record, player, "pass")
            record = record.passing(player, gives=rule.gives)
        ends = rule.ends == "one-pass" or (rule.ends == "all-pass" and record.all_passed)
        state.priority = record.ending() if ends else record  # type: ignore[attr-defined]
        meaning = self.handlers.passes.get(step.id)
        if meaning is not None:
            context.in_step(self._located[step.id][0], step, meaning, state, action)
        if ends and rule.then:
            self.advance(context, state, rule.then, action)
        return ends

    def start_at(self, state: S, step_id: str) -> None:
        """A game that a scenario starts mid-way stands at ``step_id``, no step run: for ``setup`` only."""
        self.where(step_id)
        state.step = step_id
        self._follow(state)

    def give_priority(self, state: S, player: str) -> None:
        """``player`` acts next, as a rule of the game decides (an ambiguous ruling's reading, say)."""
        found = self._rule(state)
        if found is None:
            raise KeyError(f"no priority rule is in force at {state.step!r}")
        state.priority = found[2].given(player)  # type: ignore[attr-defined]

    def _in_turn(self, context: Any, step: Step, rule: PriorityRule, record: Priority, player: str, doing: str) -> None:
        if record.ended:
            raise context.reject(rule.refuse, f"{player} cannot {doing}: the passes have ended “{step.title}”", rule.ruling,
                                 involves=rule.involves)
        if record.holder is not None and record.holder != player:
            raise context.reject(rule.refuse, f"{record.holder} holds priority at “{step.title}”, not {player}", rule.ruling,
                                 involves=rule.involves)

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

_STEP_KEYS = {"id", "title", "rulings", "when", "repeat", "condition", "returns_to", "returns_while", "window", "actions",
              "priority"}
_PHASE_KEYS = {"id", "title", "steps", "phases", "section", "actions"}
_PROCEDURE_KEYS = {"id", "title", "phases", "over"}


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


def _involves(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    """The entities a declared refusal names: ``[[kind, name], ...]``."""
    if not isinstance(raw, list) or not all(isinstance(e, list) and len(e) == 2 for e in raw):
        raise BindingError(f"{where}: involves is a list of [kind, name] pairs, not {raw!r}")
    return tuple((str(kind), str(name)) for kind, name in raw)


def _actions(raw: Any, where: str) -> Actions:
    _known_keys(raw, {"allows", "refuse", "ruling", "involves"}, f"actions of {where!r}")
    if "refuse" not in raw:
        raise BindingError(f"actions of {where!r}: the reject reason (refuse) for any other action is missing")
    return Actions(allows=frozenset(raw.get("allows", ())), refuse=raw["refuse"], ruling=raw.get("ruling"),
                   involves=_involves(raw.get("involves", []), f"actions of {where!r}"))


def _priority(raw: Any, where: str) -> PriorityRule:
    _known_keys(raw, {"first", "alternates", "pass", "ends", "then", "refuse", "ruling", "involves"}, f"priority of {where!r}")
    rule = PriorityRule(first=raw.get("first", ""), alternates=bool(raw.get("alternates", False)),
                        passes=raw.get("pass", "records"), ends=raw.get("ends", ""), then=raw.get("then", ""),
                        refuse=raw.get("refuse", ""), ruling=raw.get("ruling"),
                        involves=_involves(raw.get("involves", []), f"priority of {where!r}"))
    if rule.passes not in PASS_DOES:
        raise BindingError(f"priority of {where!r}: pass is one of {sorted(PASS_DOES)}, not {rule.passes!r}")
    if rule.ends and rule.ends not in PASS_ENDS:
        raise BindingError(f"priority of {where!r}: ends is one of {sorted(PASS_ENDS)}, not {rule.ends!r}")
    if (rule.first or rule.alternates or rule.passes == "gives") and not rule.refuse:
        raise BindingError(f"priority of {where!r}: the reject reason (refuse) for acting out of turn is missing")
    return rule


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
        actions=_actions(raw["actions"], raw["id"]) if "actions" in raw else None,
        priority=_priority(raw["priority"], raw["id"]) if "priority" in raw else None,
    )


def _phase(raw: Mapping[str, Any]) -> Phase:
    _known_keys(raw, _PHASE_KEYS, f"phase {raw.get('id')!r}")
    return Phase(
        id=raw["id"],
        title=raw["title"],
        section=raw.get("section", ""),
        steps=tuple(_step(step) for step in raw.get("steps", ())),
        phases=tuple(_phase(inner) for inner in raw.get("phases", ())),
        actions=_actions(raw["actions"], f"phase {raw['id']}") if "actions" in raw else None,
    )


def _over(raw: Any) -> Over:
    _known_keys(raw, {"condition", "refuse", "ruling", "involves"}, "over")
    return Over(condition=raw["condition"], refuse=raw["refuse"], ruling=raw.get("ruling"),
                involves=_involves(raw.get("involves", []), "over"))


def load_procedure(path: Path) -> Procedure:
    raw: dict[str, Any] = read_yaml(path)
    _known_keys(raw, _PROCEDURE_KEYS, f"procedure {raw.get('id')!r}")
    return Procedure(id=raw["id"], title=raw["title"], phases=tuple(_phase(phase) for phase in raw["phases"]),
                     over=_over(raw["over"]) if "over" in raw else None)


