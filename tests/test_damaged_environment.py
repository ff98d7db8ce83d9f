"""A damaged environment: links that loop or lead nowhere, named pipes, folders that cannot be read, outputs
that cannot be written. Each is one message naming the path and what it is, exit 2, no traceback; the
other scenarios still run. (Damaged caches: ``test_cache_integrity.py``.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from checker.cli import main
from tests.conftest import ROOT, SCENARIOS

GOOD = SCENARIOS / "monster-rancher-bc2" / "counter-rounding.yaml"
DAMAGED = {
    "loop.yaml": ("a symbolic link that leads back to itself", lambda path: path.symlink_to(path.name)),
    "broken.yaml": ("a symbolic link to missing.yaml, which does not exist", lambda path: path.symlink_to("missing.yaml")),
    "pipe.yaml": ("a named pipe (FIFO)", os.mkfifo),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of one good scenario, each damaged entry, and a link back to the folder above."""
    (tmp_path / "good.yaml").write_bytes(GOOD.read_bytes())
    for name, (_, make) in DAMAGED.items():
        make(tmp_path / name)
    (tmp_path / "up").symlink_to("..")
    return tmp_path


def checker(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command, in a process of its own: a named pipe opened for reading would wait there, not here."""
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_folder_with_links_and_pipes_checks_the_rest_and_names_each(folder: Path) -> None:
    run = checker("check", "-j", "1", ".", cwd=folder)
    assert run.returncode == 2, run.stderr
    assert "PASS     counter-rounding" in run.stdout
    for name, (what, _) in DAMAGED.items():
        assert f"INVALID  {name}: error: cannot read file: {what}" in run.stdout
    assert "1 passed, 0 failed, 3 invalid" in run.stdout and "Traceback" not in run.stderr


@pytest.mark.parametrize("name", DAMAGED)
def test_each_named_on_the_command_line(name: str, folder: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    for command in (["check", name], ["explain", name], ["new", "monster-rancher-bc2", "--from", name]):
        assert main(command) == 2
        assert f"checker: error: {DAMAGED[name][0]}: {name}" in capsys.readouterr().err


def test_a_folder_that_cannot_be_read(tmp_path: Path, capsys) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "good.yaml").write_bytes(GOOD.read_bytes())
    inner.chmod(0)
    try:
        if os.access(inner, os.R_OK):
            pytest.skip("permissions do not stop this user")
        assert main(["check", str(tmp_path)]) == 2
        assert f"cannot read the folder {inner}: Permission denied" in capsys.readouterr().err
    finally:
        inner.chmod(0o700)


@pytest.mark.parametrize("command", [
    ["new", "monster-rancher-bc2", "--output", "a-file/new.yaml"],
    ["schema", "--output", "a-file/schema.json"],
    ["schema", "--output", "a-folder"],
    ["schema", "--check", "--output", "a-folder"],
])
def test_an_output_that_cannot_be_written(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("kept", encoding="utf-8")
    (tmp_path / "a-folder").mkdir()
    run = checker(*command, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("checker: error: cannot ") and run.stderr.count("\n") == 1, run.stderr
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "kept"
    assert not any((tmp_path / "a-folder").iterdir())


@pytest.mark.parametrize("name", ["pipe.yaml", "broken.yaml"])
def test_new_never_writes_over_a_pipe_or_through_a_link(name: str, folder: Path) -> None:
    run = checker("new", "monster-rancher-bc2", "--output", name, cwd=folder)
    assert run.returncode == 2
    assert f"{name} already exists: not overwriting it" in run.stderr
    assert not (folder / "missing.yaml").exists()
