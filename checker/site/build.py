"""Building the website from any scenario folder with the project's mkdocs.yml, and serving it (tests, benchmarks)."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config


def site_config(mkdocs_yml: Path, work: Path, scenarios: Path, node_modules: Path, jobs: int | None = None) -> Path:
    """A copy of ``mkdocs.yml`` in ``work`` that builds into ``work``/site from ``scenarios`` (on ``jobs`` processes,
    by default one per core); its path."""
    config = yaml.safe_load(mkdocs_yml.read_text(encoding="utf-8"))
    config["docs_dir"] = str(mkdocs_yml.parent / config.get("docs_dir", "docs"))
    config["site_dir"] = str(work / "site")
    rulings: dict[str, object] = {"scenarios": str(scenarios), "node_modules": str(node_modules)}
    if jobs is not None:
        rulings["jobs"] = jobs
    search = next((p for p in config.get("plugins", []) if p == "search" or (isinstance(p, dict) and "search" in p)), "search")
    config["plugins"] = [search, {"rulings": rulings}]
    work.mkdir(parents=True, exist_ok=True)
    config_file = work / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return config_file


def build_site(mkdocs_yml: Path, work: Path, scenarios: Path, node_modules: Path, jobs: int | None = None) -> Path:
    """Build into ``work``/site, reading ``scenarios`` instead of the repository's; return the site folder."""
    build(load_config(str(site_config(mkdocs_yml, work, scenarios, node_modules, jobs))))
    return work / "site"


def serve(folder: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    """Serve ``folder`` on the loopback, on a free port, in a thread; return its base URL and the server."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server
