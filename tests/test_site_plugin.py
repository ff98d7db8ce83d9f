"""The MkDocs plugin: registered by entry point, rebuilds on data changes, fails clearly without npm packages."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from checker.site.plugin import GAMES, RulingsPlugin
from tests.conftest import ROOT, build_site


def test_registered_as_an_mkdocs_plugin() -> None:
    [plugin] = [e for e in entry_points(group="mkdocs.plugins") if e.name == "rulings"]
    assert plugin.load() is RulingsPlugin


def test_serve_watches_scenarios_catalogues_and_rules() -> None:
    watched: list[str] = []

    class Server:
        def watch(self, path: str) -> None:
            watched.append(path)

    class Config:
        config_file_path = str(ROOT / "mkdocs.yml")

    plugin = RulingsPlugin()
    plugin.load_config({})
    plugin.on_serve(Server(), config=Config(), builder=None)  # type: ignore[arg-type]
    assert str(ROOT / "scenarios") in watched
    assert str(GAMES) in watched
    assert any(Path(p, "monster_rancher_bc2", "rulings.yaml").exists() for p in watched)


def test_missing_front_end_packages_fail_the_build_with_a_clear_message(tmp_path: Path, caplog) -> None:
    with pytest.raises(Abort):
        build_site(tmp_path, ROOT / "scenarios", node_modules=tmp_path / "empty")
    assert "cytoscape.min.js is missing: run 'make run' or 'npm ci'" in caplog.text
