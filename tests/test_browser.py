"""The website in a real browser (Debian's headless Chromium), offline.

Every page load records console errors and every request; a request to any host other
than this machine's loopback is aborted and fails the test.
"""

from __future__ import annotations

import shutil
from typing import Iterator
from urllib.parse import urlparse

import pytest

from tests.conftest import Site

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
MR = "monster-rancher-bc2"


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not shutil.which("chromium") and not __import__("os").path.exists(CHROMIUM):
        pytest.fail("Chromium is not installed: 'make test' installs Debian's chromium and chromium-driver")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


class Watched:
    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.outside: list[str] = []


VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def tab(browser) -> Iterator[Watched]:
    yield from watched_tab(browser, {"width": 1280, "height": 900})


@pytest.fixture(params=sorted(VIEWPORTS))
def sized_tab(browser, request) -> Iterator[Watched]:
    """A tab at a desktop's 1366×768 and at a phone's 390×844."""
    yield from watched_tab(browser, VIEWPORTS[request.param])


def watched_tab(browser, viewport: dict[str, int]) -> Iterator[Watched]:
    context = browser.new_context(viewport=viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watched = Watched(page)

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


def graph_nodes(tab: Watched, index: int = 0) -> int:
    return tab.page.evaluate(
        "i => document.querySelectorAll('.rk-graph')[i].rkGraph.nodes(':visible').length", index
    )


def click_node(tab: Watched, label: str, index: int = 0) -> None:
    """Scroll the graph into view, let the scroll settle, then click the node where it is drawn."""
    tab.page.evaluate(
        "i => document.querySelectorAll('.rk-graph')[i].scrollIntoView({block: 'center', behavior: 'instant'})", index
    )
    tab.page.wait_for_timeout(300)
    position = tab.page.evaluate(
        """([i, label]) => {
            const cy = document.querySelectorAll('.rk-graph')[i].rkGraph;
            const node = cy.nodes().filter(n => n.data('label') === label)[0];
            cy.zoom(1.5); cy.center(node);
            const p = node.renderedPosition();
            const box = cy.container().getBoundingClientRect();
            return {x: box.left + p.x, y: box.top + p.y};
        }""",
        [index, label],
    )
    with tab.page.expect_navigation():
        tab.page.mouse.click(position["x"], position["y"])
    tab.page.wait_for_load_state("networkidle")


def test_home_page(tab: Watched, site: Site) -> None:
    open_page(tab, site, "")
    assert "Rulings checker" in tab.page.title()
    tab.page.get_by_role("link", name="Monster Rancher Battle Card Episode II").first.click()
    tab.page.wait_for_load_state("networkidle")
    assert tab.page.url.endswith(f"/{MR}/")


def test_game_page_graphs_render_and_a_click_opens_the_node_page(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    procedure_nodes = tab.page.evaluate("document.querySelectorAll('.rk-graph')[0].rkGraph.nodes('[kind = \"step\"]').length")
    assert procedure_nodes == 14
    assert graph_nodes(tab, 1) > 20
    click_node(tab, "Shotgun", 1)
    assert tab.page.url.endswith(f"/{MR}/entities/card-shotgun/")
    assert tab.page.locator("h1").inner_text() == "Shotgun (card)"


def test_every_game_page_draws_its_procedure_with_its_repetitions(tab: Watched, site: Site) -> None:
    from checker.games import registry

    for game_id, game in registry().items():
        open_page(tab, site, f"{game_id}/")
        drawn = tab.page.evaluate(
            "() => { const cy = document.querySelectorAll('.rk-graph')[0].rkGraph;"
            " return {steps: cy.nodes('[kind = \"step\"]').length,"
            " loops: cy.edges('.rk-loop, .rk-return').map(e => e.source().id() + '>' + e.target().id())}; }"
        )
        declared = [step for _, step in game.procedure.steps()]
        assert drawn["steps"] == len(declared), game_id
        expected = [f"step:{s.id}>step:{s.id}" for s in declared if s.repeat]
        expected += [f"step:{s.id}>step:{s.returns_to}" for s in declared if s.returns_to]
        assert sorted(drawn["loops"]) == sorted(expected), game_id
        assert graph_nodes(tab, 1) > 5, game_id


def test_procedure_step_opens_its_ruling(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    click_node(tab, "Apply additive bonus", 0)
    assert tab.page.url.endswith(f"/{MR}/rulings/mr.attack.final-additive/")


def test_kind_filter_hides_and_shows_nodes(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    before = graph_nodes(tab, 1)
    tab.page.locator(".rk-graph-kinds input[value=monster]").check()
    assert graph_nodes(tab, 1) > before
    tab.page.locator(".rk-graph-kinds input[value=card]").uncheck()
    assert graph_nodes(tab, 1) < before + 40


def test_ruling_page(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/rulings/mr.attack.env-prohibition/")
    assert "If an ENV that prohibits X damage" in tab.page.locator(".rk-quote").inner_text()
    tab.page.get_by_role("link", name="Under Nice Fight a Final Damage of exactly 3 cannot be used; 4 can").click()
    tab.page.wait_for_load_state("networkidle")
    assert tab.page.url.endswith(f"/{MR}/scenarios/nice-fight-boundary/")


def test_ambiguous_ruling_page_names_the_scenarios_that_depend_on_it(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/rulings/mr.amb.unaffected-monster-redirects/")
    text = tab.page.locator(".rk-page").inner_text()
    assert "redirection-allowed" in text and "unaffected-cannot-defend" in text
    assert "shield-against-fire-river" in text


def test_scenario_page_trace_links_to_rulings_and_yaml_has_a_copy_button(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/scenarios/shotgun-critical-under-nice-fight/")
    assert "PASS" in tab.page.locator(".rk-verdict").first.inner_text()
    trace = tab.page.locator(".rk-trace li")
    assert trace.count() >= 8
    assert "Final Damage = 3 (Shotgun) + 2 (Critical) = 5" in tab.page.locator(".rk-page").inner_text()
    tab.page.locator(".rk-cite a", has_text="mr.attack.env-prohibition").first.click()
    tab.page.wait_for_load_state("networkidle")
    assert tab.page.url.endswith(f"/{MR}/rulings/mr.attack.env-prohibition/")
    tab.page.go_back()
    assert tab.page.locator(".rk-copy").count() == 1
    assert "id: shotgun-critical-under-nice-fight" in tab.page.locator(".rk-code").last.inner_text()


def test_entity_page_shows_its_neighbourhood(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/entities/status-enchant/")
    assert graph_nodes(tab) >= 3
    focus = tab.page.evaluate("document.querySelector('.rk-graph').rkGraph.nodes('[?focus]').map(n => n.data('label'))")
    assert focus == ["Enchant"]
    click_node(tab, "Hide")
    assert tab.page.url.endswith(f"/{MR}/entities/card-hide/")


def test_search_finds_a_card_by_name(tab: Watched, site: Site) -> None:
    open_page(tab, site, "")
    tab.page.locator(".md-search__input").first.click()
    result = tab.page.locator(".md-search-result__link:visible", has_text="Shotgun (card)")
    for _ in range(15):  # the search index loads in a worker; type again until it answers
        tab.page.locator(".md-search__input").fill("")
        tab.page.locator(".md-search__input").press_sequentially("Shotgun")
        try:
            result.first.wait_for(timeout=2_000)
            break
        except Exception:
            continue
    result.first.click()
    tab.page.wait_for_load_state("networkidle")
    assert urlparse(tab.page.url).path == f"/{MR}/entities/card-shotgun/"


def test_coverage_and_disputes_pages(tab: Watched, site: Site) -> None:
    open_page(tab, site, "coverage/")
    text = tab.page.locator(".rk-page").inner_text()
    assert "Open questions" in text and "Most connected entities" in text
    open_page(tab, site, "disputes/")
    text = tab.page.locator(".rk-page").inner_text()
    assert "mr.amb.last-trump-returned-card" in text
    assert "combo-card" in text and "last-trump" in text


def test_markup_in_a_scenario_shows_as_text(tab: Watched, hostile_site: Site) -> None:
    open_page(tab, hostile_site, f"{MR}/scenarios/hostile-markup/")
    assert tab.page.evaluate("window.__pwned") is None
    assert "<script>" in tab.page.locator("h1").inner_text()
    assert "</title>" in tab.page.title()


def test_failing_scenario_shows_its_diff(tab: Watched, hostile_site: Site) -> None:
    open_page(tab, hostile_site, f"{MR}/scenarios/counter-rounding-wrong/")
    assert tab.page.locator(".rk-verdict").first.inner_text() == "FAIL"
    row = tab.page.locator("tr", has_text="players.B.monsters.Naga.lp")
    assert "differs" in row.inner_text()


# --- Pair lookup and page structure, at both viewports ---------------------------------------------


def pick_pair(tab: Watched, first: str, second: str) -> None:
    """Choose two entities by label ("Jab (card)") in the game page's pair picker and ask."""
    values = tab.page.evaluate(
        """([first, second]) => {
            const data = JSON.parse(document.querySelector('.rk-pairs-data').textContent);
            const index = label => String(data.entities.findIndex(e => e.label === label));
            return [index(first), index(second)];
        }""",
        [first, second],
    )
    assert "-1" not in values, (first, second)
    tab.page.locator(".rk-pair-a").select_option(values[0])
    tab.page.locator(".rk-pair-b").select_option(values[1])
    tab.page.locator(".rk-pair-go").click()


def test_pair_lookup_opens_the_page_of_a_pair_with_scenarios(sized_tab: Watched, site: Site) -> None:
    open_page(sized_tab, site, f"{MR}/")
    with sized_tab.page.expect_navigation():
        pick_pair(sized_tab, "Golem (monster)", "Jab (card)")
    sized_tab.page.wait_for_load_state("networkidle")
    assert sized_tab.page.url.endswith(f"/{MR}/pairs/card-jab--monster-golem/")
    assert sized_tab.page.locator("h1").inner_text() == "Jab (card) meets Golem (monster)"
    meetings = sized_tab.page.locator(".rk-meetings > li")
    assert meetings.count() >= 3
    assert meetings.first.locator(".rk-verdict").inner_text() == "PASS"
    assert meetings.first.locator(".rk-answer").inner_text().strip()
    assert meetings.first.locator(".rk-cite a").count() >= 1


def test_pair_lookup_says_no_scenario_yet_and_offers_a_question(sized_tab: Watched, site: Site) -> None:
    open_page(sized_tab, site, f"{MR}/")
    pick_pair(sized_tab, "Arid Land (ENV)", "Shotgun (card)")
    answer = sized_tab.page.locator(".rk-pair-answer")
    assert "No scenario yet makes Arid Land (ENV) and Shotgun (card) interact" in answer.inner_text()
    assert sized_tab.page.url.endswith(f"/{MR}/")
    question = answer.locator("code").text_content()
    assert "title: What happens when Arid Land (ENV) meets Shotgun (card)?" in question
    assert '"Arid Land": {"kind": "env"' in question and "expect" not in question.split("#")[0]
    answer.locator(".rk-copy").click()
    answer.locator(".rk-copy", has_text="Copied").wait_for(timeout=5_000)
    assert sized_tab.page.evaluate("navigator.clipboard.readText()") == question


def test_open_questions_of_an_entity_page_are_the_pickers(sized_tab: Watched, site: Site) -> None:
    open_page(sized_tab, site, f"{MR}/entities/env-arid-land/")
    first = sized_tab.page.locator(".rk-open-questions details").first
    other = first.locator("summary").inner_text().split(" × ")[1]
    written = first.locator("code").text_content()
    with sized_tab.page.expect_navigation():
        sized_tab.page.locator(".rk-open-linked a").last.click()
    sized_tab.page.wait_for_load_state("networkidle")
    linked = sized_tab.page.locator(".rk-pair-answer")
    assert "No scenario yet makes Arid Land (ENV) and" in linked.inner_text()
    assert "title: What happens when Arid Land (ENV) meets" in linked.locator("code").text_content()
    pick_pair(sized_tab, "Arid Land (ENV)", other)  # the browser writes what the entity page wrote
    assert linked.locator("code").text_content() == written


def test_headings_have_ids_the_contents_and_skip_link_use(sized_tab: Watched, site: Site) -> None:
    open_page(sized_tab, site, f"{MR}/scenarios/shotgun-critical-under-nice-fight/")
    ids = sized_tab.page.evaluate("[...document.querySelectorAll('.rk-page h2')].map(h => h.id)")
    assert ids and all(ids) and "trace" in ids
    skip = sized_tab.page.locator("a.md-skip").get_attribute("href")
    assert skip == f"#{ids[0]}"
    sized_tab.page.goto(sized_tab.page.url + "#trace")
    top = sized_tab.page.evaluate("document.getElementById('trace').getBoundingClientRect().top")
    assert 0 <= top < 200


def test_copy_button_of_a_code_block_is_clickable(sized_tab: Watched, site: Site) -> None:
    open_page(sized_tab, site, f"{MR}/scenarios/counter-rounding/")
    button = sized_tab.page.locator(".rk-copy").last
    button.click(timeout=5_000)  # fails when the code block lies over the button
    sized_tab.page.locator(".rk-copy", has_text="Copied").wait_for(timeout=5_000)
    assert sized_tab.page.evaluate("navigator.clipboard.readText()").startswith("# yaml-language-server")


BROKEN_WORDS = """() => {
    const broken = [];
    for (const table of document.querySelectorAll('.rk-table')) {
        const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/[^\\s-]+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                if (range.getClientRects().length > 1) broken.push(match[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("path", ["disputes/", f"{MR}/scenarios/counter-rounding/", "many-marios-0/scenarios/agility/"])
def test_tables_do_not_break_words_letter_by_letter(sized_tab: Watched, site: Site, path: str) -> None:
    open_page(sized_tab, site, path)
    assert sized_tab.page.locator(".rk-table").count() > 0
    assert sized_tab.page.evaluate(BROKEN_WORDS) == []


def test_dark_mode_follows_the_system(browser, site: Site) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"], color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(site.base + f"{MR}/")
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    finally:
        context.close()
