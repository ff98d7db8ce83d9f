"""A game's glossary: each rule concept (a mechanic) with its definition, in the source's own words where the source
has a glossary (its glossary rulings, "Term : definition"), else the game's list of mechanics; and running text with
each term it names marked, so that its definition shows on hover or focus (the theme's tooltips)."""

from __future__ import annotations

import functools
import re
from typing import Mapping

from checker.engine.catalogue import Ruling
from checker.engine.game import AnyGame
from checker.site.model import GameView
from checker.site.pages.kit import esc, plain

#: A glossary ruling's quote: the term, a colon set apart by spaces, its definition.
GLOSSARY_QUOTE = re.compile(r"^\s*(?P<term>[^:\n]{1,60}?)\s+:\s+(?P<definition>\S.*)$", re.S)


def glossary(view: GameView) -> dict[str, str]:
    """Each term of the game's glossary and its definition."""
    return _glossary(view.game)


@functools.lru_cache(maxsize=16)
def _glossary(game: AnyGame) -> dict[str, str]:
    """Made once per game, not per view: it depends on the game alone, and a scenario's page is written with a view
    of that scenario alone (:mod:`checker.site.played`)."""
    kept: dict[str, str] = {}
    for name, entry in game.data.mechanics.items():
        what = entry.get("what") if isinstance(entry, Mapping) else None
        if isinstance(what, str) and what.strip():
            kept[str(name)] = what.strip()
    for ruling in game.catalogue.rulings:
        found = GLOSSARY_QUOTE.match(plain(ruling.quote)) if ".glossary." in ruling.id else None
        if found:
            same = [name for name in kept if name.lower() == found["term"].lower()]
            kept[same[0] if same else found["term"]] = " ".join(found["definition"].split())
    return kept


def glossary_ruling(view: GameView, term: str) -> Ruling | None:
    """The source's glossary entry for ``term``, if it has one."""
    for ruling in view.game.catalogue.rulings:
        found = GLOSSARY_QUOTE.match(plain(ruling.quote)) if ".glossary." in ruling.id else None
        if found and found["term"].lower() == term.lower():
            return ruling
    return None


@functools.lru_cache(maxsize=16)
def _terms(game: AnyGame) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The pattern of the game's glossary terms and each term's definition by its lower-case name, once per game."""
    terms = _glossary(game)
    if not terms:
        return None
    names = sorted(terms, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(name) for name in names) + r")(?![\w-])", re.I)
    return pattern, {name.lower(): definition for name, definition in terms.items()}


def glossed(view: GameView, text: str) -> str:
    """``text`` (plain) as HTML, the first mention of each glossary term marked with its definition."""
    marking = _terms(view.game)
    if marking is None:
        return esc(text)
    terms, definitions = marking
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
