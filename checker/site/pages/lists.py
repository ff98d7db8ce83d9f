"""Lists that grow with the corpus: a page shows their first items and links to the full list, written on
pages of its own under ``<game>/lists/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from checker.site.model import GameView, page
from checker.site.pages.kit import a, default_readings_note, plural, verdict
from checker.site.pages.written import Pages, markdown_page, packed
from checker.commands.summary import Shown

CAPPED = 40  # items of a list that grows with the corpus shown on a page; the rest on its full list
LISTED = 500  # items on each page of a full list, at the most
#: HTML of the items on each page of a full list, at the most: with the page's frame (about 15 KB), no page of a list
#: reaches 300 KB, however long its items (a pair's meetings, each with its answer, weigh a kilobyte each).
LIST_PAGE_BYTES = 200_000


@dataclass(frozen=True)
class Listing:
    """A list that grows with the corpus (a game's scenarios, a ruling's, an entity's, a pair's, the disputes):
    a page shows its first :data:`CAPPED` items and links to the full list, pages of ``per_page`` items under
    ``<game>/lists/``. ``item(here, x)`` is the HTML of an item on the page ``here``."""

    name: str  # unique in the game, a safe page path part
    title: str
    back: str  # the page the list belongs to
    items: Sequence[Any]
    item: Callable[[str, Any], str]
    ends: tuple[str, str] = ("<ul>", "</ul>")
    separator: str = ""
    per_page: int = LISTED
    shown: int = CAPPED  # items a page shows before the link to the full list

    def source(self, view: GameView, number: int = 1) -> str:
        return page(view.id, "lists", self.name if number == 1 else f"{self.name}-{number}")


def capped(view: GameView, here: str, listing: Listing, *, skip: int = 0, full: Listing | None = None) -> str:
    """The list's items from ``skip`` on, at most ``listing.shown`` of them, then a link to the full list (``full``,
    by default this one) when some are left out; the full list is then written (:func:`list_pages`)."""
    items, more = capped_parts(view, here, listing, skip=skip, full=full)
    return listing.ends[0] + items + listing.ends[1] + more


def capped_parts(view: GameView, here: str, listing: Listing, *, skip: int = 0, full: Listing | None = None) -> tuple[str, str]:
    """What :func:`capped` shows: the items, and what follows the list (nothing when every item is shown)."""
    shown = listing.items[skip:skip + listing.shown]
    items = listing.separator.join(listing.item(here, x) for x in shown)
    if len(listing.items) <= skip + listing.shown:
        return items, ""
    full = full or listing
    view.memo.setdefault("lists", {})[full.name] = full
    return items, (f'<p class="rk-more">{len(shown)} of {len(listing.items) - skip} shown: '
                   f"{a(here, full.source(view), f'all {len(full.items)}')}.</p>")


def list_pages(view: GameView) -> Pages:
    """The full lists the game's pages link to, each in pages of ``per_page`` items (written once per view)."""
    written: dict[str, Pages] = view.memo.setdefault("list pages", {})
    pages: Pages = {}
    for name, listing in sorted(view.memo.get("lists", {}).items()):
        if name not in written:
            written[name] = packed(listing_pages(view, listing))
        pages.update(written[name])
    return pages


def listing_pages(view: GameView, listing: Listing) -> Pages:
    """The full list, in pages of at most ``listing.per_page`` items and :data:`LIST_PAGE_BYTES` of their HTML."""
    pages: Pages = {}
    # The pages of a list are siblings (<game>/lists/<name>[-<n>]/): an item's links read the same from each.
    items = [listing.item(listing.source(view), x) for x in listing.items]
    chunks = _chunks(items, listing.per_page)
    count = len(chunks)
    for number, chunk in enumerate(chunks, start=1):
        here = listing.source(view, number)
        turns = " ".join(f"<b>{n}</b>" if n == number else a(here, listing.source(view, n), n) for n in range(1, count + 1))
        body = [
            f"<p>{a(here, listing.back, 'Back')} · {plural(len(listing.items), 'scenario')}"
            + (f"; page {number} of {count}: {turns}" if count > 1 else "") + "</p>",
            listing.ends[0] + listing.separator.join(chunk) + listing.ends[1],
        ]
        title = listing.title + (f" ({number} of {count})" if count > 1 else "")
        pages[here] = markdown_page(title, body, game=view.game.title, tags=("list",), searched=False)
    return pages


def _chunks(items: list[str], most: int) -> list[list[str]]:
    """``items`` in runs of at most ``most`` items and :data:`LIST_PAGE_BYTES` of HTML (one item at the least)."""
    chunks: list[list[str]] = []
    size = 0
    for item in items:
        weight = len(item.encode("utf-8"))
        if not chunks or len(chunks[-1]) >= most or size + weight > LIST_PAGE_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(item)
        size += weight
    return chunks


def scenario_list(view: GameView, here: str, name: str, title: str, results: list[Shown]) -> str:
    """Scenarios, each with its verdict, capped (the full list is named ``name``).

    A scenario is on the full lists of each ruling and entity it shows: its item there is written once per game
    (the pages of every full list are siblings, so its links read the same from each)."""
    on_full_lists: dict[str, str] = view.memo.setdefault("scenario items", {})  # by scenario id

    def item(at: str, r: Shown) -> str:
        if at.rsplit("/", 1)[0] != f"{view.id}/lists":
            return _scenario_item(view, at, r)
        if r.id not in on_full_lists:
            on_full_lists[r.id] = _scenario_item(view, at, r)
        return on_full_lists[r.id]

    return capped(view, here, Listing(name, title, here, results, item))


def _scenario_item(view: GameView, at: str, r: Shown) -> str:
    return f"<li>{verdict(r)} {a(at, view.scenario_page(r.id), r.title)}{default_readings_note(view, at, r)}</li>"
