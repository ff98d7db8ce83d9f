"""The trace: the ordered steps the engine took, each naming its ruling.

A step also names the entities that met in it (cards, monsters, statuses, mechanics):
the site's interaction graphs are built from these, so an edge means the engine made
two entities interact while resolving a scenario.
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: (kind, name): ("card", "Hide"), ("monster", "Pixie"), ("status", "Enchant"), ("mechanic", "taunt").
Entity = tuple[str, str]


#: The kind of entity every game has: a mechanic its rules name, declared in its ``mechanics.yaml``.
MECHANIC = "mechanic"


def mechanic(name: str) -> Entity:
    """A mechanic named by the rules (every game has them: "taunt", "Chain", "rotation")."""
    return (MECHANIC, name)


class TraceStep(NamedTuple):
    """One step of a run, as the engine noted it (see :meth:`checker.engine.game.Context.note`); never changed once noted.

    A named tuple, not a frozen dataclass: a run notes dozens of steps, and a tuple is made several
    times sooner.
    """

    text: str
    ruling: str | None
    phase: str | None
    step: str | None
    action: int | None  # index of the scenario action being applied; None at setup/settle
    values: dict[str, Any]
    entities: tuple[Entity, ...] = ()
    settling: bool = False  # taken when the scenario ended, to finish what its last action left pending

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "ruling": self.ruling,
            "phase": self.phase,
            "step": self.step,
            "action": self.action,
            "values": self.values,
            "entities": [list(entity) for entity in self.entities],
            "settling": self.settling,
        }

    def render(self) -> str:
        cite = f"  [{self.ruling}]" if self.ruling else ""
        return f"{self.text}{cite}"
