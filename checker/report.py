"""Turning results into text for people and JSON for machines."""

from __future__ import annotations

from typing import Any, Iterable

import yaml

from checker.catalogue import Catalogue
from checker.citations import uncited
from checker.compare import Mismatch, flatten
from checker.readings import Exploration
from checker.runner import SETUP, RunResult
from checker.trace import TraceStep

LABELS = {"pass": "PASS", "fail": "FAIL", "question": "ANSWER", "invalid": "INVALID", "error": "ERROR"}


def headline(result: RunResult) -> str:
    if result.verdict == "invalid" and result.error is not None:
        return f"INVALID  {result.error.render(result.path)}"
    return f"{LABELS[result.verdict]:<7}  {result.id}  ({result.path})"


def details(result: RunResult) -> list[str]:
    """What a reader needs under the headline: every mismatch with its line, a crash with its trace."""
    lines: list[str] = []
    for label, mismatch in result.mismatches:
        lines.append(f"    {_where(result, mismatch)}{label}: {mismatch.render()}")
    if result.crash:
        lines.append("    internal error in a rules module (a bug in the checker, not in the scenario):")
        lines += ["      " + line for line in result.crash.rstrip().splitlines()]
        lines.append("    trace up to the crash:")
        lines += ["    " + line for line in trace_lines(result.trace)]
    return lines


def _where(result: RunResult, mismatch: Mismatch) -> str:
    if result.scenario is None or not mismatch.at:
        return ""
    position = result.scenario.document.position(mismatch.at)
    return f"line {position.line}: " if position else ""


def citation_note(result: RunResult, catalogue: Catalogue) -> str:
    """What the file declares that its run does not cite, as a suffix for the headline ('' if nothing)."""
    missing = uncited(result, catalogue)
    return f"  declared, not cited by the trace: {', '.join(missing)}" if missing else ""


def trace_lines(trace: Iterable[TraceStep]) -> list[str]:
    lines: list[str] = []
    current: tuple[Any, ...] | None = None
    number = 0
    for step in trace:
        heading = (step.action, step.settling, step.phase)
        if heading != current:
            current = heading
            if step.action is not None:
                where = f"action {step.action + 1}"
            else:
                where = "when the scenario ends" if step.settling else "setup"
            lines.append(f"  -- {where}{' / ' + step.phase if step.phase else ''}")
        number += 1
        lines.append(f"  {number:>3}. {step.render()}")
    return lines


class _PlainDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """LibYAML's emitter where PyYAML has it; never writes anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def yaml_text(data: Any, *, flow_leaves: bool = False, width: int = 80) -> str:
    """Data as YAML for people: keys in their order, no aliases; short lists inline if ``flow_leaves``.

    Text longer than ``width`` is folded onto further lines.
    """
    return yaml.dump(
        data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, default_flow_style=None if flow_leaves else False,
        width=width,
    )


def outcome_text(outcome: dict[str, Any]) -> str:
    return yaml_text(outcome, flow_leaves=True).rstrip()


def explain(result: RunResult) -> str:
    if result.error is not None or result.scenario is None:
        return headline(result)
    parts = [f"{result.scenario.id}: {result.scenario.title}", f"verdict: {LABELS[result.verdict]}"]
    parts += details(result)
    for index, rejection in sorted(result.rejections.items()):
        parts.append(f"{_refused_what(index)} rejected: {rejection.reason}: {rejection.message}")
    if result.readings:
        parts.append("readings of ambiguous rulings used: " + ", ".join(f"{r}={n}" for r, n in result.readings.items()))
    parts.append("trace:")
    parts += trace_lines(result.trace)
    parts.append("outcome:")
    parts.append("  " + outcome_text(result.outcome).replace("\n", "\n  "))
    return "\n".join(parts)


def _refused_what(index: int) -> str:
    return "the initial state" if index == SETUP else f"action {index + 1}"


def summary(results: list[RunResult]) -> str:
    counts = {verdict: 0 for verdict in LABELS}
    for result in results:
        counts[result.verdict] += 1
    return (
        f"{counts['pass']} passed, {counts['fail'] + counts['error']} failed, "
        f"{counts['invalid']} invalid, {counts['question']} answered"
    )


def result_json(result: RunResult, *, with_trace: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": result.id,
        "path": result.path,
        "verdict": result.verdict,
        "mismatches": [dict(where=label, **m.to_json()) for label, m in result.mismatches],
        "rejections": {str(i + 1): {"reason": r.reason, "message": r.message} for i, r in result.rejections.items()},
        "readings": result.readings,
    }
    if result.error is not None:
        position = result.error.position
        data["error"] = {
            "file": result.path,
            "line": position.line if position else None,
            "column": position.column if position else None,
            "message": result.error.message,
            "expected": result.error.expected,
        }
    if result.crash:
        data["error"] = {"file": result.path, "message": result.crash.rstrip().splitlines()[-1], "internal": True,
                         "traceback": result.crash}
    data["cited"] = list(result.cited)
    if with_trace:
        data["outcome"] = result.outcome
        data["trace"] = [step.to_json() for step in result.trace]
    return data


def exploration_text(exploration: Exploration) -> str:
    if not exploration.touched:
        return "This scenario touches no ambiguous ruling: its outcome does not depend on any reading."
    lines = ["Ambiguous rulings touched: " + ", ".join(exploration.touched)]
    flats = [flatten(branch.result.outcome) for branch in exploration.branches]
    differing = sorted({key for flat in flats for key in flat if len({repr(f.get(key)) for f in flats}) > 1})
    for branch, flat in zip(exploration.branches, flats, strict=True):
        pins = ", ".join(f"{r}={n}" for r, n in branch.readings.items())
        lines.append(f"- under {pins}: {LABELS[branch.result.verdict]}")
        for index, rejection in sorted(branch.result.rejections.items()):
            lines.append(f"    {_refused_what(index)} rejected: {rejection.reason}: {rejection.message}")
        for label, mismatch in branch.result.mismatches:
            lines.append(f"    {label}: {mismatch.render()}")
        for key in differing:
            lines.append(f"    {key} = {flat.get(key)!r}")
    verdict = "DEPENDS on the reading" if exploration.depends_on_reading else "is the same under every reading"
    lines.append(f"The outcome {verdict}.")
    return "\n".join(lines)
