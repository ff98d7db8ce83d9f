"""Where disputes may hide: rulings no scenario cites, entities no scenario makes interact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from checker.run.citations import covered
from checker.engine.game import AnyGame
from checker.run.runner import RunResult
from checker.commands.interactions import interaction_graph, open_questions
from checker.commands.summary import summarize
from checker.engine.trace import Entity


@dataclass(frozen=True)
class Gaps:
    uncited: tuple[str, ...]  # rulings (not-testable ones aside) that no passing scenario or answered question demonstrates
    unconnected: tuple[tuple[Entity, Entity], ...]  # pairs of entities no trace joins, most connected first
    kinds: tuple[str, ...]  # the entity kinds whose pairs count (the game's ``open_questions`` kinds)


def gaps(game: AnyGame, results: Iterable[RunResult]) -> Gaps:
    """The gaps in ``results`` (the game's scenarios run); unlike coverage, a question's citations count."""
    mine = [r for r in results if r.scenario is not None and r.scenario.game == game.id]
    shown = covered(mine, game.catalogue, verdicts=("pass", "question"))
    uncited = tuple(r.id for r in game.catalogue.rulings if r.status != "not-testable" and r.id not in shown)
    summaries = [summarize(r, None, game.catalogue) for r in mine]
    pairs = open_questions(interaction_graph(summaries, game.catalogue), game.question_kinds)
    return Gaps(uncited, tuple(pairs), game.question_kinds)
