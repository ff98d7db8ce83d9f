"""The games known without importing them: ids and schema from the cache, one game imported per scenario's game."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker.format import gameindex
from checker import games
from checker.games import registry
from checker.format.schema import build_schema
from tests.conftest import ROOT, SCENARIOS


def test_the_index_gives_every_game_and_their_schema_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULINGS_CACHE", str(tmp_path))
    built = gameindex.game_index()
    assert [path.name for path in tmp_path.glob("games-*.json")] == [f"games-{gameindex.source_hash()}.json"]
    cached = gameindex.game_index()
    for index in (built, cached):
        assert list(index.games) == list(registry())
        assert all(index.games[game_id] is game for game_id, game in registry().items())
        assert index.schema == build_schema(registry())
    assert "no-such-game" not in cached.games
    with pytest.raises(KeyError):
        cached.games["no-such-game"]


@pytest.mark.parametrize("edited", ["games/monster_rancher_bc2/schema.yaml", "games/zatch_bell/rules/battle_in.py", "schema.py"])
def test_the_source_hash_changes_with_any_file_the_index_is_built_from(
    edited: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "checker"
    shutil.copytree(ROOT / "checker", copy, ignore=shutil.ignore_patterns("__pycache__", "site"))
    monkeypatch.setattr(gameindex, "CORE", copy)
    monkeypatch.setattr(games, "__path__", [str(copy / "games")])
    before = gameindex.source_hash()
    assert before == gameindex.source_hash()
    with (copy / edited).open("a", encoding="utf-8") as file:
        file.write("\n# edited\n")
    assert gameindex.source_hash() != before


def test_checking_one_file_imports_only_the_game_of_its_scenario(tmp_path: Path) -> None:
    target = str(SCENARIOS / "many-marios-0" / "agility.yaml")
    script = (
        "import sys\nfrom checker.cli import main\n"
        f"main(['check', {target!r}])\n"
        "print(sorted(name for name in sys.modules if name.count('.') == 2 and name.startswith('checker.games.')))\n"
    )
    env = {**os.environ, "RULINGS_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert "PASS     agility" in again.stdout
    assert again.stdout.splitlines()[-1] == "['checker.games.many_marios_0']"
    assert first.stdout.splitlines()[-1].count("checker.games.") == len(registry())  # no cache yet: all built
