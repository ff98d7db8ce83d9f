"""Filing a dispute as a judge would: a file from `checker new`, its answer, its ruling applied everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.cli import main
from tests.conftest import SCENARIOS

MCS = "my-crypto-saga"
LIGHT = SCENARIOS / MCS / "light-beside-three-elements.yaml"  # pins mcs.amb.light-with-three: light-wins
TIE_RULING = """ruling:
  adopted: {mcs.amb.light-with-three: tie}
  reasoning: Fire, Water and Leaf are all present; "only" does not exclude a fourth card.
  date: 2025-01-15
"""


def new_from_light(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    target = tmp_path / "light-dispute.yaml"
    assert main(["new", MCS, "--from", str(LIGHT), "--output", str(target)]) == 0
    capsys.readouterr()
    return target


def test_a_pin_that_contradicts_the_adopted_reading_is_refused_naming_both(tmp_path: Path, capsys) -> None:
    target = new_from_light(tmp_path, capsys)
    text = target.read_text(encoding="utf-8")
    assert "mcs.amb.light-with-three: light-wins" in text  # copied by --from
    target.write_text(text + TIE_RULING, encoding="utf-8")
    assert main(["explain", str(target)]) == 2
    err = capsys.readouterr().err
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.strip().startswith("mcs.amb.light-with-three:"))
    assert f"light-dispute.yaml:{line}:" in err
    assert "pins mcs.amb.light-with-three = light-wins, but the ruling adopted tie" in err
    assert "Traceback" not in err


def ruled_without_pin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    target = new_from_light(tmp_path, capsys)
    text = target.read_text(encoding="utf-8").replace("readings:\n  mcs.amb.light-with-three: light-wins\n", "")
    assert "light-wins\n" not in text.split("# readings:")[0]
    target.write_text(text + TIE_RULING, encoding="utf-8")
    return target


def test_a_ruled_dispute_is_explained_under_its_adopted_reading(tmp_path: Path, capsys) -> None:
    target = ruled_without_pin(tmp_path, capsys)
    assert main(["explain", str(target), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["readings"] == {"mcs.amb.light-with-three": "tie"}
    # Under a tie no Number is added: the Light card keeps its own 10, not 10 + 30.
    assert answer["outcome"]["games"]["1"]["played"]["round-1"]["A"]["number"] == 10


def test_a_ruled_dispute_is_checked_under_its_adopted_reading_by_pytest(tmp_path: Path, capsys, pytester: pytest.Pytester) -> None:
    target = ruled_without_pin(tmp_path, capsys)
    text = target.read_text(encoding="utf-8").replace("actions:\n", "expect:\n  games: {'1': {played: {round-1: {A: {number: 10}}}}}\nactions:\n", 1)
    folder = pytester.path / "scenarios" / MCS
    folder.mkdir(parents=True)
    (folder / "light-dispute.yaml").write_text(text, encoding="utf-8")
    pytester.makeini("[pytest]\ntestpaths = scenarios\n")
    pytester.runpytest().assert_outcomes(passed=1)
    (folder / "light-dispute.yaml").write_text(text.replace("number: 10}}}}}", "number: 40}}}}}"), encoding="utf-8")
    pytester.runpytest().assert_outcomes(failed=1)


QUESTION = """\
id: refused-question
game: monster-rancher-bc2
title: Can B attack during A's turn?
initial:
  players:
    A: {hand: [Shotgun], monsters: [{name: Pixie, attribute: Air, lp: 20}]}
    B: {hand: [Shotgun], monsters: [{name: Pixie, attribute: Air, lp: 10}]}
actions:
  - {action: attack, player: B, monster: Pixie, card: Shotgun, split: {Pixie: 3}}
"""


def test_a_question_whose_action_is_refused_says_so_on_its_result_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ANSWER   refused-question") and lines[0].endswith("refused: action 1 (not-your-turn)")
    assert lines[1] == "    action 1 refused: not-your-turn: it is A's turn"


def test_a_golden_file_says_what_was_refused_on_its_result_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(QUESTION.replace("{Pixie: 3}}", "{Pixie: 3}, reject: {reason: not-your-turn}}"), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("refused: action 1 (not-your-turn)")


PROPOSED = """status: disputed
proposed_ambiguity:
  passage: The monster that attacks uses the card.
  line: 12
  readings:
    - Only the monster named on the card may use it.
    - Any monster of the attacking Breeder may use it.
"""


def test_readings_names_the_ambiguity_a_dispute_proposes(tmp_path: Path, capsys) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION + PROPOSED, encoding="utf-8")
    assert main(["readings", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "refused-question: its verdict depends on no reading of an ambiguous ruling the catalogue lists."
    assert "proposes an ambiguity the catalogue does not list (line 12 of the source)" in out[1]
    assert out[2:] == ['  "The monster that attacks uses the card."', "  - Only the monster named on the card may use it.",
                       "  - Any monster of the attacking Breeder may use it."]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("status: disputed\n", ""), "a scenario with 'proposed_ambiguity:' is a dispute (expected 'status: disputed' in this file)"),
        (("  line: 12\n", ""), "missing key 'line'"),
        (("    - Any monster of the attacking Breeder may use it.\n", ""), "fewer than the 2 required"),
    ],
)
def test_a_wrong_proposed_ambiguity_is_invalid_with_its_line(tmp_path: Path, capsys, change: tuple[str, str], message: str) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION + PROPOSED.replace(*change), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "q.yaml:" in out and message in out and "Traceback" not in out


def test_a_refusal_names_the_ruling_the_rules_applied(tmp_path: Path, capsys) -> None:
    """Many Marios refuses an army over the challenge's Army Points by its AP limit ruling."""
    text = (SCENARIOS / "many-marios-0" / "ap-limit.yaml").read_text(encoding="utf-8")
    question = text[: text.index("\nexpect:")].replace(", reject: {reason: over-ap-limit}}", "}") + "\n"
    path = tmp_path / "ap.yaml"
    path.write_text(question, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    first, second = capsys.readouterr().out.splitlines()[:2]
    assert first.startswith("ANSWER") and first.endswith("refused: action 1 (over-ap-limit, by mm.army.ap-limit)")
    assert second.startswith("    action 1 refused: over-ap-limit, by mm.army.ap-limit: ")
