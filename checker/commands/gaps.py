"""Where disputes may hide: rulings no scenario cites, entities no scenario makes interact.

Only the game's own entities count for the pairs: those its data describes (its card book, its
mechanics) and those of a kind the rules name in full (Elements, abilities). A card a scenario
defines for itself is that scenario's; pairing it with everything else would count questions no
player can ask.
"""

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
    unconnected: tuple[tuple[Entity, Entity], ...]  # pairs of the game's own entities no trace joins, most connected first
    kinds: tuple[str, ...]  # the entity kinds whose pairs count (the game's ``open_questions`` kinds)
    left_out: int = 0  # entities of those kinds that scenarios define for themselves, not paired


def gaps(game: AnyGame, results: Iterable[RunResult]) -> Gaps:
    """The gaps in ``results`` (the game's scenarios run); unlike coverage, a question's citations count."""
    mine = [r for r in results if r.scenario is not None and r.scenario.game == game.id]
    shown = covered(mine, game.catalogue, verdicts=("pass", "question"))
    uncited = tuple(r.id for r in game.catalogue.rulings if r.status != "not-testable" and r.id not in shown)
    summaries = [summarize(r, None, game.catalogue) for r in mine]
    graph = interaction_graph(summaries, game.catalogue)
    own = graph.subgraph(node for node in graph if is_the_games_own(game, node))
    left_out = sum(1 for node in graph if node[0] in game.question_kinds and node not in own)
    return Gaps(uncited, tuple(open_questions(own, game.question_kinds)), game.question_kinds, left_out)


def is_the_games_own(game: AnyGame, entity: Entity) -> bool:
    """Whether the game itself knows ``entity``: its kind is named in full by the rules, or its data describes it."""
    kind = game.entity_kinds.get(entity[0])
    return (kind is not None and kind.from_rules) or game.describe(*entity) is not None
