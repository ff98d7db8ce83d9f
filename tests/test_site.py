"""The built website, read as files: complete, linked, offline, escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from checker.games import registry
from checker.site.model import page, slug
from tests.conftest import HOSTILE_TITLE, Site

MR = "monster-rancher-bc2"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")
        for attribute in ("src", "srcset", "data"):
            if values.get(attribute):
                self.sources.append(values[attribute] or "")
        if tag == "link" and values.get("href") and values.get("rel") not in ("canonical",):
            self.sources.append(values["href"] or "")


def html_pages(site: Site) -> list[Path]:
    return sorted(site.folder.rglob("*.html"))


def test_every_ruling_scenario_and_entity_has_a_page(site: Site, results) -> None:
    for game_id, game in registry().items():
        assert (site.folder / game_id / "index.html").exists(), game_id
        for ruling in game.catalogue.rulings:
            assert (site.folder / game_id / "rulings" / ruling.id / "index.html").exists(), ruling.id
    for result in results:
        assert result.scenario is not None
        assert (site.folder / result.scenario.game / "scenarios" / result.id / "index.html").exists(), result.id
    entities = list((site.folder / MR / "entities").glob("*/index.html"))
    assert len(entities) > 50
    for name in ("card-shotgun", "status-enchant", "env-nice-fight", "monster-mocchi", "mechanic-taunt"):
        assert (site.folder / MR / "entities" / name / "index.html").exists(), name


def test_every_internal_link_resolves(site: Site) -> None:
    broken = []
    for path in html_pages(site):
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        here = "/" + path.relative_to(site.folder).as_posix()
        for link in parser.hrefs:
            target = urlparse(urljoin(here, link))
            if target.scheme or target.netloc or link.startswith("#"):
                continue
            local = site.folder / target.path.lstrip("/")
            if not (local.is_file() or (local / "index.html").is_file()):
                broken.append(f"{here} -> {link}")
    assert not broken, broken[:20]


def test_nothing_is_loaded_from_another_host(site: Site) -> None:
    for path in [*html_pages(site), *site.folder.rglob("*.css")]:
        text = path.read_text(encoding="utf-8")
        parser = Links()
        if path.suffix == ".html":
            parser.feed(text)
        urls = parser.sources + re.findall(r"url\(\s*['\"]?(https?:[^'\")]+)", text) + re.findall(r"@import\s+['\"](https?:[^'\"]+)", text)
        external = [u for u in urls if urlparse(u).netloc and urlparse(u).hostname not in ("127.0.0.1", "localhost")]
        assert not external, (path, external)
    assert "fonts.googleapis.com" not in (site.folder / "index.html").read_text(encoding="utf-8")


def test_third_party_code_is_served_from_the_site_not_the_repository(site: Site) -> None:
    assert (site.folder / "assets" / "vendor" / "cytoscape.min.js").stat().st_size > 100_000
    root = Path(__file__).resolve().parent.parent
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    assert not [f for f in tracked if f.startswith("node_modules/") or f.endswith(".min.js")], "vendored code committed"


def test_failing_scenario_shows_as_failing_with_its_diff(hostile_site: Site) -> None:
    text = (hostile_site.folder / MR / "scenarios" / "counter-rounding-wrong" / "index.html").read_text(encoding="utf-8")
    assert 'rk-verdict rk-fail">FAIL' in text
    assert "players.B.monsters.Naga.lp" in text and "differs" in text
    game = (hostile_site.folder / MR / "index.html").read_text(encoding="utf-8")
    assert "FAIL" in game


def test_text_from_scenarios_is_escaped(hostile_site: Site) -> None:
    for path in html_pages(hostile_site):
        text = path.read_text(encoding="utf-8")
        assert "<script>window.__pwned" not in text, path
        assert "onerror=\"window" not in text, path
    page_text = (hostile_site.folder / MR / "scenarios" / "hostile-markup" / "index.html").read_text(encoding="utf-8")
    assert "&lt;/title&gt;&lt;script&gt;" in page_text
    assert HOSTILE_TITLE not in page_text


@pytest.mark.parametrize("part", ["../etc", "a/b", "..", "", "UPPER", "x y"])
def test_page_paths_cannot_leave_the_site(part: str) -> None:
    with pytest.raises(ValueError):
        page(MR, "scenarios", part)


def test_slugs_are_safe_for_any_name() -> None:
    for name in ["../../etc/passwd", "Can't Attack", "<script>", "", "Ω"]:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", slug(name)), name


def test_each_game_lists_what_a_scenario_can_say_from_its_vocabulary(site: Site) -> None:
    for game_id, game in registry().items():
        text = (site.folder / game_id / "vocabulary" / "index.html").read_text(encoding="utf-8")
        for entry in game.vocabulary.actions:
            assert f"<code>{entry.name}</code>" in text, (game_id, entry.name)
        for reason in game.vocabulary.reject_reasons:
            assert f"<code>{reason}</code>" in text, (game_id, reason)
        for family in game.vocabulary.effects.values():
            for entry in family:
                assert f"<code>{entry.name}</code>" in text, (game_id, entry.name)


def test_a_ruling_page_separates_the_trace_from_the_authors_claim(site: Site, results) -> None:
    from checker.citations import uncited

    result, ruling = next(
        (r, ruling) for r in results for ruling in uncited(r, registry()[r.scenario.game].catalogue)
    )
    game = result.scenario.game
    text = (site.folder / game / "rulings" / ruling / "index.html").read_text(encoding="utf-8")
    applied, declared = text.split("Declared by the author only")
    assert "Applied in the trace" in applied
    assert f"scenarios/{result.id}/" in declared and f"scenarios/{result.id}/" not in applied
