"""What the browser tests share: Debian's headless Chromium through Playwright, and tabs that are offline.

Every page load records console errors and every request; a request to any host other than this machine's loopback
is aborted and fails the test. Its fixtures are registered by tests/conftest.py (``pytest_plugins``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterator
from urllib.parse import urlparse

import pytest

from tests.conftest import Site

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not shutil.which("chromium") and not os.path.exists(CHROMIUM):
        pytest.fail("Chromium is not installed: 'make test' installs Debian's chromium and chromium-driver")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


class Watched:
    def __init__(self, page, name: str = "desktop") -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        self.outside: list[str] = []


VIEWPORTS = {
    "desktop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3},
}


@pytest.fixture
def tab(browser) -> Iterator[Watched]:
    yield from watched_tab(browser, VIEWPORTS["desktop"])


@pytest.fixture(params=sorted(VIEWPORTS))
def any_tab(browser, request) -> Iterator[Watched]:
    """A tab on a 1366 × 768 desktop screen, then on a 390 px wide phone."""
    yield from watched_tab(browser, VIEWPORTS[request.param], request.param)


def watched_tab(browser, options: dict, name: str = "desktop") -> Iterator[Watched]:
    context = browser.new_context(**options)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watched = Watched(page, name)

    def route(route) -> None:
        host = urlparse(route.request.url).hostname
        if host not in ("127.0.0.1", "localhost"):
            watched.outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", route)
    page.on("console", lambda message: watched.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: watched.errors.append(f"{error} {getattr(error, 'stack', '')}"))
    yield watched
    context.close()
    assert not watched.outside, f"requests to other hosts: {watched.outside}"
    assert not watched.errors, f"console errors: {watched.errors}"


def open_page(tab: Watched, site: Site, path: str) -> None:
    response = tab.page.goto(site.base + path)
    assert response is not None and response.ok, path
    tab.page.wait_for_load_state("networkidle")
    if tab.page.locator(".rk-graph-box").count():
        tab.page.wait_for_selector("html[data-rk-graphs=drawn]", state="attached")


# --- Readable and reachable by everyone: axe-core, tap targets, inputs ------------------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"  # from the npm registry (package.json), never committed
#: What a finger or a pointer aims at (a graph's canvas is explored with its own controls).
TARGETS = """() => [...document.querySelectorAll('a[href], button, input, select, summary, label:has(input)')]
  .filter(e => e.offsetParent !== null && !e.closest('.rk-graph, .md-sidebar, .md-header__option, .md-search'))
  .map(e => ({what: e.outerHTML.slice(0, 80), height: e.getBoundingClientRect().height,
              font: parseFloat(getComputedStyle(e).fontSize),
              field: e.tagName === 'SELECT' || (e.tagName === 'INPUT' && !['checkbox', 'radio'].includes(e.type))}))
  .filter(t => t.height > 0)"""


def axe_violations(tab: Watched) -> list[dict]:
    tab.page.add_script_tag(path=str(AXE))
    return tab.page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .filter(v => v.impact === 'serious' || v.impact === 'critical')
             .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""")
