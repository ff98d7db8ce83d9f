"""The website in a real browser (Debian's headless Chromium), offline.

Every page load records console errors and every request; a request to any host other
than this machine's loopback is aborted and fails the test.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser import AXE, TARGETS, VIEWPORTS, Watched, axe_violations, open_page
from tests.conftest import Site

pytestmark = pytest.mark.browser
MR = "monster-rancher-bc2"
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "screenshots"  # ignored by git: for a person to look at
#: The visible nodes of a graph that no visible edge joins to another (JavaScript, given a Cytoscape instance).
ISOLATED = "(cy => cy.nodes(':visible').filter(n => n.connectedEdges(':visible').length === 0).map(n => n.id()))"
#: Every visible node's label and the size it is drawn at, in CSS pixels.
LABELS = """(cy => cy.nodes(':visible').map(n => ({id: n.id(), label: n.style('label'),
            px: parseFloat(n.style('font-size')) * cy.zoom(), rendered: parseFloat(n.renderedStyle('font-size')),
            hiddenBelow: parseFloat(n.style('min-zoomed-font-size'))})))"""


def graph_nodes(tab: Watched, index: int = 0) -> int:
    return tab.page.evaluate(
        "i => document.querySelectorAll('.rk-graph')[i].rkGraph.nodes(':visible').length", index
    )


def graph_nodes_once_drawn(tab: Watched, index: int, drawn: int) -> int:
    """The nodes shown once Cytoscape has redrawn a change (its styles apply on the next frame): not ``drawn``."""
    tab.page.wait_for_function(
        "([i, n]) => document.querySelectorAll('.rk-graph')[i].rkGraph.nodes(':visible').length !== n", arg=[index, drawn],
        timeout=5_000,
    )
    return graph_nodes(tab, index)


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


def test_game_page_graphs_render_and_a_click_offers_the_node_page(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    procedure_nodes = tab.page.evaluate("document.querySelectorAll('.rk-graph')[0].rkGraph.nodes('[kind = \"step\"]').length")
    assert procedure_nodes == 14
    assert graph_nodes(tab, 1) > 20
    node_menu(tab, 1, "card:Shotgun")
    with tab.page.expect_navigation():
        tab.page.locator(".rk-graph-menu a", has_text="Open its page").click()
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
        assert graph_nodes(tab, 1) > 1, game_id


def test_procedure_step_opens_its_ruling(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    click_node(tab, "Apply additive bonus", 0)
    assert tab.page.url.endswith(f"/{MR}/rulings/mr.attack.final-additive/")


def test_kind_filter_hides_and_shows_nodes_and_leaves_none_alone(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    before = graph_nodes(tab, 1)
    tab.page.locator(".rk-graph-kinds input[value=card]").uncheck()
    after = graph_nodes_once_drawn(tab, 1, before)
    assert 0 < after < before
    assert tab.page.evaluate(f"{ISOLATED}(document.querySelectorAll('.rk-graph')[1].rkGraph)") == []
    kinds = tab.page.evaluate("document.querySelectorAll('.rk-graph')[1].rkGraph.nodes(':visible').map(n => n.data('kind'))")
    assert "card" not in kinds
    tab.page.locator(".rk-graph-kinds input[value=card]").check()
    assert graph_nodes_once_drawn(tab, 1, after) == before


#: The visible nodes of a graph whose drawing (shape and label) leaves its box (JavaScript, given a graph's holder).
OFF_CANVAS = """(holder => { const cy = holder.rkGraph, w = holder.clientWidth, h = holder.clientHeight;
  return cy.nodes(':visible').filter(n => { const b = n.renderedBoundingBox({includeLabels: true});
    return b.x1 < -1 || b.y1 < -1 || b.x2 > w + 1 || b.y2 > h + 1; }).map(n => n.id()); })"""


def test_no_graph_is_cut_off(any_tab: Watched, site: Site) -> None:
    for game_id in game_ids():
        open_page(any_tab, site, f"{game_id}/")
        for index in range(graphs_on_page(any_tab)):
            off = any_tab.page.evaluate(f"{OFF_CANVAS}(document.querySelectorAll('.rk-graph')[{index}])")
            assert off == [], (game_id, index, off[:5])


def test_kind_filters_cannot_empty_the_graph(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, "zatch-bell/")
    before = graph_nodes(any_tab, 1)
    card, mechanic = (any_tab.page.locator(f".rk-graph-kinds input[value={kind}]") for kind in ("card", "mechanic"))
    card.uncheck()
    after = graph_nodes_once_drawn(any_tab, 1, before)
    assert 0 < after < before
    assert mechanic.is_disabled() and mechanic.is_checked()  # the last kind shown cannot be unticked
    card.check()
    assert graph_nodes_once_drawn(any_tab, 1, after) == before and not mechanic.is_disabled()
    open_page(any_tab, site, "yugioh-dm2/")  # a game whose graph has one kind offers no tick box to empty it
    assert any_tab.page.locator(".rk-graph-kinds input").count() == 0 and graph_nodes(any_tab, 1) > 0


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
    assert "Monol (Air) Shields its two Ground allies from Fire River" in text and "shield-against-fire-river" not in text
    open_page(tab, site, "zatch-bell/rulings/zb.amb.battle-step-5/")
    terms = tab.page.locator(".rk-ambiguity dt").all_inner_texts()
    assert terms == ["Question", "Default reading used by this site", "Other readings"]
    assert tab.page.locator(".rk-ambiguity dd").first.inner_text().endswith("?")


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
    focus = tab.page.evaluate("document.querySelector('.rk-graph').rkGraph.nodes('[?focus]').map(n => n.data('name'))")
    assert focus == ["Enchant (status)"]  # a card is also called Enchant
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


def search_results(tab: Watched, site: Site, query: str) -> list[str]:
    """The paths of the first results search gives for ``query``, typed into the box of the home page."""
    open_page(tab, site, "")
    if not tab.page.locator(".md-search__input").first.is_visible() or tab.name == "phone":
        tab.page.locator('label.md-header__button[for="__search"]').first.click()  # a phone opens search by its icon
    tab.page.locator(".md-search__input").first.click()
    return typed_results(tab, query, 5)


def typed_results(tab: Watched, query: str, count: int) -> list[str]:
    """The paths of the first ``count`` results once search has answered ``query``, typed into the open search box."""
    links = tab.page.locator(".md-search-result__link:visible")
    for _ in range(15):  # the search index loads in a worker; type again until it answers
        tab.page.locator(".md-search__input").fill("")
        tab.page.evaluate("document.documentElement.removeAttribute('data-rk-searched')")
        tab.page.locator(".md-search__input").press_sequentially(query)
        try:
            tab.page.wait_for_function("q => document.documentElement.getAttribute('data-rk-searched') === q", arg=query,
                                       timeout=2_000)
            links.first.wait_for(timeout=2_000)
            break
        except Exception:
            continue
    tab.page.wait_for_timeout(100)  # the theme shows the answer on the next frame
    return [urlparse(href).path for href in links.evaluate_all("(links, n) => links.slice(0, n).map(a => a.href)", count)]


@pytest.mark.parametrize("query, first", [
    ("zb.battle.compare", "/zatch-bell/rulings/zb.battle.compare/"),
    ("Brago", "/zatch-bell/entities/card-brago/"),
    ("Injury", "/zatch-bell/entities/mechanic-injury/"),
    ("Arid Land", f"/{MR}/entities/env-arid-land/"),
])
def test_search_finds_a_ruling_by_its_id_and_a_card_by_its_exact_name_first(any_tab: Watched, site: Site, query: str,
                                                                             first: str) -> None:
    assert search_results(any_tab, site, query)[0] == first


def test_search_ranks_a_name_typed_in_full_above_longer_words(any_tab: Watched, site: Site) -> None:
    results = search_results(any_tab, site, "Battle In")
    assert results[0].startswith("/zatch-bell/rulings/") and "battle-in" in results[0], results
    assert not any("injur" in path for path in results), results


def test_search_on_a_game_page_can_be_limited_to_that_game(any_tab: Watched, site: Site) -> None:
    page = any_tab.page
    open_page(any_tab, site, "zatch-bell/")
    if any_tab.name == "phone":
        page.locator('label.md-header__button[for="__search"]').first.click()
    page.locator(".md-search__input").first.click()

    def first_results() -> list[str]:
        return typed_results(any_tab, "attack", 10)

    everywhere = first_results()
    assert any(not path.startswith("/zatch-bell/") for path in everywhere), everywhere
    scope = page.get_by_label("Only Zatch Bell")
    assert scope.is_visible()
    box = scope.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    scope.check()
    page.wait_for_function("() => [...document.querySelectorAll('.md-search-result__link')]"
                           ".every(a => new URL(a.href).pathname.startsWith('/zatch-bell/'))", timeout=5_000)
    limited = first_results()
    assert limited and all(path.startswith("/zatch-bell/") for path in limited), limited
    scope.uncheck()
    assert any(not path.startswith("/zatch-bell/") for path in first_results())
    open_page(any_tab, site, "")
    assert page.locator(".rk-search-scope").count() == 0  # the home page belongs to no game


def test_a_glossary_term_in_a_quote_shows_its_definition_on_hover_or_tap(any_tab: Watched, site: Site) -> None:
    page = any_tab.page
    open_page(any_tab, site, "zatch-bell/rulings/zb.battle.win-injury/")
    term = page.locator(".rk-quote abbr", has_text="Injury").first
    definition = term.get_attribute("title")
    assert definition and "Injured" in definition
    assert page.locator("h1 abbr, h2 abbr, a abbr, code abbr").count() == 0
    term.scroll_into_view_if_needed()
    if any_tab.name == "phone":
        term.tap()
    else:
        term.hover()
    tip = page.locator(".md-tooltip2, .md-tooltip", has_text=definition).first
    tip.wait_for(state="visible", timeout=5_000)
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 1
    size = tip.evaluate("tip => parseFloat(getComputedStyle(tip.querySelector('[class*=__inner]') || tip).fontSize)")
    assert size >= 13, size  # a definition is read, not glanced at
    open_page(any_tab, site, "zatch-bell/entities/mechanic-petrified/")  # a rule concept's page: its glossary entry
    assert page.locator(".rk-quote", has_text="Petrified :").first.is_visible()


def test_a_glossary_term_in_the_why_of_an_answer_shows_its_definition(any_tab: Watched, site: Site) -> None:
    page = any_tab.page
    explained = next(p for p in sorted((site.folder / "zatch-bell" / "scenarios").glob("*/index.html"))
                     if '<ol class="rk-why">' in (text := p.read_text(encoding="utf-8")) and "<abbr" in text.split('<ol class="rk-why">')[1])
    open_page(any_tab, site, explained.parent.relative_to(site.folder).as_posix() + "/")
    term = page.locator(".rk-why abbr").first
    definition = term.get_attribute("title")
    assert definition
    term.scroll_into_view_if_needed()
    if any_tab.name == "phone":
        term.tap()
    else:
        term.hover()
    page.locator(".md-tooltip2, .md-tooltip", has_text=definition).first.wait_for(state="visible", timeout=5_000)
    underlined = page.evaluate("[...document.querySelectorAll('.rk-why li')].map(li => [...li.querySelectorAll('abbr')]"
                               ".map(a => a.textContent))")
    assert all(len(terms) == len(set(terms)) for terms in underlined)


def test_coverage_and_disputes_pages(tab: Watched, site: Site) -> None:
    open_page(tab, site, "coverage/")
    text = tab.page.locator(".rk-page").inner_text()
    assert "Open questions" in text and "Most connected entities" in text
    open_page(tab, site, f"{MR}/disputes/")
    text = tab.page.locator(".rk-page").inner_text()
    assert "mr.amb.last-trump-returned-card" in text
    readings = tab.page.locator(".rk-table", has_text="players.A.deck").first.text_content() or ""  # folded away: no inner text
    assert "combo-card" in readings and "last-trump" in readings


def test_markup_in_a_scenario_shows_as_text(tab: Watched, hostile_site: Site) -> None:
    open_page(tab, hostile_site, f"{MR}/scenarios/hostile-markup/")
    assert tab.page.evaluate("window.__pwned") is None
    assert "<script>" in tab.page.locator("h1").inner_text()
    assert "</title>" in tab.page.title()


def test_failing_scenario_shows_its_diff(tab: Watched, hostile_site: Site) -> None:
    open_page(tab, hostile_site, f"{MR}/scenarios/counter-rounding-wrong/")
    assert tab.page.locator(".rk-verdict").first.inner_text() == "FAIL"
    row = tab.page.locator("tr", has_text="players.B.monsters.Naga.lp")
    assert "differs" in (row.text_content() or "")  # a long table is rendered only near the screen: no inner text


# --- Graphs a person can read: both viewports, the real corpus ---------------------------------------------


def game_ids() -> list[str]:
    from checker.games import registry

    return sorted(registry())


def graphs_on_page(tab: Watched) -> int:
    return tab.page.locator(".rk-graph").count()


def evaluate_graph(tab: Watched, index: int, function: str):
    return tab.page.evaluate(f"i => {function}(document.querySelectorAll('.rk-graph')[i].rkGraph)", index)


def test_every_label_reads_at_11_px_or_more_at_first_sight(any_tab: Watched, site: Site) -> None:
    for path in [*(f"{g}/" for g in game_ids()), f"{MR}/entities/monster-golem/", f"{MR}/entities/status-enchant/"]:
        open_page(any_tab, site, path)
        for index in range(graphs_on_page(any_tab)):
            labels = evaluate_graph(any_tab, index, LABELS)
            assert labels, (path, index)
            for label in labels:
                assert label["label"].strip(), (path, label)
                assert label["px"] >= 11 and label["rendered"] >= 11, (any_tab.name, path, label)
                assert label["rendered"] > label["hiddenBelow"], (path, label)


def test_the_same_picture_on_every_load(any_tab: Watched, site: Site) -> None:
    positions = "(cy => cy.nodes().map(n => [n.id(), n.position(), n.renderedPosition()]))"
    for game_id in game_ids():
        open_page(any_tab, site, f"{game_id}/")
        first = [evaluate_graph(any_tab, i, positions) for i in range(graphs_on_page(any_tab))]
        open_page(any_tab, site, f"{game_id}/")
        again = [evaluate_graph(any_tab, i, positions) for i in range(graphs_on_page(any_tab))]
        assert first == again, game_id
        assert len({(round(p["x"]), round(p["y"])) for _, p, _ in first[1]}) == len(first[1]), "two nodes drawn on one spot"


def test_game_pages_draw_no_node_alone_and_list_the_ones_left_out(tab: Watched, site: Site) -> None:
    for game_id in game_ids():
        open_page(tab, site, f"{game_id}/")
        assert evaluate_graph(tab, 1, ISOLATED) == [], game_id
        drawn = set(evaluate_graph(tab, 1, "(cy => cy.nodes().map(n => n.data('name')))"))
        caption = tab.page.locator(".rk-graph-box figcaption").nth(1).inner_text()
        if "meet only those or nothing yet:" in caption:
            left_out = caption.split("meet only those or nothing yet:")[1].strip(" .").split(", ")
            assert left_out and not drawn & set(left_out), game_id


# --- A game's graph the reader expands ---------------------------------------------------------------------

#: The nodes a game page's graph shows, its cap, and the expansion's state (JavaScript, given a graph's holder).
SHOWN = """(holder => ({ids: holder.rkGraph.nodes().map(n => n.id()).sort(), visible: holder.rkGraph.nodes(':visible').length,
  most: JSON.parse(holder.querySelector('.rk-graph-data').textContent).expand.most}))"""


def node_menu(tab: Watched, index: int, node_id: str) -> None:
    """Tap (phone) or click (desktop) a node of a graph and wait for its menu; a phone's graph is explored first."""
    if tab.name == "phone" and tab.page.locator(".rk-graph-cover").nth(index).get_attribute("aria-pressed") == "false":
        tab.page.locator(".rk-graph-cover").nth(index).click()
    position = node_on_screen(tab, index, node_id)
    if tab.name == "phone":
        tab.page.touchscreen.tap(position["x"], position["y"])
    else:
        tab.page.mouse.click(position["x"], position["y"])
    tab.page.locator(".rk-graph-menu").wait_for(timeout=5_000)


def shown(tab: Watched, index: int = 1) -> dict:
    return tab.page.evaluate(f"{SHOWN}(document.querySelectorAll('.rk-graph')[{index}])")


def shown_once_changed(tab: Watched, before: int, index: int = 1) -> dict:
    tab.page.wait_for_function("([i, n]) => document.querySelectorAll('.rk-graph')[i].rkGraph.nodes().length !== n",
                               arg=[index, before], timeout=5_000)
    tab.page.wait_for_timeout(100)  # the picture is fitted again in the same task; its styles on the next frame
    return shown(tab, index)


def readable_and_whole(tab: Watched, index: int = 1) -> None:
    """Every label of the graph reads at 11 px or more, and no node or label leaves its box."""
    for label in evaluate_graph(tab, index, LABELS):
        assert label["px"] >= 11 and label["rendered"] >= 11, (tab.name, label)
    assert tab.page.evaluate(f"{OFF_CANVAS}(document.querySelectorAll('.rk-graph')[{index}])") == []


def neighbours(tab: Watched, node_id: str, index: int = 1) -> list[str]:
    return evaluate_graph(tab, index, f"(cy => cy.getElementById({node_id!r}).neighborhood('node').map(n => n.id()))")


def test_a_tapped_node_shows_its_neighbours_and_show_fewer_takes_them_away(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/")
    overview = shown(any_tab)
    assert len(overview["ids"]) == 30 and overview["most"] == 40
    node_menu(any_tab, 1, "monster:Golem")
    button = any_tab.page.locator(".rk-graph-menu button", has_text="Show its neighbours (")
    button.wait_for(timeout=5_000)  # once the network has come
    hidden = int(re.search(r"\((\d+) not drawn\)", button.inner_text())[1])
    button.click()
    expanded = shown_once_changed(any_tab, 30)
    added = set(expanded["ids"]) - set(overview["ids"])
    assert set(overview["ids"]) < set(expanded["ids"]) and len(expanded["ids"]) == min(30 + hidden, 40)
    assert added <= set(neighbours(any_tab, "monster:Golem"))
    readable_and_whole(any_tab)
    assert evaluate_graph(any_tab, 1, ISOLATED) == []
    assert "the neighbours of Golem added" in any_tab.page.locator(".rk-graph-status").inner_text()
    any_tab.page.locator(".rk-graph-fewer").click()
    assert shown_once_changed(any_tab, len(expanded["ids"]))["ids"] == overview["ids"]
    assert any_tab.page.locator(".rk-graph-fewer").is_disabled()
    readable_and_whole(any_tab)


def test_the_keyboard_expands_a_node_and_reset_returns_to_the_overview(any_tab: Watched, site: Site) -> None:
    page = any_tab.page
    open_page(any_tab, site, f"{MR}/")
    overview = shown(any_tab)
    page.locator(".rk-graph-find").focus()
    page.keyboard.type("Golem")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Open its page"  # Enter again opens its page
    page.locator(".rk-graph-menu button:enabled", has_text="Show its neighbours").wait_for(timeout=5_000)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent").startswith("Show its neighbours")
    page.keyboard.press("Enter")
    expanded = shown_once_changed(any_tab, len(overview["ids"]))
    assert len(expanded["ids"]) > len(overview["ids"])
    assert page.evaluate("document.activeElement.textContent") == "Show fewer"
    page.locator(".rk-graph-fit").focus()
    page.keyboard.press("Enter")
    assert shown_once_changed(any_tab, len(expanded["ids"]))["ids"] == overview["ids"]
    readable_and_whole(any_tab)


def test_an_expanded_graph_keeps_its_cap_stays_whole_and_filters_cannot_empty_it(any_tab: Watched, site: Site) -> None:
    expanded_games = 0
    for game_id in game_ids():
        open_page(any_tab, site, f"{game_id}/")
        if not any_tab.page.evaluate("!!document.querySelectorAll('.rk-graph')[1].rkExpand"):
            continue
        expanded_games += 1
        most = shown(any_tab)["most"]
        hubs = evaluate_graph(any_tab, 1, "(cy => cy.nodes().sort((a, b) => b.degree() - a.degree()).map(n => n.id()))")
        for node_id in hubs[:6]:
            before = shown(any_tab)["ids"]
            any_tab.page.evaluate("id => document.querySelectorAll('.rk-graph')[1].rkExpand.expand(id)", node_id)
            now = shown(any_tab)
            assert node_id in now["ids"] and len(now["ids"]) <= most, (game_id, node_id, len(now["ids"]))
            assert set(now["ids"]) - set(before) <= set(neighbours(any_tab, node_id)), (game_id, node_id)
            any_tab.page.wait_for_timeout(50)
            readable_and_whole(any_tab)
            assert len({tuple(round(v) for v in p.values()) for p in evaluate_graph(
                any_tab, 1, "(cy => cy.nodes().map(n => n.position()))")}) == len(now["ids"]), "two nodes on one spot"
        ticks = any_tab.page.locator(".rk-graph-kinds input[type=checkbox]")
        for number in range(ticks.count()):
            tick = ticks.nth(number)
            if tick.is_enabled():
                tick.uncheck()
            assert shown(any_tab)["visible"] > 0, game_id
            assert evaluate_graph(any_tab, 1, ISOLATED) == [], game_id
        assert ticks.count() == 0 or any(ticks.nth(n).is_checked() for n in range(ticks.count()))
    assert expanded_games >= 1


def test_a_swipe_or_the_wheel_over_a_graph_scrolls_the_page(any_tab: Watched, site: Site) -> None:
    page = any_tab.page
    open_page(any_tab, site, f"{MR}/")
    page.evaluate("window.scrollTo(0, document.querySelectorAll('.rk-graph')[1].getBoundingClientRect().top + window.scrollY - 100)")
    page.wait_for_timeout(300)
    view = "(cy => [cy.zoom(), cy.pan()])"
    before, scrolled = evaluate_graph(any_tab, 1, view), page.evaluate("window.scrollY")
    box = page.locator(".rk-graph").nth(1).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, min(box["y"] + box["height"] / 2, 600.0)
    swipe_or_wheel(any_tab, x, y)
    assert page.evaluate("window.scrollY") > scrolled + 100
    assert evaluate_graph(any_tab, 1, view) == before
    # Once the reader asks to explore it, the graph pans and zooms, and the same gesture moves it instead.
    page.locator(".rk-graph-cover").nth(1).click()
    assert page.locator(".rk-graph-cover").nth(1).get_attribute("aria-pressed") == "true"
    assert evaluate_graph(any_tab, 1, "(cy => cy.userPanningEnabled() && cy.userZoomingEnabled())")
    box = page.locator(".rk-graph").nth(1).bounding_box()
    assert box is not None
    scrolled = page.evaluate("window.scrollY")
    swipe_or_wheel(any_tab, box["x"] + box["width"] / 2, max(box["y"] + 200, 300))
    assert evaluate_graph(any_tab, 1, view) != before
    assert page.evaluate("window.scrollY") == scrolled


def swipe_or_wheel(tab: Watched, x: float, y: float) -> None:
    """On the phone a finger swipes up 300 px from (x, y); on the desktop the wheel turns 300 px there."""
    if tab.name == "phone":
        client = tab.page.context.new_cdp_session(tab.page)
        client.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, 11):
            client.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 30 * step}]})
        client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        tab.page.mouse.move(x, y)
        tab.page.mouse.wheel(0, 300)
    tab.page.wait_for_timeout(500)


def test_the_graph_library_loads_only_on_pages_with_a_graph(tab: Watched, site: Site) -> None:
    requested: list[str] = []
    tab.page.on("request", lambda request: requested.append(request.url))
    open_page(tab, site, f"{MR}/rulings/mr.attack.env-prohibition/")
    assert not [u for u in requested if "cytoscape" in u]
    assert tab.page.evaluate("typeof window.cytoscape") == "undefined"
    open_page(tab, site, f"{MR}/")
    assert [u for u in requested if u.endswith("/assets/vendor/cytoscape.min.js")]


def test_every_graph_has_a_name_and_a_text_alternative(tab: Watched, site: Site) -> None:
    open_page(tab, site, f"{MR}/")
    graphs = tab.page.locator(".rk-graph")
    for index in range(graphs.count()):
        graph = graphs.nth(index)
        assert graph.get_attribute("role") == "img"
        assert len(graph.get_attribute("aria-label") or "") > 30
        described = tab.page.locator(f"#{graph.get_attribute('aria-describedby')}")
        assert described.inner_text().strip()
    tables = tab.page.locator(".rk-graph-box details table")
    assert tables.count() == 2
    steps = tables.nth(0).locator("tbody tr").count()
    assert steps == tab.page.evaluate("document.querySelector('.rk-graph').rkGraph.nodes('[kind = \"step\"]').length")
    edges = tables.nth(1).locator("tbody tr").count()
    assert edges == tab.page.evaluate("document.querySelectorAll('.rk-graph')[1].rkGraph.edges().length")


def node_on_screen(tab: Watched, index: int, node_id: str) -> dict[str, float]:
    """Scroll the page (not the graph) until the node is in the middle of the screen; where it is drawn."""
    where = """([i, id]) => { const cy = document.querySelectorAll('.rk-graph')[i].rkGraph; const p = cy.getElementById(id).renderedPosition();
                const box = cy.container().getBoundingClientRect(); return {x: box.left + p.x, y: box.top + p.y}; }"""
    point = tab.page.evaluate(where, [index, node_id])
    tab.page.evaluate("y => window.scrollBy({top: y - window.innerHeight / 2, behavior: 'instant'})", point["y"])
    tab.page.wait_for_timeout(300)
    return tab.page.evaluate(where, [index, node_id])


def test_a_step_with_several_rulings_offers_them_all(tab: Watched, site: Site) -> None:
    from checker.games import registry

    step = next(s for _, s in registry()[MR].procedure.steps() if len(s.rulings) > 1)
    open_page(tab, site, f"{MR}/")
    position = node_on_screen(tab, 0, f"step:{step.id}")
    tab.page.mouse.click(position["x"], position["y"])
    offered = tab.page.locator(".rk-graph-menu a").all_inner_texts()
    assert offered == list(step.rulings)


def test_procedure_arrows_say_their_conditions(tab: Watched, site: Site) -> None:
    from checker.games import registry

    for game_id, game in registry().items():
        open_page(tab, site, f"{game_id}/")
        said = " ".join(evaluate_graph(tab, 0, "(cy => cy.edges('[label]').map(e => e.data('label').replace(/\\n/g, ' ')))"))
        for _, step in game.procedure.steps():
            if step.condition:
                assert f"only if {step.condition.replace('-', ' ')}" in said, (game_id, step.id)
            if step.returns_while:
                assert f"while {step.returns_while.replace('-', ' ')}" in said, (game_id, step.id)


PAGE_KINDS = {
    "home": "", "game": f"{MR}/", "vocabulary": f"{MR}/vocabulary/", "ruling": f"{MR}/rulings/mr.attack.env-prohibition/",
    "scenario": f"{MR}/scenarios/shotgun-critical-under-nice-fight/", "entity": f"{MR}/entities/monster-golem/",
    "coverage": "coverage/", "disputes": "disputes/", "game disputes": "zatch-bell/disputes/",
    "card": "zatch-bell/entities/card-brago/", "concept": "zatch-bell/entities/mechanic-injury/",
    "question": f"{MR}/scenarios/last-man-revived-question/",
}


def test_screenshots_of_each_page_kind(any_tab: Watched, site: Site) -> None:
    """Written to screenshots/ for a person to look at: the top of each page, and each graph as it first shows."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for kind, path in PAGE_KINDS.items():
        open_page(any_tab, site, path)
        any_tab.page.screenshot(path=SCREENSHOTS / f"{any_tab.name}-{kind}.png")
        for index in range(graphs_on_page(any_tab)):
            any_tab.page.evaluate(
                "i => window.scrollTo(0, document.querySelectorAll('.rk-graph-box')[i].getBoundingClientRect().top"
                " + window.scrollY - 60)", index)
            any_tab.page.wait_for_timeout(150)
            any_tab.page.screenshot(path=SCREENSHOTS / f"{any_tab.name}-{kind}-graph-{index + 1}.png")
        assert (SCREENSHOTS / f"{any_tab.name}-{kind}.png").stat().st_size > 10_000


def test_screenshots_of_a_game_graph_drawn_and_expanded(any_tab: Watched, site: Site) -> None:
    """Written to screenshots/ for a person to look at: the game page's graph as it first shows, then with the
    neighbours of its most connected node and of another one added."""
    SCREENSHOTS.mkdir(exist_ok=True)
    open_page(any_tab, site, f"{MR}/")
    any_tab.page.add_style_tag(content=".md-header { visibility: hidden; }")  # it would lie over the picture
    figure = any_tab.page.locator(".rk-graph-box").nth(1)
    figure.scroll_into_view_if_needed()
    figure.screenshot(path=SCREENSHOTS / f"{any_tab.name}-game-graph-overview.png")
    hubs = evaluate_graph(any_tab, 1, "(cy => cy.nodes().sort((a, b) => b.degree() - a.degree()).map(n => n.id()))")
    for node_id in (hubs[0], hubs[-1]):
        any_tab.page.evaluate("id => document.querySelectorAll('.rk-graph')[1].rkExpand.expand(id)", node_id)
    assert len(shown(any_tab)["ids"]) == 40  # the first node's neighbours made room for the second's, no more
    any_tab.page.wait_for_timeout(200)
    readable_and_whole(any_tab)
    figure.screenshot(path=SCREENSHOTS / f"{any_tab.name}-game-graph-expanded.png")
    assert (SCREENSHOTS / f"{any_tab.name}-game-graph-expanded.png").stat().st_size > 10_000


# --- Pair lookup and page structure, at both viewports ---------------------------------------------


def pick_pair(tab: Watched, first: str, second: str) -> None:
    """Choose two entities by label ("Hide (card)") in the game page's pair picker and ask."""
    values = tab.page.evaluate(
        """([first, second]) => {
            const value = label => {
                const [, name, kind] = /^(.*) \\((.*)\\)$/.exec(label);
                const group = [...document.querySelectorAll('.rk-pair-a optgroup')].find(g => g.label === kind);
                const option = group && [...group.querySelectorAll('option')].find(o => o.textContent === name);
                return option ? option.value : null;
            };
            return [value(first), value(second)];
        }""",
        [first, second],
    )
    assert None not in values, (first, second)
    tab.page.locator(".rk-pair-a").select_option(values[0])
    tab.page.locator(".rk-pair-b").select_option(values[1])
    tab.page.locator(".rk-pair-go").click()


def test_pair_lookup_opens_the_page_of_a_pair_with_scenarios(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/")
    with any_tab.page.expect_navigation():
        pick_pair(any_tab, "Mocchi (monster)", "Hide (card)")
    any_tab.page.wait_for_load_state("networkidle")
    assert any_tab.page.url.endswith(f"/{MR}/pairs/card-hide--monster-mocchi/")
    assert any_tab.page.locator("h1").inner_text() == "Hide (card) meets Mocchi (monster)"
    meetings = any_tab.page.locator(".rk-meetings > li")
    assert meetings.count() >= 3
    assert meetings.first.locator(".rk-verdict").inner_text() == "PASS"
    assert meetings.first.locator(".rk-answer").inner_text().strip()
    assert meetings.first.locator(".rk-cite a").count() >= 1


def test_pair_lookup_says_no_scenario_yet_and_offers_a_question(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/")
    pick_pair(any_tab, "Arid Land (ENV)", "Shotgun (card)")
    answer = any_tab.page.locator(".rk-pair-answer")
    answer.locator(".rk-no-scenario").wait_for(timeout=5_000)  # once the picker's data has come
    assert "No scenario yet makes Arid Land (ENV) and Shotgun (card) interact" in answer.inner_text()
    assert any_tab.page.url.endswith(f"/{MR}/")
    assert not answer.locator(".rk-copy").is_visible()  # the YAML is for contributors: folded away
    answer.locator("summary", has_text="For contributors").click()
    question = answer.locator("code").text_content()
    assert "title: What happens when Arid Land (ENV) meets Shotgun (card)?" in question
    assert '"Arid Land": {"kind": "env"' in question and "expect" not in question.split("#")[0]
    answer.locator(".rk-copy").click()
    answer.locator(".rk-copy", has_text="Copied").wait_for(timeout=5_000)
    assert any_tab.page.evaluate("navigator.clipboard.readText()") == question


def test_open_questions_of_an_entity_page_are_the_pickers(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/entities/env-arid-land/")
    first = any_tab.page.locator(".rk-open-questions details").first
    other = first.locator("summary").inner_text().split(" × ")[1]
    written = first.locator("code").text_content()
    with any_tab.page.expect_navigation():
        any_tab.page.locator(".rk-open-linked a").last.click()
    any_tab.page.wait_for_load_state("networkidle")
    linked = any_tab.page.locator(".rk-pair-answer")
    assert "No scenario yet makes Arid Land (ENV) and" in linked.inner_text()
    assert "title: What happens when Arid Land (ENV) meets" in linked.locator("code").text_content()
    pick_pair(any_tab, "Arid Land (ENV)", other)  # the browser writes what the entity page wrote
    assert linked.locator("code").text_content() == written


def test_headings_have_ids_the_contents_and_skip_link_use(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/scenarios/shotgun-critical-under-nice-fight/")
    ids = any_tab.page.evaluate("[...document.querySelectorAll('.rk-page h2')].map(h => h.id)")
    assert ids and all(ids) and "trace" in ids
    skip = any_tab.page.locator("a.md-skip").get_attribute("href")
    assert skip == f"#{ids[0]}"
    any_tab.page.goto(any_tab.page.url + "#trace")
    top = any_tab.page.evaluate("document.getElementById('trace').getBoundingClientRect().top")
    assert 0 <= top < 200


def test_copy_button_of_a_code_block_is_clickable(any_tab: Watched, site: Site) -> None:
    open_page(any_tab, site, f"{MR}/scenarios/counter-rounding/")
    button = any_tab.page.locator(".rk-copy").last
    button.click(timeout=5_000)  # fails when the code block lies over the button
    any_tab.page.locator(".rk-copy", has_text="Copied").wait_for(timeout=5_000)
    assert any_tab.page.evaluate("navigator.clipboard.readText()").startswith("# yaml-language-server")


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


@pytest.mark.parametrize("path", [f"{MR}/disputes/", f"{MR}/scenarios/counter-rounding/", "many-marios-0/scenarios/agility/"])
def test_tables_do_not_break_words_letter_by_letter(any_tab: Watched, site: Site, path: str) -> None:
    open_page(any_tab, site, path)
    assert any_tab.page.locator(".rk-table").count() > 0
    assert any_tab.page.evaluate(BROKEN_WORDS) == []


def test_dark_mode_follows_the_system(browser, site: Site) -> None:
    context = browser.new_context(**VIEWPORTS["phone"], color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(site.base + f"{MR}/")
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    finally:
        context.close()


# --- Readable and reachable by everyone: axe-core, tap targets, inputs, on every page kind --------------------------

#: The pages of every kind a reader meets, on the real corpus.
EVERY_KIND = {**PAGE_KINDS, "rulings": "zatch-bell/rulings/", "pair": f"{MR}/pairs/card-hide--monster-mocchi/",
              "facts": f"{MR}/facts/", "full list": "zatch-bell/lists/scenarios/", "format": "scenario-format/"}
@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_no_serious_accessibility_violation_on_any_page_kind(any_tab: Watched, site: Site, kind: str) -> None:
    assert AXE.is_file(), "axe-core is missing: 'npm ci' installs it from the npm registry"
    open_page(any_tab, site, EVERY_KIND[kind])
    assert axe_violations(any_tab) == []


@pytest.mark.parametrize("kind", ["game", "scenario", "card", "disputes", "pair"])
def test_fields_do_not_make_a_phone_zoom_and_every_target_is_24_px_tall(any_tab: Watched, site: Site, kind: str) -> None:
    open_page(any_tab, site, EVERY_KIND[kind])
    targets = any_tab.page.evaluate(TARGETS)
    assert targets
    assert [t["what"] for t in targets if t["field"] and t["font"] < 16] == []
    if any_tab.name == "phone":
        assert [t["what"] for t in targets if t["height"] < 24] == []


def test_the_answer_is_on_the_first_screen(any_tab: Watched, site: Site) -> None:
    """On a phone as on a desktop, the question and the answer sit under the title, above the fold."""
    for path in (f"{MR}/scenarios/last-man-revived-question/", f"{MR}/scenarios/counter-rounding/"):
        open_page(any_tab, site, path)
        box = any_tab.page.locator(".rk-lead .rk-reply").first.bounding_box()
        assert box is not None and box["y"] < any_tab.page.viewport_size["height"] - 40, (any_tab.name, path, box)


ONE_LINE_EACH = """() => [...document.querySelectorAll('.rk-table a[href*="/rulings/"]')].slice(0, 300).filter(link => {
    const range = document.createRange(); range.selectNodeContents(link);
    return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size > 1;
  }).map(link => link.textContent)"""


def test_coverage_ruling_ids_are_never_broken(any_tab: Watched, site: Site) -> None:
    """A ruling's id in the coverage table stays on one line ("mm.dama" "ge" reads as two words); the table scrolls."""
    open_page(any_tab, site, "coverage/")
    assert any_tab.page.locator('.rk-table a[href*="/rulings/"]').count() > 300
    assert any_tab.page.evaluate(ONE_LINE_EACH) == []


def test_a_short_heading_takes_one_line(any_tab: Watched, site: Site) -> None:
    """The heading's hidden permalink does not wrap to a blank second line on a narrow screen."""
    open_page(any_tab, site, "zatch-bell/")
    heights = any_tab.page.evaluate("""() => [...document.querySelectorAll('.md-typeset h2')].filter(h =>
        h.textContent.replace('¶', '').trim().length < 25).map(h =>
        h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight))""")
    assert heights and max(heights) < 1.5, heights


def test_search_says_it_is_loading_until_its_index_is_ready(tab: Watched, site: Site) -> None:
    open_page(tab, site, "")
    tab.page.locator(".md-search__input").first.click()
    tab.page.wait_for_selector("html[data-rk-search-ready]", state="attached", timeout=30_000)
    meta = ".md-search-result__meta"
    assert "Loading" not in tab.page.evaluate(f"getComputedStyle(document.querySelector('{meta}'), '::after').content")
    tab.page.evaluate("document.documentElement.removeAttribute('data-rk-search-ready')")
    assert "Loading the search index" in tab.page.evaluate(f"getComputedStyle(document.querySelector('{meta}'), '::after').content")


def test_home_page_is_headed_by_what_the_site_is(tab: Watched, site: Site) -> None:
    open_page(tab, site, "")
    assert tab.page.locator("h1").first.inner_text() == "Rulings for card and battle games"
    assert tab.page.title() == "Rulings for card and battle games - Rulings checker"
