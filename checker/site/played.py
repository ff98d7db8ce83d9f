"""Every scenario file played for the site, on every core: its run, its own page and its summary.

Each file is loaded, run, and (when it consults ambiguous rulings) run under their other
readings by a worker process (:func:`checker.run.batch.each`), which writes the scenario's
own page there and sends back that page, compressed, and the run's summary
(:class:`checker.commands.summary.Shown`), never the run itself. Ids are checked for uniqueness
here, in file order, as :meth:`checker.run.suite.Suite.load_many` does.

A worker links the entities of a scenario's page by the slugs of a view of that scenario
alone; an entity whose slug differs in its game's view (two names with the same slug, rare)
has its line written again here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from checker.run import batch, suite
from checker.engine.errors import InputError
from checker.engine.files import read_regular
from checker.commands.readings import explore_each
from checker.run.runner import RunResult
from checker.format.scenario import Scenario
from checker.site.model import GameView, SiteModel
from checker.site.pages.scenario import entities_line, scenario_page
from checker.site.pages.written import PackedPage, WrittenPage
from checker.commands.summary import Shown, summarize
from checker.engine.trace import Entity


@dataclass(frozen=True)
class Played:
    """One scenario file as the site shows it: its text, its summary and its own page (a valid scenario), or
    what the coverage page says of an invalid file."""

    text: str
    shown: Shown | None  # None when the file could not be loaded
    invalid: RunResult | None = None  # its path and error, when the file or its run is invalid
    page: PackedPage | None = None
    slugs: dict[Entity, str] = field(default_factory=dict)  # the entity slugs the page links by


def play(path: Path, text: str) -> Played:
    """Load and run the file and write its page; a scenario that consults ambiguous rulings is also run under
    their other readings, of which the summary keeps what the disputes and ruling pages compare."""
    result = suite.run_one(suite.load(path), keep_starts=True)  # the other readings' runs start where they differ
    scenario = result.scenario
    invalid = RunResult.invalid(result.path, result.error) if result.verdict == "invalid" and result.error else None
    if not isinstance(scenario, Scenario):
        return Played(text, None, invalid)
    game = suite.games()[scenario.game]
    exploration = explore_each(scenario, game, own_run=result) if result.readings else None
    shown = summarize(result, exploration, game.catalogue)
    result.starts.clear()  # its states are no longer needed
    view = GameView.of(game, [shown])
    page = scenario_page(view, result, shown, text)
    packed = PackedPage.of(page, view.scenario_page(scenario.id))
    return Played(text, shown, invalid, packed, {e: view.entity_slugs[e] for e in shown.entities if e in view.entity_slugs})


def _play_file(path: Path) -> Played:
    return play(path, _text(path))


def _text(path: Path) -> str:
    """The file's text, to tell whether it changed since the last build; ``""`` for one that is not a file to read
    (a named pipe, a link to nothing), whose loading says what it is."""
    try:
        return read_regular(path).decode("utf-8", "replace")
    except OSError:
        return ""


class PlayedCache:
    """Every scenario file played, by path; a file whose text has not changed is not played again."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs if jobs is not None else batch.default_jobs()
        self.files: dict[str, Played] = {}
        self.views: dict[str, tuple[tuple[Shown, ...], GameView]] = {}  # by game, with the summaries it shows

    def view(self, game_id: str, results: list[Shown]) -> GameView:
        """The game's view of these summaries: the last build's when they are the same objects."""
        kept = self.views.get(game_id)
        if kept is None or len(kept[0]) != len(results) or any(a is not b for a, b in zip(kept[0], results)):
            kept = self.views[game_id] = (tuple(results), GameView.of(suite.games()[game_id], results))
        return kept[1]

    def own_page(self, view: GameView, result: Shown) -> WrittenPage | PackedPage:
        """A scenario's own page, its entities linked by their slugs in ``view``."""
        played = self.files[result.path]
        assert played.page is not None
        if all(view.entity_slugs.get(e) == s for e, s in played.slugs.items()):
            return played.page
        here = view.scenario_page(result.id)
        involved = sorted(e for e in result.entities if e in played.slugs)
        alone = GameView(view.game, [], view.graph, dict(played.slugs))  # the view the worker linked by
        page = played.page.unpacked()
        html = page.html.replace(entities_line(alone, here, involved), entities_line(view, here, involved), 1)
        return WrittenPage(page.meta, html, page.summary_only)

    def results(self, paths: list[Path]) -> tuple[list[Shown], list[RunResult]]:
        """Each valid scenario's summary, in file order, and the invalid files (a scenario whose id an earlier
        file uses among them); the cache then holds these files only."""
        texts = {path: _text(path) for path in paths}
        changed = [path for path in paths if (kept := self.files.get(str(path))) is None or kept.text != texts[path]]
        fresh = dict(zip(changed, batch.each(changed, _play_file, self.jobs, prepare=functools.partial(batch.ready, suite.default()))))
        played_now: dict[str, Played] = {}
        first_file: dict[str, str] = {}
        shown: list[Shown] = []
        invalid: list[RunResult] = []
        for path in paths:
            played = fresh.get(path) or self.files[str(path)]
            played_now[str(path)] = played
            if played.shown is not None and played.shown.id in first_file:
                invalid.append(_duplicate(path, first_file[played.shown.id]))
                continue
            if played.shown is not None:
                first_file[played.shown.id] = played.shown.path
                shown.append(played.shown)
            if played.invalid is not None:
                invalid.append(played.invalid)
        self.files = played_now
        return shown, invalid


def _duplicate(path: Path, first_file: str) -> RunResult:
    """The result of a scenario whose id ``first_file`` already uses (loaded again: the worker kept no document)."""
    return suite.default().duplicate(suite.load(path), first_file)


def build_model(scenario_root: Path, cache: PlayedCache | None = None) -> SiteModel:
    cache = cache if cache is not None else PlayedCache()
    try:
        paths = suite.scenario_files([scenario_root])
    except InputError:  # no scenario yet: the site still shows the games, their rulings and procedures
        paths = []
    shown, invalid = cache.results(paths)
    views: dict[str, GameView] = {}
    for game_id in suite.games():
        mine = sorted((r for r in shown if r.game == game_id), key=lambda r: r.id)
        views[game_id] = cache.view(game_id, mine)
    return SiteModel(views, invalid)
