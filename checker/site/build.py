"""Building the website from any scenario folder with the project's mkdocs.yml (tests, benchmarks)."""

from __future__ import annotations

from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config


def build_site(mkdocs_yml: Path, work: Path, scenarios: Path, node_modules: Path) -> Path:
    """Build into ``work``/site, reading ``scenarios`` instead of the repository's; return the site folder."""
    config = yaml.safe_load(mkdocs_yml.read_text(encoding="utf-8"))
    config["docs_dir"] = str(mkdocs_yml.parent / config.get("docs_dir", "docs"))
    config["site_dir"] = str(work / "site")
    config["plugins"] = ["search", {"rulings": {"scenarios": str(scenarios), "node_modules": str(node_modules)}}]
    work.mkdir(parents=True, exist_ok=True)
    config_file = work / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(load_config(str(config_file)))
    return work / "site"
