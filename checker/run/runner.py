"""Running one scenario: set up, apply each action, compare where asked.

The expected outcome is read only by :func:`run` for comparison, after the
game has produced its own observation; it is never passed to the game.

A golden scenario can fail in three ways, each reported as a FAIL and never
as a bad file: an expected fact differs or is gone, an action it expected to
be legal is refused (play goes on from where the refusal left it), or an
expected refusal does not happen. A crash inside a rules module is an ERROR
with its traceback and the trace up to that point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Protocol

from checker.run.compare import Mismatch, compare, flatten, project
from checker.engine.errors import InputError, Rejection
from checker.engine.procedure import GameState
from checker.engine.game import Context, AnyGame
from checker.format.scenario import Action, Scenario
from checker.engine.statecopy import deep_copy
from checker.engine.trace import TraceStep

Verdict = Literal["pass", "fail", "question", "invalid", "error"]
#: The index of a refused action, or ``SETUP`` for a refusal of the initial state.
SETUP = -1
#: A run that changes its state in place keeps a state from at most this many actions back (a copy every so many
#: actions): recovering from an action refused in place costs a copy and at most this many actions played again.
RECOVERY = 16


@dataclass(frozen=True)
class Checkpoint:
    """The comparison made at setup (``SETUP``), after one action (its index) or at the end (``None``)."""

    action: int | None
    mismatches: tuple[Mismatch, ...]
    observed: dict[str, Any] = field(default_factory=dict)  # the game's facts at that point
    expected: Mapping[str, Any] | None = None  # the scenario's `expect:` compared there; None for a refusal

    @property
    def asserted(self) -> dict[str, Any]:
        """The observed facts that the expectation lists, by dotted path (see :func:`checker.run.compare.project`)."""
        return flatten(project(self.expected, self.observed)) if self.expected is not None else {}

    @property
    def label(self) -> str:
        if self.action == SETUP:
            return "setup"
        return "final outcome" if self.action is None else f"after action {self.action + 1}"


@dataclass(frozen=True)
class Start:
    """Where a run stood before its action ``action`` (before the end of the scenario when ``action`` is the number of
    actions): its state, and how long its trace, its consulted readings, its checkpoints and its refusals were."""

    action: int
    state: GameState  # never changed: a run that keeps its starts copies the state before every action
    trace: int
    consulted: Mapping[str, str]
    checkpoints: int
    rejections: Mapping[int, Rejection]


@dataclass
class RunResult:
    path: str
    scenario: Scenario | None  # None when the file could not be loaded
    verdict: Verdict
    outcome: dict[str, Any] = field(default_factory=dict)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)
    rejections: dict[int, Rejection] = field(default_factory=dict)  # by action index; SETUP for the initial state
    error: InputError | None = None
    crash: str | None = None  # the traceback of a crash inside a rules module
    starts: list[Start] = field(default_factory=list, repr=False, compare=False)  # kept when asked (see :func:`run`)

    @classmethod
    def invalid(cls, path: str, error: InputError) -> "RunResult":
        return cls(path=path, scenario=None, verdict="invalid", error=error)

    @property
    def id(self) -> str:
        return self.scenario.id if self.scenario else ""

    @property
    def mismatches(self) -> list[tuple[str, Mismatch]]:
        return [(cp.label, m) for cp in self.checkpoints for m in cp.mismatches]

    @property
    def cited(self) -> tuple[str, ...]:
        """The rulings the engine's trace cites, in the order it first cites them."""
        return tuple(dict.fromkeys(step.ruling for step in self.trace if step.ruling))


def refused_what(index: int) -> str:
    """What a refusal at ``index`` refused, for people: the initial state or action N."""
    return "the initial state" if index == SETUP else f"action {index + 1}"


class Audit(Protocol):
    """Watches a run from outside (the contract tests): every state and every observation."""

    def before(self, state: GameState) -> None: ...

    def after(self, given: Any, produced: Any) -> None: ...

    def observed(self, facts: Mapping[str, Any]) -> None: ...


def run(scenario: Scenario, game: AnyGame, pins: Mapping[str, str] | None = None, *, audit: Audit | None = None,
        keep_starts: bool = False, resume: tuple[RunResult, Start] | None = None) -> RunResult:
    """Play ``scenario`` by ``game``'s rules; ``pins`` override the scenario's own readings.

    ``keep_starts``: the result keeps where the run stood before each action (:attr:`RunResult.starts`).
    ``resume``: an earlier run of the same scenario and one of its starts, before which that run consulted
    no ruling that ``pins`` read otherwise; this run takes that run's steps up to there and plays on from
    there, which is what playing from the beginning gives, but for the words of the trace steps that say
    which readings are pinned.
    """
    context = Context(game, {**scenario.readings, **(pins or {})})
    result = RunResult(path=scenario.path, scenario=scenario, verdict="pass")
    play = _Play(scenario, game, context, result, audit, [] if keep_starts else None)
    try:
        play.run(resume)
    except InputError as error:
        result.verdict = "invalid"
        result.error = scenario.document.locate(error)
    except Exception:  # a bug in a rules module, not in the scenario
        import traceback  # only for a crash

        result.verdict = "error"
        result.crash = traceback.format_exc()
    result.trace = context.trace
    result.readings = dict(context.consulted)
    result.starts = play.starts or []
    if result.verdict == "pass":
        if scenario.is_question:
            result.verdict = "question"
        elif result.mismatches:
            result.verdict = "fail"
    return result


@dataclass
class _Play:
    scenario: Scenario
    game: AnyGame
    context: Context
    result: RunResult
    audit: Audit | None
    starts: list[Start] | None = None  # kept when asked
    #: An action's index and the state before it, which nothing changes: what a refusal in place is recovered from.
    kept: tuple[int, Any] | None = None

    def run(self, resume: tuple[RunResult, Start] | None = None) -> None:
        if resume is None:
            self._play(self._setup(), 0)
        else:
            earlier, start = resume
            self.context.trace[:] = earlier.trace[:start.trace]
            self.context.consulted = dict(start.consulted)
            self.result.checkpoints = earlier.checkpoints[:start.checkpoints]
            self.result.rejections = dict(start.rejections)
            self._play(start.state, start.action)
        self._check_cites()
        self._check_trace()

    def _play(self, state: GameState | None, first: int) -> None:
        """Play from the action ``first`` on, from ``state`` (``None``: the game refused the initial state)."""
        if state is None:
            return
        owned = False  # whether the run made the state (a copy) and nothing else holds it: not the setup's, nor a start's
        observed = None  # the last state whose facts a checkpoint keeps (they may share its lists and dicts)
        for action in self.scenario.actions[first:]:
            self._keep_start(action.index, state)
            self.context.action = action.index
            # A state nothing else holds (no start kept, no audit, no checkpoint's facts) is changed where it stands.
            alone = owned and self.starts is None and self.audit is None and state is not observed
            produced = self._apply(state, action, alone=alone)
            owned = alone or produced is not state
            state = produced
            if action.expect is not None:
                observed = state
                self._compare(action.index, action.expect, self._observe(state), at=("actions", action.index, "expect"))
        self._keep_start(len(self.scenario.actions), state)
        self.context.action = None
        self.context.settling = True
        if owned and self.starts is None and self.audit is None and state is not observed:
            self.game.finish(state, self.context)
        else:
            state = self.game.settle(state, self.context)
        self.context.settling = False
        self.result.outcome = self._observe(state)
        if self.scenario.expect is not None:
            self._compare(None, self.scenario.expect, self.result.outcome, at=("expect",))

    def _keep_start(self, action: int, state: GameState) -> None:
        if self.starts is not None:
            self.starts.append(Start(action, state, len(self.context.trace), dict(self.context.consulted),
                                     len(self.result.checkpoints), dict(self.result.rejections)))

    def _check_cites(self) -> None:
        """Every ruling listed under ``expect_cites`` must be cited somewhere in the trace, none listed
        under ``expect_not_cited`` anywhere."""
        if not self.scenario.expect_cites and not self.scenario.expect_not_cited:
            return
        cited = {step.ruling: step for step in reversed(self.context.trace)}  # the first step citing each
        missing = tuple(
            Mismatch("cites", ruling, None, note="the trace does not cite it", at=("expect_cites", index))
            for index, ruling in enumerate(self.scenario.expect_cites)
            if ruling not in cited
        )
        unwanted = tuple(
            Mismatch("not cited", None, ruling, note=f"the trace cites it: {cited[ruling].text}", at=("expect_not_cited", index))
            for index, ruling in enumerate(self.scenario.expect_not_cited)
            if ruling in cited
        )
        if missing or unwanted:
            self.result.checkpoints.append(Checkpoint(None, missing + unwanted))

    def _check_trace(self) -> None:
        """Every step listed under ``expect_trace`` must be matched by a step of the trace."""
        missing = tuple(
            Mismatch("trace", expected.describe(), None, note="no step of the trace matches it", at=("expect_trace", index))
            for index, expected in enumerate(self.scenario.expect_trace)
            if not any(expected.matches(step) for step in self.context.trace)
        )
        if missing:
            self.result.checkpoints.append(Checkpoint(None, missing))

    def _setup(self) -> GameState | None:
        """The initial state, or ``None`` when the game refuses it (which a scenario may expect)."""
        expected = self.scenario.reject
        try:
            state: GameState = self.game.setup(self.scenario.initial, self.scenario.cards, self.context)
        except Rejection as rejection:
            self.result.rejections[SETUP] = _kept(rejection)
            if expected != rejection.reason and not self.scenario.is_question:
                self._mismatch(SETUP, _refused("reject.reason", expected, rejection, at=("reject",)))
            if self.scenario.expect is not None:
                self._compare(None, self.scenario.expect, {}, at=("expect",))
            return None
        if expected is not None:
            self._mismatch(SETUP, Mismatch("reject.reason", expected, None, note="the game accepted the initial state",
                                           at=("reject",)))
        return state

    def _apply(self, state: GameState, action: Action, *, alone: bool) -> Any:
        """The state after one action, or where play stands when the rules refuse it. In a question a refusal is part
        of the answer; elsewhere it must be expected.

        A state something else holds is never changed: :meth:`Game.apply` plays on a copy, and the state is kept as
        the one to recover from (:attr:`kept`). A state nothing else holds (``alone``) is changed where it stands,
        after a copy for an action that may well be refused (:meth:`_on_a_copy`), else without one (:meth:`_in_place`).
        """
        if self.audit is not None:
            self.audit.before(state)
        try:
            if not alone:
                self.kept = action.index, state
                produced = self.game.apply(state, action.data, self.context)
            elif action.reject is not None or self.scenario.is_question:
                produced = self._on_a_copy(state, action.data)
            else:
                produced = self._in_place(state, action)
        except InputError as error:
            path = ("actions", action.index if error.action is None else error.action)
            raise InputError(error.message, path=path + error.path, expected=error.expected, on_key=error.on_key) from None
        except Rejection as rejection:
            standing = rejection.standing
            self.result.rejections[action.index] = _kept(rejection)
            if self.audit is not None:
                self.audit.after(state, standing)
            if action.reject != rejection.reason and not self.scenario.is_question:
                self._mismatch(action.index, _refused(f"actions[{action.index}].reject.reason", action.reject, rejection,
                                                      at=("actions", action.index)))
            return standing
        if self.audit is not None:
            self.audit.after(state, produced)
        if action.reject is not None:
            self._mismatch(action.index, Mismatch(f"actions[{action.index}].reject.reason", action.reject, None,
                                                  note="the action was legal", at=("actions", action.index)))
        return produced

    def _on_a_copy(self, state: GameState, data: Mapping[str, Any]) -> Any:
        """An action that may well be refused (a golden scenario's expected refusal, any action of a question), on a
        state nothing else holds: what ``before_action`` finishes, it finishes on ``state`` itself, which is where play
        stands if the action is refused; the action itself is played on a copy."""
        self.game.before_action(state, data, self.context)
        working = deep_copy(state)
        try:
            self.game.act(working, data, self.context)
        except Rejection as rejection:
            rejection.standing = state
            raise
        return working

    def _in_place(self, state: GameState, action: Action) -> Any:
        """An action expected to be legal, played on the state itself, which nothing else holds. The run keeps a state
        from at most ``RECOVERY`` actions back, copying the state before the action when the one it keeps is older;
        a refusal after all is recovered from it (:meth:`_recovered`)."""
        if self.kept is None or action.index - self.kept[0] >= RECOVERY:
            self.kept, state = (action.index, state), deep_copy(state)
        self.game.before_action(state, action.data, self.context)
        try:
            self.game.act(state, action.data, self.context)
        except Rejection as rejection:
            rejection.standing = self._recovered(action.index)
            raise
        return state

    def _recovered(self, index: int) -> Any:
        """Where play stands once action ``index``, played in place, was refused (the action left the state half
        changed): on a copy of the state the run keeps, the actions since are played again as they went the first
        time (a refused one: what ``before_action`` finished), then what ``before_action`` finishes before action
        ``index``. Play is deterministic, so each does what it did; none of it is traced again."""
        assert self.kept is not None  # _in_place keeps one before it plays an action in place
        first, kept = self.kept
        context = Context(self.game, self.context.pins)
        working = deep_copy(kept)
        for action in self.scenario.actions[first:index + 1]:
            context.action = action.index
            self.game.before_action(working, action.data, context)
            if action.index == index or action.index in self.result.rejections:
                continue
            try:
                self.game.act(working, action.data, context)
            except Rejection as rejection:
                raise RuntimeError(f"play is not deterministic: action {action.index + 1}, legal the first time, was "
                                   f"refused when played again ({rejection})") from None
        return working

    def _observe(self, state: GameState) -> dict[str, Any]:
        facts = self.game.observe(state)
        if self.audit is not None:
            self.audit.observed(facts)
        return facts

    def _compare(self, index: int | None, expected: Mapping[str, Any], observed: dict[str, Any], *, at: tuple[Any, ...]) -> None:
        self.result.checkpoints.append(Checkpoint(index, tuple(compare(expected, observed, at=at)), observed, expected))

    def _mismatch(self, index: int, mismatch: Mismatch) -> None:
        self.result.checkpoints.append(Checkpoint(index, (mismatch,)))


def _kept(rejection: Rejection) -> Rejection:
    """The refusal as the result keeps it: without the frames it was raised through, which hold the run
    that holds the result (a cycle only the garbage collector would free), nor the state play went on from."""
    rejection.__traceback__ = rejection.__context__ = None
    rejection.standing = None
    return rejection


def _refused(field_name: str, expected: str | None, rejection: Rejection, *, at: tuple[Any, ...]) -> Mismatch:
    """An unexpected refusal (``expected`` is ``None``: the action was to be legal) or a refusal for another reason."""
    return Mismatch(field_name, expected, rejection.reason, note=f"refused: {rejection.message}", at=at)
