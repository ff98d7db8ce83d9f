"""How fast the website's Ask page answers in the browser: the first answer on a first visit and on later ones, then a
verdict after each action.

Builds the site for the real scenarios (or reads --site), serves it on the loopback, and opens a game's Ask page on a
scenario (``<game>/ask/#from=<scenario>``, the link of "Ask about a variation") in headless Chromium with a new profile
(a first visit: nothing cached), then --later times again with the same profile (later visits: the HTTP cache, the
compiled WebAssembly and the snapshot of the engine's memory the first visit kept). Each time is from the navigation's
start to the verdict shown on the page, with what the engine reports of its loading. Requests are not intercepted
(interception turns Chromium's HTTP cache off): every host name but the loopback fails to resolve, and any request to
another host is counted and printed. Then, for --per-game scenarios of every game, every action is played again as the
Ask page plays it, one at a time from none: the time from the action to the verdict (``withAction``, then ``ask``
without readings and options) and to the options that follow (``options``), median and maximum, by game and overall.

    .venv/bin/python benchmarks/ask_page.py [--site FOLDER] [--later 5] [--per-game 8]
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
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", OFFLINE]
#: The first verdict the page shows: ms from the navigation's start.
SHOWN = "() => document.querySelector('#rk-ask-verdict [data-verdict]') && performance.now()"
#: The page's engine (ask-engine.js loads it once per page) and what it reports of its loading.
TIMINGS = "async (root) => (await (await import(root + 'assets/ask-engine.js')).loadEngine(root)).timings"
#: Waits until the engine has kept its snapshot (ask-worker.js, in the site's private file system): its size, 0 if none.
KEPT = """async () => {
  for (let tries = 0; tries < 600; tries++) {
    try {
      const folder = await navigator.storage.getDirectory();
      return (await (await folder.getFileHandle('rulings-engine-snapshot')).getFile()).size;
    } catch {
      await new Promise(resolve => setTimeout(resolve, 250));
    }
  }
  return 0;
}"""


def visit(playwright, profile: Path, base: str, game: str, scenario: str, outside: list[str]) -> dict:
    context = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=FLAGS)
    page = context.pages[0] if context.pages else context.new_page()
    page.on("request", lambda request: None if request.url.startswith((base, "blob:", "data:")) else outside.append(request.url))
    page.set_default_timeout(180_000)
    page.goto(f"{base}{game}/ask/#from={scenario}", wait_until="commit")
    shown = page.wait_for_function(SHOWN, polling="raf").json_value()
    said = {"context": context, "page": page, "shown": shown, "timings": page.evaluate(TIMINGS, base),
            "verdict": page.locator("#rk-ask-verdict [data-verdict]").first.get_attribute("data-verdict")}
    if not said["timings"]["restored"]:  # the engine keeps a snapshot of its memory for the next visit: wait for it
        began = time.perf_counter()
        said["size"] = page.evaluate(KEPT)
        said["kept"] = time.perf_counter() - began
    return said


def replay(page, base: str, files: list[Path]) -> tuple[list[float], list[float]]:
    """Every action of each file played again from none, the Ask page's way: ms from each action to its verdict
    (``withAction``, then ``ask`` without readings and options), and ms for the options that follow (``options``)."""
    import yaml

    verdicts: list[float] = []
    options: list[float] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        actions = [{k: v for k, v in a.items() if k not in ("expect", "reject")} for a in yaml.safe_load(text).get("actions", [])]
        timed = page.evaluate("""async ([base, text, actions]) => {
          const engine = await (await import(base + 'assets/ask-engine.js')).loadEngine(base);
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
        }""", [base, text, actions])
        verdicts += timed[0]
        options += timed[1]
    return verdicts, options


def spread(ms: list[float]) -> str:
    return f"median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms" if ms else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="a site already built (default: build one for the real scenarios)")
    parser.add_argument("--later", type=int, default=5, help="later visits, each timed")
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
        outside: list[str] = []
        later: list[float] = []
        try:
            with sync_playwright() as playwright:
                for number in range(1 + args.later):
                    label = "first visit" if number == 0 else f"later visit {number}"
                    said = visit(playwright, profile, base, games[0].name, first.stem, outside)
                    timings = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in said["timings"].items() if k not in ("restored", "dropped"))
                    timings += ", from the snapshot" if said["timings"]["restored"] else ""
                    timings += f", snapshot dropped: {said['timings']['dropped']}" if said["timings"]["dropped"] else ""
                    print(f"{label}: verdict ({said['verdict']}) shown {said['shown'] / 1000:.2f} s after the navigation "
                          f"started (engine: {timings})")
                    if number:
                        later.append(said["shown"])
                    if "kept" in said:
                        print(f"  snapshot of the engine's memory kept {said['kept']:.1f} s after the verdict, "
                              f"{said['size'] / 2**20:.0f} MiB")
                    if number == args.later:
                        every: list[float] = []
                        listed: list[float] = []
                        for folder in games:
                            files = sorted(folder.glob("*.yaml"))
                            picked = files[:: max(1, len(files) // max(1, args.per_game))][: args.per_game]
                            verdicts, options = replay(said["page"], base, picked)
                            every += verdicts
                            listed += options
                            print(f"  {folder.name}: {len(verdicts)} actions; verdict {spread(verdicts)}; options {spread(options)}")
                        print(f"  every game: {len(every)} actions; verdict {spread(every)}; options {spread(listed)}")
                    said["context"].close()
        finally:
            server.shutdown()
            shutil.rmtree(profile, ignore_errors=True)
    if later:
        print(f"later visits: verdict shown {spread(later)}")
    print(f"requests to other hosts: {len(outside)}" + (f" ({', '.join(sorted(set(outside))[:5])})" if outside else ""))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
