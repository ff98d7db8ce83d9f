"""`checker readings`: what the readings of the ambiguous rulings change in what a file asserts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from checker.run import suite
from checker.cli import main
from checker.commands.readings import survey
from checker.format.scenario import Scenario
from tests.conftest import SCENARIOS

MR = SCENARIOS / "monster-rancher-bc2"
# Spear attacks empty zone 2: "If there is no monster in that Monster Card Zone, then nothing
# happens." Whether that used Spear's attack is the ambiguity; the file never attacks with Spear
# again and asserts only the battle with Hidden, B's Life Points and graveyard.
DIVIDER = SCENARIOS / "yugioh-dm2" / "divider-targets-a-zone.yaml"
# Disputed, pinned to the literal Defense Step reading (not the catalogue's default): Monol,
# unaffected by the Ground-only Fire River, cannot play Shield, so Golem and Mocchi take 3 each.
LITERAL = MR / "shield-against-fire-river-literal-reading.yaml"
REDIRECTS = "mr.amb.unaffected-monster-redirects"


def readings(capsys, *args: str) -> tuple[int, list[str]]:
    code = main(["readings", *args])
    return code, capsys.readouterr().out.splitlines()


def values(lines: list[str], fact: str) -> dict[str, str]:
    """The value under each reading listed below an asserted fact's line."""
    start = lines.index(f"  {fact}") + 1
    shown: dict[str, str] = {}
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        name, value = line.strip().split(": ", 1)
        shown[name] = value
    return shown


def test_a_file_that_passes_under_every_reading_says_so_in_one_line(capsys) -> None:
    code, lines = readings(capsys, str(DIVIDER))
    assert code == 0
    assert lines[-2:] == [
        "ygo.amb.replay-empty-zone-attack-used: no difference here",
        "passes under every reading of the 1 ambiguous ruling it touches",
    ]
    # Whether Spear has attacked differs, but the file asserts nothing about it.
    assert not any("Spear" in line for line in lines)


def test_verbose_adds_every_runs_outcome_facts_that_differ(capsys) -> None:
    code, lines = readings(capsys, "--verbose", str(DIVIDER))
    assert code == 0
    assert "    players.A.monsters.Spear.attacked = True" in lines
    assert "    players.A.monsters.Spear.attacked = False" in lines
    assert lines[-1] == "passes under every reading of the 1 ambiguous ruling it touches"


def test_a_reading_the_file_pins_is_kept_by_default(capsys) -> None:
    code, lines = readings(capsys, str(LITERAL))
    assert code == 0
    assert lines[-1] == f"{REDIRECTS}: unaffected-cannot-defend, pinned by the file: not varied (--vary-pinned varies it)"
    assert not any("passes under every reading" in line or "redirection-allowed" in line for line in lines)


def test_vary_pinned_shows_the_asserted_facts_under_each_reading(capsys) -> None:
    code, lines = readings(capsys, "--vary-pinned", str(LITERAL))
    assert code == 0
    assert lines[-1] == f"{REDIRECTS}: changes the outcome"
    # The Shield example: Monol takes 3 + 3 = 6 for its allies; read literally, Shield is
    # refused and each Ground ally takes Fire River's 3.
    assert values(lines, "final outcome: players.B.monsters.Monol.lp") == {"unaffected-cannot-defend": "20", "redirection-allowed": "14"}
    assert values(lines, "final outcome: players.B.monsters.Golem.lp") == {"unaffected-cannot-defend": "7", "redirection-allowed": "10"}
    assert values(lines, "action 2") == {"unaffected-cannot-defend": "refused (not-affected)", "redirection-allowed": "legal"}
    assert f"    unaffected-cannot-defend (pinned): PASS" in lines
    assert f"    redirection-allowed: FAIL" in lines


def test_a_question_compares_its_whole_answer(capsys) -> None:
    """Last Man lets Plant attack again; if a status with no icon is lost on revival, it cannot."""
    code, lines = readings(capsys, str(MR / "last-man-revived-question.yaml"))
    assert code == 0
    assert lines[-1] == "mr.amb.hidden-status-on-revival: changes the outcome"
    assert values(lines, "action 4") == {"retained": "legal", "lost": "refused (already-attacked)"}
    assert values(lines, "final outcome: players.B.monsters.Golem.lp") == {"retained": "16", "lost": "18"}


def test_a_file_that_touches_no_ambiguous_ruling(capsys) -> None:
    code, lines = readings(capsys, str(MR / "counter-rounding.yaml"))
    assert code == 0
    assert lines == ["counter-rounding: touches no ambiguous ruling: its outcome does not depend on any reading."]


def test_an_invalid_file_exits_2_with_its_place(tmp_path: Path, capsys) -> None:
    text = LITERAL.read_text(encoding="utf-8")
    path = tmp_path / "literal.yaml"
    path.write_text(text.replace(f"{REDIRECTS}: unaffected-cannot-defend", f"{REDIRECTS}: unaffected-cannot-defnd"),
                    encoding="utf-8")
    line = next(n for n, text in enumerate(text.splitlines(), 1) if text.startswith(f"  {REDIRECTS}:"))
    assert main(["readings", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"INVALID  {path}:{line}:")
    assert "unaffected-cannot-defnd" in captured.err


def test_a_survey_makes_one_run_per_reading_not_per_combination() -> None:
    scenario = next(s for s in suite.load_many(suite.scenario_files([SCENARIOS / "my-crypto-saga"]))
                    if isinstance(s, Scenario) and s.id == "battle-of-three-games")
    game = suite.games()[scenario.game]
    found = survey(scenario, game)
    assert len(found.touched) >= 4  # every combination would be 2 ** (k + 1) - 1 runs
    others = sum(len(game.catalogue[ruling].reading_names) - 1 for ruling in found.touched)
    assert len(found.branches) == 1 + others


def _seen(result) -> tuple:
    """What a run shows, but for the words of its steps (a run played on from another's start keeps that run's)."""
    return (result.verdict, result.outcome, result.readings,
            [(c.action, c.mismatches, c.observed) for c in result.checkpoints],
            {index: (r.reason, r.message) for index, r in result.rejections.items()},
            [(step.ruling, step.phase, step.step, step.action, step.values, step.entities, step.settling) for step in result.trace])


def test_runs_under_other_readings_played_on_from_where_they_differ_are_runs_from_the_beginning(scenarios) -> None:
    from checker.commands.readings import explore_each
    from checker.run.runner import SETUP

    explored = 0
    for scenario in scenarios:
        game = suite.games()[scenario.game]
        kept = suite.run_one(scenario, keep_starts=True)
        if not kept.readings:
            continue
        if kept.verdict != "error":  # one start before each action and one before the end, unless setup was refused
            assert [start.action for start in kept.starts] == ([] if SETUP in kept.rejections else list(range(len(scenario.actions) + 1)))
        from_the_beginning = explore_each(scenario, game)
        played_on = explore_each(scenario, game, own_run=kept)
        assert [_seen(b.result) for b in played_on.branches] == [_seen(b.result) for b in from_the_beginning.branches], scenario.id
        explored += len(played_on.branches) - 1
    assert explored > 100


def test_a_run_that_settles_its_last_state_in_place_is_a_run_that_settles_a_copy(scenarios) -> None:
    """A plain run settles its last state in place; one that keeps its starts settles a copy, as every run did."""
    for scenario in scenarios:
        assert _seen(suite.run_one(scenario)) == _seen(suite.run_one(scenario, keep_starts=True)), scenario.id


def test_an_action_refused_in_place_leaves_the_run_as_a_refusal_on_a_copy(scenarios) -> None:
    """An action the scenario does not expect to be refused changes the state itself; when it is refused after all
    (here: every expected refusal struck out), the run recovers from the state it keeps a few actions back and goes
    on from there, as a run that copied every state does."""
    refused = 0
    for scenario in scenarios:
        struck = tuple(dataclasses.replace(action, reject=None) for action in scenario.actions)
        if struck == scenario.actions or scenario.is_question:
            continue
        unexpected = dataclasses.replace(scenario, actions=struck)
        in_place, copied = suite.run_one(unexpected), suite.run_one(unexpected, keep_starts=True)
        assert _seen(in_place) == _seen(copied), scenario.id
        assert [step.text for step in in_place.trace] == [step.text for step in copied.trace], scenario.id
        refused += len(in_place.rejections)
    assert refused > 100


def test_long_runs_refused_in_place_again_and_again_are_runs_on_copies(scenarios) -> None:
    """Each scenario's actions three times over, none expected to be refused, none observed: played in place, many of
    the repeats are refused (a card already played, a turn already ended), many more than RECOVERY actions after the
    state the run keeps was copied, and each refusal leaves the run as a run that copied every state."""
    from checker.run.runner import RECOVERY

    far = 0
    for scenario in scenarios:
        if scenario.reject is not None or not scenario.actions:
            continue
        actions = tuple(dataclasses.replace(action, index=index, expect=None, reject=None)
                        for index, action in enumerate(scenario.actions * 3))
        long = dataclasses.replace(scenario, actions=actions, expect=scenario.expect or {})  # a question made golden
        in_place, copied = suite.run_one(long), suite.run_one(long, keep_starts=True)
        assert _seen(in_place) == _seen(copied), scenario.id
        assert [step.text for step in in_place.trace] == [step.text for step in copied.trace], scenario.id
        far += sum(index >= RECOVERY for index in in_place.rejections)
    assert far > 500


def test_a_refusal_in_place_costs_the_same_wherever_it_stands(monkeypatch) -> None:
    """Recovering from an action refused in place plays at most RECOVERY actions again, however far into the run it
    stands: a run is linear in its actions (played again from the beginning, it would be quadratic in its refusals)."""
    from checker.run.runner import RECOVERY

    monsters = {"A": [{"name": "Golem", "attribute": "Ground", "lp": 20}], "B": [{"name": "Durahan", "attribute": "Ground", "lp": 20}]}
    ends = [{"action": "end-turn", "player": player} for player in "AABB"]  # each second one refused: not that Breeder's turn
    scenario = suite.default().from_data({
        "id": "turn-ends", "game": "monster-rancher-bc2", "title": "Turn ends, half of them refused",
        "initial": {"players": {name: {"monsters": kept} for name, kept in monsters.items()}},
        "actions": ends * 100, "expect": {"turn": 201},
    }, "turn-ends.yaml")
    game = suite.games()[scenario.game]
    played = []
    act = game.act
    monkeypatch.setattr(game, "act", lambda working, action, context: played.append(1) or act(working, action, context))
    in_place = suite.run_one(scenario)
    assert len(in_place.rejections) == 200 and in_place.outcome["turn"] == 201
    assert 400 < len(played) <= 400 + 200 * RECOVERY  # from the beginning each time: about 40,000
    monkeypatch.undo()
    copied = suite.run_one(scenario, keep_starts=True)
    assert _seen(in_place) == _seen(copied)


def test_a_run_leaves_its_scenario_as_it_was(scenarios) -> None:
    """A run changes no state but the copies it makes, so none of the scenario's data, which setup may have kept."""
    import pickle

    for scenario in scenarios:
        written = pickle.dumps((scenario.initial, scenario.cards, [action.data for action in scenario.actions]))
        suite.run_one(scenario)
        assert pickle.dumps((scenario.initial, scenario.cards, [action.data for action in scenario.actions])) == written, scenario.id
