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


def _end_serving(config) -> None:
    """The end of a ``mkdocs serve`` session. MkDocs keeps the plugins that have ``on_startup`` for every later
    configuration in the process, as serve's rebuilds need; a later build starts with new ones, as in a new process
    (the search plugin would otherwise merge each index into the last)."""
    from mkdocs.config.defaults import MkDocsConfig

    config.plugins.on_shutdown()
    MkDocsConfig.plugins.plugin_cache.clear()


def test_a_dirty_rebuild_after_one_edit_writes_only_the_pages_it_changes(tmp_path: Path) -> None:
    import json
    import shutil

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from checker.site.build import site_config

    scenarios = tmp_path / "scenarios" / "monster-rancher-bc2"
    shutil.copytree(ROOT / "scenarios" / "monster-rancher-bc2", scenarios)
    config_file = str(site_config(ROOT / "mkdocs.yml", tmp_path, scenarios.parent, ROOT / "node_modules"))
    site = tmp_path / "site"
    first = load_config(config_file)
    first.plugins.on_startup(command="serve", dirty=True)
    try:
        build(first, dirty=True)  # strict: the dirty-build warning does not abort it
        before = {p: p.stat().st_mtime_ns for p in site.rglob("*.html")}
        indexed = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
        edited = scenarios / "counter-rounding.yaml"
        edited.write_text(edited.read_text(encoding="utf-8").replace("\ntitle: ", "\ntitle: Edited, ", 1), encoding="utf-8")
        build(load_config(config_file), dirty=True)  # as mkdocs serve does: the configuration read again
        after = {p: p.stat().st_mtime_ns for p in site.rglob("*.html")}
    finally:
        _end_serving(first)
    page = site / "monster-rancher-bc2" / "scenarios" / "counter-rounding" / "index.html"
    assert "Edited, Counter against 5 damage" in page.read_text(encoding="utf-8")
    rewritten = [p for p in after if after[p] != before.get(p)]
    assert page in rewritten and site / "monster-rancher-bc2" / "index.html" in rewritten
    assert site / "monster-rancher-bc2" / "scenarios" / "counter-against-belly-blow" / "index.html" not in rewritten
    assert after.keys() == before.keys() and len(rewritten) < len(after) / 10, len(rewritten)
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = [doc["title"] for doc in docs if doc["location"].startswith("monster-rancher-bc2/scenarios/counter-rounding/")]
    assert len(titles) == 1 and titles[0].startswith("Edited, Counter against 5 damage sends 2"), titles
    assert len(docs) == len(indexed), "every page is still in the search index, once"


def test_a_dirty_rebuild_after_edits_gives_the_site_a_clean_build_gives(tmp_path: Path) -> None:
    """Pages the edits change are written again, whatever the edit changes (a title, a verdict, the file no longer
    valid); the pages kept from the last build are those a clean build writes the same."""
    import shutil

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from checker.site.build import site_config

    scenarios = tmp_path / "scenarios" / "monster-rancher-bc2"
    shutil.copytree(ROOT / "scenarios" / "monster-rancher-bc2", scenarios)
    config_file = str(site_config(ROOT / "mkdocs.yml", tmp_path / "served", scenarios.parent, ROOT / "node_modules"))
    first = load_config(config_file)
    first.plugins.on_startup(command="serve", dirty=True)
    edits = [
        ("counter-rounding.yaml", "\ntitle: ", "\ntitle: Edited, "),
        ("counter-against-belly-blow.yaml", "A: {monsters: {Naga: {lp: 18}}}", "A: {monsters: {Naga: {lp: 17}}}"),  # now a FAIL
        ("counter-rounding.yaml", "\ntitle: ", "\ntitle: Broken: "),  # no longer YAML: gone from its game's pages
    ]
    try:
        build(first, dirty=True)
        for name, old, new in edits:
            edited = scenarios / name
            edited.write_text(edited.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
            build(load_config(config_file), dirty=True)
    finally:
        _end_serving(first)
    clean = build_site(tmp_path / "clean", scenarios.parent)
    served = tmp_path / "served" / "site"
    pages = {p.relative_to(clean) for p in clean.rglob("*.html")}
    assert pages == {p.relative_to(served) for p in served.rglob("*.html")}
    differ = [p for p in sorted(pages) if (clean / p).read_bytes() != (served / p).read_bytes()]
    assert not differ, differ[:10]


def _one_game(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "scenarios"
    shutil.copytree(ROOT / "scenarios" / "monster-rancher-bc2", root / "monster-rancher-bc2")
    return root


def test_a_site_made_and_rendered_on_two_processes_is_the_site_made_on_one(tmp_path: Path, monkeypatch) -> None:
    """Pages made by forked workers, and rendered into the theme by a forked process while MkDocs renders the
    rest: the same files, byte for byte, as one process builds."""
    from checker.site import plugin, rendering

    shared: list[int] = []

    def spied(*args, **kwargs):
        elsewhere = rendering.start(*args, **kwargs)
        shared.append(len(elsewhere.pages))
        return elsewhere

    monkeypatch.setattr(plugin, "start", spied)
    scenarios = _one_game(tmp_path)
    one = build_site(tmp_path / "one", scenarios, jobs=1)
    two = build_site(tmp_path / "two", scenarios, jobs=2)
    assert shared[0] == 0 and shared[1] >= rendering.PARALLEL_FROM // 2, shared  # the second build shared pages out
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    differ = [p for p in files if (one / p).read_bytes() != (two / p).read_bytes()]
    assert not differ, differ[:10]


def test_the_parts_of_the_theme_rendered_once_per_folder_change_no_page(tmp_path: Path, monkeypatch) -> None:
    """The navigation, the header's search box and colour switch, the theme's settings, style sheets and scripts,
    rendered once per folder of generated pages and reused: every file the same, byte for byte, as when each page
    has them rendered for itself."""
    from checker.site import plugin, rendering

    rendered: list[object] = []
    real = rendering._once_per_folder

    def counted(render, in_nav):  # counts each time a part is rendered, not reused
        def rendering_part(context):
            rendered.append(context.get("page"))
            return render(context)

        return real(rendering_part, in_nav)

    monkeypatch.setattr(rendering, "_once_per_folder", counted)
    scenarios = _one_game(tmp_path)
    kept = build_site(tmp_path / "kept", scenarios, jobs=1)
    parts = len(rendering.PER_FOLDER) + len(rendering.BLOCKS_PER_FOLDER)
    pages = list(kept.rglob("*.html"))
    assert 0 < 10 * len(rendered) < len(pages) * parts, (len(rendered), len(pages))  # rendered for few pages, kept for the rest
    monkeypatch.setattr(plugin, "once_per_folder", lambda env, nav: None)
    each = build_site(tmp_path / "each", scenarios, jobs=1)
    files = sorted(p.relative_to(kept) for p in kept.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(each) for p in each.rglob("*") if p.is_file())
    differ = [p for p in files if (kept / p).read_bytes() != (each / p).read_bytes()]
    assert not differ, differ[:10]


@pytest.mark.parametrize("trouble", ["error", "warning"])
def test_trouble_rendering_pages_in_another_process_fails_the_strict_build(tmp_path: Path, monkeypatch, caplog,
                                                                          trouble: str) -> None:
    import logging
    import os

    from mkdocs.commands import build as mkdocs_build

    here = os.getpid()
    real = mkdocs_build._build_page

    def troubled(page, *args, **kwargs):  # in the forked process only
        if os.getpid() != here:
            if trouble == "error":
                raise RuntimeError("no template today")
            logging.getLogger("mkdocs.plugins").warning("a page the theme frowns upon")
        return real(page, *args, **kwargs)

    monkeypatch.setattr(mkdocs_build, "_build_page", troubled)
    with pytest.raises(Abort):
        build_site(tmp_path, _one_game(tmp_path), jobs=2)
    expected = "pages in another process failed" if trouble == "error" else "pages in another process gave the warnings above"
    assert expected in caplog.text
