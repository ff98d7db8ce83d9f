"""The shape of checker/: its layers import only downward, its types check, and no module outgrows a reader.

The layers and the rule against import cycles are import-linter contracts in pyproject.toml; the type check is
mypy, strict, configured there too. Both run here, so `make test` fails on a broken layer or a type error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

#: A module longer than this is split (by the sections of its source document, for a rules module).
MAX_LINES = 1000


def test_the_layers_import_only_downward_and_nothing_imports_itself_back(tmp_path: Path) -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint), "--cache-dir", str(tmp_path / "cache")], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout, done.stdout


def test_checker_type_checks_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy")], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found"), done.stdout


def test_no_module_under_checker_exceeds_the_limit() -> None:
    lengths = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path in (ROOT / "checker").rglob("*.py")}
    assert len(lengths) > 50
    assert {path: count for path, count in lengths.items() if count > MAX_LINES} == {}
