from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from checker.engine.game import Game
from checker.games import registry
from checker.run import suite
from checker.run.runner import RunResult
from checker.format.scenario import Scenario
from checker.site import build as site_build
from checker.site.build import serve
from tests.toygame import GAME as TOY

pytest_plugins = ["pytester", "tests.browser"]  # tests.browser: the browser tests' fixtures

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DUELS = ROOT / "tests" / "toygame" / "duels"
#: Every game of the repository and the example game, by id.
EVERY_GAME: dict[str, Game] = {**registry(), TOY.id: TOY}


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
def every_game_suite() -> suite.Suite:
    return suite.Suite(EVERY_GAME)


@pytest.fixture(scope="session")
def every_scenario(every_game_suite: suite.Suite) -> list[Scenario]:
    """Every scenario of every game, the example game's duels included."""
    loaded = every_game_suite.load_many(suite.scenario_files([SCENARIOS, DUELS]))
    return [item for item in loaded if isinstance(item, Scenario)]


@pytest.fixture(scope="session")
def results(scenarios: list[Scenario]) -> list[RunResult]:
    return [suite.run_one(scenario) for scenario in scenarios]


# --- The built website -------------------------------------------------------------------------



@dataclass(frozen=True)
class Site:
    folder: Path
    base: str  # http://127.0.0.1:PORT/


def build_site(folder: Path, scenarios: Path, node_modules: Path = ROOT / "node_modules", jobs: int | None = None) -> Path:
    return site_build.build_site(ROOT / "mkdocs.yml", folder, scenarios, node_modules, jobs)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory):
    folder = build_site(tmp_path_factory.mktemp("site"), SCENARIOS)
    base, server = serve(folder)
    yield Site(folder, base)
    server.shutdown()


HOSTILE_TITLE = "</title><script>window.__pwned = 1</script><b>bold</b>"
LONG_CARD = "Big Punch of the Mountain " * 11 + "End"  # 289 characters: a page name of it would be too long for a file


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory):
    """A site built from one good scenario, one whose expectation is wrong, one with markup in every text, one whose
    card has a name of 289 characters."""
    work = tmp_path_factory.mktemp("hostile")
    folder = work / "scenarios" / "monster-rancher-bc2"
    folder.mkdir(parents=True)
    good = (SCENARIOS / "monster-rancher-bc2" / "counter-rounding.yaml").read_text(encoding="utf-8")
    (folder / "counter-rounding.yaml").write_text(good, encoding="utf-8")
    failing = good.replace("id: counter-rounding", "id: counter-rounding-wrong").replace("Naga: {lp: 7}", "Naga: {lp: 6}")
    (folder / "counter-rounding-wrong.yaml").write_text(failing, encoding="utf-8")
    hostile = good.replace("id: counter-rounding", "id: hostile-markup").replace(
        "title: Counter against 5 damage sends 2 to the attacker and keeps 3", f"title: '{HOSTILE_TITLE}'"
    ).replace("notes: Half of 5", "notes: <img src=x onerror=\"window.__pwned=2\"> Half of 5").replace(
        "Big Punch", "Big <script>window.__pwned=3</script> Punch"
    )
    (folder / "hostile-markup.yaml").write_text(hostile, encoding="utf-8")
    long_name = good.replace("id: counter-rounding", "id: long-card-name").replace("Big Punch", LONG_CARD)
    (folder / "long-card-name.yaml").write_text(long_name, encoding="utf-8")
    built = build_site(work, work / "scenarios")
    base, server = serve(built)
    yield Site(built, base)
    server.shutdown()
