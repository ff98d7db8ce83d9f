"""A generated page as written (:class:`WrittenPage`), as kept compressed (:class:`PackedPage`), and what
MkDocs reads of it besides its HTML (:class:`Read`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any, Iterable

from mkdocs.structure.toc import get_toc

from checker.site.pages.kit import TocTokens, esc, toc_tokens, url, with_heading_ids
from checker.site.pages.search import search_entries, searchable


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

    headings: TocTokens  # :func:`toc_tokens`
    anchors: frozenset[str]
    search: list[dict[str, Any]] | None  # :func:`search_entries` (None: not made)

    @classmethod
    def of(cls, page: WrittenPage, source: str) -> Read:
        """What MkDocs reads of ``page`` at ``source``; no search entries for a page search leaves out."""
        headings = toc_tokens(page.html)
        search = (search_entries(page.meta, get_toc(headings), url(source), searchable(page.html, page.summary_only))
                  if page.searched else None)
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
    summary_only: bool = False, searched: bool = True, chip: str = "",
) -> WrittenPage:
    """A page: the escaped title in the meta block, the body as one raw HTML block.

    A page of a game is titled with the game too (browser tabs, search results) while its
    heading, and the title search matches, stay the short title; ``tags`` (the kind of page) become search
    tags (the kinds only: search ranks a tag's words above all, and a game's title has common words), so a reader
    can narrow a search to one kind of page; ``search_boost``
    ranks the page above (> 1) or below (< 1) others that match as well. ``summary_only``: the
    page is one of many (a ruling, a scenario, an entity, a pair), which search finds by its title
    and summary. ``chip``: an id shown small beside the heading (a ruling's), which the tab's title and search
    also match.
    """
    lines = [line for line in body if line]
    named = f"{title} ({chip})" if chip else title
    meta: dict[str, Any] = {"title": esc(f"{named} · {game}" if game and game not in title else named)}
    heading = ""
    if game:
        badge = f' <code class="rk-id-chip">{esc(chip)}</code>' if chip else ""
        heading = f"<h1>{esc(title)}{badge}</h1>\n"
        meta["heading"] = esc(named)  # what search matches and shows: the game's own title would match its every word
        meta["tags"] = [esc(tag) for tag in tags]
    if search_boost != 1:
        meta["search"] = {"boost": search_boost}
    content = with_heading_ids("\n".join(lines))
    return WrittenPage(meta, f"<div class=\"rk-page\">\n{heading}{content}\n</div>\n", summary_only, searched)


Pages = dict[str, "WrittenPage | PackedPage | str"]


def packed(pages: Pages, *, read: bool = False) -> Pages:
    """The pages, each kept compressed until MkDocs reads it (a site at scale holds hundreds of MiB of HTML); with
    ``read``, what MkDocs reads of each made now too (where pages are made on every core)."""
    return {source: PackedPage.of(page, source if read else None) if isinstance(page, WrittenPage) else page
            for source, page in pages.items()}
