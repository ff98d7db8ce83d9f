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
from checker.site.pages.kit import CODE_SPAN, esc, plain

#: A glossary ruling's quote: the term, a colon set apart by spaces, its definition.
GLOSSARY_QUOTE = re.compile(r"^\s*(?P<term>[^:\n]{1,60}?)\s+:\s+(?P<definition>\S.*)$", re.S)


def glossary(view: GameView) -> dict[str, str]:
    """Each term of the game's glossary, spelt as the source's glossary spells it, and its definition."""
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
            for name in [name for name in kept if name.lower() == found["term"].lower()]:
                del kept[name]
            kept[found["term"]] = " ".join(found["definition"].split())
    return kept


def glossary_ruling(view: GameView, term: str) -> Ruling | None:
    """The source's glossary entry for ``term``, if it has one."""
    for ruling in view.game.catalogue.rulings:
        found = GLOSSARY_QUOTE.match(plain(ruling.quote)) if ".glossary." in ruling.id else None
        if found and found["term"].lower() == term.lower():
            return ruling
    return None


@functools.lru_cache(maxsize=16)
def _terms(game: AnyGame) -> re.Pattern[str] | None:
    """The glossary's terms as whole words, in the case the glossary writes them: a defined term is written so
    ("an Attack"), the same word otherwise ("they attack", "the player") is not the term. Made once per game."""
    terms = _glossary(game)
    if not terms:
        return None
    names = sorted(terms, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(name) for name in names) + r")(?![\w-])")


#: What ends the words before a sentence, a line or an item, where any word is written with a capital.
BEFORE_A_SENTENCE = ".!?:;•·(“\""


def _as_a_term(text: str, found: re.Match[str]) -> bool:
    """Whether the capital of a word found says it is the term: not when it only starts a sentence."""
    term = found[1]
    one_capitalised_word = term[:1].isupper() and term[1:] == term[1:].lower() and " " not in term
    before = text[:found.start()]
    words = before.rstrip()
    starts = not words or words[-1] in BEFORE_A_SENTENCE or "\n" in before[len(words):]
    return not (one_capitalised_word and starts)


def glossed(view: GameView, text: str, marked: set[str] | None = None) -> str:
    """``text`` (plain) as HTML, the first use of each glossary term as the term marked with its definition.

    ``marked``: the terms marked already in the same block (a quote and what goes with it), marked once a block;
    the set is filled with those marked here."""
    terms = _terms(view.game)
    if terms is None:
        return esc(text)
    definitions = _glossary(view.game)
    done = marked if marked is not None else set()
    parts: list[str] = []
    last = 0
    for found in terms.finditer(text):
        if found[1] in done or not _as_a_term(text, found):
            continue
        done.add(found[1])
        parts.append(esc(text[last:found.start()]))
        parts.append(f'<abbr title="{esc(definitions[found[1]])}" tabindex="0">{esc(found[1])}</abbr>')
        last = found.end()
    parts.append(esc(text[last:]))
    return "".join(parts)


def glossed_trace(view: GameView, text: str, marked: set[str] | None = None) -> str:
    """A trace step's text as :func:`checker.site.pages.kit.trace_text` writes it, its glossary terms marked
    outside its `code` spans."""
    done = marked if marked is not None else set()
    pieces = CODE_SPAN.split(text)  # text, code, text, code, ..., text
    return "".join(f"<code>{esc(piece)}</code>" if index % 2 else glossed(view, piece, done)
                   for index, piece in enumerate(pieces))
