"""Which pages are written, where and when: every page of the site, a game's pages on several processes,
and, on a rebuild, only those that show a changed scenario.
"""

from __future__ import annotations

import functools
import gc
import re
from typing import Callable

from checker.run import batch
from checker.site.model import GameView, SiteModel
from checker.site.pages.ask import ask_page
from checker.site.pages.coverage import coverage_page
from checker.site.pages.disputes import disputes_page, game_disputes_page
from checker.site.pages.entity import entity_page
from checker.site.pages.figures import network_file_data
from checker.site.pages.game import game_page, rulings_page
from checker.site.pages.home import home
from checker.site.pages.lists import Listing, list_pages, listing_pages
from checker.site.pages.pair import pair_page, pair_picker_data
from checker.site.pages.ruling import ruling_page
from checker.site.pages.vocabulary import facts_page, vocabulary_page
from checker.site.pages.written import PackedPage, Pages, WrittenPage, packed
from checker.site.pairs import connected_pairs
from checker.commands.summary import Shown

OwnPages = Callable[[GameView, Shown], "WrittenPage | PackedPage"]


def all_pages(model: SiteModel, own_page: OwnPages, game_pages: Callable[[GameView], Pages] | None = None,
              jobs: int = 1) -> Pages:
    """Every generated page (and the game pages' JSON data, as text) by source path, packed. ``own_page(view, result)``
    gives a scenario's own page; ``game_pages(view)`` a game's pages (default :func:`pages_of_game`, made on
    ``jobs`` processes)."""
    pages: Pages = packed({"index.md": home(model), "coverage.md": coverage_page(model), "disputes.md": disputes_page(model),
                           **{view.disputes_page(): game_disputes_page(view) for view in model.games.values()}})
    if game_pages is None and jobs > 1:
        pages.update(_games_on_every_core(model, own_page, jobs))
    else:
        for view in model.games.values():
            pages.update(game_pages(view) if game_pages is not None else packed(pages_of_game(view, own_page)))
        for view in model.games.values():
            pages.update(list_pages(view))  # the full lists of the game's pages and of the coverage and disputes pages
    assert all(re.match(r"^[a-z0-9][a-z0-9./-]*\.(md|json)$", p) and ".." not in p for p in pages)
    return pages


def _games_on_every_core(model: SiteModel, own_page: OwnPages, jobs: int) -> Pages:
    """What :func:`pages_of_game` and :func:`list_pages` give for every game, in the same order, each page but the
    scenarios' own (made already) made by one of ``jobs`` forked processes with the full lists it links to; the full
    lists of the pages made before (the home, coverage and disputes pages) are made there too, each by one process,
    and so is what MkDocs reads of every page made there (:class:`~checker.site.pages.written.Read`)."""
    makers = {view.id: _page_makers(view, own_page) for view in model.games.values()}
    own = {view.scenario_page(result.id) for view in model.games.values() for result in view.results}
    here = {view.id: dict(view.memo.get("lists", {})) for view in model.games.values()}  # those of the pages made so far

    def make(source: str) -> tuple[WrittenPage | PackedPage | str, dict[str, Pages]]:
        view = model.games[source.split("/", 1)[0]]
        lists: dict[str, Listing] = view.memo.setdefault("lists", {})
        known = set(lists)
        made = makers[view.id][source]()
        return (PackedPage.of(made, source) if isinstance(made, WrittenPage) else made,
                {name: packed(listing_pages(view, lists[name]), read=True) for name in lists.keys() - known})

    def make_list(game: str, name: str) -> tuple[str, dict[str, Pages]]:
        """A full list alone, shaped as what :func:`make` gives (no page, one list)."""
        return "", {name: packed(listing_pages(model.games[game], here[game][name]), read=True)}

    listed = [(game, name) for game, lists in here.items() for name in lists]
    elsewhere = [source for game in makers.values() for source in game if source not in own]
    work: list[str | tuple[str, str]] = [*listed, *elsewhere]  # the lists first: the longest to make

    def make_either(item: str | tuple[str, str]) -> tuple[WrittenPage | PackedPage | str, dict[str, Pages]]:
        return make_list(*item) if isinstance(item, tuple) else make(item)

    made = dict(zip(work, batch.each(work, make_either, jobs, prepare=gc.freeze)))  # the model lives to the end: out of GC rounds
    pages: Pages = {}
    full_lists: dict[str, dict[str, Pages]] = {}
    for game, game_makers in makers.items():
        full_lists[game] = {name: made[(game, name)][1][name] for name in here[game]}
        for source, maker in game_makers.items():
            if source in own:
                pages[source] = maker()
            else:
                pages[source], lists = made[source]
                full_lists[game].update(lists)
    for lists in full_lists.values():
        for name in sorted(lists):
            pages.update(lists[name])
    return pages


def pages_of_game(view: GameView, own_page: OwnPages, before: tuple[GameView, Pages] | None = None) -> Pages:
    """A game's own pages: they depend on its scenarios' runs and nothing else.

    ``before``: the game's last view and its pages. When only some scenarios changed, and neither the
    interaction graph nor any scenario's ``cards:`` did, only the pages that show a changed scenario are
    written again (its own, the game's, and those of its rulings, entities and pairs, before and after the
    change); the others, and their full lists, are the last build's.
    """
    makers = _page_makers(view, own_page)
    again = _pages_showing_changes(view, before[0]) if before is not None else None
    if before is None or again is None:
        return {source: make() for source, make in makers.items()}
    old_view, old_pages = before
    pages = {source: make() if source in again or source not in old_pages else old_pages[source] for source, make in makers.items()}
    lists: dict[str, Listing] = view.memo.setdefault("lists", {})
    written: dict[str, Pages] = view.memo.setdefault("list pages", {})
    for name, listing in old_view.memo.get("lists", {}).items():
        if listing.back in pages and listing.back not in again and name not in lists:
            lists[name] = listing
            if name in old_view.memo.get("list pages", {}):
                written[name] = old_view.memo["list pages"][name]
    return pages


def _page_makers(view: GameView, own_page: OwnPages) -> dict[str, Callable[[], WrittenPage | PackedPage | str]]:
    makers: dict[str, Callable[[], WrittenPage | PackedPage | str]] = {
        view.home(): functools.partial(game_page, view),
        view.vocabulary_page(): functools.partial(vocabulary_page, view),
        view.facts_page(): functools.partial(facts_page, view),
        view.rulings_page(): functools.partial(rulings_page, view),
        view.ask_page(): functools.partial(ask_page, view),
    }
    for ruling in view.game.catalogue.rulings:
        makers[view.ruling_page(ruling.id)] = functools.partial(ruling_page, view, ruling)
    for result in view.results:
        makers[view.scenario_page(result.id)] = functools.partial(own_page, view, result)
    for entity in view.graph:
        makers[view.entity_page(entity)] = functools.partial(entity_page, view, entity)
    for first, second in connected_pairs(view):
        makers[view.pair_page(first, second)] = functools.partial(pair_page, view, first, second)
    makers[view.pairs_data()] = functools.partial(pair_picker_data, view)
    makers[view.network_data()] = functools.partial(network_file_data, view)
    return makers


def _pages_showing_changes(view: GameView, before: GameView) -> set[str] | None:
    """The pages of ``view`` that show a scenario added, removed or whose summary differs from ``before``'s; None
    when every page may have changed (a scenario's ``cards:`` changed, or which entities or pairs the graph has).

    What the graph says of an entity or a pair (its scenarios, its rulings) changes only with the scenarios that
    name it, whose entities and pairs are among those written again."""
    old, new = before.by_id, view.by_id
    changed = [(old.get(i), new.get(i)) for i in old.keys() | new.keys() if old.get(i) is not new.get(i)]
    if any(was is not None and now is not None and was.cards != now.cards for was, now in changed):
        return None
    if before.graph.nodes.keys() != view.graph.nodes.keys() or {frozenset(e) for e in before.graph.edges} != {frozenset(e) for e in view.graph.edges}:
        return None
    again = {view.home(), view.rulings_page(), view.network_data()}
    for summary in (s for pair in changed for s in pair if s is not None):
        again.add(view.scenario_page(summary.id))
        rulings = {*summary.demonstrated, *summary.uncited, *summary.touched, *summary.readings}
        again.update(view.ruling_page(r) for r in rulings if r in view.game.catalogue)
        again.update(view.entity_page(e) for e in summary.entities if e in view.entity_slugs)
        again.update(view.pair_page(a, b) for a, b in summary.meetings if view.graph.has_edge(a, b))
    return again
