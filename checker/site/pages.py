"""The site's pages, written as Markdown files whose bodies are escaped HTML.

Every text taken from a scenario or a catalogue goes through :func:`esc`; links are
relative, computed from page source paths, so the site works from any folder.
"""

from __future__ import annotations

import functools
import hashlib
import html
import itertools
import json
import posixpath
import re
import zlib
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from material.plugins.search.plugin import Parser, SearchIndex
from mkdocs.structure.toc import get_toc

from checker import batch, reference
from checker.catalogue import MUST_BE_COVERED, Ruling
from checker.compare import flatten
from checker.report import LABELS, outcome_text, yaml_text
from checker.runner import RunResult
from checker.scenario import DisputeRuling
from checker.site.graphs import (
    NEIGHBOURS_DRAWN,
    display_names,
    fan_data,
    most_connected,
    network_data,
    open_questions,
    overview,
    procedure_graph,
    ranked_neighbours,
)
from checker.site.model import GameView, SiteModel, page, slug
from checker.site.pairs import (
    card_line,
    connected_pairs,
    definitions,
    entity_label,
    game_template,
    pair_fragment,
    Meeting,
    meetings,
    question,
    unconnected,
    yaml_string,
)
from checker.scenario import Scenario
from checker.site.summary import Shown
from checker.trace import MECHANIC, Entity, TraceStep

OPEN_QUESTIONS_SHOWN = 40
SCALARS: dict[Any, str] = {True: "true", False: "false", None: "null"}
CAPPED = 40  # items of a list that grows with the corpus shown on a page; the rest on its full list
LISTED = 500  # items on each page of a full list
DISPUTES_SHOWN = 10  # open or ruled disputes of a game written out on the disputes page (each with its outcomes)
SIDE_BY_SIDE_SHOWN = 3  # scenarios compared in full per ambiguous ruling on the disputes page
SCENARIO_FILE = "scenario-file"  # the anchor of a scenario page's file, to copy
ENTITY_SEARCH_BOOST = 2.0  # a name searched for finds its own page first,
PAIR_SEARCH_BOOST = 0.5  # then the pages of the pairs it is in
OPEN_QUESTIONS_WRITTEN = 5  # open questions of an entity written out on its page; the rest link to the picker
DEFINITIONS_SHOWN = 3  # distinct scenario definitions of one entity shown on its page



def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def url(source: str) -> str:
    """The directory URL of a page source: 'g/rulings/r.md' -> 'g/rulings/r/', 'index.md' -> ''."""
    stem = source[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return stem + "/"


@functools.lru_cache(maxsize=1 << 16)
def _folders(source: str) -> tuple[str, ...]:
    """The folders of a page's directory URL: 'g/rulings/r.md' -> ('g', 'rulings', 'r')."""
    return tuple(url(source).split("/")[:-1])


def href(here: str, there: str) -> str:
    """The relative link from one page to another (both directory URLs, so no file name is involved)."""
    start, target = _folders(here), _folders(there)
    common = 0
    for mine, theirs in zip(start, target):
        if mine != theirs:
            break
        common += 1
    relative = [".."] * (len(start) - common) + list(target[common:])
    return "/".join(relative) + "/" if relative else "./"


def a(here: str, there: str, text: Any, css: str = "", *, anchor: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    fragment = f"#{anchor}" if anchor else ""
    return f'<a href="{esc(href(here, there) + fragment)}"{klass}>{esc(text)}</a>'


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 interaction', '2 interactions'; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


HEADING = re.compile(r'<h([2-4])(?: id="([^"]+)")?>(.*?)</h\1>', re.S)
TAG = re.compile(r"<[^>]+>")


def with_heading_ids(html_text: str) -> str:
    """Every h2-h4 gets an id (its own if it has one), unique in the page, and a permalink; the plugin
    builds the table of contents from them."""
    taken: dict[str, int] = {}

    def identify(match: re.Match[str]) -> str:
        level, given, inner = match.group(1), match.group(2), match.group(3)
        base = given or slug(html.unescape(TAG.sub("", inner)))
        taken[base] = taken.get(base, 0) + 1
        anchor = base if taken[base] == 1 else f"{base}-{taken[base]}"
        return (f'<h{level} id="{anchor}">{inner}'
                f'<a class="headerlink" href="#{anchor}" title="Permanent link">&para;</a></h{level}>')

    return HEADING.sub(identify, html_text)


IDENTIFIED = re.compile(r'<h([2-4]) id="([^"]+)">(.*?)<a class="headerlink"', re.S)


def toc_tokens(html_text: str) -> list[dict[str, Any]]:
    """The table of contents of a page written by :func:`markdown_page`, as Markdown's toc extension gives it."""
    tokens: list[dict[str, Any]] = []
    open_levels: list[dict[str, Any]] = []
    for level_text, anchor, inner in IDENTIFIED.findall(html_text):
        token = {"level": int(level_text), "id": anchor, "name": TAG.sub("", inner).strip(), "children": []}
        while open_levels and open_levels[-1]["level"] >= token["level"]:
            open_levels.pop()
        (open_levels[-1]["children"] if open_levels else tokens).append(token)
        open_levels.append(token)
    return tokens


@dataclass(frozen=True)
class WrittenPage:
    """A generated page: its front matter (title, search tags and boost) and its body, already HTML."""

    meta: dict[str, Any]
    html: str
    summary_only: bool = False  # search indexes its title and what comes before its first section, no more
    searched: bool = True  # False: search leaves the page out (a full list, whose items have their own pages)

    @property
    def front_matter(self) -> str:
        """The meta block of the page as a Markdown file."""
        front = "".join(f"{key}: {json.dumps(value)}\n" for key, value in self.meta.items())
        return f"---\n{front}---\n\n"

    @property
    def markdown(self) -> str:
        """The page as a Markdown file: the meta block, then the body as one raw HTML block."""
        return self.front_matter + self.html

    @functools.cached_property
    def digest(self) -> str:
        return hashlib.sha1(self.markdown.encode("utf-8")).hexdigest()

    def unpacked(self) -> WrittenPage:
        return self


ANCHOR = re.compile(r'\sid="([^"]+)"')


@dataclass(frozen=True)
class Read:
    """What MkDocs reads of a page besides its HTML: its table of contents, the anchors it has, its search entries."""

    headings: list[dict[str, Any]]  # :func:`toc_tokens`
    anchors: frozenset[str]
    search: list[dict[str, Any]] | None  # :func:`search_entries` (None: not made)

    @classmethod
    def of(cls, page: WrittenPage, source: str) -> Read:
        headings = toc_tokens(page.html)
        search = search_entries(page.meta, get_toc(headings), url(source), searchable(page.html, page.summary_only))
        return cls(headings, frozenset(ANCHOR.findall(page.html)), search)


@dataclass(frozen=True)
class PackedPage:
    """A written page kept compressed until MkDocs reads it."""

    meta: dict[str, Any]
    packed: bytes  # the HTML, UTF-8, zlib
    summary_only: bool
    digest: str
    read: Read | None = None  # what MkDocs reads of it, when made with it
    searched: bool = True

    @classmethod
    def of(cls, page: WrittenPage, source: str | None = None) -> PackedPage:
        """The page packed; with its ``source`` path, what MkDocs reads of it made now too."""
        read = Read.of(page, source) if source is not None else None
        return cls(page.meta, zlib.compress(page.html.encode("utf-8"), 1), page.summary_only, page.digest, read, page.searched)

    def unpacked(self) -> WrittenPage:
        return WrittenPage(self.meta, zlib.decompress(self.packed).decode("utf-8"), self.summary_only, self.searched)


def markdown_page(
    title: str, body: Iterable[str], *, game: str | None = None, tags: tuple[str, ...] = (), search_boost: float = 1,
    summary_only: bool = False, searched: bool = True,
) -> WrittenPage:
    """A page: the escaped title in the meta block, the body as one raw HTML block.

    A page of a game is titled with the game too (browser tabs, search results) while its
    heading stays the short title; ``game`` and ``tags`` (the kind of page) become search
    tags, so a reader can narrow a search to one game or one kind of page; ``search_boost``
    ranks the page above (> 1) or below (< 1) others that match as well. ``summary_only``: the
    page is one of many (a ruling, a scenario, an entity, a pair), which search finds by its title
    and summary.
    """
    lines = [line for line in body if line]
    meta: dict[str, Any] = {"title": esc(f"{title} · {game}" if game and game not in title else title)}
    heading = ""
    if game:
        heading = f"<h1>{esc(title)}</h1>\n"
        meta["tags"] = [esc(tag) for tag in (game, *tags)]
    if search_boost != 1:
        meta["search"] = {"boost": search_boost}
    content = with_heading_ids("\n".join(lines))
    return WrittenPage(meta, f"<div class=\"rk-page\">\n{heading}{content}\n</div>\n", summary_only, searched)


# An element search skips, up to its end tag: no page nests such an element in another of its own tag.
SEARCH_EXCLUDED = re.compile(r"<(div|table|section|p|ul|ol)\b[^>]*\sdata-search-exclude\b[^>]*>.*?</\1>", re.S)


def searchable(html_text: str, summary_only: bool) -> str:
    """The part of a page's HTML that search reads: without the elements marked ``data-search-exclude``
    and, for a page of one item, only up to its first section."""
    if summary_only and "<h2" in html_text:
        html_text = html_text[: html_text.index("<h2")]
    return SEARCH_EXCLUDED.sub("", html_text)


@dataclass(frozen=True)
class _Indexed:
    """What the search plugin reads of a page besides its sections: its meta (title, tags, boost)."""

    meta: dict[str, Any]

    @property
    def title(self) -> Any:
        return self.meta.get("title")


def search_entries(meta: dict[str, Any], toc: Any, page_url: str, html_text: str) -> list[dict[str, Any]]:
    """The search plugin's entries for a page at ``page_url``, its sections split and read by the plugin's own parser."""
    index = SearchIndex()
    parser = Parser()
    parser.feed(html_text)
    parser.close()
    for section in parser.data:
        if not section.is_excluded():
            index.create_entry_for_section(section, toc, page_url, _Indexed(meta))
    return index.entries


def verdict(result: RunResult | Shown) -> str:
    return f'<span class="rk-verdict rk-{result.verdict}">{LABELS[result.verdict]}</span>'


def verdict_tally(results: Iterable[Shown]) -> str:
    """How many results have each verdict, as badges with counts: "PASS × 12 FAIL × 1"."""
    counts = Counter(result.verdict for result in results)
    return " ".join(f'<span class="rk-verdict rk-{v}">{LABELS[v]}</span> × {n}' for v, n in sorted(counts.items()))


def default_readings_note(view: GameView, here: str, result: Shown) -> str:
    """Beside a PASS or an ANSWER that rests on readings nobody chose: which ambiguous rulings, linked."""
    rulings = result.default_readings
    if result.verdict not in ("pass", "question") or not rulings:
        return ""
    links = ", ".join(a(here, view.ruling_page(r), r) for r in rulings)
    return (f' <span class="rk-default-reading">depends on the default reading of '
            f'{plural(len(rulings), "ambiguous ruling")}: {links}</span>')


def verdict_with_readings(view: GameView, here: str, result: Shown) -> str:
    return verdict(result) + default_readings_note(view, here, result)


def status_badge(status: str) -> str:
    return f'<span class="rk-status rk-status-{esc(status)}">{esc(status)}</span>'


def graph_block(data: dict[str, Any], *, name: str, caption: str, legend: str = "", details: str = "") -> str:
    """A graph drawn by rulings.js from ``data``, with its accessible name, its caption and its text alternative.

    The picture is inert until the reader asks to explore it, so a swipe over it scrolls the page.
    """
    payload = json.dumps(data, sort_keys=True).replace("<", "\\u003c")
    caption_id = "rk-graph-" + hashlib.sha1(payload.encode("utf-8")).hexdigest()[:10]
    return (
        f'<figure class="rk-graph-box" data-graph="{esc(data["graph"])}">{legend}'
        f'<div class="rk-graph-frame"><div class="rk-graph rk-graph-{esc(data["graph"])}" role="img" '
        f'aria-label="{esc(name)}" aria-describedby="{caption_id}">'
        f'<script type="application/json" class="rk-graph-data">{payload}</script></div>'
        '<button type="button" class="rk-graph-cover" aria-pressed="false">Tap to explore</button></div>'
        f'<figcaption id="{caption_id}">{caption}</figcaption>{details}</figure>'
    )


def graph_legend(view: GameView, kinds: Iterable[str], *, filters: bool) -> str:
    """The colour and shape of each kind drawn; with ``filters``, a tick box that shows or hides the kind."""
    styles = view.kind_styles
    items = []
    for kind in kinds:
        style = styles[kind]
        marker = _marker(style.shape, style.tone)
        if filters:
            items.append(f'<label class="rk-legend-item"><input type="checkbox" value="{esc(kind)}" checked> {marker} {esc(kind)}</label>')
        else:
            items.append(f'<span class="rk-legend-item">{marker} {esc(kind)}</span>')
    find = (
        '<input type="search" class="rk-graph-find" placeholder="Find an entity…" aria-label="Find an entity in the graph">'
        '<button type="button" class="rk-graph-fit">Show all</button>' if filters else ""
    )
    title = "Kinds shown" if filters else "Kinds"
    return (f'<div class="rk-graph-controls"><fieldset class="rk-graph-kinds"><legend>{title}</legend>{"".join(items)}</fieldset>'
            f'{find}</div>')


_MARKER_POINTS = {
    "diamond": "6,0 12,6 6,12 0,6", "triangle": "6,0 12,12 0,12", "hexagon": "3,0 9,0 12,6 9,12 3,12 0,6",
    "star": "6,0 7.6,4.2 12,4.5 8.6,7.4 9.7,12 6,9.5 2.3,12 3.4,7.4 0,4.5 4.4,4.2",
    "pentagon": "6,0 12,4.5 9.7,12 2.3,12 0,4.5", "octagon": "3.5,0 8.5,0 12,3.5 12,8.5 8.5,12 3.5,12 0,8.5 0,3.5",
}


def _marker(shape: str, tone: int) -> str:
    if shape == "ellipse":
        figure = '<circle cx="6" cy="6" r="6"/>'
    elif shape == "round-rectangle":
        figure = '<rect width="12" height="12" rx="3"/>'
    else:
        figure = f'<polygon points="{_MARKER_POINTS[shape]}"/>'
    return f'<svg class="rk-marker rk-kind-{tone}" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">{figure}</svg>'


def interactions_graph(view: GameView, here: str) -> list[str]:
    """The game's interaction graph, what it leaves out, and the same edges as a table."""
    drawn, alone = overview(view.graph, view.hub_kinds)
    names = display_names(view.graph)

    def link(entity: Entity) -> str:
        return a(here, view.entity_page(entity), names[entity])

    data = network_data(drawn, lambda e: href(here, view.entity_page(e)), view.kind_styles, names)
    kinds = [k for k in view.kind_styles if any(n[0] == k for n in drawn)]
    hubs = [k for k in view.hub_kinds if any(n[0] == k for n in view.graph)]
    caption = [f"{_count(drawn.number_of_nodes(), 'entity', 'entities')} joined by "
               f"{_count(drawn.number_of_edges(), 'interaction')}: two are joined when the engine made them "
               "interact while resolving a scenario. Click or tap a node to open its page."]
    if hubs:
        caption.append(f"Not drawn, because they meet nearly everything: the {esc(', '.join(hubs))} entities "
                       "(each page draws its own interactions).")
    if alone:
        caption.append("Not drawn, because they meet only those or nothing yet: " + ", ".join(link(e) for e in alone) + ".")
    rows = []
    for x, y in sorted((min(p), max(p)) for p in drawn.edges()):
        interaction = drawn.edges[x, y]["interaction"]
        rows.append([link(x), link(y), esc(", ".join(sorted(interaction.kinds))), str(len(interaction.scenarios))])
    details = ("<details><summary>The graph as a table</summary>"
               + table(["entity", "entity", "kind of interaction", "scenarios"], rows) + "</details>")
    name = (f"Interaction graph of {view.game.title}: {_count(drawn.number_of_nodes(), 'entity', 'entities')}, "
            f"{_count(drawn.number_of_edges(), 'interaction')}; the same data is in the table below")
    return [graph_block(data, name=name, caption=" ".join(caption), legend=graph_legend(view, kinds, filters=True),
                        details=details)]


def neighbourhood_graph(view: GameView, here: str, entity: Entity) -> list[str]:
    """An entity and the neighbours it shares most scenarios with; the others listed under the picture."""
    names = display_names(view.graph)
    ranked = ranked_neighbours(view.graph, entity)
    shown, rest = ranked[:NEIGHBOURS_DRAWN], ranked[NEIGHBOURS_DRAWN:]
    if not shown:
        return ["<p>No interaction yet: no scenario makes the engine apply a ruling to it and another entity.</p>"]
    data = fan_data(view.graph, entity, shown, lambda e: href(here, view.entity_page(e)), view.kind_styles, names)
    kinds = [k for k in view.kind_styles if any(n[0] == k for n in [entity, *shown])]
    caption = (f"{esc(names[entity])} and the {_count(len(shown), 'entity', 'entities')} it shares most scenarios with"
               + (f", of {len(ranked)}" if rest else "") + "; the table below lists every interaction.")
    if rest:
        caption += (" Not drawn: " + ", ".join(a(here, view.entity_page(e), names[e]) for e in rest) + ".")
    name = f"Interactions of {names[entity]} with {_count(len(shown), 'entity', 'entities')}; the table below lists them all"
    return [graph_block(data, name=name, caption=caption, legend=graph_legend(view, kinds, filters=False))]


def procedure_block(view: GameView, here: str) -> list[str]:
    """The game's procedure as a flowchart, and the same steps as a table with every ruling linked."""
    procedure = view.game.procedure
    data = procedure_graph(procedure, lambda r: href(here, view.ruling_page(r)))
    rows = []
    for phase, step in procedure.steps():
        notes = [step.when, f"only if {step.condition}" if step.condition else "", "repeats" if step.repeat else ""]
        if step.returns_to:
            notes.append(f"then back to “{procedure.step(step.returns_to).title}”"
                         + (f" while {step.returns_while}" if step.returns_while else ""))
        rows.append([esc(phase.title), esc(step.title), esc("; ".join(filter(None, notes))),
                     ", ".join(a(here, view.ruling_page(r), r) for r in step.rulings)])
    steps = len(rows)
    phases = sum(1 for _ in procedure.all_phases())
    details = ("<details><summary>The procedure as a table</summary>"
               + table(["phase", "step", "when", "rulings"], rows) + "</details>")
    caption = ("Declared once as data; the engine walks these steps in this order. Click or tap a step for its "
               "ruling; a step with several rulings lists them.")
    name = f"Procedure {procedure.title}: {_count(steps, 'step')} in {_count(phases, 'phase')}; the same steps are in the table below"
    return [graph_block(data, name=name, caption=caption, details=details)]


def _count(number: int, singular: str, plural: str = "") -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def code_block(text: str, language: str = "yaml", *, copy: bool = False) -> str:
    copy_button = '<button type="button" class="rk-copy" title="Copy to clipboard">Copy</button>' if copy else ""
    return (
        f'<div class="rk-code" data-search-exclude>{copy_button}'
        f'<pre><code class="language-{language}">{esc(text)}</code></pre></div>'
    )


def table(head: list[str], rows: Iterable[list[str]]) -> str:
    """A table; cells are HTML already escaped by the caller. Search indexes the page's prose, not its tables."""
    start, end = table_ends(head)
    return start + "".join(table_row(row) for row in rows) + end


def table_ends(head: list[str]) -> tuple[str, str]:
    """What comes before a table's rows and after them."""
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    return f'<table class="rk-table" data-search-exclude><thead><tr>{header}</tr></thead><tbody>', "</tbody></table>"


def table_row(row: list[str]) -> str:
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"


# --- Lists that grow with the corpus --------------------------------------------------------------


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
            written[name] = packed(_list_pages(view, listing))
        pages.update(written[name])
    return pages


def _list_pages(view: GameView, listing: Listing) -> Pages:
    pages: Pages = {}
    count = -(-len(listing.items) // listing.per_page)
    for number in range(1, count + 1):
        here = listing.source(view, number)
        chunk = listing.items[(number - 1) * listing.per_page:number * listing.per_page]
        turns = " ".join(f"<b>{n}</b>" if n == number else a(here, listing.source(view, n), n) for n in range(1, count + 1))
        body = [
            f"<p>{a(here, listing.back, 'Back')} · {plural(len(listing.items), 'scenario')}"
            + (f"; page {number} of {count}: {turns}" if count > 1 else "") + "</p>",
            listing.ends[0] + listing.separator.join(listing.item(here, x) for x in chunk) + listing.ends[1],
        ]
        title = listing.title + (f" ({number} of {count})" if count > 1 else "")
        pages[here] = markdown_page(title, body, game=view.game.title, tags=("list",), searched=False)
    return pages


# --- Home -------------------------------------------------------------------------------------


def home(model: SiteModel) -> WrittenPage:
    here = "index.md"
    games = [
        f"<li>{a(here, view.home(), view.game.title)} — {plural(view.counts()['rulings'], 'ruling')}, "
        f"{plural(view.counts()['scenarios'], 'scenario')}</li>"
        for view in model.games.values()
    ]
    example = (
        f"id: my-question\ngame: {' | '.join(model.games)}\ntitle: What happens when ...?\n"
        "rulings: [...]     # the rulings it is about\ninitial: {...}     # the state, in the game's words\n"
        "actions:\n  - {action: ...}\n"
        "expect: {...}      # leave out every expect: to ask a question instead"
    )
    body = [
        "<p>Rulings for card and battle games, turned into scenarios that a rules engine plays. "
        "Every ruling quotes its source document; every scenario shows the engine's verdict and "
        "the step-by-step trace of how it got there, each step citing the ruling it applied.</p>",
        "<h2>Games</h2>",
        f"<ul>{''.join(games)}</ul>",
        f"<p>{a(here, 'coverage.md', 'Coverage')} lists rulings against scenarios and the interactions "
        f"no scenario tests yet; {a(here, 'disputes.md', 'Disputes')} shows ambiguous rulings and "
        "disputed scenarios with their competing outcomes side by side. Each game page answers "
        "<i>what happens when X meets Y</i>: pick two entities.</p>",
        "<p>Search results carry their game and the kind of page as tags: add a game's name or a kind "
        "(<i>entity</i>, <i>ruling</i>, <i>scenario</i>, <i>pair</i>) to the words you search for to narrow them.</p>",
        "<h2>Reading a scenario</h2>",
        "<p>A scenario page shows the initial state, the actions in order, the expected facts next "
        "to the facts the engine computed (only the listed facts are checked), and the trace. "
        "<b>PASS</b> means the engine, following the rules, reaches every expected fact; "
        "<b>FAIL</b> shows which fact differs; <b>ANSWER</b> is a question the engine answered.</p>",
        "<h2>Asking a question or submitting a disputed scenario</h2>",
        "<p>Write one YAML file under <code>scenarios/&lt;game&gt;/</code> "
        f"({a(here, 'scenario-format.md', 'the scenario format')}); your editor autocompletes it "
        "from <code>schema/scenario.schema.json</code>:</p>",
        code_block(example),
        "<p>Then run <code>checker check FILE</code> for the verdict, <code>checker explain FILE</code> "
        "for the full trace, and <code>checker readings FILE</code> to see whether the outcome depends "
        "on how an ambiguous ruling is read. Mark a scenario <code>status: disputed</code> to put it "
        "on the disputes page.</p>",
    ]
    return markdown_page("Rulings checker", body)


# --- Game ---------------------------------------------------------------------------------------


def game_page(view: GameView) -> WrittenPage:
    here = view.home()
    catalogue = view.game.catalogue
    counts = view.counts()
    body = [
        f"<p>Source: <code>{esc(catalogue.document)}</code>. {plural(counts['rulings'], 'ruling')}, "
        f"{plural(counts['scenarios'], 'scenario')}, {counts['passing']} passing, {counts['ambiguous']} ambiguous. "
        f"{a(here, 'coverage.md', 'Coverage')} · {a(here, 'disputes.md', 'Disputes')} · "
        f"{a(here, view.vocabulary_page(), 'What a scenario can say')} · "
        f"{a(here, view.facts_page(), 'Facts it can assert and defaults')}</p>",
        pair_picker(view),
        f"<h2>Procedure: {esc(view.game.procedure.title)}</h2>",
        *procedure_block(view, here),
        "<h2>Interactions</h2>",
        *interactions_graph(view, here),
        "<h2>Rulings by section</h2>",
        f"<p>{a(here, view.rulings_page(), 'Every ruling')}, section by section, with the verdicts of the scenarios "
        "whose trace cites it.</p>",
        "<ul>" + "".join(
            f"<li>{a(here, view.rulings_page(), ' › '.join(section), anchor=anchor)} "
            f"({plural(len(rulings), 'ruling')})</li>"
            for section, anchor, rulings in sections(catalogue.rulings)) + "</ul>",
    ]
    body.append("<h2>Entities</h2>")
    by_kind: dict[str, list[Entity]] = {}
    for entity in sorted(view.graph):
        by_kind.setdefault(entity[0], []).append(entity)
    for kind, entities in sorted(by_kind.items()):
        links = ", ".join(a(here, view.entity_page(e), e[1]) for e in entities)
        body.append(f"<p><b>{esc(kind)}</b>: {links}</p>")
    body.append("<h2>Scenarios</h2>")
    body.append(capped(view, here, Listing(
        "scenarios", "Scenarios", here, view.results, ends=table_ends(["scenario", "verdict", "status"]),
        item=lambda at, r: table_row([a(at, view.scenario_page(r.id), r.title), verdict_with_readings(view, at, r),
                                      status_badge(r.status)]))))
    return markdown_page(view.game.title, body, game=view.game.title, tags=("game",))


def sections(rulings: Iterable[Ruling]) -> list[tuple[tuple[str, ...], str, list[Ruling]]]:
    """The catalogue's rulings in runs of one section, each with the anchor of its heading on the rulings page."""
    runs: list[tuple[tuple[str, ...], str, list[Ruling]]] = []
    taken: set[str] = set()
    for section, members in itertools.groupby(rulings, key=lambda ruling: ruling.section):
        base = anchor = slug(" ".join(section)) or "section"
        repeat = 1
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        runs.append((section, anchor, list(members)))
    return runs


def rulings_page(view: GameView) -> WrittenPage:
    """Every ruling of the catalogue, section by section: status, quote, and the verdicts of the scenarios citing it."""
    here = view.rulings_page()
    body = [f"<p>{a(here, view.home(), view.game.title)} · source: <code>{esc(view.game.catalogue.document)}</code>.</p>"]
    for section, anchor, rulings in sections(view.game.catalogue.rulings):
        body.append(f'<h2 id="{anchor}">{esc(" › ".join(section))}</h2>')
        rows = []
        for ruling in rulings:
            shown = view.demonstrating(ruling.id)
            rows.append([
                a(here, view.ruling_page(ruling.id), ruling.id),
                status_badge(ruling.status),
                esc(_excerpt(ruling.quote)),
                verdict_tally(shown) or ("—" if ruling.status not in MUST_BE_COVERED else '<span class="rk-missing">none</span>'),
            ])
        body.append(table(["ruling", "status", "quote", "scenarios"], rows))
    return markdown_page("Rulings by section", body, game=view.game.title, tags=("rulings",))


def vocabulary_page(view: GameView) -> WrittenPage:
    """The game's vocabulary, as its rules module registers it: actions, effect kinds, reject reasons."""
    vocabulary = view.game.vocabulary
    body = [
        f"<p>Generated from the registry in the rules module of {a(view.vocabulary_page(), view.home(), view.game.title)}: "
        "the same entries build the scenario schema and dispatch the engine.</p>",
        "<h2>Actions</h2>",
        table(["action", "what it does", "parameters"], (
            [f"<code>{esc(entry.name)}</code>", esc(entry.description), _parameters(entry.params, entry.required)]
            for entry in vocabulary.actions
        )),
    ]
    for family, registry in vocabulary.effects.items():
        body.append(f"<h2>Effect kinds (<code>{esc(family)}</code>)</h2>")
        body.append(table(["kind", "what it does", "parameters"], (
            [f"<code>{esc(entry.name)}</code>", esc(entry.description), _parameters(entry.params, entry.required)]
            for entry in registry
        )))
    body.append("<h2>Reject reasons</h2>")
    body.append(table(["reason", "what it means"], (
        [f"<code>{esc(name)}</code>", esc(text)] for name, text in vocabulary.reject_reasons.items()
    )))
    return markdown_page("What a scenario can say", body, game=view.game.title, tags=("vocabulary",))


def facts_page(view: GameView) -> WrittenPage:
    """Every fact of the game's outcome schema and every default of its state schema (:mod:`checker.reference`)."""
    here = view.facts_page()
    inherited = reference.defaults(view.game)
    body = [
        f"<p>Generated from the schema of {a(here, view.home(), view.game.title)}: the facts are its "
        "<code>outcome</code>, the defaults its <code>state</code>. "
        f"<code>{esc(reference.ANY_KEY)}</code> stands for a key the scenario chooses (a side, a name, a number), "
        f"<code>{esc(reference.EACH_ITEM)}</code> for each record of a list. Under <code>expect:</code> only the facts "
        f"written are compared; {a(here, view.vocabulary_page(), 'what a scenario can say')} lists the actions.</p>",
        "<h2>Facts a scenario can assert</h2>",
        table(["fact", "value", "what it is"], (
            [f"<code>{esc(fact.path)}</code>", esc(fact.kind), esc(fact.description)] for fact in reference.facts(view.game)
        )),
        "<h2>Defaults of the initial state</h2>",
        "<p>What the game assumes for a key the initial state leaves out.</p>" if inherited
        else "<p>None: the initial state spells out every key.</p>",
    ]
    if inherited:
        body.append(table(["key", "when left out", "what it is"], (
            [f"<code>{esc(d.path)}</code>", f"<code>{esc(reference.default_value(d))}</code>" if d.has_value else "see the description",
             esc(d.description)]
            for d in inherited
        )))
    return markdown_page("Facts and defaults", body, game=view.game.title, tags=("facts",))


def _parameters(params: dict[str, Any] | Any, required: tuple[str, ...]) -> str:
    if not params:
        return "—"
    return ", ".join(f"<code>{esc(name)}</code>" + (" (required)" if name in required else "") for name in params)


def _excerpt(text: str, limit: int = 140) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- Ruling ---------------------------------------------------------------------------------------


def ruling_page(view: GameView, ruling: Ruling) -> WrittenPage:
    here = view.ruling_page(ruling.id)
    catalogue = view.game.catalogue
    body = [
        f"<p>{a(here, view.home(), view.game.title)} › {esc(' › '.join(ruling.section))} "
        f"(<code>{esc(catalogue.document)}</code>, line {ruling.line}) · {status_badge(ruling.status)}</p>",
        f'<blockquote class="rk-quote">{esc(ruling.quote)}</blockquote>',
    ]
    if ruling.summary:
        body.append(f"<p>{esc(ruling.summary)}</p>")
    if ruling.reason:
        body.append(f"<p>Not testable: {esc(ruling.reason)}</p>")
    if ruling.readings:
        body.append("<h2>Readings</h2>")
        body.append(table(["reading", "what it says", ""], (
            [f"<code>{esc(r.name)}</code>", esc(r.description), "engine default" if r.default else ""]
            for r in ruling.readings
        )))
        depending = _depending_listing(view, ruling)
        body.append(capped(view, here, depending) if depending.items
                    else "<p>Scenarios whose outcome depends on the reading: none yet</p>")
    shown = view.demonstrating(ruling.id)
    body.append("<h2>Applied in the trace</h2>")
    body.append("<p>Scenarios whose run the engine explains by this ruling.</p>")
    body.append(_scenario_list(view, here, f"ruling-{ruling.id}", f"Scenarios applying {ruling.id}", shown)
                if shown else "<p>None.</p>")
    declared = view.declared_only(ruling.id)
    if declared:
        body.append("<h2>Declared by the author only</h2>")
        body.append("<p>These scenarios list the ruling, but the engine's trace does not cite it: "
                    "they do not count as demonstrating it.</p>")
        body.append(_scenario_list(view, here, f"ruling-{ruling.id}-declared", f"Scenarios declaring {ruling.id} only", declared))
    related = [*ruling.example_of, *ruling.related]
    related += [r.id for r in catalogue.rulings if ruling.id in r.example_of + r.related and r.id not in related]
    if related:
        body.append("<h2>Related rulings</h2>")
        body.append("<ul>" + "".join(
            f"<li>{a(here, view.ruling_page(r), r)} — {esc(_excerpt(catalogue[r].quote, 100))}</li>" for r in related
        ) + "</ul>")
    entities = sorted(e for e in view.graph if ruling.id in view.graph.nodes[e].get("rulings", ()))
    if entities:
        body.append("<h2>Entities it concerns</h2>")
        body.append("<p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in entities) + "</p>")
    return markdown_page(f"{ruling.id}: {_excerpt(ruling.quote, 70)}", body, game=view.game.title, tags=("ruling",),
                         summary_only=True)


def _scenario_list(view: GameView, here: str, name: str, title: str, results: list[Shown]) -> str:
    """Scenarios, each with its verdict, capped (the full list is named ``name``)."""
    def item(at: str, r: Shown) -> str:
        return f"<li>{verdict(r)} {a(at, view.scenario_page(r.id), r.title)}{default_readings_note(view, at, r)}</li>"

    return capped(view, here, Listing(name, title, here, results, item))


def _depending_listing(view: GameView, ruling: Ruling, order: Sequence[str] | None = None) -> Listing:
    """The scenarios whose outcome depends on the reading of ``ruling``, as on its page."""
    return Listing(f"ruling-{ruling.id}-depending", f"Scenarios whose outcome depends on {ruling.id}", view.ruling_page(ruling.id),
                   order if order is not None else view.depending_on(ruling.id),
                   lambda at, s: a(at, view.scenario_page(s), s),
                   ends=("<p>Scenarios whose outcome depends on the reading: ", "</p>"), separator=", ")


# --- Scenario -------------------------------------------------------------------------------------


def scenario_page(view: GameView, result: RunResult, shown: Shown, raw_text: str) -> WrittenPage:
    """A scenario's own page, from its full run (``shown`` is its summary)."""
    scenario = result.scenario
    assert scenario is not None
    here = view.scenario_page(scenario.id)
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {verdict_with_readings(view, here, shown)} · {status_badge(scenario.status)}"
        + "".join(f' <span class="rk-tag">{esc(tag)}</span>' for tag in scenario.tags) + "</p>",
        _demonstrates(view, here, shown),
        f"<p>{esc(scenario.notes)}</p>" if scenario.notes else "",
    ]
    if scenario.assumptions:
        body.append("<h2>Assumptions</h2><ul>" + "".join(f"<li>{esc(x)}</li>" for x in scenario.assumptions) + "</ul>")
    if scenario.readings:
        body.append("<p>Pinned readings: " + ", ".join(
            f"{a(here, view.ruling_page(r), r)} = <code>{esc(n)}</code>" for r, n in scenario.readings.items()
        ) + "</p>")
    body.append("<h2>Initial state</h2>")
    body.append(code_block(yaml_text({"initial": scenario.initial} | ({"cards": dict(scenario.cards)} if scenario.cards else {}))))
    body.append("<h2>Actions</h2><ol class=\"rk-actions\">")
    for action in scenario.actions:
        line = f"<li>{esc(action_words(action.data))}"
        if action.reject:
            line += f" — must be refused: <code>{esc(action.reject)}</code>"
        if action.index in result.rejections:
            rejection = result.rejections[action.index]
            line += f' <span class="rk-rejected">refused: {esc(rejection.reason)} — {esc(rejection.message)}</span>'
        body.append(line + "</li>")
    body.append("</ol>")
    body.append("<h2>Expected and computed</h2>")
    if scenario.is_question:
        body.append("<p>This scenario is a question: it expects nothing, and the engine's answer is the outcome below.</p>")
    for checkpoint in result.checkpoints:
        expected = _expectation(scenario, checkpoint.action)
        if expected is None:
            continue
        wrong = {m.field for m in checkpoint.mismatches}
        actual = flatten(checkpoint.observed)
        expected_facts = flatten(expected)
        rows = [
            [fact_cell(field), yaml_cell(expected_facts, field), yaml_cell(actual, field),
             '<span class="rk-verdict rk-fail">differs</span>' if field in wrong else '<span class="rk-verdict rk-pass">=</span>']
            for field in expected_facts
        ]
        body.append(f"<h3>{esc(checkpoint.label)}</h3>")
        body.append(table(["fact", "expected", "engine", ""], rows))
    for label, mismatch in result.mismatches:
        if mismatch.field.startswith("actions["):
            body.append(f'<p class="rk-mismatch">{esc(label)}: {esc(mismatch.render())}</p>')
    if result.error is not None:
        body.append(f'<p class="rk-mismatch">{esc(result.error.render(scenario.path))}</p>')
    if result.crash:
        body.append(f'<p class="rk-mismatch">Engine error: {esc(result.crash)}</p>')
    body.append("<h2>Trace</h2>")
    body.append(_trace(view, here, result))
    if result.readings:
        body.append("<p>Readings used: " + ", ".join(
            f"{a(here, view.ruling_page(r), r)} = <code>{esc(n)}</code>" for r, n in result.readings.items()
        ) + "</p>")
    body.append("<h2>Outcome</h2>")
    body.append(code_block(outcome_text(result.outcome)))
    involved = sorted(e for e in shown.entities if e in view.entity_slugs)
    if involved:
        body.append("<h2>Entities</h2>" + entities_line(view, here, involved))
    if scenario.ruling is not None:
        body.append("<h2>Ruling</h2>")
        body.append(_ruling_made(view, here, scenario.ruling))
    body.append(f'<h2 id="{SCENARIO_FILE}">Scenario file</h2>')
    body.append(code_block(raw_text, copy=True))
    return markdown_page(scenario.title, body, game=view.game.title, tags=("scenario",), summary_only=True)


def entities_line(view: GameView, here: str, involved: list[Entity]) -> str:
    """The entities a scenario's trace names, linked, on its page."""
    return "<p>" + ", ".join(a(here, view.entity_page(e), entity_label(e)) for e in involved) + "</p>"


def _demonstrates(view: GameView, here: str, result: Shown) -> str:
    """The rulings the run demonstrates (its trace cites them), apart from those the author only declares."""
    catalogue = view.game.catalogue
    shown = sorted(result.demonstrated)
    declared = result.uncited
    parts = []
    if shown:
        parts.append("<p>Demonstrates (cited by the engine's trace): "
                     + ", ".join(a(here, view.ruling_page(r), r) for r in shown) + "</p>")
    if declared:
        parts.append("<p>Declared by the author, not cited by the trace (not demonstrated): "
                     + ", ".join(a(here, view.ruling_page(r), r) if r in catalogue else esc(r) for r in declared) + "</p>")
    return "".join(parts)


def action_words(action: Mapping[str, Any]) -> str:
    """An action written out from its data: 'attack — player A, monster Pixie, card Jab, target Golem'."""
    fields = ", ".join(f"{key} {_words(value)}" for key, value in action.items() if key != "action")
    return f"{action['action']} — {fields}" if fields else str(action["action"])


def _words(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {_words(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return " + ".join(_words(item) for item in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _expectation(scenario: Any, action: int | None) -> Any:
    if action is None:
        return scenario.expect
    return scenario.actions[action].expect


def _trace(view: GameView, here: str, result: RunResult) -> str:
    """The trace grouped under what caused it (setup, each action, the end of the scenario), then by phase,
    numbered straight through."""
    actions = result.scenario.actions if isinstance(result.scenario, Scenario) else ()
    numbered = list(enumerate(result.trace, start=1))
    parts: list[str] = []
    for _, group in itertools.groupby(numbered, key=lambda item: (item[1].action, item[1].settling)):
        steps = list(group)
        parts.append(f'<section class="rk-trace-group" data-search-exclude><p class="rk-trace-heading">{esc(_cause(steps[0][1], actions))}</p>')
        for phase, in_phase in itertools.groupby(steps, key=lambda item: item[1].phase):
            lines = list(in_phase)
            if phase:
                parts.append(f'<p class="rk-trace-phase">{esc(phase)}</p>')
            parts.append(f'<ol class="rk-trace" start="{lines[0][0]}">')
            parts.extend(f"<li>{esc(step.text)}{_cite(view, here, step)}</li>" for _, step in lines)
            parts.append("</ol>")
        parts.append("</section>")
    return "".join(parts)


def _cite(view: GameView, here: str, step: TraceStep) -> str:
    return f' <span class="rk-cite">[{a(here, view.ruling_page(step.ruling), step.ruling)}]</span>' if step.ruling else ""


def _cause(step: TraceStep, actions: tuple[Any, ...]) -> str:
    if step.settling:
        return "When the scenario ends: what the last action left pending is finished"
    if step.action is None:
        return "Setup: the initial state is built"
    if step.action < len(actions):
        return f"Action {step.action + 1}: {action_words(actions[step.action].data)}"
    return f"Action {step.action + 1}"


# --- Entity ---------------------------------------------------------------------------------------


def entity_page(view: GameView, entity: Entity) -> WrittenPage:
    here = view.entity_page(entity)
    kind, name = entity
    data = view.graph.nodes[entity]
    described = view.game.describe(kind, name)
    scenario_count = len(data.get("scenarios", ()))
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {esc(kind)}</p>",
        f"<p>{esc(view.kind_description(kind))}, met in {plural(scenario_count, 'scenario')}; "
        f"the engine made it interact with {plural(view.graph.degree(entity), 'other entity', 'other entities')}.</p>",
    ]
    body.append(_definition(view, here, entity))
    body.append("<h2>Interactions</h2>")
    body.extend(neighbourhood_graph(view, here, entity))
    rows = []
    for other in sorted(view.graph.neighbors(entity)):
        interaction = view.graph.edges[entity, other]["interaction"]
        rows.append([
            a(here, view.entity_page(other), entity_label(other)),
            esc(", ".join(sorted(interaction.kinds))),
            ", ".join(a(here, view.ruling_page(r), r) for r in sorted(interaction.rulings)),
            a(here, view.pair_page(entity, other), plural(len(interaction.scenarios), "scenario")),
        ])
    body.append(table(["with", "kind", "rulings", "what happens"], rows))
    body.append("<h2>Rulings applied to it</h2><ul>" + "".join(
        f"<li>{a(here, view.ruling_page(r), r)} — {esc(_excerpt(view.game.catalogue[r].quote, 100))}</li>"
        for r in sorted(data.get("rulings", ()))
    ) + "</ul>")
    scenarios = [view.by_id[sid] for sid in sorted(data.get("scenarios", ()))]
    body.append("<h2>Scenarios</h2>")
    body.append(_scenario_list(view, here, f"entity-{view.entity_slugs[entity]}", f"Scenarios of {name} ({kind})", scenarios))
    body.append(_open_questions(view, here, entity))
    return markdown_page(f"{name} ({kind})", body, game=view.game.title, tags=("entity", kind),
                         search_boost=ENTITY_SEARCH_BOOST, summary_only=True)


def _definition(view: GameView, here: str, entity: Entity) -> str:
    """The entity's own text, in words, then as YAML: from the game's catalogue, else from the scenarios' ``cards:``."""
    found = definitions(view, entity)
    if not found:
        return ""
    parts = ["<h2>What it is</h2>"]
    for value, scenario_ids in found[:DEFINITIONS_SHOWN]:
        if scenario_ids:
            parts.append(f"<p>As {plural(len(scenario_ids), 'scenario')} define{'s' if len(scenario_ids) == 1 else ''} it "
                         f"under <code>cards:</code> (" + ", ".join(a(here, view.scenario_page(s), s) for s in scenario_ids[:3])
                         + (f" and {len(scenario_ids) - 3} more" if len(scenario_ids) > 3 else "") + "):</p>")
        else:
            catalogue = "list of mechanics" if entity[0] == MECHANIC else "card catalogue"
            parts.append(f"<p>As the game's {catalogue} defines it:</p>")
        parts.append(_definition_words(value))
        parts.append(f"<details><summary>As YAML</summary>{code_block(yaml_text({entity[1]: value}))}</details>")
    if len(found) > DEFINITIONS_SHOWN:
        parts.append(f"<p>Other scenarios define it in {plural(len(found) - DEFINITIONS_SHOWN, 'other way')}.</p>")
    return "".join(parts)


def _definition_words(value: Any) -> str:
    if not isinstance(value, Mapping):
        return f"<p>{esc(_words(value))}</p>"
    rows = "".join(f"<dt>{esc(str(key).replace('_', ' '))}</dt><dd>{esc(_words(item))}</dd>" for key, item in value.items())
    return f'<dl class="rk-definition">{rows}</dl>'


def _open_questions(view: GameView, here: str, entity: Entity) -> str:
    """The pairs no scenario covers yet, each with a question scenario to copy: written out for the most
    connected, and for the others on the game page's pair picker, which a link opens on that pair."""
    others = unconnected(view, entity)
    if not others:
        return ""
    written = "".join(
        f"<li><details><summary>{esc(entity_label(entity))} × {esc(entity_label(other))}</summary>"
        f"{code_block(question(view, entity, other), copy=True)}</details></li>"
        for other in others[:OPEN_QUESTIONS_WRITTEN]
    )
    linked = ", ".join(
        f'<a href="{esc(href(here, view.home()) + pair_fragment(view, entity, other))}">{esc(entity_label(other))}</a>'
        for other in others[OPEN_QUESTIONS_WRITTEN:]
    )
    return (f"<h2>Open questions</h2><p>No scenario yet makes it interact with these "
            f"{plural(len(others), 'entity', 'entities')} of the kinds that raise questions "
            f"({esc(', '.join(view.question_kinds))}). Each comes with a question scenario to start from: "
            "leave out <code>expect:</code> and the engine answers it.</p>"
            f'<ul class="rk-open-questions">{written}</ul>'
            + (f'<p class="rk-open-linked">With: {linked} (the game page writes the question).</p>' if linked else ""))


# --- Pairs ------------------------------------------------------------------------------------------


def pair_page(view: GameView, first: Entity, second: Entity) -> WrittenPage:
    """Every scenario in which the engine made the two interact: verdict, what it did, the rulings cited."""
    here = view.pair_page(first, second)
    found = meetings(view, first, second)

    def item(at: str, meeting: Meeting) -> str:
        result = meeting.result
        cited = ", ".join(a(at, view.ruling_page(r), r) for r in meeting.rulings)
        return (f"<li>{verdict_with_readings(view, at, result)} {a(at, view.scenario_page(result.id), result.title)}"
                f'<p class="rk-answer" data-search-exclude>{esc(meeting.answer())}</p>'
                + (f'<p class="rk-cite">Rulings cited: {cited}</p>' if cited else "") + "</li>")

    name = f"pair-{view.entity_slugs[first]}--{view.entity_slugs[second]}"
    title = f"{entity_label(first)} meets {entity_label(second)}"
    rulings = sorted({r for meeting in found for r in meeting.rulings})
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · {a(here, view.entity_page(first), entity_label(first))} × "
        f"{a(here, view.entity_page(second), entity_label(second))}</p>",
        f"<p>The engine made them interact in {plural(len(found), 'scenario')}, under "
        f"{plural(len(rulings), 'ruling')}.</p>",
        "<h2>Scenarios</h2>",
        capped(view, here, Listing(name, f"{title}: every scenario", here, found, item, ends=('<ul class="rk-meetings">', "</ul>"))),
        "<h2>Rulings</h2>",
        "<ul data-search-exclude>" + "".join(f"<li>{a(here, view.ruling_page(r), r)} — {esc(_excerpt(view.game.catalogue[r].quote, 100))}</li>"
                         for r in rulings) + "</ul>",
    ]
    return markdown_page(title, body, game=view.game.title, tags=("pair",),
                         search_boost=PAIR_SEARCH_BOOST, summary_only=True)


def pair_picker_data(view: GameView) -> str:
    """What the picker needs (entities, the pairs that have a page, the question template), as JSON.

    URLs are relative to the game page, which fetches it."""
    here = view.home()
    entities = sorted(view.graph)
    index = {entity: number for number, entity in enumerate(entities)}
    data = {
        "entities": [{"label": entity_label(e), "kind": e[0], "name": yaml_string(e[1]), "url": href(here, view.entity_page(e)),
                      "slug": view.entity_slugs[e], "card": card_line(view, e)} for e in entities],
        "pairs": {f"{index[x]}-{index[y]}": href(here, view.pair_page(x, y)) for x, y in connected_pairs(view)},
        "questionKinds": list(view.question_kinds),
        "template": game_template(view),
    }
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def pair_picker(view: GameView) -> str:
    """Two selects on the game page: the pair's page when the engine made them meet, else 'no scenario yet'."""
    entities = sorted(view.graph)
    index = {entity: number for number, entity in enumerate(entities)}
    groups = "".join(
        f'<optgroup label="{esc(kind)}">'
        + "".join(f'<option value="{index[e]}">{esc(e[1])}</option>' for e in members) + "</optgroup>"
        for kind, members in itertools.groupby(sorted(entities, key=lambda e: (e[0], e[1].lower())), key=lambda e: e[0])
    )
    return (
        "<h2>What happens when X meets Y</h2>"
        "<p>Pick two entities: you get every scenario in which the engine made them interact, or, when none does yet, "
        "a question scenario to start from.</p>"
        f'<form class="rk-pairs" action="#" data-pairs="{esc(posixpath.relpath(view.pairs_data(), posixpath.dirname(view.home())))}">'
        f'<label>First <select class="rk-pair-a" name="a"><option value="">choose…</option>{groups}</select></label> '
        f'<label>Second <select class="rk-pair-b" name="b"><option value="">choose…</option>{groups}</select></label> '
        '<button type="submit" class="rk-pair-go">What happens?</button>'
        '<div class="rk-pair-answer" role="status" aria-live="polite"></div>'
        "</form>"
    )


# --- Coverage and disputes ------------------------------------------------------------------------


def coverage_page(model: SiteModel) -> WrittenPage:
    here = "coverage.md"
    body: list[str] = []
    for view in model.games.values():
        catalogue = view.game.catalogue
        body.append(f"<h2>{a(here, view.home(), view.game.title)}</h2>")
        rows = []
        for ruling in catalogue.rulings:
            passing = [r for r in view.demonstrating(ruling.id) if r.verdict == "pass"]
            needed = ruling.status in MUST_BE_COVERED
            state = "covered" if passing else ("uncovered" if needed else ruling.status)
            rows.append([a(here, view.ruling_page(ruling.id), ruling.id), status_badge(ruling.status),
                         str(len(passing)), f'<span class="rk-cover rk-cover-{state}">{esc(state)}</span>'])
        uncovered = [r[0] for r in rows if "rk-cover-uncovered" in r[3]]
        body.append(f"<p>{plural(len(rows), 'ruling')}; {len(uncovered)} of those that need a passing scenario have none"
                    + (": " + ", ".join(uncovered) if uncovered else ".") + "</p>")
        body.append(table(["ruling", "status", "passing scenarios", "coverage"], rows))
        disputed = Listing("disputed", "Disputed scenarios", here, [r for r in view.results if r.status == "disputed"],
                           lambda at, r: f"<li>{a(at, view.scenario_page(r.id), r.id)} (disputed)</li>")
        items, more = capped_parts(view, here, disputed)
        body.append("<h3>Ambiguous rulings and disputed scenarios</h3><ul>"
                    + "".join(f"<li>{a(here, view.ruling_page(r.id), r.id)} (ambiguous)</li>" for r in catalogue.with_status("ambiguous"))
                    + items + "</ul>" + more)
        body.append("<h3>Most connected entities</h3><ol>" + "".join(
            f"<li>{a(here, view.entity_page(e), entity_label(e))} — {plural(d, 'interaction')}</li>"
            for e, d in most_connected(view.graph)
        ) + "</ol>")
        questions = open_questions(view.graph, view.question_kinds)
        body.append(f"<h3>Open questions</h3><p>{plural(len(questions), 'pair')} of {esc(', '.join(view.question_kinds))} that no "
                    f"scenario makes interact. The {min(len(questions), OPEN_QUESTIONS_SHOWN)} between the most "
                    "connected entities:</p><ul>" + "".join(
                        f"<li>{a(here, view.entity_page(x), entity_label(x))} × {a(here, view.entity_page(y), entity_label(y))}</li>"
                        for x, y in questions[:OPEN_QUESTIONS_SHOWN]) + "</ul>")
    if model.invalid:
        body.append("<h2>Invalid scenario files</h2><ul>" + "".join(
            f"<li><code>{esc(r.error.render(r.path) if r.error else r.path)}</code></li>" for r in model.invalid
        ) + "</ul>")
    return markdown_page("Coverage", body)


def disputes_page(model: SiteModel) -> WrittenPage:
    here = "disputes.md"
    body: list[str] = [
        "<p>Open disputes are scenarios marked <code>status: disputed</code> that no ruling has settled: each shows "
        "what every reading of the ambiguous rulings it reads gives, and the file to copy. Ruled disputes carry "
        "their <code>ruling:</code>. Ambiguous rulings follow, with the scenarios whose outcome depends on them.</p>",
    ]
    for view in model.games.values():
        body.append(f"<h2>{a(here, view.home(), view.game.title)}</h2>")
        disputed = [r for r in view.results if r.status == "disputed"]
        opened = [r for r in disputed if r.ruling is None]
        ruled = [r for r in disputed if r.ruling is not None]
        body.append(f'<h3 id="{esc(view.id)}-open">Open disputes</h3>')
        body.append(capped(view, here, Listing("open-disputes", "Open disputes", here, opened, functools.partial(_open_dispute, view),
                                               ends=("", ""), separator="\n", per_page=CAPPED, shown=DISPUTES_SHOWN)) if opened else "<p>None.</p>")
        body.append(f'<h3 id="{esc(view.id)}-ruled">Ruled disputes</h3>')
        body.append(capped(view, here, Listing("ruled-disputes", "Ruled disputes", here, ruled, functools.partial(_ruled_dispute, view),
                                               ends=("", ""), separator="\n", per_page=CAPPED, shown=DISPUTES_SHOWN)) if ruled else "<p>None yet.</p>")
        body.append(f'<h3 id="{esc(view.id)}-ambiguous">Ambiguous rulings</h3>')
        for ruling in view.game.catalogue.with_status("ambiguous"):
            body.append(f"<h4>{a(here, view.ruling_page(ruling.id), ruling.id)}</h4>")
            body.append(f'<blockquote class="rk-quote">{esc(ruling.quote)}</blockquote>')
            if ruling.summary:
                body.append(f"<p>{esc(ruling.summary)}</p>")
            depending = view.depending_on(ruling.id)
            written_for = {r.id for r in view.demonstrating(ruling.id)}
            depending.sort(key=lambda sid: (sid not in written_for, sid))
            for scenario_id in depending[:SIDE_BY_SIDE_SHOWN]:
                body.append(f"<p>{a(here, view.scenario_page(scenario_id), scenario_id)}</p>")
                body.append(_side_by_side(view, scenario_id, ruling))
            if len(depending) > SIDE_BY_SIDE_SHOWN:
                also = replace(_depending_listing(view, ruling, depending), ends=("<p>The outcome also depends on it in: ", "</p>"))
                body.append(capped(view, here, also, skip=SIDE_BY_SIDE_SHOWN, full=_depending_listing(view, ruling)))
            if not depending:
                body.append("<p>No scenario yet shows the readings giving different outcomes.</p>")
    return markdown_page("Disputes", body)


def _dispute_heading(view: GameView, here: str, result: Shown) -> str:
    return f"<h4>{a(here, view.scenario_page(result.id), result.title)}</h4>"


def _open_dispute(view: GameView, here: str, result: Shown) -> str:
    """What every reading of each ambiguous ruling the scenario's run reads gives, and the file to copy."""
    file_link = f'<a href="{esc(href(here, view.scenario_page(result.id)) + "#" + SCENARIO_FILE)}">the scenario file to copy</a>'
    parts = [
        f'<div class="rk-dispute rk-dispute-open">{_dispute_heading(view, here, result)}',
        f"<p>{verdict(result)} <code>{esc(result.id)}</code> · {file_link}</p>",
    ]
    for ruling_id in result.readings:
        ruling = view.game.catalogue[ruling_id]
        same = ruling_id not in result.depends
        parts.append(f"<p>Under each reading of {a(here, view.ruling_page(ruling_id), ruling_id)}"
                     + (" (the same outcome under every one):" if same else ":") + "</p>")
        parts.append(_side_by_side(view, result.id, ruling))
    if not result.readings:
        parts.append("<p>Its run reads no ambiguous ruling of the catalogue: the engine gives one answer.</p>")
    return "".join(parts) + "</div>"


def _ruled_dispute(view: GameView, here: str, result: Shown) -> str:
    assert result.ruling is not None
    return (f'<div class="rk-dispute rk-dispute-ruled">{_dispute_heading(view, here, result)}'
            + _ruling_made(view, here, result.ruling) + "</div>")


def _ruling_made(view: GameView, here: str, ruling: DisputeRuling) -> str:
    """The ruling made on a dispute: what was adopted, the reasoning, the date and who ruled."""
    if ruling.readings:
        adopted = ", ".join(f"{a(here, view.ruling_page(r), r)} = <code>{esc(name)}</code>" for r, name in ruling.readings.items())
    else:
        adopted = esc(ruling.outcome)
    by = f" by {esc(ruling.by)}" if ruling.by else ""
    return (f'<p class="rk-adopted">Adopted: {adopted}</p>'
            f'<blockquote class="rk-reasoning">{esc(ruling.reasoning)}</blockquote>'
            f'<p class="rk-ruled-on">Ruled on <time datetime="{ruling.date.isoformat()}">{ruling.date.isoformat()}</time>{by}.</p>')


def _side_by_side(view: GameView, scenario_id: str, ruling: Ruling) -> str:
    """The scenario's outcome under each reading of ``ruling``, every other reading as in the scenario."""
    compared = view.by_id[scenario_id].compared[ruling.id]
    differing = list(compared.facts)
    head = ["fact", *compared.readings]
    rows = [[fact_cell(k), *(_value_cell(there, value) for there, value in values)] for k, values in compared.facts.items()]
    refused = [esc(words) for words in compared.refused]
    rows.append(["<i>refused actions</i>", *refused])
    summary = _difference_summary(differing, len(set(refused)) > 1)
    return f'<p class="rk-difference">{esc(summary)}</p>' + table(head, rows)


def fact_cell(path: str) -> str:
    """A fact's dotted path, kept on one line."""
    return f'<code class="rk-fact">{esc(path)}</code>'


def yaml_cell(facts: Mapping[str, Any], key: str) -> str:
    """A fact's value as YAML (flow style), '—' when it is not there."""
    return _value_cell(key in facts, facts.get(key))


def _value_cell(there: bool, value: Any) -> str:
    if not there:
        return "—"
    if value is None or type(value) is bool:  # as YAML writes them, without its emitter
        return f'<code class="rk-yaml">{SCALARS[value]}</code>'
    if type(value) is int:
        return f'<code class="rk-yaml">{value}</code>'
    text = yaml_text(value, flow_leaves=True).strip()
    text = text[: -len("...")].rstrip() if text.endswith("\n...") else text
    return f'<code class="rk-yaml">{esc(text)}</code>'


def _difference_summary(facts: list[str], refusals_differ: bool) -> str:
    """One line: what the readings change."""
    changes = []
    if facts:
        shown = ", ".join(facts[:3]) + (f" and {len(facts) - 3} more" if len(facts) > 3 else "")
        changes.append(f"{plural(len(facts), 'fact')} ({shown})")
    if refusals_differ:
        changes.append("which actions are refused")
    if not changes:
        return "The readings give the same outcome."
    return "The readings change " + " and ".join(changes) + "."


# --- All pages ------------------------------------------------------------------------------------


Pages = dict[str, "WrittenPage | PackedPage | str"]
OwnPages = Callable[[GameView, Shown], "WrittenPage | PackedPage"]


def all_pages(model: SiteModel, own_page: OwnPages, game_pages: Callable[[GameView], Pages] | None = None,
              jobs: int = 1) -> Pages:
    """Every generated page (and the game pages' JSON data, as text) by source path, packed. ``own_page(view, result)``
    gives a scenario's own page; ``game_pages(view)`` a game's pages (default :func:`pages_of_game`, made on
    ``jobs`` processes)."""
    pages: Pages = packed({"index.md": home(model), "coverage.md": coverage_page(model), "disputes.md": disputes_page(model)})
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
    scenarios' own (made already) made by one of ``jobs`` forked processes with the full lists it links to."""
    makers = {view.id: _page_makers(view, own_page) for view in model.games.values()}
    own = {view.scenario_page(result.id) for view in model.games.values() for result in view.results}
    here = {view.id: dict(view.memo.get("lists", {})) for view in model.games.values()}  # those of the pages made so far

    def make(source: str) -> tuple[WrittenPage | PackedPage | str, dict[str, Pages]]:
        view = model.games[source.split("/", 1)[0]]
        lists: dict[str, Listing] = view.memo.setdefault("lists", {})
        known = set(lists)
        made = makers[view.id][source]()
        return (PackedPage.of(made, source) if isinstance(made, WrittenPage) else made,
                {name: packed(_list_pages(view, lists[name])) for name in lists.keys() - known})

    elsewhere = [source for game in makers.values() for source in game if source not in own]
    made = dict(zip(elsewhere, batch.each(elsewhere, make, jobs)))
    pages: Pages = {}
    full_lists: dict[str, dict[str, Pages]] = {}
    for game, game_makers in makers.items():
        full_lists[game] = {name: packed(_list_pages(model.games[game], listing)) for name, listing in here[game].items()}
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


def packed(pages: Pages) -> Pages:
    """The pages, each kept compressed until MkDocs reads it (a site at scale holds hundreds of MiB of HTML)."""
    return {source: PackedPage.of(page) if isinstance(page, WrittenPage) else page for source, page in pages.items()}


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
    again = {view.home(), view.rulings_page()}
    for summary in (s for pair in changed for s in pair if s is not None):
        again.add(view.scenario_page(summary.id))
        rulings = {*summary.demonstrated, *summary.uncited, *summary.touched, *summary.readings}
        again.update(view.ruling_page(r) for r in rulings if r in view.game.catalogue)
        again.update(view.entity_page(e) for e in summary.entities)
        again.update(view.pair_page(a, b) for a, b in summary.meetings)
    return again
