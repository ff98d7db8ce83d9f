"""How heavy the website's pages are and how fast they show on a slow phone.

Builds the site for the real scenarios (or reads --site), serves it on the loopback, and
loads pages in headless Chromium with the CPU slowed 4× (Chrome DevTools' throttling), each
time with an empty cache. For the Monster Rancher game page (the largest graph) and the
heaviest page of the site (the most bytes of HTML) it prints the page weight (every
response's body, the search index included, and the HTML alone) and the median time to the
first contentful paint, to DOMContentLoaded, to the load event and to the graphs being drawn.

    .venv/bin/python benchmarks/page_load.py [--site FOLDER] [--runs 5] [--throttle 4]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import tempfile
from pathlib import Path

from checker.site.build import build_site, serve

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TIMINGS = """() => {
    const navigation = performance.getEntriesByType('navigation')[0];
    const drawn = performance.getEntriesByName('rk-graphs-drawn')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const bytes = performance.getEntriesByType('resource').reduce((sum, r) => sum + r.encodedBodySize, navigation.encodedBodySize);
    return {paint: paint ? paint.startTime : null, dom: navigation.domContentLoadedEventEnd, load: navigation.loadEventEnd,
            drawn: drawn ? drawn.startTime : null, bytes, html: navigation.encodedBodySize};
}"""


def heaviest_page(site: Path) -> str:
    page = max(site.rglob("index.html"), key=lambda p: (p.stat().st_size, str(p)))
    return page.parent.relative_to(site).as_posix() + "/" if page.parent != site else ""


def measure(browser, url: str, throttle: float, marks_graphs: bool) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort())
    client = context.new_cdp_session(page)
    client.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="load")
    if marks_graphs and page.locator(".rk-graph-box").count():
        page.wait_for_selector("html[data-rk-graphs=drawn]", state="attached", timeout=60_000)
    timings = page.evaluate(TIMINGS)
    context.close()
    return timings


def report(label: str, runs: list[dict[str, float]]) -> None:
    def median(key: str) -> str:
        values = [r[key] for r in runs if r[key] is not None]
        return f"{statistics.median(values) / 1000:>8.2f}" if values else f"{'—':>8}"

    def spread(key: str) -> str:
        values = [r[key] for r in runs]
        return f"{min(values) / 1000:.2f}–{max(values) / 1000:.2f}"

    print(f"{label:<50} {runs[0]['bytes'] / 1024:>8.0f} {runs[0]['html'] / 1024:>8.0f} {median('paint')} {median('dom')}"
          f" {spread('dom'):>11} {median('load')} {median('drawn')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="a built site (default: build the real scenarios)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build_site(ROOT / "mkdocs.yml", Path(tmp), ROOT / "scenarios", ROOT / "node_modules")
        base, server = serve(site)
        pages = {"Monster Rancher game page": "monster-rancher-bc2/", "heaviest page": heaviest_page(site)}
        print(f"CPU slowed {args.throttle:g}×, empty cache, median of {args.runs} loads")
        print(f"{'page':<50} {'KiB':>8} {'HTML KiB':>8} {'paint s':>8} {'DOM s':>8} {'DOM range':>11} {'load s':>8} {'graphs s':>8}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            marks_graphs = "rk-graphs-drawn" in (site / "assets" / "rulings.js").read_text(encoding="utf-8")  # older sites do not
            for label, path in pages.items():
                runs = [measure(browser, base + path, args.throttle, marks_graphs) for _ in range(args.runs)]
                report(f"{label} (/{path})", runs)
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
