"""Turning results into text for people and JSON for machines."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from checker.engine.catalogue import Catalogue
from checker.run.citations import uncited
from checker.run.compare import Mismatch, flatten, shown
from checker.engine.errors import InputError, Rejection
from checker.engine.game import AnyGame
from checker.run.runner import RunResult, refused_what
from checker.engine.trace import TraceStep
from checker.format.yamlwrite import yaml_text
from checker.format.scenario import ProposedAmbiguity

if TYPE_CHECKING:  # annotations only: the first two build on this module, readings only `checker readings` needs
    from checker.commands.disputes import Finding
    from checker.commands.gaps import Gaps
    from checker.commands.readings import Branch, Survey, Variation

LABELS = {"pass": "PASS", "fail": "FAIL", "question": "ANSWER", "invalid": "INVALID", "error": "ERROR"}


def headline(result: RunResult) -> str:
    if result.verdict == "invalid" and result.error is not None:
        return f"INVALID  {result.error.render(result.path)}"
    return f"{LABELS[result.verdict]:<7}  {result.id}  ({result.path})"


def details(result: RunResult) -> list[str]:
    """What a reader needs under the headline: further problems of a bad file, every mismatch with its
    line, a crash with its trace."""
    lines: list[str] = []
    if result.error is not None:
        lines += [f"         {other.render(result.path)}" for other in result.error.also]
    for label, mismatch in result.mismatches:
        lines.append(f"    {_where(result, mismatch)}{label}: {mismatch.render()}")
    if result.crash:
        lines.append("    internal error in a rules module (a bug in the checker, not in the scenario):")
        lines += ["      " + line for line in result.crash.rstrip().splitlines()]
        lines.append("    trace up to the crash:")
        lines += ["    " + line for line in trace_lines(result.trace)]
    return lines


def check_text(result: RunResult, games: Mapping[str, AnyGame]) -> str:
    """A result as ``checker check`` prints it: its headline, then whatever details it has."""
    note = citation_note(result, games[result.scenario.game].catalogue) if result.scenario else ""
    refused = refusal_lines(result) if result.verdict == "question" else []
    return "\n".join([headline(result) + refusal_note(result) + note, *refused, *details(result)])


def refusal_note(result: RunResult) -> str:
    """What the rules refused, as a suffix for the headline ('' if nothing): each refusal with its reason
    and the ruling applied."""
    if result.verdict in ("invalid", "error") or not result.rejections:
        return ""
    return "  refused: " + "; ".join(f"{refused_what(index)} ({_reason(rejection)})" for index, rejection in sorted(result.rejections.items()))


def refusal_lines(result: RunResult) -> list[str]:
    """Each refusal in the rules' words, one line each, for a question (a file that expects nothing)."""
    return [f"    {refused_what(index)} refused: {_reason(rejection)}: {rejection.message}" for index, rejection in sorted(result.rejections.items())]


def _reason(rejection: Rejection) -> str:
    return f"{rejection.reason}, by {rejection.ruling}" if rejection.ruling else rejection.reason


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


def outcome_text(outcome: dict[str, Any]) -> str:
    return yaml_text(outcome, flow_leaves=True).rstrip()


def explain(result: RunResult) -> str:
    if result.error is not None or result.scenario is None:
        return headline(result)
    parts = [f"{result.scenario.id}: {result.scenario.title}", f"verdict: {LABELS[result.verdict]}"]
    parts += details(result)
    parts += [line.strip() for line in refusal_lines(result)]
    if result.readings:
        parts.append("readings of ambiguous rulings used: " + ", ".join(f"{r}={n}" for r, n in result.readings.items()))
    parts.append("trace:")
    parts += trace_lines(result.trace)
    parts.append("outcome:")
    parts.append("  " + outcome_text(result.outcome).replace("\n", "\n  "))
    return "\n".join(parts)


def _error_json(path: str, error: InputError) -> dict[str, Any]:
    position = error.position
    return {
        "file": path,
        "line": position.line if position else None,
        "column": position.column if position else None,
        "message": error.message,
        "expected": error.expected,
    }


def summary(results: list[RunResult]) -> str:
    return summary_of(result.verdict for result in results)


def summary_of(verdicts: Iterable[str]) -> str:
    counts = {verdict: 0 for verdict in LABELS}
    for verdict in verdicts:
        counts[verdict] += 1
    return (
        f"{counts['pass']} passed, {counts['fail'] + counts['error']} failed, "
        f"{counts['invalid']} invalid, {counts['question']} answered"
    )


def json_document(summary: str, results: list[str]) -> str:
    """``{"summary": ..., "results": [...]}`` as ``json.dumps(..., indent=2)`` writes it, from each result already
    written by ``json.dumps(result, indent=2)``: what ``checker check --format json`` prints."""
    nested = ",\n".join("    " + result.replace("\n", "\n    ") for result in results)
    return f'{{\n  "summary": {json.dumps(summary)},\n  "results": [\n{nested}\n  ]\n}}' if results else json.dumps(
        {"summary": summary, "results": []}, indent=2
    )


def result_json(result: RunResult, *, with_trace: bool = False, with_outcome: bool = False) -> dict[str, Any]:
    """One result for machines; ``with_outcome`` adds the game and the outcome facts (what ``checker diff`` reads)."""
    data: dict[str, Any] = {
        "id": result.id,
        "path": result.path,
        "verdict": result.verdict,
        "mismatches": [dict(where=label, **m.to_json()) for label, m in result.mismatches],
        "rejections": {str(i + 1): {"reason": r.reason, "message": r.message, "ruling": r.ruling} for i, r in result.rejections.items()},
        "readings": result.readings,
    }
    if result.error is not None:
        problems = [_error_json(result.path, problem) for problem in result.error.problems]
        data["error"] = problems[0]
        data["errors"] = problems
    if result.crash:
        data["error"] = {"file": result.path, "message": result.crash.rstrip().splitlines()[-1], "internal": True,
                         "traceback": result.crash}
    data["cited"] = list(result.cited)
    if with_outcome or with_trace:
        data["game"] = result.scenario.game if result.scenario else None
        data["outcome"] = result.outcome
    if with_trace:
        data["trace"] = [step.to_json() for step in result.trace]
    return data


def readings_text(survey: Survey, *, verbose: bool = False) -> str:
    """What the readings of the ambiguous rulings change in what the file asserts, ending with a verdict per ruling.

    ``verbose`` adds every run's verdict, refusals, mismatches and every outcome fact that differs between runs.
    """
    own = survey.own.result
    proposed = _proposed_lines(own.scenario.proposed) if own.scenario and own.scenario.proposed else []
    if not survey.touched:
        if proposed:
            return "\n".join([f"{own.id}: its verdict depends on no reading of an ambiguous ruling the catalogue lists.", *proposed])
        return f"{own.id}: touches no ambiguous ruling: its outcome does not depend on any reading."
    in_force = ", ".join(f"{ruling}={_tagged(survey, ruling, name)}" for ruling, name in survey.own.readings.items())
    lines = [f"{own.id}: {LABELS[own.verdict]} as the file reads them: {in_force}"]
    if verbose:
        lines += _every_run(survey.branches)
    for variation in survey.variations:
        if variation.changes_the_outcome:
            lines += _variation_lines(survey, variation)
    lines += [f"{ruling}: {_ruling_verdict(survey, ruling)}" for ruling in survey.touched]
    varied = len(survey.variations)
    rulings = f"the {varied} ambiguous ruling{'s' if varied != 1 else ''} it touches{' and does not pin' if survey.held else ''}"
    if survey.passes_under_every_reading:
        lines.append(f"passes under every reading of {rulings}")
    elif survey.same_answer_under_every_reading:
        lines.append(f"gives the same answer under every reading of {rulings}")
    return "\n".join(lines + proposed)


def _proposed_lines(proposed: ProposedAmbiguity) -> list[str]:
    """The ambiguity the file proposes, which no engine switch reads yet: the checker cannot vary it."""
    return [
        f"It proposes an ambiguity the catalogue does not list (line {proposed.line} of the source), "
        "which the checker cannot vary until the catalogue adds it:",
        f"  \"{proposed.passage}\"",
        *(f"  - {reading}" for reading in proposed.readings),
    ]


def _tagged(survey: Survey, ruling: str, name: str) -> str:
    scenario = survey.own.result.scenario
    if scenario and scenario.ruling and scenario.ruling.readings.get(ruling) == name:
        return f"{name} (adopted by the ruling)"
    return f"{name} ({'pinned' if survey.pinned.get(ruling) == name else 'default'})"


def _ruling_verdict(survey: Survey, ruling: str) -> str:
    if ruling in survey.held:
        scenario = survey.own.result.scenario
        by = "the ruling adopted" if scenario and scenario.ruling and ruling in scenario.ruling.readings else "pinned by the file"
        return f"{survey.pinned[ruling]}, {by}: not varied (--vary-pinned varies it)"
    [variation] = (v for v in survey.variations if v.ruling == ruling)
    context = _departure(survey, variation)
    verdict = "changes the outcome" if variation.changes_the_outcome else "no difference here"
    return f"{verdict} ({context}, where it is consulted)" if context else verdict


def _departure(survey: Survey, variation: Variation) -> str:
    """Where a ruling consulted only under another reading was varied: 'under r=name' ('' for the file's own run)."""
    ruling, baseline = variation.ruling, variation.baseline
    own = survey.own.readings
    under = [f"{r}={n}" for r, n in baseline.readings.items() if r != ruling and own.get(r) != n]
    return f"under {', '.join(under)}" if under else ""


def _variation_lines(survey: Survey, variation: Variation) -> list[str]:
    """Each reading's verdict, then each asserted fact that differs with its value under each reading."""
    ruling = variation.ruling
    context = _departure(survey, variation)
    lines = [f"{ruling}, {context + ', ' if context else ''}every other reading as the file has it:"]
    names = [branch.readings[ruling] for branch in variation.branches]
    labels = [_tagged(survey, ruling, names[0]), *names[1:]]
    lines += [f"    {label}: {LABELS[branch.result.verdict]}" for label, branch in zip(labels, variation.branches, strict=True)]
    for fact in variation.differing():
        lines.append(f"  {fact}")
        lines += [f"    {name}: {shown(branch.asserted.get(fact))}" for name, branch in zip(names, variation.branches, strict=True)]
    return lines


def _every_run(branches: Iterable[Branch]) -> list[str]:
    """Every run's verdict, refusals and mismatches, and every outcome fact that differs between the runs."""
    branches = list(branches)
    lines = ["every run:"]
    flats = [flatten(branch.result.outcome) for branch in branches]
    differing = sorted({key for flat in flats for key in flat if len({repr(f.get(key)) for f in flats}) > 1})
    for branch, flat in zip(branches, flats, strict=True):
        pins = ", ".join(f"{r}={n}" for r, n in branch.readings.items())
        lines.append(f"- under {pins}: {LABELS[branch.result.verdict]}")
        for index, rejection in sorted(branch.result.rejections.items()):
            lines.append(f"    {refused_what(index)} rejected: {rejection.reason}: {rejection.message}")
        for label, mismatch in branch.result.mismatches:
            lines.append(f"    {label}: {mismatch.render()}")
        for key in differing:
            lines.append(f"    {key} = {flat.get(key)!r}")
    return lines


def findings_lines(findings: Iterable[Finding]) -> list[str]:
    lines = []
    for finding in findings:
        if finding.path is None:
            lines.append(f"  {finding.ruling}: no divergence found in the budget")
        else:
            count = f"{finding.actions} action{'' if finding.actions == 1 else 's'}"
            lines.append(f"  {finding.ruling}: found a minimal scenario ({count}): {finding.path}")
    return lines


def gaps_lines(found: Gaps, shown: int = 10) -> list[str]:
    """Where disputes may hide, for reviewers: uncited rulings, then the pairs no scenario connects."""
    lines = [f"Rulings no scenario or question cites ({len(found.uncited)})" + (": " + ", ".join(found.uncited) if found.uncited else "")]
    pairs = found.unconnected
    head = f"Pairs of the game's own {', '.join(found.kinds) or 'entities'} no scenario connects ({len(pairs)})"
    lines.append(head + (f", the {min(shown, len(pairs))} between the most connected:" if pairs else ""))
    if found.left_out:
        lines.append(f"  (not paired: {found.left_out} that scenarios define for themselves, unknown to the game's cards and rules)")
    lines += [f"  {a[1]} ({a[0]}) × {b[1]} ({b[0]})" for a, b in pairs[:shown]]
    return lines
