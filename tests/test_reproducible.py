"""The same tree gives the same output: two site builds are byte-identical, and so are two JSON reports.

Each build or check runs in its own process with its own hash seed, so nothing may depend on the
order Python happens to iterate a set in.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SCENARIOS

BUILD = """
import sys
from pathlib import Path
from tests.conftest import build_site, SCENARIOS
build_site(Path(sys.argv[1]), SCENARIOS)
"""


def _in_process(arguments: list[str], seed: int) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONHASHSEED": str(seed), "SOURCE_DATE_EPOCH": "1790000000"}
    return subprocess.run([sys.executable, *arguments], cwd=ROOT, env=environment, capture_output=True, check=False)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_two_site_builds_are_byte_identical(tmp_path: Path) -> None:
    builds = []
    for seed in (1, 2):
        work = tmp_path / f"build-{seed}"
        done = _in_process(["-c", BUILD, str(work)], seed)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        builds.append(_files(work / "site"))
    first, second = builds
    assert len(first) > 500 and first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_json_report_is_stable_across_processes() -> None:
    reports = [_in_process(["-m", "checker", "check", "--format", "json", str(SCENARIOS)], seed) for seed in (1, 2)]
    assert all(report.returncode == 0 for report in reports), reports[0].stderr.decode()[-2000:]
    assert len(reports[0].stdout) > 10_000
    assert reports[0].stdout == reports[1].stdout
