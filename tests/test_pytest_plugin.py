"""Scenarios are pytest items named by id: failures show the fields and the trace; -k, -x, --lf, -n work."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import SCENARIOS

MR = SCENARIOS / "monster-rancher-bc2"
PICKED = ["counter-rounding", "sponge-rounding", "leaf-zero-at-one-lp"]


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    folder = pytester.path / "scenarios" / "monster-rancher-bc2"
    folder.mkdir(parents=True)
    for name in PICKED:
        shutil.copy(MR / f"{name}.yaml", folder / f"{name}.yaml")
    pytester.makeini("[pytest]\ntestpaths = scenarios\n")
    return pytester


def break_counter(pytester: pytest.Pytester) -> None:
    path = pytester.path / "scenarios" / "monster-rancher-bc2" / "counter-rounding.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Golem: {lp: 18}", "Golem: {lp: 17}"), encoding="utf-8")


def test_each_scenario_is_an_item_named_by_its_id(project: pytest.Pytester) -> None:
    result = project.runpytest("--collect-only", "-q")
    for name in PICKED:
        result.stdout.fnmatch_lines([f"*{name}.yaml::{name}"])


def test_failure_shows_expected_against_actual_and_the_trace(project: pytest.Pytester) -> None:
    break_counter(project)
    result = project.runpytest()
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*FAIL     counter-rounding*",
            "*expected against actual, field by field:*",
            "*final outcome: players.A.monsters.Golem.lp: expected 17, got 18",
            "*trace:*",
            "*Counter against 5 damage: 2 to Golem, 3 to Naga*[[]mr.rounding.golden-rule]",
        ]
    )


def test_dash_k_selects_by_id(project: pytest.Pytester) -> None:
    project.runpytest("-k", "sponge").assert_outcomes(passed=1)


def test_dash_x_stops_at_the_first_failure(project: pytest.Pytester) -> None:
    break_counter(project)
    project.runpytest("-x").assert_outcomes(failed=1)


def test_last_failed_reruns_only_the_failure(project: pytest.Pytester) -> None:
    break_counter(project)
    project.runpytest()
    project.runpytest("--lf").assert_outcomes(failed=1)


def test_xdist_runs_scenarios_in_parallel(project: pytest.Pytester) -> None:
    result = project.runpytest("-n", "2")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*2 workers*"])


def test_an_invalid_file_is_a_failing_item_with_its_location(project: pytest.Pytester) -> None:
    (project.path / "scenarios" / "monster-rancher-bc2" / "broken.yaml").write_text("id: [\n", encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*INVALID*broken.yaml:2:1: error: YAML syntax*"])


def test_yaml_outside_a_scenarios_folder_is_not_collected(pytester: pytest.Pytester) -> None:
    (pytester.path / "config.yaml").write_text("a: 1\n", encoding="utf-8")
    pytester.runpytest().assert_outcomes()


def test_a_crash_in_a_rules_module_shows_its_traceback_and_the_trace(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.games import registry

    game = registry()["monster-rancher-bc2"]

    def broken(context, state, action) -> None:
        raise ZeroDivisionError("a bug in the rules")

    monkeypatch.setitem(game.rules.steps.handlers, "deal-damage", broken)
    result = project.runpytest("-k", "counter")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*ERROR    counter-rounding*",
        "*internal error in a rules module*",
        "*Traceback*",
        "*ZeroDivisionError: a bug in the rules",
        "*trace up to the crash:*",
    ])
