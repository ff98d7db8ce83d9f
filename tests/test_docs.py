"""The example in the scenario format guide is a real, passing scenario."""

from __future__ import annotations

import re
from pathlib import Path

from checker.cli import main
from tests.conftest import ROOT


def test_the_documented_example_passes(tmp_path: Path, capsys) -> None:
    guide = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(.*?)```", guide, re.S)
    assert example is not None
    folder = tmp_path / "scenarios" / "monster-rancher-bc2"
    folder.mkdir(parents=True)
    (folder / "example.yaml").write_text(example.group(1), encoding="utf-8")
    assert main(["check", str(folder)]) == 0, capsys.readouterr().out
