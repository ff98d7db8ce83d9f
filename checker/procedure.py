"""A game's procedure, declared once as data and walked by its rules module.

``procedure.yaml`` lists the phases of play in order, each with its ordered
steps. The rules module registers one handler per step id with a
:class:`StepHandlers`; :meth:`Procedure.walk` calls them in the declared order.
The site draws the same declaration, so the engine and the graphs cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

Handler = Callable[..., None]


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    rulings: tuple[str, ...] = ()
    when: str = ""
    repeat: bool = False  # runs once per player action (for example, per defense card)
    returns_to: str = ""  # the step play goes back to after this one (a repeating cycle of steps)


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    steps: tuple[Step, ...]
    section: str = ""
    repeat: bool = False


@dataclass(frozen=True)
class Procedure:
    id: str
    title: str
    phases: tuple[Phase, ...]

    def step(self, step_id: str) -> Step:
        for _, step in self.steps():
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    def phase(self, phase_id: str) -> Phase:
        for phase in self.phases:
            if phase.id == phase_id:
                return phase
        raise KeyError(phase_id)

    def steps(self) -> Iterator[tuple[Phase, Step]]:
        for phase in self.phases:
            for step in phase.steps:
                yield phase, step

    def walk(self, phase_id: str, handlers: "StepHandlers", context: Any, *args: Any) -> None:
        """Run every step of ``phase_id`` in declared order, except repeating ones."""
        phase = self.phase(phase_id)
        for step in phase.steps:
            if not step.repeat:
                self.run_step(phase, step, handlers, context, *args)

    def run(self, step_id: str, handlers: "StepHandlers", context: Any, *args: Any) -> None:
        """Run one step on its own (a repeating step, driven by a player's action)."""
        for phase, step in self.steps():
            if step.id == step_id:
                self.run_step(phase, step, handlers, context, *args)
                return
        raise KeyError(step_id)

    @staticmethod
    def run_step(phase: Phase, step: Step, handlers: "StepHandlers", context: Any, *args: Any) -> None:
        with context.in_step(phase, step):
            handlers[step.id](context, *args)


class StepHandlers:
    """The rules module's functions, one per procedure step id."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def __call__(self, step_id: str) -> Callable[[Handler], Handler]:
        def register(function: Handler) -> Handler:
            if step_id in self._handlers:
                raise ValueError(f"step {step_id!r} has two handlers")
            self._handlers[step_id] = function
            return function

        return register

    def __getitem__(self, step_id: str) -> Handler:
        return self._handlers[step_id]

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(self._handlers)


def load_procedure(path: Path) -> Procedure:
    raw: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Procedure(
        id=raw["id"],
        title=raw["title"],
        phases=tuple(
            Phase(
                id=phase["id"],
                title=phase["title"],
                section=phase.get("section", ""),
                repeat=bool(phase.get("repeat", False)),
                steps=tuple(
                    Step(
                        id=step["id"],
                        title=step["title"],
                        rulings=tuple(step.get("rulings", ())),
                        when=step.get("when", ""),
                        repeat=bool(step.get("repeat", False)),
                        returns_to=step.get("returns_to", ""),
                    )
                    for step in phase["steps"]
                ),
            )
            for phase in raw["phases"]
        ),
    )
