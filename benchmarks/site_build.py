"""How long the rulings website takes to build, and how big it is, as the corpus grows.

Builds (1) the site for the real scenarios, (2) the site for a generated corpus of N
scenarios (copies of the real ones under new ids), and (3) a plain MkDocs build of the
same number of bare pages with the same theme, and prints time and output size for each.

    .venv/bin/python benchmarks/site_build.py [--scenarios 2000] [--full-nav]

--full-nav also builds the bare pages with Material's full navigation (no
navigation.prune), whose cost grows quadratically with the page count.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config

from corpus import generated_corpus  # beside this script
from checker.site.build import build_site

ROOT = Path(__file__).resolve().parent.parent


def size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def bare_pages(work: Path, count: int, prune: bool) -> Path:
    docs = work / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    for number in range(count):
        (docs / f"page-{number}.md").write_text(f"# Page {number}\n\nSome text.\n", encoding="utf-8")
    features = ["navigation.prune"] if prune else []
    config = {"site_name": "bare", "docs_dir": str(docs), "site_dir": str(work / "site"),
              "theme": {"name": "material", "font": False, "features": features}}
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    build(load_config(str(work / "mkdocs.yml")))
    return work / "site"


def timed(label: str, pages: int, run) -> None:
    start = time.perf_counter()
    site = run()
    seconds = time.perf_counter() - start
    html = sum(1 for _ in site.rglob("*.html"))
    print(f"{label:<44} {pages:>6} {html:>6} {seconds:>8.1f} {size(site) / 2**20:>9.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", type=int, default=2000)
    parser.add_argument("--full-nav", action="store_true")
    args = parser.parse_args()
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    mkdocs_yml, node_modules = ROOT / "mkdocs.yml", ROOT / "node_modules"
    real = len(list((ROOT / "scenarios").rglob("*.yaml")))
    print(f"{'build':<44} {'input':>6} {'pages':>6} {'seconds':>8} {'size MiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        timed("rulings site, real corpus (scenarios)", real,
              lambda: build_site(mkdocs_yml, work / "real", ROOT / "scenarios", node_modules))
        corpus = work / "corpus"
        generated_corpus(corpus, args.scenarios)
        timed("rulings site, generated corpus (scenarios)", args.scenarios,
              lambda: build_site(mkdocs_yml, work / "generated", corpus, node_modules))
        timed("plain mkdocs, bare pages, navigation.prune", args.scenarios,
              lambda: bare_pages(work / "bare-prune", args.scenarios, prune=True))
        if args.full_nav:
            timed("plain mkdocs, bare pages, full navigation", args.scenarios,
                  lambda: bare_pages(work / "bare-full", args.scenarios, prune=False))


if __name__ == "__main__":
    main()
