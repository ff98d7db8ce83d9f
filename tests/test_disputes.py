"""checker disputes --find: candidate questions whose outcome really changes with one ruling's reading."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest
import yaml

from checker.commands import candidates, disputes, report
from checker.run import suite
from checker.cli import main
from checker.commands.gaps import gaps
from checker.commands.readings import explore_each
from checker.format.scenario import MODELINE, Scenario
from checker.run.suite import Suite
from tests.conftest import ROOT, SCENARIOS
from tests.toygame import GAME as TOY

FOUND = re.compile(r"^  (?P<ruling>\S+): found a minimal scenario \((?P<count>\d+) actions?\): (?P<path>\S+)$")
NOT_FOUND = re.compile(r"^  (?P<ruling>\S+): no divergence found in the budget$")
GAME = "many-marios-0"


@pytest.fixture(scope="module")
def finder_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """One search of Many Marios, seeded, within a budget well under a minute."""
    out = tmp_path_factory.mktemp("candidates") / GAME
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = main(["disputes", "--find", GAME, "--budget", "15", "--seed", "0", "--out", str(out)])
    return code, stdout.getvalue(), out


def found(output: str) -> dict[str, tuple[int, Path]]:
    return {m["ruling"]: (int(m["count"]), Path(m["path"])) for m in map(FOUND.match, output.splitlines()) if m}


def test_every_ambiguous_ruling_gets_one_line_and_one_is_found(finder_run: tuple[int, str, Path]) -> None:
    code, output, out = finder_run
    assert code == 0, output
    game = suite.games()[GAME]
    lines = [line for line in output.splitlines() if FOUND.match(line) or NOT_FOUND.match(line)]
    assert [(FOUND.match(line) or NOT_FOUND.match(line))["ruling"] for line in lines] == list(disputes.ambiguous(game))
    assert found(output), output
    assert sorted(path for _, path in found(output).values()) == sorted(out.glob("*.yaml"))


def test_each_candidate_is_a_valid_question_whose_outcome_depends_on_its_ruling(finder_run: tuple[int, str, Path]) -> None:
    _, output, out = finder_run
    game = suite.games()[GAME]
    loaded = suite.load_many(suite.scenario_files([SCENARIOS, out]))  # ids unique beside the golden suite
    by_path = {Path(item.path): item for item in loaded if isinstance(item, Scenario)}
    for ruling, (count, path) in found(output).items():
        scenario = by_path[path]
        assert scenario.is_question and scenario.rulings == (ruling,) and scenario.status == "disputed"
        assert re.fullmatch(rf"candidate-{re.escape(ruling.replace('.', '-'))}-[0-9a-f]{{8}}", scenario.id)
        assert len(scenario.actions) == count
        assert "Found automatically" in scenario.notes and ruling in scenario.notes
        # The title is the question a judge would ask, in words: no report, no ruling id.
        assert scenario.title.endswith("?") and ruling not in scenario.title and "automatically" not in scenario.title
        assert all(reading.name.replace("-", " ") in scenario.title for reading in game.catalogue[ruling].readings)
        exploration = explore_each(scenario, game)
        assert exploration.depends_on(ruling, exploration.branches[0].readings), path
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(MODELINE) and (path.parent / first[len(MODELINE):]).resolve() == ROOT / "schema" / "scenario.schema.json"
    assert main(["check", str(out)]) == 0


def test_the_report_names_where_disputes_may_hide(finder_run: tuple[int, str, Path]) -> None:
    _, output, _ = finder_run
    assert re.search(r"^Rulings no scenario or question cites \(\d+\)", output, re.M), output
    assert re.search(r"^Pairs of the game.s own unit, ability no scenario connects \(\d+\)", output, re.M), output


def test_candidates_are_not_collected_as_golden_scenarios(finder_run: tuple[int, str, Path], pytester: pytest.Pytester) -> None:
    _, _, out = finder_run
    shutil.copytree(out, pytester.path / "candidates" / GAME)
    result = pytester.runpytest("--collect-only", "-q")
    assert "no tests collected" in result.stdout.str(), result.stdout.str()


def test_the_search_shrinks_to_the_smallest_divergent_scenario(tmp_path: Path) -> None:
    """Spark Duel's one ambiguous ruling (equal Sparks) diverges only once two equal Sparks are compared: random
    legal play from the duels shrinks to the two Sparks and the two passes that end the round, nothing more."""
    duels = [item for item in Suite({TOY.id: TOY}).load_many(suite.scenario_files([ROOT / "tests" / "toygame" / "duels"]))
             if isinstance(item, Scenario)]
    [finding] = disputes.find_disputes(TOY, duels, Suite({TOY.id: TOY}), seconds=10, seed=0,
                                       folder=tmp_path / "candidates", schema=tmp_path / "scenario.schema.json")
    assert (finding.ruling, finding.actions) == ("toy.amb.equal-sparks", 4)
    assert finding.path is not None
    found = yaml.safe_load(finding.path.read_text(encoding="utf-8"))
    sparks, passes = found["actions"][:2], found["actions"][2:]
    assert [(a["action"], a["player"]) for a in sparks] == [("spark", "A"), ("spark", "B")]
    assert sparks[0]["card"] == sparks[1]["card"]
    assert sorted((a["action"], a["player"]) for a in passes) == [("pass", "A"), ("pass", "B")]
    assert found["status"] == "disputed" and found["rulings"] == ["toy.amb.equal-sparks"]
    assert "under both-lose-one" in found["notes"] and "under draw" in found["notes"]


def test_the_same_scenario_gets_the_same_id() -> None:
    data = {"initial": {"players": {}}, "actions": []}
    assert candidates.candidate_id("x.amb.y", data) == candidates.candidate_id("x.amb.y", dict(data))
    assert candidates.candidate_id("x.amb.y", data) != candidates.candidate_id("x.amb.z", data)


def test_a_candidate_title_asks_which_reading_holds_after_its_last_action() -> None:
    ruling = suite.games()["yugioh-dm2"].catalogue["ygo.amb.same-time-tie"]
    actions = [{"action": "battle-phase", "player": "A"}, {"action": "attack", "attacker": "Hydra", "targets": ["Imp", "Twin"]}]
    assert candidates.question(ruling, actions) == (
        "At the Same Time, Damage Step: after attack — attacker Hydra, targets Imp + Twin, is it as single battle or nothing marked?"
    )
    long = candidates.question(ruling, [{"action": "attack", "attacker": "Hydra", "targets": ["Imp"] * 200}])
    assert len(long) <= 200 and long.endswith("…, is it as single battle or nothing marked?")


def test_cards_under_code_names_are_named_for_what_they_are() -> None:
    """A Zatch Bell scenario's 'Card 2E' and 'Event E1' become the words of their definitions, everywhere the data
    names them, and the question plays the same."""
    original = yaml.safe_load((SCENARIOS / "zatch-bell" / "event-same-copy-not-twice.yaml").read_text(encoding="utf-8"))
    actions = [{key: value for key, value in action.items() if key not in ("expect", "reject")} for action in original["actions"]]
    data = {"cards": original["cards"], "initial": original["initial"], "actions": actions}
    renamed = candidates.named(data)
    assert set(renamed["cards"]) == {"PARTNER Zatch Bell, extra-event", "EVENT, lose-mp", "EVENT, lose-mp (2)"}
    assert renamed["initial"]["players"]["A"]["in_play"] == [{"card": "Zatch Bell", "partner": "PARTNER Zatch Bell, extra-event"}]
    assert "Card 2E" not in repr(renamed) and "Event E" not in repr(renamed)
    assert candidates.named({"cards": {"Hydra": {"type": "monster"}}, "initial": {}, "actions": []})["cards"] == {"Hydra": {"type": "monster"}}
    game = suite.games()["zatch-bell"]
    ruling = game.catalogue.with_status("ambiguous")[0]
    runs = [suite.run_one(suite.default().from_data(candidates.document(game.id, ruling, d), "x", validate=True)) for d in (data, renamed)]
    assert [run.verdict for run in runs] == ["question", "question"]
    assert [{i: r.reason for i, r in run.rejections.items()} for run in runs] == [{4: "event-this-turn"}] * 2
    assert [run.outcome["players"]["A"]["mp"] for run in runs] == [4, 4]  # as the original expects


def test_a_game_that_lists_no_actions_is_said_so_and_its_gaps_still_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite.games()["yugioh-dm2"], "moves", None)
    assert main(["disputes", "--find", "yugioh-dm2", "--budget", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("yugioh-dm2 does not list its actions"), out
    assert "Rulings no scenario or question cites" in out


def test_an_unknown_game_is_one_message_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["disputes", "--find", "many-marios"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'many-marios'" in err and "Traceback" not in err


def test_gaps_are_the_rulings_no_trace_cites_and_the_cards_no_trace_joins() -> None:
    """Equal Sparks (5 against 5) and a Break negating a Shield (9 against 2): no Shield resolves, nobody
    runs out of life, no hand is too large; the 5s never meet the Break, the Shield, the 9 or the 2, and
    the Break meets the Shield it negates."""
    duels = ROOT / "tests" / "toygame" / "duels"
    results = Suite({TOY.id: TOY}).check([duels / "equal-sparks.yaml", duels / "break-negates-shield.yaml"])
    found = gaps(TOY, results)
    assert found.uncited == ("toy.prep.hand-limit", "toy.compare.shield", "toy.end.lose")
    unconnected = {frozenset((a[1], b[1])) for a, b in found.unconnected}
    assert {frozenset(("5", other)) for other in ("Break", "Shield", "9", "2")} <= unconnected
    assert frozenset(("Break", "Shield")) not in unconnected  # the Break negates the Shield
    lines = report.gaps_lines(found, shown=2)
    assert lines[0] == "Rulings no scenario or question cites (3): toy.prep.hand-limit, toy.compare.shield, toy.end.lose"
    assert lines[1] == f"Pairs of the game's own card no scenario connects ({len(found.unconnected)}), the 2 between the most connected:"
    assert len(lines) == 4


def test_gaps_pair_only_the_games_own_cards_and_rule_concepts() -> None:
    """My Crypto Saga's Card Types are the scenarios' own (a Kami and an Element each deck makes up); its Elements are the
    rules'. The gaps pair the four Elements only, and say how many Card Types they leave out."""
    game = suite.games()["my-crypto-saga"]
    found = gaps(game, suite.default().check(suite.scenario_files([SCENARIOS / "my-crypto-saga"])))
    paired = {entity for pair in found.unconnected for entity in pair}
    assert {kind for kind, _ in paired} <= {"element"} and {name for _, name in paired} <= {"Fire", "Water", "Leaf", "Light"}
    assert len(found.unconnected) <= 6  # at most every two of the four Elements
    assert found.left_out >= 10
    assert f"(not paired: {found.left_out} that scenarios define for themselves" in "\n".join(report.gaps_lines(found))


def test_yugioh_is_searched_by_random_legal_play_and_a_divergence_is_found(tmp_path: Path) -> None:
    """Yu-Gi-Oh! has no generator of its own: the shared random legal play finds a scenario for at least one of its
    ambiguous rulings, which loads as a question whose outcome depends on that ruling."""
    out = tmp_path / "yugioh-dm2"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = main(["disputes", "--find", "yugioh-dm2", "--budget", "20", "--seed", "0", "--out", str(out)])
    assert code == 0, stdout.getvalue()
    finds = found(stdout.getvalue())
    assert finds, stdout.getvalue()
    game = suite.games()["yugioh-dm2"]
    for ruling, (_, path) in finds.items():
        [scenario] = suite.load_many([path])
        assert isinstance(scenario, Scenario) and scenario.is_question
        exploration = explore_each(scenario, game)
        assert exploration.depends_on(ruling, exploration.branches[0].readings), path
