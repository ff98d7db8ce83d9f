"""How fast the website's engine answers in the browser: the first answer on a first visit and on a later one, then a
verdict after each action.

Builds the site for the real scenarios (or reads --site), serves it on the loopback, and opens its home page in
headless Chromium with a new profile (a first visit: nothing cached), then again with the same profile (a later
visit: the HTTP cache, the compiled WebAssembly and whatever the engine keeps). Each visit loads the engine
(``assets/ask-engine.js``) from the page and asks it about a scenario: the time from the navigation's start to that
answer is printed, with what the engine reports of its loading (and, on the first visit, the snapshot of its memory it
keeps for the next). Then, for --per-game scenarios of every game, every action is played again as the Ask page plays
it, one at a time from none: the time from the action to the verdict (``withAction``, then ``ask`` without readings
and options) and to the options that follow (``options``), median and maximum, by game and overall.

    .venv/bin/python benchmarks/ask_page.py [--site FOLDER] [--per-game 8]
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from checker.site.build import build_site, serve

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
#: From the navigation's start: the engine loaded, then the first answer; and the engine's own timings.
FIRST_ANSWER = """async (text) => {
  const module = await import('./assets/ask-engine.js');
  const engine = await module.loadEngine();
  const loaded = performance.now();
  const answer = await engine.ask(text);
  window.rkEngine = engine;
  return {loaded, answered: performance.now(), verdict: answer.result.verdict, timings: engine.timings};
}"""
#: Waits until the engine has kept its snapshot (in the Cache API, by ask-worker.js): its size, 0 if none came.
KEPT = """async () => {
  for (let tries = 0; tries < 600; tries++) {
    const store = await caches.open('rulings-engine-snapshots');
    const [key] = await store.keys();
    const kept = key && await store.match(key);
    if (kept) return (await kept.arrayBuffer()).byteLength;
    await new Promise(resolve => setTimeout(resolve, 250));
  }
  return 0;
}"""


def visit(playwright, profile: Path, url: str, text: str) -> dict[str, float]:
    context = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=FLAGS)
    page = context.pages[0] if context.pages else context.new_page()
    page.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort())
    page.set_default_timeout(180_000)
    page.goto(url, wait_until="domcontentloaded")
    said = page.evaluate(FIRST_ANSWER, text)
    if not said["timings"]["restored"]:  # the engine keeps a snapshot of its memory for the next visit: wait for it
        began = time.perf_counter()
        said["size"] = page.evaluate(KEPT)
        said["kept"] = time.perf_counter() - began
    return {"context": context, "page": page, **said}


def replay(page, files: list[Path]) -> tuple[list[float], list[float]]:
    """Every action of each file played again from none, the Ask page's way: ms from each action to its verdict
    (``withAction``, then ``ask`` without readings and options), and ms for the options that follow (``options``)."""
    import yaml

    verdicts: list[float] = []
    options: list[float] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        actions = [{k: v for k, v in a.items() if k not in ("expect", "reject")} for a in yaml.safe_load(text).get("actions", [])]
        timed = page.evaluate("""async ([text, actions]) => {
          const engine = window.rkEngine;
          let current = text, less;
          while ((less = await engine.withoutLastAction(current)) !== current) current = less;
          const verdicts = [], options = [];
          for (const action of actions) {
            let began = performance.now();
            current = await engine.withAction(current, action);
            await engine.ask(current, 'ask.yaml', false);
            verdicts.push(performance.now() - began);
            began = performance.now();
            await engine.options(current);
            options.push(performance.now() - began);
          }
          return [verdicts, options];
        }""", [text, actions])
        verdicts += timed[0]
        options += timed[1]
    return verdicts, options


def spread(ms: list[float]) -> str:
    return f"median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms" if ms else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="a site already built (default: build one for the real scenarios)")
    parser.add_argument("--per-game", type=int, default=8, help="scenarios of each game whose actions are replayed")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as work:
        site = args.site
        if site is None:
            logging.disable(logging.WARNING)
            began = time.perf_counter()
            site = build_site(ROOT / "mkdocs.yml", Path(work), ROOT / "scenarios", ROOT / "node_modules")
            print(f"site built in {time.perf_counter() - began:.0f} s")
        base, server = serve(site)
        games = sorted(folder for folder in (ROOT / "scenarios").iterdir() if folder.is_dir())
        first = sorted(games[0].glob("*.yaml"))[0]
        profile = Path(work) / "profile"
        try:
            with sync_playwright() as playwright:
                for label in ("first visit", "later visit"):
                    said = visit(playwright, profile, base, first.read_text(encoding="utf-8"))
                    timings = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in said["timings"].items() if k not in ("restored", "dropped"))
                    timings += ", from the snapshot" if said["timings"]["restored"] else ""
                    timings += f", snapshot dropped: {said['timings']['dropped']}" if said["timings"]["dropped"] else ""
                    print(f"{label}: engine loaded {said['loaded'] / 1000:.2f} s, first answer ({said['verdict']}) "
                          f"{said['answered'] / 1000:.2f} s after the navigation started ({timings})")
                    if "kept" in said:
                        print(f"  snapshot of the engine's memory kept {said['kept']:.1f} s after the first answer, "
                              f"{said['size'] / 2**20:.0f} MiB")
                    if label == "later visit":
                        every: list[float] = []
                        listed: list[float] = []
                        for folder in games:
                            files = sorted(folder.glob("*.yaml"))
                            picked = files[:: max(1, len(files) // args.per_game)][: args.per_game]
                            verdicts, options = replay(said["page"], picked)
                            every += verdicts
                            listed += options
                            print(f"  {folder.name}: {len(verdicts)} actions; verdict {spread(verdicts)}; options {spread(options)}")
                        print(f"  every game: {len(every)} actions; verdict {spread(every)}; options {spread(listed)}")
                    said["context"].close()
        finally:
            server.shutdown()
            shutil.rmtree(profile, ignore_errors=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
