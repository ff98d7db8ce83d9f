"""The trace: the ordered steps the engine took, each naming its ruling."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TraceStep:
    text: str
    ruling: str | None = None
    phase: str | None = None
    step: str | None = None
    action: int | None = None  # index of the scenario action being applied; None at setup/settle
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "ruling": self.ruling,
            "phase": self.phase,
            "step": self.step,
            "action": self.action,
            "values": self.values,
        }

    def render(self) -> str:
        cite = f"  [{self.ruling}]" if self.ruling else ""
        return f"{self.text}{cite}"
