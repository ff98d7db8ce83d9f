"""What a run demonstrates: the rulings its trace cites, not the ones its file lists.

A ruling is demonstrated by a run whose trace cites it. An ``example`` ruling (a worked
example of the document) is demonstrated by a run of a scenario that declares it and
whose trace cites a ruling it exemplifies. Coverage counts only passing runs.
"""

from __future__ import annotations

from typing import Collection, Iterable

from checker.engine.catalogue import Catalogue
from checker.run.runner import RunResult


def demonstrated(result: RunResult, catalogue: Catalogue) -> frozenset[str]:
    """The rulings this run demonstrates, whatever its verdict."""
    cited = set(result.cited)
    declared = result.scenario.rulings if result.scenario else ()
    examples = {
        ruling for ruling in declared
        if ruling in catalogue and catalogue[ruling].status == "example" and cited & set(catalogue[ruling].example_of)
    }
    return frozenset(cited | examples)


def uncited(result: RunResult, catalogue: Catalogue) -> tuple[str, ...]:
    """Rulings the scenario declares that its run does not demonstrate."""
    if result.scenario is None:
        return ()
    shown = demonstrated(result, catalogue)
    return tuple(ruling for ruling in result.scenario.rulings if ruling not in shown)


def covered(
    results: Iterable[RunResult], catalogue: Catalogue, verdicts: Collection[str] = ("pass",)
) -> dict[str, list[str]]:
    """Each ruling demonstrated by a passing run (or one of ``verdicts``), with the ids of the scenarios that demonstrate it."""
    shown: dict[str, list[str]] = {}
    for result in results:
        if result.verdict in verdicts and result.scenario and result.scenario.game == catalogue.game:
            for ruling in sorted(demonstrated(result, catalogue)):
                shown.setdefault(ruling, []).append(result.id)
    return shown
