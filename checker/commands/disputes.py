"""Finding disputes: small scenarios whose outcome changes with one ambiguous ruling's reading.

The scenarios are drawn by random legal play (:mod:`checker.commands.randomplay`), the same for every
game that lists its actions: from where the game's own scenarios start, those that name the
ruling first. For each ambiguous ruling the search draws scenarios until one whose outcome
facts or refusals change when only that ruling's reading changes (see
:meth:`checker.commands.readings.Exploration.depends_on`), then lets Hypothesis shrink it.

The search is bounded by wall-clock time, which Hypothesis does not offer: it draws in
batches until the ruling's share of the budget is spent, and stops Hypothesis (even in
the middle of shrinking) when it is; the smallest divergent scenario found so far is
the answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Callable, Sequence

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import NoSuchExample
from hypothesis.strategies import SearchStrategy

from checker.commands import candidates, randomplay
from checker.commands.candidates import ScenarioData, canonical
from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.commands.readings import Variation, explore_each
from checker.format.scenario import Scenario
from checker.run.suite import Suite

#: Drawn per Hypothesis call (the deadline stops a call early).
BATCH = 500


def divergence(scenario: Scenario, game: AnyGame, ruling: str) -> Variation | None:
    """The runs showing that ``ruling``'s reading alone changes what a player sees, or ``None``.

    What a player sees of a question is its whole answer: every outcome fact and every
    refusal. Every run must be answered (no invalid data, no crash): a crash is a bug, not
    a dispute.
    """
    exploration = explore_each(scenario, game, only=(ruling,))
    own, *others = exploration.branches
    if any(branch.result.verdict != "question" for branch in exploration.branches):
        return None
    if not exploration.depends_on(ruling, own.readings):
        return None
    return Variation(ruling, own, tuple(others))


@dataclass(frozen=True)
class Budget:
    """A wall-clock budget shared by the rulings searched one after the other."""

    seconds: float
    started: float

    @classmethod
    def of(cls, seconds: float) -> "Budget":
        return cls(seconds, time.monotonic())

    def share(self, left_to_search: int) -> float:
        """The deadline of the next ruling: an equal part of what is left (a quick find leaves more for the rest)."""
        now = time.monotonic()
        left = max(0.0, self.started + self.seconds - now)
        return now + left / max(1, left_to_search)


class _OutOfTime(BaseException):
    """Stops Hypothesis at the deadline; not an ``Exception``, so Hypothesis does not take it for a failure to shrink."""


def search(
    strategy: SearchStrategy[ScenarioData],
    diverges: Callable[[ScenarioData], bool],
    *,
    deadline: float,
    seed: int | None,
) -> ScenarioData | None:
    """The smallest data Hypothesis finds for which ``diverges`` holds before ``deadline``, or ``None``.

    Hypothesis only tries data smaller than the smallest divergent one found so far, so the
    last data judged divergent is the answer when time runs out in the middle of shrinking.
    """
    judged: dict[str, bool] = {}
    smallest: list[ScenarioData] = []

    def condition(data: ScenarioData) -> bool:
        key = canonical(data)
        if key not in judged:
            if time.monotonic() >= deadline:
                raise _OutOfTime
            judged[key] = diverges(data)
            if judged[key]:
                smallest[:] = [data]
        return judged[key]

    rng = Random(seed)
    options = settings(
        max_examples=BATCH, database=None, deadline=None, verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck),
    )
    try:
        while time.monotonic() < deadline:
            try:
                return find(strategy, condition, settings=options, random=rng)
            except NoSuchExample:
                continue
    except _OutOfTime:
        pass
    return smallest[0] if smallest else None


def ambiguous(game: AnyGame) -> tuple[str, ...]:
    return tuple(ruling.id for ruling in game.catalogue.with_status("ambiguous"))


@dataclass(frozen=True)
class Finding:
    """The outcome of the search for one ambiguous ruling: a written candidate, or none in the budget."""

    ruling: str
    path: Path | None = None
    actions: int = 0


def origins(game: AnyGame, scenarios: Sequence[Scenario], ruling: str) -> list[randomplay.Start]:
    """Where random play starts in the search for ``ruling``: the game's scenarios that name it, else all of them."""
    naming = [scenario for scenario in scenarios if ruling in scenario.rulings]
    return randomplay.starts(game, naming) or randomplay.starts(game, scenarios)


def find_disputes(
    game: AnyGame, scenarios: Sequence[Scenario], suite: Suite, *, seconds: float, seed: int | None, folder: Path,
    schema: Path,
) -> list[Finding]:
    """Search every ambiguous ruling of ``game`` in turn by random legal play from ``scenarios``, sharing ``seconds``;
    write each find into ``folder``."""
    rulings = ambiguous(game)
    budget = Budget.of(seconds)
    findings = []
    for index, ruling in enumerate(rulings):
        deadline = budget.share(len(rulings) - index)
        starts = origins(game, scenarios, ruling)
        if not starts:
            findings.append(Finding(ruling))
            continue
        found = search(randomplay.scenarios(game, starts), _judge(game, ruling, suite), deadline=deadline, seed=seed)
        if found is None:
            findings.append(Finding(ruling))
            continue
        renamed = candidates.named(found)
        if renamed is not found and _judge(game, ruling, suite)(renamed):
            found = renamed  # its cards named for what they are, where that leaves the divergence as it was
        variation = divergence(_question(game, ruling, suite, found), game, ruling)
        assert variation is not None  # the search judged it divergent
        doc = candidates.document(game.id, game.catalogue[ruling], found, candidates.notes(variation))
        path = candidates.write(doc, folder, schema)
        _verify(path, game, ruling, suite)
        findings.append(Finding(ruling, path, len(found["actions"])))
    return findings


def _question(game: AnyGame, ruling: str, suite: Suite, data: ScenarioData, *, validate: bool = True) -> Scenario:
    return suite.from_data(candidates.document(game.id, game.catalogue[ruling], data), f"<{ruling} candidate>", validate=validate)


def _judge(game: AnyGame, ruling: str, suite: Suite) -> Callable[[ScenarioData], bool]:
    """Whether data diverges on ``ruling``: judged unvalidated (the schema check costs more than the runs),
    then checked against the schema when it does; data the format refuses never counts."""

    def diverges(data: ScenarioData) -> bool:
        try:
            if divergence(_question(game, ruling, suite, data, validate=False), game, ruling) is None:
                return False
            _question(game, ruling, suite, data)
            return True
        except InputError:
            return False

    return diverges


def _verify(path: Path, game: AnyGame, ruling: str, suite: Suite) -> None:
    """The written file, loaded as any scenario, is a question whose outcome depends on ``ruling``."""
    item = suite.load(path)
    if not isinstance(item, Scenario) or not item.is_question or divergence(item, game, ruling) is None:
        raise RuntimeError(f"{path}: the candidate written does not reproduce the divergence on {ruling}")
