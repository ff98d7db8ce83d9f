"""A game's glossary: each rule concept (a mechanic) with its definition, in the source's own words where the source
has a glossary (its glossary rulings, "Term : definition"), else the game's list of mechanics; and running text with
each term it names marked, so that its definition shows on hover or focus (the theme's tooltips)."""

from __future__ import annotations

import re
from typing import Mapping

from checker.engine.catalogue import Ruling
from checker.site.model import GameView
from checker.site.pages.kit import esc, plain

#: A glossary ruling's quote: the term, a colon set apart by spaces, its definition.
GLOSSARY_QUOTE = re.compile(r"^\s*(?P<term>[^:\n]{1,60}?)\s+:\s+(?P<definition>\S.*)$", re.S)


def glossary(view: GameView) -> dict[str, str]:
    """Each term of the game's glossary and its definition."""
    kept: dict[str, str] | None = view.memo.get("glossary")
    if kept is None:
        kept = {}
        for name, entry in view.game.data.mechanics.items():
            what = entry.get("what") if isinstance(entry, Mapping) else None
            if isinstance(what, str) and what.strip():
                kept[str(name)] = what.strip()
        for ruling in view.game.catalogue.rulings:
            found = GLOSSARY_QUOTE.match(plain(ruling.quote)) if ".glossary." in ruling.id else None
            if found:
                same = [name for name in kept if name.lower() == found["term"].lower()]
                kept[same[0] if same else found["term"]] = " ".join(found["definition"].split())
        view.memo["glossary"] = kept
    return kept


def glossary_ruling(view: GameView, term: str) -> Ruling | None:
    """The source's glossary entry for ``term``, if it has one."""
    for ruling in view.game.catalogue.rulings:
        found = GLOSSARY_QUOTE.match(plain(ruling.quote)) if ".glossary." in ruling.id else None
        if found and found["term"].lower() == term.lower():
            return ruling
    return None


def _terms(view: GameView) -> re.Pattern[str] | None:
    kept: re.Pattern[str] | None = view.memo.get("glossary terms")
    if kept is None and glossary(view):
        names = sorted(glossary(view), key=len, reverse=True)
        kept = view.memo["glossary terms"] = re.compile(
            r"(?<![\w-])(" + "|".join(re.escape(name) for name in names) + r")(?![\w-])", re.I)
    return kept


def glossed(view: GameView, text: str) -> str:
    """``text`` (plain) as HTML, the first mention of each glossary term marked with its definition."""
    terms = _terms(view)
    if terms is None:
        return esc(text)
    definitions = {name.lower(): definition for name, definition in glossary(view).items()}
    parts: list[str] = []
    done: set[str] = set()
    last = 0
    for found in terms.finditer(text):
        key = found[1].lower()
        if key in done:
            continue
        done.add(key)
        parts.append(esc(text[last:found.start()]))
        parts.append(f'<abbr title="{esc(definitions[key])}" tabindex="0">{esc(found[1])}</abbr>')
        last = found.end()
    parts.append(esc(text[last:]))
    return "".join(parts)
