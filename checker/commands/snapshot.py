"""What the checker of one tree says about its scenario files, read from its JSON in a subprocess.

The checker that runs is the ``checker`` package of that tree (its folder comes
first on the module path), so a revision is judged by its own rules modules, and
nothing of it is imported here. The JSON is ``checker check --format json
--with-outcomes``: a revision whose checker lacks that option predates
``checker diff`` and cannot be compared.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from checker.engine.errors import InputError, Position

OPTION = "--with-outcomes"
#: The verdicts of a file that was played to its end: its outcome and its citations are complete.
PLAYED = ("pass", "fail", "question")


@dataclass(frozen=True)
class Observed:
    """One scenario file as the checker of one tree saw it."""

    path: str  # relative to the repository's top folder
    id: str  # "" when the file could not be loaded
    game: str | None
    verdict: str
    outcome: Mapping[str, Any]
    refusals: Mapping[str, str]  # the reason of each refused action, by action number ("0": the initial state)
    cited: tuple[str, ...]
    problem: str | None  # why the file is invalid or the engine crashed, in one line

    @property
    def played(self) -> bool:
        return self.verdict in PLAYED

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Observed":
        return cls(
            path=data["path"],
            id=data.get("id") or "",
            game=data.get("game"),
            verdict=data["verdict"],
            outcome=data.get("outcome") or {},
            refusals={number: refusal["reason"] for number, refusal in data.get("rejections", {}).items()},
            cited=tuple(data.get("cited", ())),
            problem=_problem(data.get("error")),
        )


def _problem(error: Mapping[str, Any] | None) -> str | None:
    if error is None:
        return None
    if error.get("internal"):
        return f"internal error in a rules module: {error['message']}"
    position = Position(error["line"], error["column"]) if error.get("line") else None
    return InputError(error["message"], expected=error.get("expected"), position=position).render(error["file"])


def observe(root: Path, paths: Sequence[str], label: str) -> list[Observed]:
    """Every scenario file under ``paths`` (relative to ``root``; those missing in this tree are skipped)."""
    present = [path for path in paths if (root / path).exists()]
    if not present:
        return []
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "checker", "check", "--format", "json", OPTION, "--", *present]
    done = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=False)
    try:
        results = json.loads(done.stdout)["results"]
    except (ValueError, KeyError, TypeError):
        raise _did_not_run(label, done) from None
    return [Observed.from_json(result) for result in results]


def _did_not_run(label: str, done: subprocess.CompletedProcess[str]) -> InputError:
    if "unrecognized arguments" in done.stderr and OPTION in done.stderr:
        return InputError(
            f"{label} predates 'checker diff': its checker has no 'checker check {OPTION}'",
            expected=f"a revision whose checker has 'check {OPTION}': both sides of a diff need it",
        )
    return InputError(f"the checker of {label} did not run (exit {done.returncode}): {_failure(done.stderr)}")


def _failure(stderr: str) -> str:
    """The last line of a failed run's error output, with the last file and line its traceback names."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if not lines:
        return "no output"
    places = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    return lines[-1] + (f" ({places[-1][0]}, line {places[-1][1]})" if places else "")
