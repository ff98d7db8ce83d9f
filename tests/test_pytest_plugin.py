"""Scenarios as pytest items: a folder's files in groups, a file named or selected with -k on its own;
failures show what `checker check` shows (and, for a file on its own, the trace); -k, -x, --lf, -n work."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import SCENARIOS

MR = SCENARIOS / "monster-rancher-bc2"
PICKED = ["counter-rounding", "leaf-zero-at-one-lp", "sponge-rounding"]  # in file order
ONE_EACH = ("-o", "scenario_group_size=1")


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    folder = pytester.path / "scenarios" / "monster-rancher-bc2"
    folder.mkdir(parents=True)
    for name in PICKED:
        shutil.copy(MR / f"{name}.yaml", folder / f"{name}.yaml")
    pytester.makeini("[pytest]\ntestpaths = scenarios\n")
    return pytester


def file_of(pytester: pytest.Pytester, name: str) -> str:
    return str(pytester.path / "scenarios" / "monster-rancher-bc2" / f"{name}.yaml")


def break_counter(pytester: pytest.Pytester) -> None:
    path = pytester.path / "scenarios" / "monster-rancher-bc2" / "counter-rounding.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Golem: {lp: 18}", "Golem: {lp: 17}"), encoding="utf-8")


def test_a_folder_is_checked_in_groups_named_after_their_first_and_last_file(project: pytest.Pytester) -> None:
    result = project.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["scenarios/monster-rancher-bc2::counter-rounding..sponge-rounding", "1 test collected*"])
    result = project.runpytest("--collect-only", "-q", "-o", "scenario_group_size=2")
    result.stdout.fnmatch_lines([
        "scenarios/monster-rancher-bc2::counter-rounding",
        "scenarios/monster-rancher-bc2::leaf-zero-at-one-lp..sponge-rounding",
        "2 tests collected*",
    ])


def test_a_file_named_on_the_command_line_is_an_item_named_by_its_id(project: pytest.Pytester) -> None:
    result = project.runpytest("--collect-only", "-q", file_of(project, "sponge-rounding"))
    result.stdout.fnmatch_lines(["scenarios/monster-rancher-bc2/sponge-rounding.yaml::sponge-rounding", "1 test collected*"])
    project.runpytest(file_of(project, "sponge-rounding")).assert_outcomes(passed=1)


def test_group_size_one_makes_each_file_an_item_named_by_its_id(project: pytest.Pytester) -> None:
    result = project.runpytest("--collect-only", "-q", *ONE_EACH)
    result.stdout.fnmatch_lines([f"*{name}.yaml::{name}" for name in PICKED])


def test_a_group_size_that_is_not_a_positive_number_is_refused(project: pytest.Pytester) -> None:
    result = project.runpytest("-o", "scenario_group_size=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*scenario_group_size = '0': expected a whole number, 1 or more"])
    project.runpytest("-o", "scenario_group_size=some").stderr.fnmatch_lines(["*scenario_group_size = 'some'*"])


def test_a_failing_group_shows_what_checker_check_shows_of_each_scenario_that_did_not_pass(project: pytest.Pytester) -> None:
    break_counter(project)
    path = project.path / "scenarios" / "monster-rancher-bc2" / "sponge-rounding.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: sponge-rounding", "id: counter-rounding"), encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*2 of 3 scenarios did not pass (pytest FILE shows one's facts, expected against actual, and its trace):",
        "FAIL     counter-rounding  (*counter-rounding.yaml)*",
        "    line *: final outcome: players.A.monsters.Golem.lp: expected 17, got 18",
        "INVALID  *sponge-rounding.yaml:*: error: id 'counter-rounding' is already used by *counter-rounding.yaml*",
    ])
    assert "trace:" not in result.stdout.str()


def test_a_failing_file_on_its_own_shows_expected_against_actual_and_the_trace(project: pytest.Pytester) -> None:
    break_counter(project)
    result = project.runpytest(file_of(project, "counter-rounding"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*FAIL     counter-rounding*",
            "*expected against actual, field by field:*",
            "*final outcome: players.A.monsters.Golem.lp: expected 17, got 18",
            "*trace:*",
            "*Counter against 5 damage: 2 to Golem, 3 to Naga*[[]mr.rounding.golden-rule]",
        ]
    )


def test_dash_k_selects_scenarios_by_id_or_file_name(project: pytest.Pytester) -> None:
    project.runpytest("-k", "sponge").assert_outcomes(passed=1)
    project.runpytest("-k", "rounding and not counter").assert_outcomes(passed=1)
    project.runpytest("-k", "rounding").assert_outcomes(passed=2)


def test_ignore_leaves_a_file_out_of_its_group(project: pytest.Pytester) -> None:
    break_counter(project)
    project.runpytest("--ignore", file_of(project, "counter-rounding")).assert_outcomes(passed=1)
    result = project.runpytest("--collect-only", "-q", "--ignore", file_of(project, "counter-rounding"))
    result.stdout.fnmatch_lines(["scenarios/monster-rancher-bc2::leaf-zero-at-one-lp..sponge-rounding"])


def test_dash_x_stops_at_the_first_failing_item(project: pytest.Pytester) -> None:
    break_counter(project)
    project.runpytest(*ONE_EACH).assert_outcomes(passed=2, failed=1)
    project.runpytest(*ONE_EACH, "-x").assert_outcomes(failed=1)


def test_last_failed_reruns_only_the_failed_items(project: pytest.Pytester) -> None:
    break_counter(project)
    project.runpytest("-o", "scenario_group_size=2").assert_outcomes(passed=1, failed=1)
    project.runpytest("-o", "scenario_group_size=2", "--lf").assert_outcomes(failed=1)


def test_xdist_runs_groups_in_parallel(project: pytest.Pytester) -> None:
    result = project.runpytest("-n", "2", "-o", "scenario_group_size=2")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*2 workers*"])


def test_an_invalid_file_fails_its_group_and_its_own_item_with_its_location(project: pytest.Pytester) -> None:
    broken = project.path / "scenarios" / "monster-rancher-bc2" / "broken.yaml"
    broken.write_text("id: [\n", encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*1 of 4 scenarios did not pass*", "INVALID*broken.yaml:2:1: error: YAML syntax*"])
    result = project.runpytest(str(broken))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*INVALID*broken.yaml:2:1: error: YAML syntax*"])


def test_yaml_outside_a_scenarios_folder_is_not_collected(pytester: pytest.Pytester) -> None:
    (pytester.path / "config.yaml").write_text("a: 1\n", encoding="utf-8")
    (pytester.path / "data").mkdir()
    (pytester.path / "data" / "more.yaml").write_text("a: 1\n", encoding="utf-8")
    pytester.runpytest().assert_outcomes()


def test_a_crash_in_a_rules_module_shows_its_traceback_and_the_trace(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.run import suite

    game = suite.games()["monster-rancher-bc2"]

    def broken(context, state, action) -> None:
        raise ZeroDivisionError("a bug in the rules")

    monkeypatch.setitem(game.rules.steps.handlers, "deal-damage", broken)
    crash = [
        "*ERROR    counter-rounding*",
        "*internal error in a rules module*",
        "*Traceback*",
        "*ZeroDivisionError: a bug in the rules",
        "*trace up to the crash:*",
    ]
    result = project.runpytest("-k", "counter")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(crash)
    result = project.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(crash)


def test_a_junit_report_has_one_case_per_scenario_named_by_its_id(project: pytest.Pytester) -> None:
    """CI dashboards read the report: each scenario is a case of its own, the failing one named."""
    import xml.etree.ElementTree as ElementTree

    break_counter(project)
    report = project.path / "report.xml"
    project.runpytest(f"--junitxml={report}").assert_outcomes(passed=2, failed=1)
    cases = ElementTree.parse(report).getroot().iter("testcase")
    outcomes = {case.get("name"): [child.tag for child in case] for case in cases}
    assert outcomes == {"counter-rounding": ["failure"], "leaf-zero-at-one-lp": [], "sponge-rounding": []}
    project.runpytest().assert_outcomes(failed=1)  # without a report: the folder is still one group
