"""The MkDocs plugin (entry point ``rulings``) that generates the rulings website.

At build time it runs every scenario with the engine, writes every page, and adds the
front-end files: ours from this package, Cytoscape.js from ``node_modules`` (installed from
the npm registry by the setup, never committed). ``mkdocs serve`` rebuilds when a scenario,
a catalogue or a rules module changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from checker.site.model import build_model
from checker.site.pages import all_pages, toc_tokens

ASSETS = Path(__file__).parent / "assets"
THEME = Path(__file__).parent / "theme"  # overrides of the theme's templates
GAMES = Path(__file__).parent.parent / "games"
VENDOR = {"assets/vendor/cytoscape.min.js": "cytoscape/dist/cytoscape.min.js"}
OURS = {"assets/rulings.js": "rulings.js", "assets/pairs.js": "pairs.js", "assets/rulings.css": "rulings.css"}


class RulingsConfig(base.Config):
    scenarios = c.Type(str, default="scenarios")
    node_modules = c.Type(str, default="node_modules")


class RulingsPlugin(BasePlugin[RulingsConfig]):
    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        from checker.suite import games

        if config.nav is not None:
            config.nav[1:1] = [{game.title: f"{game.id}/index.md"} for game in games().values()]
        config.extra_javascript.extend(c.ExtraScriptValue(path) for path in ("assets/rulings.js", "assets/pairs.js"))  # rulings.js loads Cytoscape.js where a page has a graph
        config.extra_css.append("assets/rulings.css")
        config.theme.dirs.insert(0, str(THEME))
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        root = self._root(config)
        model = build_model(root / self.config.scenarios)
        for source, text in all_pages(model, _read).items():
            existing = files.get_file_from_path(source)
            if existing is not None:
                files.remove(existing)
            files.append(File.generated(config, source, content=text))
        modules = root / self.config.node_modules
        for target, source in VENDOR.items():
            path = modules / source
            if not path.exists():
                raise PluginError(f"{path} is missing: run 'make run' or 'npm ci' to install the front-end packages")
            files.append(File.generated(config, target, abs_src_path=str(path)))
        for target, source in OURS.items():
            files.append(File.generated(config, target, abs_src_path=str(ASSETS / source)))
        return files

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A generated page's headings are HTML, which Markdown's table of contents does not see: build it here."""
        if len(page.toc) == 0:
            page.toc = get_toc(toc_tokens(html))
        return html

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        root = self._root(config)
        server.watch(str(root / self.config.scenarios))
        server.watch(str(GAMES))
        server.watch(str(ASSETS))
        server.watch(str(THEME))
        return server


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")
