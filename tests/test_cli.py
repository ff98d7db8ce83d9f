"""The command line: check, explain, readings, schema; exit codes and JSON."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker.run import batch
from checker.cli import main
from tests.conftest import ROOT, SCENARIOS

MR = SCENARIOS / "monster-rancher-bc2"


def test_check_every_scenario_exits_0(capsys) -> None:
    assert main(["check", str(SCENARIOS)]) == 0
    output = capsys.readouterr().out
    assert "0 failed, 0 invalid" in output
    assert output.count("PASS") >= 60


def test_one_line_per_scenario(capsys) -> None:
    files = sorted(MR.glob("*.yaml"))[:3]
    main(["check", *map(str, files)])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 + 1


def test_a_failing_scenario_exits_1_and_shows_the_field(tmp_path: Path, capsys) -> None:
    text = (MR / "counter-rounding.yaml").read_text(encoding="utf-8")
    changed = text.replace("Naga: {lp: 7}", "Naga: {lp: 8}")
    assert changed != text
    path = tmp_path / "counter-rounding.yaml"
    path.write_text(changed, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    output = capsys.readouterr().out
    assert "FAIL     counter-rounding" in output
    assert "players.B.monsters.Naga.lp: expected 8, got 7" in output


def test_json_format(capsys) -> None:
    assert main(["check", "--format", "json", str(MR / "counter-rounding.yaml")]) == 0
    data = json.loads(capsys.readouterr().out)
    [result] = data["results"]
    assert result["id"] == "counter-rounding"
    assert result["verdict"] == "pass"
    assert data["summary"].startswith("1 passed, 0 failed")


def test_json_format_for_invalid_input(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\ngame: monster-rancher-bc2\ntitle: t\ninitial: {}\nactions: []\nextra: 1\n", encoding="utf-8")
    assert main(["check", "--format", "json", str(path)]) == 2
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert result["verdict"] == "invalid"
    assert (result["error"]["line"], result["error"]["column"]) == (6, 1)
    assert "unknown key 'extra'" in result["error"]["message"]


def test_explain_prints_the_trace_with_rulings(capsys) -> None:
    assert main(["explain", str(MR / "shotgun-critical-under-nice-fight.yaml")]) == 0
    output = capsys.readouterr().out
    assert "Additive bonus: 3 (Shotgun) + 2 (Critical) = 5  [mr.attack.final-additive]" in output
    assert "Final Damage = 3 (Shotgun) + 2 (Critical) = 5" in output
    assert "Nice Fight forbids Final Damage ≤ 3: 5 is allowed  [mr.attack.env-prohibition]" in output
    assert output.index("Final Damage = 3 (Shotgun)") < output.index("Damage split after the ENV check")


def test_explain_answers_a_question(capsys) -> None:
    assert main(["explain", str(MR / "last-man-revived-question.yaml")]) == 0
    output = capsys.readouterr().out
    assert "verdict: ANSWER" in output
    assert "reading 'retained'" in output


def test_explain_json_has_outcome_and_trace(capsys) -> None:
    main(["explain", "--format", "json", str(MR / "counter-rounding.yaml")])
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"]["players"]["B"]["monsters"]["Naga"]["lp"] == 7
    assert any(step["ruling"] == "mr.rounding.golden-rule" for step in data["trace"])


def test_schema_check(tmp_path: Path, capsys) -> None:
    assert main(["schema", "--check", "--output", str(ROOT / "schema" / "scenario.schema.json")]) == 0
    stale = tmp_path / "stale.json"
    stale.write_text("{}", encoding="utf-8")
    assert main(["schema", "--check", "--output", str(stale)]) == 1


def test_python_dash_m_and_console_script_agree() -> None:
    target = str(MR / "counter-rounding.yaml")
    module = subprocess.run([sys.executable, "-m", "checker", "check", target], capture_output=True, text=True)
    script = subprocess.run([str(Path(sys.executable).parent / "checker"), "check", target], capture_output=True, text=True)
    assert module.returncode == script.returncode == 0
    assert module.stdout == script.stdout


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    """``checker explain FILE | head`` and the like: no BrokenPipeError traceback."""
    command = [sys.executable, "-m", "checker", "check", "--format", "json", str(SCENARIOS)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.wait(timeout=120)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors


def test_checking_on_several_processes_prints_what_one_process_prints(tmp_path: Path, capsys) -> None:
    sources = sorted(SCENARIOS.rglob("*.yaml"))[:70]
    for source in sources:
        shutil.copy(source, tmp_path / source.name)
    shutil.copy(sources[0], tmp_path / "zz-same-id.yaml")
    (tmp_path / "zz-broken.yaml").write_text("id: broken\ngame: yugioh-dm2\nextra: 1\n", encoding="utf-8")
    printed = {}
    for output in ("text", "json"):
        for jobs in ("1", "2"):
            code = main(["check", "--format", output, "-j", jobs, str(tmp_path)])
            printed[output, jobs] = (code, capsys.readouterr().out)
        assert printed[output, "1"] == printed[output, "2"]
    code, text = printed["text", "2"]
    assert code == 2 and "zz-same-id.yaml:2:5: error: id" in text and "zz-broken.yaml:3:1: error: unknown key 'extra'" in text
    assert json.loads(printed["json", "2"][1])["results"][-1]["verdict"] == "invalid"


@pytest.mark.parametrize("count", [1, 5, 64, 1_000, 10_000, 50_000])
def test_the_workers_take_every_file_once_in_order_in_slices_that_shrink_to_the_end(count: int) -> None:
    files = list(range(count))
    slices = list(batch._slices(files, jobs=2))
    assert [file for part in slices for file in part] == files
    sizes = [len(part) for part in slices]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] <= 512 and sizes[-1] <= 4
    assert len(slices) <= 20 + count // 512  # few rounds: a round wakes the parent's threads
