from __future__ import annotations

import os
from pathlib import Path

import pytest

from checker import suite
from checker.runner import RunResult
from checker.scenario import Scenario

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


@pytest.fixture(scope="session")
def sources() -> Path:
    """The rules documents: $RULINGS_SOURCES, else ../shared/sources beside the repository."""
    for candidate in (os.environ.get("RULINGS_SOURCES"), ROOT.parent / "shared" / "sources"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    pytest.skip("the source documents are not beside the repository (set RULINGS_SOURCES)")


@pytest.fixture(scope="session")
def scenarios() -> list[Scenario]:
    loaded = suite.load_many(suite.scenario_files([SCENARIOS]))
    invalid = [item for item in loaded if isinstance(item, RunResult)]
    assert not invalid, [item.error.render(item.path) for item in invalid if item.error]
    return [item for item in loaded if isinstance(item, Scenario)]


@pytest.fixture(scope="session")
def results(scenarios: list[Scenario]) -> list[RunResult]:
    return [suite.run_one(scenario) for scenario in scenarios]
