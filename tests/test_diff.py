"""``checker diff`` against a real git history: a throwaway repository with this project's checker.

The engine change under test makes Counter's reflected half round up instead of
down, and stops citing the Rounding Golden Rule for it. Against 5 damage the
attacker then takes 3 back instead of 2 and the defender keeps 2 instead of 3:
Golem (20 LP) ends at 17 instead of 18, Naga (10 LP) at 8 instead of 7.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from checker.cli import main
from tests.conftest import ROOT, SCENARIOS
from tests.test_cli_conventions import output_validator

MR = "scenarios/monster-rancher-bc2"

BROKEN_LINE = len((ROOT / MR / "sponge-halves-odd-damage.yaml").read_text(encoding="utf-8").splitlines()) + 1  # the key appended
RULES = "checker/games/monster_rancher_bc2/rules/defense_step.py"  # where Counter (reflect-half) is
COPIED = ("counter-rounding.yaml", "sponge-halves-odd-damage.yaml", "last-man-revived-question.yaml")
QUESTION = """\
id: counter-question
game: monster-rancher-bc2
title: How does Counter split 5 damage?
cards:
  Big Punch: {kind: attack, user: Golem, damage: 5}
initial:
  players:
    A:
      hand: [Big Punch]
      monsters: [{name: Golem, attribute: Ground, lp: 20}]
    B:
      hand: [Counter]
      monsters: [{name: Naga, attribute: Ground, lp: 10}]
actions:
  - {action: attack, player: A, monster: Golem, card: Big Punch, target: Naga}
  - {action: defend, player: B, monster: Naga, card: Counter}
"""
ROUNDING = "back = halve(total, round_up=False)"
CITATION = """context.note(
                "mr.rounding.golden-rule",
                f"{action['card']} against {total} damage"""


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=tester@example.org", *args],
        cwd=repo, capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


def _repository(tmp_path: Path, branch: str) -> Path:
    """A repository with this project's checker and four Monster Rancher files, committed on ``branch``."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "checker", repo / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    (repo / MR).mkdir(parents=True)
    for name in COPIED:
        shutil.copy(SCENARIOS / "monster-rancher-bc2" / name, repo / MR / name)
    (repo / MR / "counter-question.yaml").write_text(QUESTION, encoding="utf-8")
    _git(repo, "init", "--quiet", "--initial-branch", branch)
    _git(repo, "add", ".")
    _git(repo, "commit", "--quiet", "--message", "the engine as it was")
    return repo


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is no longer in {path}: update this test's engine change"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository with the engine change, and one scenario broken, uncommitted."""
    repo = _repository(tmp_path_factory.mktemp("diff"), "main")
    _replace(repo / RULES, ROUNDING, "back = halve(total, round_up=True)")
    _replace(repo / RULES, CITATION, CITATION.replace('"mr.rounding.golden-rule"', "None"))
    with (repo / MR / "sponge-halves-odd-damage.yaml").open("a", encoding="utf-8") as file:
        file.write("colour: red\n")
    return repo


def _diff(repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    code = main(["diff", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


#: What the change moves when Naga counters Golem's 5 damage (see the module's docstring).
COUNTER_CHANGES = [
    "    last_attack.dealt.A.Golem: 2 → 3",
    "    last_attack.dealt.B.Naga: 3 → 2",
    "    attacks[0].dealt.A.Golem: 2 → 3",
    "    attacks[0].dealt.B.Naga: 3 → 2",
    "    players.A.monsters.Golem.lp: 18 → 17",
    "    players.B.monsters.Naga.lp: 7 → 8",
    "    no longer cited: mr.rounding.golden-rule",
]


def test_an_engine_change_is_reported_file_by_file(changed: Path, monkeypatch, capsys) -> None:
    code, out, err = _diff(changed, monkeypatch, capsys)
    base = _git(changed, "rev-parse", "--short=7", "HEAD")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        f"checker diff: merge base with main ({base}) → the working tree, 4 files compared",
        "monster-rancher-bc2",
        f"  counter-question  ({MR}/counter-question.yaml)",
        "    answer changed",
        *COUNTER_CHANGES,
        f"  counter-rounding  ({MR}/counter-rounding.yaml)",
        "    verdict: PASS → FAIL",
        *COUNTER_CHANGES,
        f"  sponge-halves-odd-damage  ({MR}/sponge-halves-odd-damage.yaml)",
        "    verdict: PASS → INVALID",
        f"    now: {MR}/sponge-halves-odd-damage.yaml:{BROKEN_LINE}:1: error: unknown key 'colour' (expected one of 'id',"
        " 'game', 'title', 'rulings', 'expect_cites', 'expect_not_cited', 'expect_trace', 'tags', 'status', 'notes',"
        " 'assumptions', 'readings' and 7 more)",
        "2 verdicts changed, 1 answer changed, 12 facts changed in 2 files, 0 rulings newly cited, 1 no longer cited,"
        " 1 file became invalid, 0 became valid, 0 added, 0 removed",
    ]
    assert _git(changed, "worktree", "list").count("\n") == 0  # the temporary checkout is gone


def test_json_for_tools(changed: Path, monkeypatch, capsys) -> None:
    code, out, _ = _diff(changed, monkeypatch, capsys, "main", "--format", "json")
    data = json.loads(out)
    assert code == 1
    output_validator("diff").validate(data)
    assert data["base"] == {"revision": "main", "commit": _git(changed, "rev-parse", "HEAD")}
    assert data["changed"] is True
    assert data["counts"] == {
        "verdicts_changed": 2, "answers_changed": 1, "facts_changed": 12, "files_with_facts_changed": 2,
        "rulings_newly_cited": 0, "rulings_no_longer_cited": 1, "became_invalid": 1, "became_valid": 0,
        "added": 0, "removed": 0,
    }
    [question, rounding, broken] = data["games"]["monster-rancher-bc2"]
    assert rounding["verdict"] == {"before": "pass", "after": "fail"}
    assert {"fact": "players.A.monsters.Golem.lp", "before": 18, "after": 17} in rounding["facts"]
    assert question["answer_changed"] and not question["verdict_changed"]
    assert broken["problem"]["before"] is None and "unknown key 'colour'" in broken["problem"]["after"]


def test_markdown_for_a_pull_request(changed: Path, monkeypatch, capsys) -> None:
    code, out, _ = _diff(changed, monkeypatch, capsys, "HEAD", MR, "--format", "markdown")
    lines = out.splitlines()
    assert code == 1
    assert lines[2].startswith("**2** verdicts changed · **1** answer changed · **12** facts changed in 2 files")
    assert "| scenario | verdict | facts | rulings |" in lines
    row = next(line for line in lines if line.startswith("| counter-rounding"))
    # No link without an address: a relative one breaks in a pull-request comment.
    assert row.startswith(f"| counter-rounding (`{MR}/counter-rounding.yaml`) | PASS → **FAIL** | ")
    assert "`players.A.monsters.Golem.lp`: `18` → `17`" in row
    assert row.endswith("| no longer cited: `mr.rounding.golden-rule` |")


def test_markdown_links_files_under_the_address_given(changed: Path, monkeypatch, capsys) -> None:
    base = "https://forge.example/team/rulings/blob/abc123"
    code, out, _ = _diff(changed, monkeypatch, capsys, "HEAD", MR, "--format", "markdown", "--link-base", base + "/")
    assert code == 1
    assert f"| [counter-rounding]({base}/{MR}/counter-rounding.yaml) | PASS → **FAIL** | " in out


def test_a_path_where_the_revision_goes_is_a_path(changed: Path, monkeypatch, capsys) -> None:
    code, out, err = _diff(changed, monkeypatch, capsys, MR)
    assert (code, err) == (1, "")
    assert out.startswith("checker diff: merge base with main (")
    assert f"  counter-rounding  ({MR}/counter-rounding.yaml)" in out


def test_nothing_changed_exits_0(tmp_path: Path, monkeypatch, capsys) -> None:
    repo = _repository(tmp_path, "trunk")  # no main branch: the diff is against HEAD
    code, out, err = _diff(repo, monkeypatch, capsys)
    base = _git(repo, "rev-parse", "--short=7", "HEAD")
    assert (code, err) == (0, "")
    assert out == (
        f"Nothing changed between HEAD ({base}) and the working tree: 4 files compared, the same verdicts, "
        "answers, facts, refusals, citations and validity.\n"
    )


def test_a_revision_before_checker_diff_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    repo = _repository(tmp_path, "main")
    _replace(repo / "checker" / "cli.py", 'check.add_argument("--with-outcomes"', 'check.add_argument("--outcomes"')
    _git(repo, "commit", "--quiet", "--all", "--message", "a checker without check --with-outcomes")
    _git(repo, "checkout", "--quiet", "HEAD~1", "--", "checker/cli.py")
    code, out, err = _diff(repo, monkeypatch, capsys, "HEAD")
    assert (code, out) == (2, "")
    assert err.startswith("checker: error: HEAD (") and "predates 'checker diff'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-revision"], "checker: error: unknown revision: no-such-revision"),
        (["HEAD", "no/such/folder"], "checker: error: no such file or folder: no/such/folder"),
    ],
)
def test_bad_input_exits_2_with_one_message(changed: Path, monkeypatch, capsys, args: list[str], message: str) -> None:
    code, out, err = _diff(changed, monkeypatch, capsys, *args)
    assert (code, out) == (2, "")
    assert err.splitlines()[0].startswith(message)
    assert len(err.splitlines()) == 1


def test_outside_a_git_repository(tmp_path: Path, monkeypatch, capsys) -> None:
    code, out, err = _diff(tmp_path, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"checker: error: not a git repository: {tmp_path}")


def _observed(outcome: dict, refusals: dict | None = None) -> "Observed":
    from checker.commands.snapshot import Observed

    return Observed(path=f"{MR}/x.yaml", id="x", game="yugioh-dm2", verdict="question", outcome=outcome,
                    refusals=refusals or {}, cited=(), problem=None)


def test_values_are_written_as_yaml_and_what_is_no_change_is_left_out() -> None:
    from checker.commands import diff_format
    from checker.commands.diff import diff
    from checker.commands.gitrev import Revision

    before = _observed({"players": {"A": {"attacked": False, "position": "attack"}}})
    after = _observed({"players": {"A": {"attacked": True, "position": "defense"}, "B": {"monsters": {}, "graveyard": []}}},
                      {"2": "not-your-turn"})
    found = diff(Revision("0" * 40, "main"), [before], [after])
    text = diff_format.text(found)
    markdown = diff_format.markdown(found)
    assert "players.A.attacked: false → true" in text and "players.A.position: attack → defense" in text
    assert "`players.A.attacked`: `false` → `true`" in markdown and "`players.A.position`: `attack` → `defense`" in markdown
    assert "action 2 refused: nothing → not-your-turn" in text
    assert "players.B" not in text and "players.B" not in markdown
    assert "True" not in text + markdown and "'" not in markdown
