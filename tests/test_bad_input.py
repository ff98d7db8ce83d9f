"""Bad scenario files: one clear message (file:line:column, what, what was expected), exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from checker.cli import main

GOOD = """\
id: {id}
game: monster-rancher-bc2
title: A 3-damage move on Golem
rulings: [mr.attack.declare-single]
cards:
  Jab: {{kind: attack, user: Pixie, damage: 3}}
initial:
  players:
    A:
      hand: [Jab]
      monsters: [{{name: Pixie, attribute: Air, lp: 10}}]
    B:
      monsters: [{{name: Golem, attribute: Ground, lp: 10}}]
actions:
  - {{action: attack, player: A, monster: Pixie, card: Jab, target: Golem}}
expect:
  players: {{B: {{monsters: {{Golem: {{lp: 7}}}}}}}}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def check(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str]:
    code = main(["check", *map(str, paths)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def error_line(output: str) -> str:
    [line] = [line for line in output.splitlines() if line.startswith("INVALID")]
    return line


def test_a_good_file_passes(tmp_path: Path, capsys) -> None:
    code, output = check(capsys, write(tmp_path, "good.yaml", GOOD.format(id="good")))
    assert code == 0, output


CASES = {
    "unknown key with nearest": (
        ("  - {action: attack, player: A, monster: Pixie, card: Jab, target: Golem}",
         "  - {action: attack, player: A, monster: Pixie, crad: Jab, target: Golem}"),
        ":15:49: error: unknown key 'crad' (did you mean 'card'?)",
    ),
    "wrong type": (
        ("lp: 7}", "lp: seven}"),
        ":17:40: error: wrong type: got text 'seven' (expected a whole number)",
    ),
    "unknown game": (
        ("game: monster-rancher-bc2", "game: monster-rancher-bc3"),
        ":2:7: error: unknown game 'monster-rancher-bc3' (did you mean 'monster-rancher-bc2'?)",
    ),
    "unknown card": (
        ("card: Jab, target", "card: Jabb, target"),
        ":15:55: error: unknown card 'Jabb' (did you mean 'Jab'?)",
    ),
    "unknown monster": (
        ("target: Golem}", "target: Gollem}"),
        ":15:68: error: side B has no monster named 'Gollem'",
    ),
    "unknown ruling": (
        ("rulings: [mr.attack.declare-single]", "rulings: [mr.attack.declare-singel]"),
        ":4:11: error: unknown ruling 'mr.attack.declare-singel' (did you mean 'mr.attack.declare-single'?)",
    ),
    "unknown reject reason": (
        ("target: Golem}", "target: Golem, reject: {reason: nope}}"),
        ":15:92: error: unknown value 'nope'",
    ),
    "missing key": (
        ("title: A 3-damage move on Golem\n", ""),
        ":1:1: error: missing key 'title'",
    ),
    "syntax error": (
        ("title: A 3-damage move on Golem", "title: [A 3-damage move"),
        ":4:8: error: YAML syntax",
    ),
}

#: What an engine change can do to a golden file: each is a FAIL (exit 1) that says what changed, never INVALID.
REGRESSIONS = {
    "an action expected to be legal is refused": (
        ("hand: [Jab]", "hand: []"),
        "line 15: after action 1: actions[0].reject.reason: expected nothing, got card-not-in-hand "
        "(refused: Jab is not in A's hand)",
    ),
    "an expected monster is not there": (
        ("Golem: {lp: 7}", "Gollem: {lp: 7}"),
        "line 17: final outcome: players.B.monsters.Gollem: expected {lp: 7}, got nothing "
        "(no fact 'Gollem' here (did you mean 'Golem'?); there are: Golem)",
    ),
}


@pytest.mark.parametrize("case", REGRESSIONS, ids=list(REGRESSIONS))
def test_an_engine_regression_is_a_fail_that_names_it(case: str, tmp_path: Path, capsys) -> None:
    (old, new), message = REGRESSIONS[case]
    text = GOOD.format(id="regressed")
    assert old in text
    path = write(tmp_path, "regressed.yaml", text.replace(old, new))
    code, output = check(capsys, path)
    assert code == 1, output
    assert "FAIL     regressed" in output and "INVALID" not in output
    assert f"    {message}" in output.splitlines()


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_one_clear_located_message_and_exit_2(case: str, tmp_path: Path, capsys) -> None:
    (old, new), message = CASES[case]
    text = GOOD.format(id="bad")
    assert old in text
    path = write(tmp_path, "bad.yaml", text.replace(old, new))
    before = path.read_bytes()
    code, output = check(capsys, path)
    assert code == 2
    line = error_line(output)
    assert line.startswith(f"INVALID  {path}:"), line
    assert message in line, line
    assert "Traceback" not in output
    assert path.read_bytes() == before  # nothing the user wrote is touched


def test_other_scenarios_still_run(tmp_path: Path, capsys) -> None:
    write(tmp_path, "a-bad.yaml", "id: [\n")
    write(tmp_path, "b-good.yaml", GOOD.format(id="good"))
    failing = GOOD.format(id="failing").replace("lp: 7}", "lp: 6}")
    write(tmp_path, "c-failing.yaml", failing)
    code, output = check(capsys, tmp_path)
    assert code == 2
    assert "PASS     good" in output
    assert "FAIL     failing" in output
    assert "1 passed, 1 failed, 1 invalid" in output


def test_duplicate_ids_across_files(tmp_path: Path, capsys) -> None:
    write(tmp_path, "one.yaml", GOOD.format(id="same"))
    second = write(tmp_path, "two.yaml", GOOD.format(id="same"))
    code, output = check(capsys, tmp_path)
    assert code == 2
    assert f"{second}:1:5: error: id 'same' is already used by" in error_line(output)


def test_missing_path(tmp_path: Path, capsys) -> None:
    code = main(["check", str(tmp_path / "nowhere")])
    assert code == 2
    assert "no such file or folder" in capsys.readouterr().err


HOSTILE = {
    "python object tag": ("!!python/object/apply:os.system ['echo pwned']\n", "tag"),
    "custom tag": ("id: !shell x\n", "tag"),
    "billion laughs": (
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8)),
        "expands to more than",
    ),
    "deep nesting": ("x: " + "[" * 200 + "]" * 200 + "\n", "nesting deeper than"),
    "huge file": ("notes: '" + "x" * 300_000 + "'\n", "larger than"),
    "duplicate key": ("id: a\nid: b\n", "duplicate key 'id'"),
    "two documents": ("id: a\n---\nid: b\n", "more than one YAML document"),
    "merge key": ("base: &b {x: 1}\nother:\n  <<: *b\n", "merge keys"),
    "not a mapping": ("- just\n- a list\n", "a scenario is a mapping"),
    "empty": ("", "the file is empty"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_hostile_files_are_refused_safely(case: str, tmp_path: Path, capsys) -> None:
    text, message = HOSTILE[case]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    code, output = check(capsys, path)
    assert code == 2
    assert message in error_line(output)
    assert "Traceback" not in output


def test_not_utf8(tmp_path: Path, capsys) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("title: caf\xe9\n".encode("latin-1"))
    code, output = check(capsys, path)
    assert code == 2
    assert "not UTF-8" in error_line(output)


def test_no_traceback_from_the_real_command(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "!!python/object/apply:os.system ['touch pwned']\n")
    run = subprocess.run([sys.executable, "-m", "checker", "check", str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2
    assert "Traceback" not in run.stdout + run.stderr
    assert not (tmp_path / "pwned").exists()


HOSTILE_VALUES = {
    "an alias to the mapping that contains it": (
        ("  players:\n", "  players: &loop\n"),
        ("      monsters: [{name: Golem, attribute: Ground, lp: 10}]\n",
         "      monsters: [{name: Golem, attribute: Ground, lp: 10}]\n    again: *loop\n"),
        "an alias refers to a mapping or list that contains it",
    ),
    "a whole number thousands of digits long": (
        ("lp: 7}", "lp: " + "9" * 5000 + "}"),
        None,
        "a whole number written with 5000 characters, more than the 100 allowed",
    ),
    "a list far over its limit, shown cut with its length": (
        ("monsters: [{name: Pixie, attribute: Air, lp: 10}]",
         "monsters: [" + ", ".join(f"{{name: P{i}, attribute: Air, lp: 10}}" for i in range(1000)) + "]"),
        None,
        "1000 items, more than the 3 allowed",
    ),
}


@pytest.mark.parametrize("case", HOSTILE_VALUES, ids=list(HOSTILE_VALUES))
def test_hostile_values_get_a_located_message_not_a_traceback(case: str, tmp_path: Path, capsys) -> None:
    first, second, message = HOSTILE_VALUES[case]
    text = GOOD.format(id="hostile")
    for change in filter(None, (first, second)):
        assert change[0] in text
        text = text.replace(*change)
    code, output = check(capsys, write(tmp_path, "hostile.yaml", text))
    assert code == 2 and "Traceback" not in output
    assert message in error_line(output)
    assert len(error_line(output)) < 400  # a long value is cut, never printed whole


def test_every_independent_problem_of_a_file_is_reported_at_once(tmp_path: Path, capsys) -> None:
    text = (GOOD.format(id="many").replace("title: A 3-damage move on Golem", "titel: A 3-damage move")
            .replace("lp: 10}]\n    B", "lp: ten}]\n    B").replace("lp: 7}", "lp: true}"))
    code, output = check(capsys, write(tmp_path, "many.yaml", text))
    assert code == 2
    lines = output.splitlines()
    assert "unknown key 'titel'" in lines[0]
    problems = [line.strip() for line in lines[1:-1]]
    assert [p.split(": error: ")[1] for p in problems] == [
        "wrong type: got text 'ten' (expected a whole number)",
        "wrong type: got true (expected a whole number)",
    ]
    assert all(p.startswith(f"{tmp_path / 'many.yaml'}:") for p in problems)


def test_a_folder_with_no_scenario_is_bad_input(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    code, output = check(capsys, tmp_path / "empty")
    assert code == 2
    assert "no scenario found in" in output and "0 passed" not in output


def test_a_mismatch_in_an_action_written_as_an_alias_is_reported_at_the_alias(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "aliases.yaml", """\
        id: aliases
        game: monster-rancher-bc2
        title: turn ends written once
        initial:
          players:
            A: {monsters: [{name: Golem, attribute: Ground, lp: 20}]}
            B: {monsters: [{name: Durahan, attribute: Ground, lp: 20}]}
        actions:
          - &end-a {action: end-turn, player: A}
          - {action: end-turn, player: B}
          - *end-a
          - *end-a
        expect: {turn: 4}
        """)
    code, output = check(capsys, path)
    assert code == 1
    assert "    line 12: after action 4: actions[3].reject.reason: expected nothing, got not-your-turn" in output
