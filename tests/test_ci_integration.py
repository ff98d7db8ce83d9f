"""The CI integration the project ships: the pre-commit hook, run through pre-commit itself, and the pull-request
workflow, whose commands this checker must accept."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from checker import cli
from tests.conftest import ROOT, SCENARIOS

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
WORKFLOW = ROOT / "docs" / "ci" / "pull-request.yml"
MR = "scenarios/monster-rancher-bc2"


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)


def test_pre_commit_accepts_the_hook_definition() -> None:
    done = run(ROOT, sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository of scenarios whose pre-commit configuration uses the hook as this project defines it
    (as a local hook run by the checker on the PATH, where pre-commit would install this package)."""
    repo = tmp_path / "repo"
    (repo / MR).mkdir(parents=True)
    [hook] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    config = {"repos": [{"repo": "local", "hooks": [{**hook, "language": "system"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (repo / MR / "broken-and-untouched.yaml").write_text("id: broken\n", encoding="utf-8")
    assert run(repo, "git", "init", "--quiet").returncode == 0
    assert run(repo, "git", "add", ".").returncode == 0
    assert run(repo, "git", "commit", "--quiet", "--no-verify", "-m", "start").returncode == 0
    return repo


def test_the_hook_checks_the_scenarios_a_commit_touches(repository: Path) -> None:
    shutil.copy(SCENARIOS / "monster-rancher-bc2" / "counter-rounding.yaml", repository / MR / "counter-rounding.yaml")
    (repository / "notes.yaml").write_text("not: a scenario\n", encoding="utf-8")
    run(repository, "git", "add", ".")
    done = run(repository, sys.executable, "-m", "pre_commit", "run")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check rulings scenarios" in done.stdout and "Passed" in done.stdout

    (repository / MR / "counter-rounding.yaml").write_text(
        (SCENARIOS / "monster-rancher-bc2" / "counter-rounding.yaml").read_text(encoding="utf-8").replace("{lp: 18}", "{lp: 17}"),
        encoding="utf-8",
    )
    run(repository, "git", "add", ".")
    done = run(repository, sys.executable, "-m", "pre_commit", "run")
    assert done.returncode == 1
    assert f"FAIL     counter-rounding  ({MR}/counter-rounding.yaml)" in done.stdout
    assert "broken" not in done.stdout  # a file the commit does not touch is not checked


def _commands(step: dict[str, str]) -> list[list[str]]:
    """The shell commands of a workflow step, each as its words, with ${{ expressions }} as placeholders."""
    text = re.sub(r"\$\{\{[^}]*\}\}", "X", step["run"]).replace("\\\n", " ")
    return [shlex.split(line.split("||")[0].split(">")[0]) for line in text.splitlines() if line.strip()]


def test_the_pull_request_workflow_runs_the_tests_and_comments_checker_diff_against_the_base() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert workflow[True] == "pull_request"  # YAML 1.1 reads the key 'on' as true
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    commands = [words for step in steps if "run" in step for words in _commands(step)]
    assert ["make", "test"] in commands
    [diff] = [words for words in commands if words[:2] == [".venv/bin/checker", "diff"]]
    args = cli._parser().parse_args(diff[1:])
    assert (args.command, args.revision, args.format, args.link_base) == ("diff", "origin/X", "markdown", "X/X/blob/X")
    assert any(words[:3] == ["gh", "pr", "comment"] and "checker-diff.md" in words for words in commands)
