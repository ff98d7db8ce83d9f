"""Running one scenario: set up, apply each action, compare where asked.

The expected outcome is read only by :func:`run` for comparison, after the
game has produced its own observation; it is never passed to the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from checker.compare import Mismatch, compare
from checker.errors import InputError, Rejection
from checker.game import Context, Game
from checker.scenario import Action, Scenario
from checker.trace import TraceStep

Verdict = Literal["pass", "fail", "question", "invalid", "error"]


@dataclass(frozen=True)
class Checkpoint:
    """The comparison made after one action (``action`` is its index) or at the end (``None``)."""

    action: int | None
    mismatches: tuple[Mismatch, ...]
    observed: dict[str, Any] = field(default_factory=dict)  # the game's facts at that point

    @property
    def label(self) -> str:
        return "final outcome" if self.action is None else f"after action {self.action + 1}"


@dataclass
class RunResult:
    path: str
    scenario: Scenario | None  # None when the file could not be loaded
    verdict: Verdict
    outcome: dict[str, Any] = field(default_factory=dict)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)
    rejections: dict[int, Rejection] = field(default_factory=dict)
    error: InputError | None = None
    crash: str | None = None

    @classmethod
    def invalid(cls, path: str, error: InputError) -> "RunResult":
        return cls(path=path, scenario=None, verdict="invalid", error=error)

    @property
    def id(self) -> str:
        return self.scenario.id if self.scenario else ""

    @property
    def mismatches(self) -> list[tuple[str, Mismatch]]:
        return [(cp.label, m) for cp in self.checkpoints for m in cp.mismatches]


def run(scenario: Scenario, game: Game, pins: Mapping[str, str] | None = None, *, exploring: bool = False) -> RunResult:
    """Play ``scenario`` by ``game``'s rules; ``pins`` override the scenario's own readings.

    When ``exploring`` (another reading than the scenario's own), an action the rules refuse
    is reported as a mismatch and play goes on, instead of making the file invalid.
    """
    context = Context(game.catalogue, {**scenario.readings, **(pins or {})})
    result = RunResult(path=scenario.path, scenario=scenario, verdict="pass")
    try:
        _play(scenario, game, context, result, exploring)
    except InputError as error:
        result.verdict = "invalid"
        result.error = scenario.document.locate(error)
    except Exception as crash:  # a bug in a rules module, not in the scenario
        result.verdict = "error"
        result.crash = f"{type(crash).__name__}: {crash}"
    result.trace = context.trace
    result.readings = dict(context.consulted)
    if result.verdict == "pass":
        if scenario.is_question:
            result.verdict = "question"
        elif result.mismatches:
            result.verdict = "fail"
    return result


def _play(scenario: Scenario, game: Game, context: Context, result: RunResult, exploring: bool) -> None:
    state = game.setup(scenario.initial, scenario.cards, context)
    for action in scenario.actions:
        context.action = action.index
        state = _apply(game, state, action, context, result, question=scenario.is_question, exploring=exploring)
        if action.expect is not None:
            at = ("actions", action.index, "expect")
            observed = game.observe(state)
            mismatches = compare(action.expect, observed, at=at, strict=not exploring)
            result.checkpoints.append(Checkpoint(action.index, tuple(mismatches), observed))
    context.action = None
    state = game.settle(state, context)
    result.outcome = game.observe(state)
    if scenario.expect is not None:
        mismatches = compare(scenario.expect, result.outcome, at=("expect",), strict=not exploring)
        result.checkpoints.append(Checkpoint(None, tuple(mismatches), result.outcome))


def _apply(
    game: Game, state: Any, action: Action, context: Context, result: RunResult, *, question: bool, exploring: bool
) -> Any:
    """Apply one action. In a question a rejection is part of the answer; elsewhere it must be expected."""
    path = ("actions", action.index)
    try:
        new_state = game.apply(state, action.data, context)
    except InputError as error:
        raise InputError(error.message, path=path + error.path, expected=error.expected, on_key=error.on_key) from None
    except Rejection as rejection:
        result.rejections[action.index] = rejection
        if question:
            return state
        if action.reject is None and exploring:
            mismatch = Mismatch(f"actions[{action.index}].reject.reason", None, rejection.reason)
            result.checkpoints.append(Checkpoint(action.index, (mismatch,)))
            return state
        if action.reject is None:
            raise InputError(
                f"action {action.index + 1} ({action.kind}) is illegal here: {rejection.message} [{rejection.reason}]",
                path=path,
                expected=f"a legal action, or 'reject: {{reason: {rejection.reason}}}' if the rejection is the point",
            ) from None
        if rejection.reason != action.reject:
            mismatch = Mismatch(f"actions[{action.index}].reject.reason", action.reject, rejection.reason)
            result.checkpoints.append(Checkpoint(action.index, (mismatch,)))
        return state
    if action.reject is not None:
        mismatch = Mismatch(f"actions[{action.index}].reject.reason", action.reject, None)
        result.checkpoints.append(Checkpoint(action.index, (mismatch,)))
    return new_state
