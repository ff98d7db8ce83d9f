"""The Ask page of each game in a real browser, offline: scenarios replayed through its controls give the verdict and
the outcome ``checker check`` gives; a broken file shows the CLI's located message; where the engine cannot run, the
page says so and gives the command line; both screens pass the layout and accessibility checks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urljoin

import pytest
import yaml

from checker.engine import legal
from checker.format.scenario import Scenario
from checker.games import registry
from checker.run.runner import run
from tests.browser import AXE, TARGETS, VIEWPORTS, Watched, axe_violations, watched_tab
from tests.conftest import ROOT, Site

pytestmark = pytest.mark.browser
#: Scenarios replayed per game (all of a game that has fewer), those with a refused action first.
PER_GAME = 20
ENGINE_LOADED = 180_000  # ms: the engine's first load (WebAssembly, the project's Python) on a slow machine
ANSWERED = 60_000  # ms: one answer
PHONE = {**VIEWPORTS["phone"], "device_scale_factor": 3}
SCREENS = {"desktop": VIEWPORTS["desktop"], "phone": PHONE}
MR = "monster-rancher-bc2"


def replayable(scenario: Scenario) -> bool:
    """A scenario whose verdict a replay through the page can reach: its expectations are all at its end (the page
    appends actions as the rules list them, without an action's own ``expect:``), or it is a question."""
    return scenario.is_question or (bool(scenario.expect) and all(action.expect is None for action in scenario.actions))


def chosen(scenarios: list[Scenario], game: str) -> list[Scenario]:
    """``PER_GAME`` replayable scenarios of ``game``, sorted by path: those with a refused action first (up to a
    quarter), then the rest spread evenly across the game's files."""
    mine = sorted((s for s in scenarios if s.game == game and replayable(s)), key=lambda s: str(s.path))
    refused = [s for s in mine if any(a.reject for a in s.actions)][: PER_GAME // 4]
    rest = [s for s in mine if s not in refused]
    wanted = PER_GAME - len(refused)
    spread = rest if len(rest) <= wanted else [rest[i * len(rest) // wanted] for i in range(wanted)]
    return refused + spread


def checked(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """``checker check --format json`` on the files, each result (with its outcome) by scenario id."""
    done = subprocess.run([sys.executable, "-m", "checker", "check", "--format", "json", "--with-outcomes", "-j", "1",
                           *map(str, paths)], capture_output=True, text=True, cwd=ROOT, check=False)
    return {result["id"]: result for result in json.loads(done.stdout)["results"]}


def asked(tab: Watched) -> int:
    return int(tab.page.evaluate("Number(document.documentElement.dataset.rkAskAsked || 0)"))


def answered(tab: Watched, before: int) -> None:
    """Wait for an answer after the ``before``-th, and for the page to take the next click."""
    tab.page.wait_for_function(
        "n => Number(document.documentElement.dataset.rkAskAsked || 0) > n && document.documentElement.dataset.rkAsk === 'ready'",
        arg=before, timeout=ANSWERED)


def wait_ready(tab: Watched, scenario_id: str | None = None) -> None:
    """Wait for the engine to load and answer once (about ``scenario_id`` when given), or to be unavailable."""
    tab.page.wait_for_function(
        """id => { const html = document.documentElement;
                   return html.dataset.rkAsk === 'unavailable' || (html.dataset.rkAsk === 'ready'
                     && Number(html.dataset.rkAskAsked || 0) > 0 && (id === null || document.getElementById('rk-ask-from').dataset.from === id)); }""",
        arg=scenario_id, timeout=ENGINE_LOADED)
    assert tab.page.evaluate("document.documentElement.dataset.rkAsk") == "ready", tab.page.locator("#rk-ask-status").inner_text()


def ask_link(site: Site, game: str, scenario_id: str) -> str:
    """Where the scenario page's "Ask about a variation" leads, as its built page writes it."""
    page = site.folder / game / "scenarios" / scenario_id / "index.html"
    text = page.read_text(encoding="utf-8")
    marker = text.index(">Ask about a variation<")
    start = text.rindex('href="', 0, marker) + len('href="')
    return urljoin(f"{site.base}{game}/scenarios/{scenario_id}/", text[start:text.index('"', start)].replace("&amp;", "&"))


def load_from(tab: Watched, link: str, scenario_id: str) -> None:
    """Follow a scenario's link on the page already open (only the part after '#' changes: the engine stays loaded)."""
    before = asked(tab)
    tab.page.evaluate("url => { location.href = url; }", link)
    tab.page.wait_for_function("id => document.getElementById('rk-ask-from').dataset.from === id", arg=scenario_id,
                               timeout=ANSWERED)
    answered(tab, before)


def click(tab: Watched, selector: str) -> None:
    before = asked(tab)
    tab.page.locator(selector).click()
    answered(tab, before)


def play(tab: Watched, scenario: Scenario, index: int, state: Any) -> str:
    """Play the scenario's action ``index`` through the page: the listed option written as the scenario writes it, else
    the one that is the same action in canonical form where it is played ("clicked-canonical": the same choices,
    written otherwise, which an outcome may show), else written into "May I do this?". Which of these it was."""
    game = registry()[scenario.game]
    action = scenario.actions[index]
    wanted = legal.canonical(game, action.data, state)
    options = tab.page.locator("#rk-ask-options .rk-ask-option")
    listed = [json.loads(data) for data in options.evaluate_all("buttons => buttons.map(b => b.dataset.action)")]
    exact = [at for at, option in enumerate(listed) if option == dict(action.data)]
    same = exact or [at for at, option in enumerate(listed) if legal.canonical(game, option, state) == wanted]
    before = asked(tab)
    if same and action.reject is None:
        options.nth(same[0]).click()
        answered(tab, before)
        return "clicked" if exact else "clicked-canonical"
    written = {**action.data, **({"reject": {"reason": action.reject}} if action.reject else {})}
    tab.page.locator("#rk-ask-action").fill(json.dumps(written))
    tab.page.locator("#rk-ask-play").click()
    answered(tab, before)
    return "written"


def shown(tab: Watched) -> tuple[str, Any]:
    verdict = tab.page.locator("#rk-ask-verdict [data-verdict]").first.get_attribute("data-verdict")
    outcome = json.loads(tab.page.locator("#rk-ask-outcome").get_attribute("data-outcome") or "null")
    return str(verdict), outcome


@pytest.fixture(scope="module")
def desktop(browser) -> Iterator[Watched]:
    yield from watched_tab(browser, VIEWPORTS["desktop"])


@pytest.mark.parametrize("game", sorted(registry()))
def test_scenarios_replayed_through_the_controls_give_the_clis_verdict_and_outcome(
        desktop: Watched, site: Site, scenarios: list[Scenario], game: str, tmp_path: Path) -> None:
    picked = chosen(scenarios, game)
    assert len(picked) >= min(PER_GAME, sum(1 for s in scenarios if s.game == game and replayable(s)))
    expected = checked([s.path for s in picked])
    first = picked[0]
    desktop.page.goto(f"{site.base}{game}/scenarios/{first.id}/")
    desktop.page.get_by_role("link", name="Ask about a variation").click()  # loads the page, and its engine
    wait_ready(desktop, first.id)
    differing = []
    ways: dict[str, int] = {}
    rewritten: dict[str, tuple[str, Any]] = {}  # scenarios played with an action written otherwise: what the page showed
    for scenario in picked:
        if scenario is not first:
            load_from(desktop, ask_link(site, game, scenario.id), scenario.id)
        click(desktop, "#rk-ask-initial")
        assert desktop.page.locator("#rk-ask-played li.rk-ask-none").count() == 1, scenario.id
        starts = run(scenario, registry()[game], keep_starts=True).starts
        played = [play(desktop, scenario, index, starts[index].state) for index in range(len(scenario.actions))]
        for way in played:
            ways[way] = ways.get(way, 0) + 1
        cli = expected[scenario.id]
        if shown(desktop) == (cli["verdict"], cli["outcome"]):
            continue
        if "clicked-canonical" in played:
            (tmp_path / f"{scenario.id}.yaml").write_text(desktop.page.locator("#rk-ask-text").input_value(), encoding="utf-8")
            rewritten[scenario.id] = shown(desktop)
        else:
            differing.append((scenario.id, shown(desktop)[0], cli["verdict"]))
    # An action chosen among the options as the game writes it (attackers in another order, say) is the same action,
    # and the outcome may still show how it was written: the page must then show what checker check says of its file,
    # with the scenario's own verdict.
    again = checked(sorted(tmp_path.glob("*.yaml"))) if rewritten else {}
    for scenario_id, (verdict, outcome) in rewritten.items():
        if (verdict, outcome) != (again[scenario_id]["verdict"], again[scenario_id]["outcome"]) or verdict != expected[scenario_id]["verdict"]:
            differing.append((scenario_id, verdict, expected[scenario_id]["verdict"]))
    assert differing == []
    assert ways.get("clicked", 0) > 0, ways  # the listed options did the playing, not only the written field


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_scenario_pasted_into_the_editor_gets_the_clis_verdict_and_outcome(
        desktop: Watched, site: Site, scenarios: list[Scenario], game: str) -> None:
    """Each real scenario's file, pasted whole into the page's YAML editor and asked again, as a player would."""
    mine = sorted((s for s in scenarios if s.game == game), key=lambda s: str(s.path))
    expected = checked([s.path for s in mine])
    desktop.page.goto(f"{site.base}{game}/ask/")
    wait_ready(desktop)
    differing = []
    for scenario in mine:
        desktop.page.locator("#rk-ask-text").fill(Path(scenario.path).read_text(encoding="utf-8"))
        click(desktop, "#rk-ask-run")
        cli = expected[scenario.id]
        if shown(desktop) != (cli["verdict"], cli["outcome"]):
            differing.append((scenario.id, shown(desktop)[0], cli["verdict"]))
    assert len(expected) == len(mine) > 0
    assert differing == []


def test_a_broken_file_shows_the_clis_located_message(desktop: Watched, site: Site, tmp_path: Path) -> None:
    desktop.page.goto(f"{site.base}{MR}/ask/#from=counter-rounding")
    wait_ready(desktop, "counter-rounding")
    text = desktop.page.locator("#rk-ask-text").input_value()
    broken = text.replace("lp: 20}", "lp: twenty}", 1)
    assert broken != text
    desktop.page.locator("#rk-ask-text").fill(broken)
    click(desktop, "#rk-ask-run")
    path = tmp_path / "counter-rounding.yaml"
    path.write_text(broken, encoding="utf-8")
    [cli] = checked([path]).values()
    assert cli["verdict"] == "invalid"
    errors = desktop.page.locator("#rk-ask-errors .rk-ask-error")
    shown_first = errors.first
    assert (shown_first.get_attribute("data-line"), shown_first.get_attribute("data-column")) == (
        str(cli["error"]["line"]), str(cli["error"]["column"]))
    assert cli["error"]["message"] in shown_first.inner_text()
    wrong_lines = desktop.page.locator("#rk-ask-lines .rk-ask-wrong").all_inner_texts()
    assert str(cli["error"]["line"]) in wrong_lines
    shown_first.get_by_role("button").click()  # the message takes the caret to its line
    caret = desktop.page.evaluate("(() => { const t = document.getElementById('rk-ask-text');"
                                  " return t.value.slice(0, t.selectionStart).split('\\n').length; })()")
    assert caret == cli["error"]["line"]


def test_where_the_engine_cannot_run_the_page_says_so_and_gives_the_command_line(browser, site: Site) -> None:
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.context.route("**/vendor/pyodide/**", lambda route: route.abort())  # the runtime and its wasm
        watched.page.goto(f"{site.base}{MR}/ask/")
        watched.page.wait_for_function("document.documentElement.dataset.rkAsk === 'unavailable'", timeout=ENGINE_LOADED)
        assert "cannot run in this browser" in watched.page.locator("#rk-ask-status").inner_text()
        commands = watched.page.locator("#rk-ask-unavailable pre").inner_text()
        for command in ("check", "explain", "readings", "options"):
            assert f".venv/bin/checker {command} FILE" in commands
        assert watched.page.locator("#rk-ask").is_hidden()
        # The aborted download is the browser's own complaint, which this test caused.
        watched.errors[:] = [e for e in watched.errors if "Failed to load resource" not in e and "pyodide" not in e.lower()]


def test_where_only_the_webassembly_fails_the_page_says_why(browser, site: Site) -> None:
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.context.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: route.abort())
        watched.page.goto(f"{site.base}{MR}/ask/")
        watched.page.wait_for_function("document.documentElement.dataset.rkAsk === 'unavailable'", timeout=ENGINE_LOADED)
        # Said as it fails, not after the engine's time to load has run out.
        assert "Pyodide's WebAssembly could not be loaded" in watched.page.locator("#rk-ask-why").inner_text()
        watched.errors[:] = [e for e in watched.errors if "Failed to load resource" not in e and "wasm" not in e.lower()]


def test_where_the_page_cannot_compile_the_webassembly_the_worker_does(browser, site: Site) -> None:
    """The page compiles Pyodide's WebAssembly for the engine's worker as its head is read; a page that cannot
    (no WebAssembly.compileStreaming) leaves it to the worker, and answers all the same."""
    expected = checked([ROOT / "scenarios" / MR / "counter-rounding.yaml"])["counter-rounding"]
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.add_init_script("delete WebAssembly.compileStreaming;")
        watched.page.goto(f"{site.base}{MR}/ask/#from=counter-rounding")
        wait_ready(watched, "counter-rounding")
        assert shown(watched) == (expected["verdict"], expected["outcome"])


#: What happens first on the page: the first answer shown ("asked"), the search index built ("search").
ORDER = """new MutationObserver(() => {
  const html = document.documentElement, seen = (window.rkOrder = window.rkOrder || []);
  if (html.hasAttribute('data-rk-ask-asked') && !seen.includes('asked')) seen.push('asked');
  if (html.hasAttribute('data-rk-search-ready') && !seen.includes('search')) seen.push('search');
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-rk-ask-asked', 'data-rk-search-ready'] });"""


def typed_search(tab: Watched, query: str) -> list[str]:
    """The titles search gives for ``query`` typed into the page's search box (typed again until the index answers)."""
    tab.page.locator(".md-search__input").first.click()
    links = tab.page.locator(".md-search-result__link:visible")
    for _ in range(30):
        tab.page.locator(".md-search__input").fill("")
        tab.page.locator(".md-search__input").press_sequentially(query)
        try:
            links.first.wait_for(timeout=2_000)
            break
        except Exception:
            continue
    return links.all_inner_texts()


def test_search_on_the_page_waits_for_the_engines_first_answer(browser, site: Site) -> None:
    """The theme's search builds its index in a worker of its own: on this page, only once the engine has answered."""
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.add_init_script(ORDER)
        watched.page.goto(f"{site.base}{MR}/ask/#from=counter-rounding")
        wait_ready(watched, "counter-rounding")
        watched.page.wait_for_function("document.documentElement.hasAttribute('data-rk-search-ready')", timeout=ANSWERED)
        assert watched.page.evaluate("window.rkOrder") == ["asked", "search"]
        assert any("Shotgun" in title for title in typed_search(watched, "Shotgun"))


def test_search_on_the_page_answers_while_the_engine_is_still_loading(browser, site: Site) -> None:
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.context.route("**/vendor/pyodide/**", lambda route: None)  # the runtime never comes
        watched.page.goto(f"{site.base}{MR}/ask/", wait_until="commit")
        watched.page.locator(".md-search__input").first.click()  # at once: before the page has its search index
        assert any("Shotgun" in title for title in typed_search(watched, "Shotgun"))
        assert watched.page.evaluate("document.documentElement.dataset.rkAsk") == "loading"
        assert not watched.page.evaluate("document.documentElement.hasAttribute('data-rk-ask-asked')")


#: When the page's DOMContentLoaded fired, whether the theme's script was then already on its way (once the page's own
#: handlers have run), and when it started (it swaps the "no-js" class for "js").
THEME = """document.addEventListener('DOMContentLoaded', () => {
  window.rkLoaded = performance.now();
  setTimeout(() => { window.rkThemeAtOnce = Boolean(document.querySelector('body > script[src*="javascripts/bundle"]')); });
}, { once: true });
new MutationObserver((changes, watching) => {
  if (document.documentElement.classList.contains('js')) { window.rkTheme = performance.now(); watching.disconnect(); }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['class'] });"""


def test_while_the_engine_loads_the_themes_scripts_wait(browser, site: Site) -> None:
    """They wait for the first verdict, the reader's first touch or key, or a second after the page is read."""
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.context.route("**/vendor/pyodide/**", lambda route: None)  # the runtime never comes
        watched.page.add_init_script(THEME)
        watched.page.goto(f"{site.base}{MR}/ask/")
        watched.page.wait_for_function("window.rkTheme !== undefined", timeout=ANSWERED)
        assert watched.page.evaluate("window.rkThemeAtOnce") is False
        assert watched.page.evaluate("window.rkTheme - window.rkLoaded") >= 1000
        assert watched.page.evaluate("document.documentElement.dataset.rkAsk") == "loading"
        watched.page.goto(f"{site.base}{MR}/")  # any other page: at once
        watched.page.wait_for_function("window.rkTheme !== undefined", timeout=ANSWERED)
        assert watched.page.evaluate("window.rkThemeAtOnce") is True


def test_a_scenario_that_is_not_there_is_said_so(browser, site: Site) -> None:
    for watched in watched_tab(browser, VIEWPORTS["desktop"]):
        watched.page.goto(f"{site.base}{MR}/ask/#from=no-such-scenario")
        watched.page.wait_for_function("document.getElementById('rk-ask-status').textContent.includes('no-such-scenario (404)')",
                                       timeout=ENGINE_LOADED)
        # The missing page is the browser's own complaint, which this test caused; nothing else may be said.
        watched.errors[:] = [e for e in watched.errors if "404" not in e]
        assert watched.page.evaluate("document.documentElement.dataset.rkAsk") == "ready"
        assert not watched.page.evaluate("document.documentElement.hasAttribute('data-rk-ask-shown')")


@pytest.fixture(scope="module", params=sorted(SCREENS))
def screen(browser, request) -> Iterator[Watched]:
    yield from watched_tab(browser, SCREENS[request.param], request.param)


def test_the_page_fits_both_screens_and_reads_for_everyone(screen: Watched, site: Site) -> None:
    screen.page.goto(f"{site.base}{MR}/ask/#from=counter-rounding")
    wait_ready(screen, "counter-rounding")
    assert AXE.is_file(), "axe-core is missing: 'npm ci' installs it from the npm registry"
    assert screen.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    targets = screen.page.evaluate(TARGETS.replace("button, input, select,", "button, input, select, textarea,"))
    assert [t["what"] for t in targets if (t["field"] or t["what"].startswith("<textarea")) and t["font"] < 16] == []
    if screen.name == "phone":
        assert [t["what"] for t in targets if t["height"] < 24] == []
    assert screen.page.locator("#rk-ask-verdict").get_attribute("aria-live") == "polite"
    assert axe_violations(screen) == []


def test_the_keyboard_plays_an_option_and_only_this_page_loads_the_engine(desktop: Watched, site: Site) -> None:
    desktop.page.goto(f"{site.base}{MR}/ask/")
    wait_ready(desktop)
    played = desktop.page.locator("#rk-ask-played li:not(.rk-ask-none)")
    already = played.count()  # a new scenario may start with the game's starter actions
    option = desktop.page.locator("#rk-ask-options .rk-ask-option").first
    action = json.loads(option.get_attribute("data-action") or "null")
    option.focus()
    before = asked(desktop)
    desktop.page.keyboard.press("Enter")
    answered(desktop, before)
    assert played.count() == already + 1
    assert yaml.safe_load(desktop.page.locator("#rk-ask-text").input_value())["actions"][-1] == action
    desktop.page.goto(f"{site.base}{MR}/")
    scripts = desktop.page.evaluate("[...document.scripts].map(s => s.src)")
    assert not [s for s in scripts if "ask" in s.rsplit("/", 1)[-1]]


def test_a_card_from_the_picker_goes_into_the_state(desktop: Watched, site: Site) -> None:
    desktop.page.goto(f"{site.base}{MR}/ask/")
    wait_ready(desktop)
    desktop.page.locator("#rk-ask-filter").fill("Counter")
    desktop.page.locator("#rk-ask-entity").select_option(label="Counter (card)")
    assert "Counter" in desktop.page.locator("#rk-ask-entity-words").inner_text()
    desktop.page.locator("#rk-ask-place").select_option(value="players.B.hand")
    click(desktop, "#rk-ask-put")
    state = yaml.safe_load(desktop.page.locator("#rk-ask-text").input_value())
    assert "Counter" in state["initial"]["players"]["B"]["hand"]


def test_the_yaml_downloads_under_its_id_and_copies_as_a_dispute(desktop: Watched, site: Site) -> None:
    from checker.commands.ask import as_dispute

    desktop.page.goto(f"{site.base}{MR}/ask/#from=counter-rounding")
    wait_ready(desktop, "counter-rounding")
    text = desktop.page.locator("#rk-ask-text").input_value()
    with desktop.page.expect_download() as download:
        desktop.page.locator("#rk-ask-download").click()
    assert download.value.suggested_filename == "counter-rounding.yaml"
    assert Path(download.value.path()).read_text(encoding="utf-8") == text
    desktop.page.locator("#rk-ask-dispute").click()
    desktop.page.wait_for_function("document.getElementById('rk-ask-copied').textContent !== ''", timeout=ANSWERED)
    assert f"scenarios/{MR}/counter-rounding.yaml" in desktop.page.locator("#rk-ask-copied").inner_text()
    assert desktop.page.evaluate("navigator.clipboard.readText()") == as_dispute(text)
