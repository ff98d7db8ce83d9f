"""Page file names are bounded and unique whatever the names a scenario gives its cards."""

from __future__ import annotations

import itertools

import networkx as nx

from checker.games import registry
from checker.site.model import MAX_SLUG, GameView, page, slug

NAME_MAX = 255  # bytes in one file name, on the usual file systems
LONG = "Big Punch of the Mountain " * 12  # 300 characters
NAMES = [LONG, LONG + "A", LONG + "B", LONG.upper(), "x" * 5000, "!!!" * 100, "漢" * 300, "a", "A", "a-"]


def test_every_page_of_long_or_alike_names_has_a_bounded_unique_file_name() -> None:
    game = registry()["monster-rancher-bc2"]
    graph = nx.Graph()
    graph.add_nodes_from(("card", name) for name in NAMES)
    view = GameView(game, [], graph)
    entity_pages = [view.entity_page(entity) for entity in graph]
    pair_pages = [view.pair_page(a, b) for a, b in itertools.combinations(graph, 2)]
    for path in entity_pages + pair_pages:
        assert all(len(part.encode("utf-8")) <= NAME_MAX - len("/index.html") for part in path.split("/")), path
    assert len(set(entity_pages)) == len(entity_pages)
    assert len(set(pair_pages)) == len(pair_pages)


def test_a_long_slug_is_cut_and_keeps_what_tells_it_apart() -> None:
    assert len(slug(LONG)) <= MAX_SLUG and slug(LONG) != slug(LONG + "A") != slug(LONG + "B")
    assert slug(LONG).startswith("big-punch-of-the-mountain-big-punch")
    assert slug("Big Punch") == "big-punch"  # a short one is as it was
    page("monster-rancher-bc2", "entities", slug(LONG))  # a safe page name
