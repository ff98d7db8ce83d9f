"""Every ruling that states how a game works is shown by a passing scenario."""

from __future__ import annotations

from dataclasses import replace

from checker.engine.catalogue import MUST_BE_COVERED
from checker.run.citations import covered, demonstrated, uncited
from checker.games import registry
from checker.commands.readings import explore, explore_each
from checker.run.runner import RunResult, run
from checker.format.scenario import Scenario


def uncovered(game_id: str, results: list[RunResult]) -> list[str]:
    """Rulings that need a passing scenario whose trace cites them, and have none."""
    catalogue = registry()[game_id].catalogue
    shown = covered(results, catalogue)
    return [r.id for r in catalogue.rulings if r.status in MUST_BE_COVERED and r.id not in shown]


def test_every_rule_trivia_and_example_is_cited_by_a_passing_scenario(results: list[RunResult]) -> None:
    missing = {game_id: uncovered(game_id, results) for game_id in registry()}
    assert not any(missing.values()), f"rulings no passing scenario's trace cites: {missing}"


def test_a_ruling_a_file_only_declares_is_not_covered(results: list[RunResult]) -> None:
    """Listing a ruling under `rulings:` covers nothing: only the trace's citations count."""
    result = next(r for r in results if r.verdict == "pass" and r.scenario and r.scenario.rulings)
    catalogue = registry()[result.scenario.game].catalogue
    cited = demonstrated(result, catalogue)
    never = next(r.id for r in catalogue.rulings if r.status == "rule" and r.id not in cited)
    claimed = replace(result, scenario=replace(result.scenario, rulings=(*result.scenario.rulings, never)))
    assert never not in covered([claimed], catalogue)
    assert never in uncited(claimed, catalogue)


def test_every_scenario_passes(results: list[RunResult]) -> None:
    failing = [(r.id, r.verdict) for r in results if r.verdict not in ("pass", "question")]
    assert not failing


def test_coverage_names_what_a_missing_scenario_leaves_uncovered(results: list[RunResult]) -> None:
    game = "monster-rancher-bc2"
    catalogue = registry()[game].catalogue
    shown_by = {r: ids for r, ids in covered(results, catalogue).items() if catalogue[r].status in MUST_BE_COVERED}
    ruling, [only] = next((r, ids) for r, ids in sorted(shown_by.items()) if len(ids) == 1)
    without = [r for r in results if r.id != only]
    assert ruling in uncovered(game, without)


def test_every_ambiguous_ruling_has_a_scenario_whose_outcome_depends_on_it(scenarios: list[Scenario]) -> None:
    """The disputes page needs, for each ambiguity, a scenario where the readings differ."""
    depends: set[str] = set()
    for scenario in scenarios:
        game = registry()[scenario.game]
        own = run(scenario, game).readings
        exploration = explore(scenario, game)
        depends.update(ruling for ruling in exploration.touched if exploration.depends_on(ruling, own))
    for game in registry().values():
        ambiguous = {r.id for r in game.catalogue.with_status("ambiguous")}
        assert ambiguous <= depends, f"no scenario shows the readings differ for {sorted(ambiguous - depends)}"


def test_the_sites_one_at_a_time_exploration_agrees_with_the_full_one(scenarios: list[Scenario]) -> None:
    for scenario in scenarios:
        game = registry()[scenario.game]
        own = run(scenario, game).readings
        full, each = explore(scenario, game), explore_each(scenario, game)
        for ruling in own:
            assert full.depends_on(ruling, own) == each.depends_on(ruling, own), (scenario.id, ruling)
