"""What search reads of a page: the part of its HTML it indexes, and its entries, made by the search plugin's
own parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from material.plugins.search.plugin import Parser, SearchIndex

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

    meta: Mapping[str, Any]

    @property
    def title(self) -> Any:
        return self.meta.get("heading", self.meta.get("title"))


def search_entries(meta: Mapping[str, Any], toc: Any, page_url: str, html_text: str) -> list[dict[str, Any]]:
    """The search plugin's entries for a page at ``page_url``, its sections split and read by the plugin's own parser."""
    index = SearchIndex()
    parser = Parser()
    parser.feed(html_text)
    parser.close()
    for section in parser.data:
        if not section.is_excluded():
            index.create_entry_for_section(section, toc, page_url, _Indexed({**meta, "title": _Indexed(meta).title}))
    entries: list[dict[str, Any]] = index.entries
    return entries
