"""How long the rulings website takes to build at scale, how much memory, how heavy, and how fast it rebuilds.

1. Builds the site for a generated corpus of N scenarios (copies of the real ones under new ids,
   corpus.py), then a plain MkDocs Material build of as many bare pages with the same
   navigation settings (the theme's features, the search plugin, the same few pages in
   ``nav:``, every other page outside it), each in its own process, in turns. Prints the
   time ratio, each build's peak memory, the gzipped size of the search index (the file a
   page loads on its first search) and the heaviest page (HTML bytes, raw and gzipped).
2. With --serve: the rebuild of ``mkdocs serve --dirty`` after one scenario edit at the
   real corpus size (median of --edits edits, each a new title of one scenario, then each a
   title that breaks the file's YAML; each edit undone and rebuilt before the next), and a
   full rebuild for comparison.

    .venv/bin/python benchmarks/site_build.py [--scenarios 10000] [--repeat 1] [--serve] [--edits 3]
"""

from __future__ import annotations

import argparse
import gzip
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

from corpus import Measured, environment, generated_corpus, measure  # beside this script

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()


# --- One build, run as its own process (--build) ------------------------------------------------------


def rulings_site(work: Path, scenarios: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from checker.site.build import site_config

    build(load_config(str(site_config(ROOT / "mkdocs.yml", work, scenarios, ROOT / "node_modules"))))


def bare_site(work: Path, pages: int, in_nav: int) -> None:
    """``pages`` pages of a heading and a sentence, with the rulings site's theme, plugins and navigation settings,
    ``in_nav`` of them in the navigation."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = work / "docs"
    docs.mkdir(parents=True)
    nav = [{"Home": "index.md"}]
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    for number in range(pages - 1):
        (docs / f"page-{number}.md").write_text(f"# Page {number}\n\nSome text.\n", encoding="utf-8")
    for number in range(min(in_nav - 1, pages - 1)):
        nav.append({f"Page {number}": f"page-{number}.md"})
    config = {key: ours[key] for key in ("site_name", "site_url", "theme", "markdown_extensions", "strict")}
    config |= {"docs_dir": str(docs), "site_dir": str(work / "site"), "plugins": ["search"], "nav": nav}
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    build(load_config(str(work / "mkdocs.yml")))


def run_build(kind: str, work: Path, source: str) -> Measured:
    command = [sys.executable, str(THIS), "--build", kind, "--work", str(work), "--source", source]
    return measure(command, cwd=ROOT, env=environment())


def pages_in_nav() -> int:
    """The rulings site's navigation: the pages of mkdocs.yml and one per game (the plugin's ``on_config``)."""
    from checker.run.suite import games

    return len(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]) + len(games())


# --- What a built site weighs --------------------------------------------------------------------------


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def pages_of(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def heaviest(site: Path) -> tuple[str, int, int]:
    page = max(pages_of(site), key=lambda p: (p.stat().st_size, str(p)))
    data = page.read_bytes()
    return page.relative_to(site).as_posix(), len(data), gzipped(data)


# --- The rebuild of mkdocs serve --dirty ---------------------------------------------------------------


def serve_rebuilds(edits: int) -> None:
    """What ``mkdocs serve --dirty`` does: a persistent plugin set, the config loaded again before each
    build (as serve's builder does), a dirty build after each edit."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from checker.site.build import site_config

    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        scenarios = work / "scenarios"
        shutil.copytree(ROOT / "scenarios", scenarios)
        config_file = str(site_config(ROOT / "mkdocs.yml", work, scenarios, ROOT / "node_modules"))
        serve_url = "http://127.0.0.1:8000/"

        def rebuild(dirty: bool) -> tuple[float, float]:
            """Wall and CPU seconds (the machine is shared: the CPU time is what an idle one would wait)."""
            start, cpu = time.perf_counter(), time.process_time()
            config = load_config(config_file)
            config.site_url = serve_url
            build(config, serve_url=serve_url, dirty=dirty)
            return time.perf_counter() - start, time.process_time() - cpu

        config = load_config(config_file)
        config.plugins.on_startup(command="serve", dirty=True)
        first = rebuild(True)
        edited = sorted((scenarios / "zatch-bell").glob("*.yaml"))[:edits]
        pages = len(pages_of(work / "site"))
        print(f"mkdocs serve --dirty, real corpus ({pages} pages): first build {first[0]:.1f} s ({first[1]:.1f} s CPU)")
        for label, prefix in (("a new title", "Edit {number}, "), ("a title that breaks the file's YAML", "Edit {number}: ")):
            times = []
            for number, path in enumerate(edited):
                text = path.read_text(encoding="utf-8")
                path.write_text(text.replace("\ntitle: ", "\ntitle: " + prefix.format(number=number), 1), encoding="utf-8")
                times.append(rebuild(True))
                path.write_text(text, encoding="utf-8")
                rebuild(True)
            walls, cpus = [t[0] for t in times], [t[1] for t in times]
            print(f"rebuild after one scenario edit ({label}), median of {len(times)}: {statistics.median(walls):.2f} s wall, "
                  f"{statistics.median(cpus):.2f} s CPU (goal ≤ 2 s); each: " + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in times))
        full = rebuild(False)
        print(f"the same rebuild without --dirty (every page rendered and written again): {full[0]:.1f} s ({full[1]:.1f} s CPU)")
        config.plugins.on_shutdown()


# --- The report ------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1, help="turns of the two builds")
    parser.add_argument("--serve", action="store_true", help="also measure the rebuild of mkdocs serve --dirty")
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--build", choices=["rulings", "bare"], help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--source", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    if args.build == "rulings":
        return rulings_site(args.work, Path(args.source))
    if args.build == "bare":
        pages, in_nav = map(int, args.source.split(","))
        return bare_site(args.work, pages, in_nav)
    if args.scenarios:
        scale(args.scenarios, args.repeat)
    if args.serve:
        serve_rebuilds(args.edits)


def scale(count: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        generated_corpus(corpus, count)
        ours: list[Measured] = []
        floor: list[Measured] = []
        pages = 0
        for turn in range(repeat):
            site = work / f"rulings-{turn}"
            ours.append(run_build("rulings", site, str(corpus)))
            built = site / "site"
            pages = len(pages_of(built))
            index = (built / "search" / "search_index.json").read_bytes()
            path, raw, packed = heaviest(built)
            size = sum(f.stat().st_size for f in built.rglob("*") if f.is_file())
            shutil.rmtree(site)
            floor.append(run_build("bare", work / f"bare-{turn}", f"{pages},{pages_in_nav()}"))
            shutil.rmtree(work / f"bare-{turn}")
        wall = statistics.median(m.wall for m in ours)
        floor_wall = statistics.median(m.wall for m in floor)
        print(f"{count:,} scenarios: {pages:,} pages, {size / 2**20:.0f} MiB on disk; median of {repeat} turn(s)")
        print(f"{'build':<52} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9}")
        for label, runs in (("rulings site", ours), ("plain Material, as many bare pages", floor)):
            print(f"{label:<52} {statistics.median(m.wall for m in runs):>8.1f} "
                  f"{statistics.median(m.cpu for m in runs):>8.1f} {max(m.peak_mib for m in runs):>9.0f}")
        turns = [mine.wall / bare.wall for mine, bare in zip(ours, floor)]
        print(f"build time / plain Material: {wall / floor_wall:.2f} (goal ≤ 2); each turn's (the two builds one after "
              f"the other): {', '.join(f'{t:.2f}' for t in turns)}, median {statistics.median(turns):.2f}; peak memory "
              f"{max(m.peak_mib for m in ours):.0f} MiB (goal ≤ 1024)")
        print(f"search index: {len(index) / 2**20:.1f} MiB, {gzipped(index) / 2**20:.2f} MiB gzipped (goal ≤ 5)")
        print(f"heaviest page: {path}, {raw / 1024:.0f} KiB of HTML, {packed / 1024:.0f} KiB gzipped")


if __name__ == "__main__":
    main()
