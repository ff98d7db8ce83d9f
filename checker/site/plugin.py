"""The MkDocs plugin (entry point ``rulings``) that generates the rulings website.

At build time it runs every scenario with the engine, on every core, each scenario's own page
written by the worker that ran it (:mod:`checker.site.played`), makes every other page (on every
core too, for a single build), has a share of the pages rendered into the theme by forked
processes while MkDocs renders the rest (:mod:`checker.site.rendering`), and adds the front-end files: ours from this package, Cytoscape.js from ``node_modules``
(installed from the npm registry by the setup, never committed). ``mkdocs serve`` rebuilds
when a scenario, a catalogue or a rules module changes. Pages are kept compressed until
MkDocs writes them.

A generated page is HTML already: the pages outside the navigation (all but a few) skip
Markdown (:class:`GeneratedPage`), and the plugin indexes them for search itself, with the
search plugin's own parser, from their text without the parts marked ``data-search-exclude``.

The plugin lives as long as ``mkdocs serve`` (it has ``on_startup``): it keeps each scenario
file's run (:class:`checker.site.played.Played`), each game's view and pages, and each page's
digest. Under ``mkdocs serve --dirty`` a rebuild re-runs only the files that changed, writes
again only the pages that show a changed scenario (:func:`checker.site.pages.schedule.pages_of_game`),
and renders, indexes and writes only the pages whose text changed.
"""

from __future__ import annotations

import gc
import json
import logging
import zlib
from pathlib import Path
from typing import Any, Literal

import jinja2
import jinja2.bccache
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from checker.site import askbundle
from checker.site.model import GameView
from checker.site.pages.kit import toc_tokens, url
from checker.site.pages.schedule import all_pages, pages_of_game
from checker.site.pages.search import search_entries, searchable
from checker.site.pages.written import ANCHOR, PackedPage, Pages, Read, WrittenPage, packed
from checker.site.played import PlayedCache, build_model
from checker.site.rendering import Elsewhere, QuietSkips, once_per_folder, start

ASSETS = Path(__file__).parent / "assets"
THEME = Path(__file__).parent / "theme"  # overrides of the theme's templates
GAMES = Path(__file__).parent.parent / "games"
VENDOR = {"assets/vendor/cytoscape.min.js": "cytoscape/dist/cytoscape.min.js"}
OURS = {"assets/search.js": "search.js", "assets/rulings.js": "rulings.js", "assets/pairs.js": "pairs.js", "assets/rulings.css": "rulings.css",
        "assets/ask-engine.js": "ask-engine.js", "assets/ask-worker.js": "ask-worker.js", "assets/ask.js": "ask.js",
        "assets/ask.css": "ask.css"}
VENDOR_FOLDERS = {"assets/vendor/yaml": "yaml/browser/dist"}  # a library of ES modules, loaded by the Ask page alone
SEARCH_INDEX = "search/search_index.json"


class RulingsConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' Config.__init_subclass__
    scenarios = c.Type(str, default="scenarios")
    node_modules = c.Type(str, default="node_modules")
    jobs = c.Optional(c.Type(int))  # processes that play the scenarios and render the pages; default: one per core


class GeneratedFile(File):
    """A file the plugin writes; under a dirty build, modified only when its text differs from the last build's."""

    modified = True

    def is_modified(self) -> bool:
        return self.modified

    @classmethod
    def made(cls, config: MkDocsConfig, source: str, *, content: str) -> GeneratedFile:
        """The file the plugin writes at ``source`` (MkDocs' ``File.generated``, typed as this class)."""
        file = cls.generated(config, source, content=content)
        assert isinstance(file, cls)
        return file


class GeneratedPage(Page):
    """A generated page outside the navigation: its meta and HTML come from the plugin, not from Markdown.

    MkDocs renders every page before it writes the first; a generated page keeps its HTML compressed
    in between. ``content`` unpacks it when read; the last page read stays unpacked, so that setting it to
    the very text read (as the search plugin and this one do) packs nothing again."""

    _last: tuple[bytes, str] | None = None  # the last page read, packed and unpacked

    def __init__(self, file: File, config: MkDocsConfig, written: WrittenPage | PackedPage) -> None:
        self._packed: bytes | None = None
        super().__init__(None, file, config)
        self.written: WrittenPage | PackedPage | None = written
        self.read = written.read if isinstance(written, PackedPage) else None  # what MkDocs reads of it, when made

    @property
    def content(self) -> str | None:
        last = GeneratedPage._last
        if self._packed is None or (last is not None and last[0] is self._packed):
            return None if self._packed is None else last[1]  # type: ignore[index]
        html = zlib.decompress(self._packed).decode("utf-8")
        GeneratedPage._last = (self._packed, html)
        return html

    @content.setter
    def content(self, html: str | None) -> None:
        last = GeneratedPage._last
        if html is not None and last is not None and last[0] is self._packed and last[1] is html:
            return
        self._packed = None if html is None else zlib.compress(html.encode("utf-8"), 1)

    def read_source(self, config: MkDocsConfig) -> None:
        assert self.written is not None, f"{self.file.src_uri} was already rendered"
        self.markdown = ""
        self.meta = dict(self.written.meta)

    def render(self, config: MkDocsConfig, files: Files) -> None:
        assert self.written is not None, f"{self.file.src_uri} was already rendered"
        if isinstance(self.written, PackedPage):
            self._packed = self.written.packed
        else:
            self.content = self.written.html
        self.written = None  # the HTML lives on in self.content until the page is written
        if self.read is None:
            html = self.content
            assert html is not None
            self.read = Read(toc_tokens(html), frozenset(ANCHOR.findall(html)), None)
        self.toc = get_toc(self.read.headings)
        self.present_anchor_ids = set(self.read.anchors)
        self.links_to_anchors = {}


class CompiledTemplates(jinja2.BytecodeCache):
    """The theme's templates, compiled once for every rebuild of ``mkdocs serve`` (each gets a new environment)."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


class RulingsPlugin(BasePlugin[RulingsConfig]):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    def __init__(self) -> None:
        super().__init__()
        self.dirty = False
        self.played = PlayedCache()
        self.templates = CompiledTemplates()
        self.digests: dict[str, str] = {}  # by source path, as last built
        self.settings = ""  # the text of mkdocs.yml, as last built: the navigation and theme of every page
        self.search: dict[str, list[dict[str, Any]]] = {}  # each generated page's search entries, as last built
        self.written: dict[str, WrittenPage | PackedPage] = {}  # this build's pages, until each is read
        self.nav_html: dict[str, str] = {}  # the HTML of a page in the navigation, between reading and rendering
        self.summaries: set[str] = set()  # pages that search finds by their title and summary
        self.unsearched: set[str] = set()  # pages search leaves out
        self.game_pages: dict[str, tuple[GameView, Pages]] = {}  # by game: the view they show, its pages
        self.nav: Navigation | None = None
        self.elsewhere = Elsewhere()  # the processes rendering a share of the generated pages

    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.dirty = dirty
        if dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(_dirty_warning_as_information)

    def on_shutdown(self) -> None:
        logging.getLogger("mkdocs.commands.build").removeFilter(_dirty_warning_as_information)
        self.__init__()  # type: ignore[misc]  # the next build in this process starts afresh

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        from checker.run.suite import games

        if self.config.jobs is not None:
            self.played.jobs = self.config.jobs
        if config.nav is not None:
            config.nav[1:1] = [{game.title: [{"Overview": f"{game.id}/index.md"}, {"Ask": f"{game.id}/ask.md"}]} for game in games().values()]
        config.extra_javascript.extend(c.ExtraScriptValue(path) for path in ("assets/rulings.js", "assets/pairs.js"))  # rulings.js loads Cytoscape.js where a page has a graph
        config.extra_css.append("assets/rulings.css")
        config.theme.dirs.insert(0, str(THEME))
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        root = self._root(config)
        model = build_model(root / self.config.scenarios, self.played)
        if self.dirty:
            generated = all_pages(model, self.played.own_page, self._pages_of_game)
        else:  # a single build: every page made afresh, on every core
            generated = all_pages(model, self.played.own_page, jobs=self.played.jobs)
        digests: dict[str, str] = {}
        settings = Path(config.config_file_path).read_text(encoding="utf-8")
        self.written = {}
        self.summaries = {source for source, page in generated.items() if not isinstance(page, str) and page.summary_only}
        self.unsearched = {source for source, page in generated.items() if not isinstance(page, str) and not page.searched}
        for source, page in generated.items():
            existing = files.get_file_from_path(source)
            if existing is not None:
                files.remove(existing)
            if not isinstance(page, str):
                file = GeneratedFile.made(config, source, content="")  # read from self.written
                digests[source] = page.digest
            else:
                file = GeneratedFile.made(config, source, content=page)
                digests[source] = WrittenPage({}, page).digest
            file.modified = not self.dirty or settings != self.settings or digests[source] != self.digests.get(source)
            if file.modified and not isinstance(page, str):
                self.written[source] = page
            files.append(file)
        self._forget(config, set(self.digests) - set(digests))
        self.digests, self.settings = digests, settings
        modules = root / self.config.node_modules
        for target, source in VENDOR.items():
            path = modules / source
            if not path.exists():
                raise PluginError(f"{path} is missing: run 'make run' or 'npm ci' to install the front-end packages")
            files.append(File.generated(config, target, abs_src_path=str(path)))
        for target, source in VENDOR_FOLDERS.items():
            if not (modules / source).is_dir():
                raise PluginError(f"{modules / source} is missing: run 'make run' or 'npm ci' to install the front-end packages")
            for path in sorted((modules / source).rglob("*.js")):
                files.append(File.generated(config, f"{target}/{path.relative_to(modules / source).as_posix()}", abs_src_path=str(path)))
        for target, source in OURS.items():
            files.append(File.generated(config, target, abs_src_path=str(ASSETS / source)))
        self._add_engine(files, config, modules)
        return files

    def _add_engine(self, files: Files, config: MkDocsConfig, modules: Path) -> None:
        """What the Ask page runs the engine with (:mod:`checker.site.askbundle`): Pyodide's runtime from
        ``node_modules`` and the bundle of the checker's Python, loaded only by a page that asks."""
        for name in askbundle.PYODIDE_FILES:
            path = modules / "pyodide" / name
            if not path.exists():
                raise PluginError(f"{path} is missing: run 'make run' or 'npm ci' to install the front-end packages")
            target = f"{askbundle.PYODIDE_FOLDER}/{name}"
            if name in askbundle.FIRST_LINES:
                files.append(File.generated(config, target, content=askbundle.FIRST_LINES[name] + path.read_bytes()))
            else:
                files.append(File.generated(config, target, abs_src_path=str(path)))
        files.append(File.generated(config, askbundle.BUNDLE, abs_src_path=str(askbundle.bundle())))

    def _pages_of_game(self, view: GameView) -> Pages:
        """A game's pages under ``--dirty``: the last build's when the game's view has not changed, else those that
        show a changed scenario written again (:func:`checker.site.pages.schedule.pages_of_game`)."""
        kept = self.game_pages.get(view.id)
        if kept is None or kept[0] is not view:
            kept = self.game_pages[view.id] = (view, packed(pages_of_game(view, self.played.own_page, kept)))
        return kept[1]

    def _forget(self, config: MkDocsConfig, gone: set[str]) -> None:
        """Pages of scenarios or entities that no longer exist: their output and search entries go too."""
        for source in gone:
            self.search.pop(source, None)
            output = Path(File(source, src_dir=None, dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls).abs_dest_path)
            if output.is_file():
                output.unlink()

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        self.nav = nav
        in_nav = {id(page) for page in nav.pages}
        for file in files.documentation_pages():
            if id(file.page) not in in_nav and file.src_uri in self.written:
                GeneratedPage(file, config, self.written.pop(file.src_uri))
        return nav

    def on_page_read_source(self, /, *, page: Page, config: MkDocsConfig) -> str | None:
        """A generated page in the navigation is read as a Markdown file of its meta block alone; its HTML
        replaces what Markdown makes of that (nothing) in :meth:`on_page_content`."""
        written = self.written.pop(page.file.src_uri, None)
        if written is None:
            return None
        unpacked = written.unpacked()
        self.nav_html[page.file.src_uri] = unpacked.html
        return unpacked.front_matter

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A generated page's search entries; the search plugin leaves the page to us."""
        if page.file.src_uri not in self.digests:
            return html
        if page.file.src_uri in self.nav_html:
            html = self.nav_html.pop(page.file.src_uri)
            page.toc = get_toc(toc_tokens(html))
            page.present_anchor_ids = set(ANCHOR.findall(html))
        source = page.file.src_uri
        if source in self.unsearched:
            self.search[source] = []
        elif isinstance(page, GeneratedPage) and page.read is not None and page.read.search is not None and page.url == url(source):
            self.search[source] = page.read.search
        else:
            self.search[source] = search_entries(page.meta, page.toc, page.url, searchable(html, source in self.summaries))
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        return html

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """Every page has been read: the generated pages outside the navigation are shared out to be rendered on
        every core (:mod:`checker.site.rendering`)."""
        env.bytecode_cache = self.templates
        assert self.nav is not None
        gc.freeze()  # every page read lives until written: the garbage collector's rounds here and in the processes forked leave it out
        once_per_folder(env, self.nav)
        pages = [file.page for file in files.documentation_pages()
                 if isinstance(file.page, GeneratedPage) and (not self.dirty or file.is_modified())]
        self.elsewhere = start(pages, config, files, self.nav, env, self.played.jobs)
        if self.elsewhere.shares:
            logging.getLogger("mkdocs.commands.build").addFilter(QuietSkips(self.elsewhere))
        return env

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        if page.file.src_uri in self.digests:
            page.content = None  # written: the build keeps its pages, not their HTML
        return output

    @event_priority(-50)  # after the search plugin has written the index of the other pages
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self._stop_rendering(wait=True)
        path = Path(config.site_dir, SEARCH_INDEX)
        if not path.is_file():
            return
        index = json.loads(path.read_text(encoding="utf-8"))
        index["docs"] += [entry for source in self.digests for entry in self.search.get(source, ())]
        path.write_text(json.dumps(index, separators=(",", ":"), default=str), encoding="utf-8")

    def on_build_error(self, *, error: Exception) -> None:
        self._stop_rendering(wait=False)

    def _stop_rendering(self, *, wait: bool) -> None:
        build_log = logging.getLogger("mkdocs.commands.build")
        for quiet in [f for f in build_log.filters if isinstance(f, QuietSkips)]:
            build_log.removeFilter(quiet)
        if wait:
            self.elsewhere.wait()
        else:
            self.elsewhere.stop()
        gc.unfreeze()  # under mkdocs serve, what this build leaves behind is collected again

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        root = self._root(config)
        server.watch(str(root / self.config.scenarios))
        server.watch(str(GAMES))
        server.watch(str(ASSETS))
        server.watch(str(THEME))
        return server


def _dirty_warning_as_information(record: logging.LogRecord) -> bool:
    """MkDocs warns that a dirty build may leave pages with a stale navigation, which ``strict: true`` counts
    as an error; this plugin renders again every page whose text or whose site configuration changed, so
    the warning is shown as information (it still holds for the Markdown pages of ``docs/``)."""
    if record.levelno == logging.WARNING and record.getMessage().startswith("A 'dirty' build is being performed"):
        record.levelno, record.levelname = logging.INFO, "INFO"
    return True
