"""A game's Ask page: set up a situation with the game's own cards, play what the rules allow, and read the engine's
verdict, trace and readings, computed in the reader's browser by the project's own engine (``assets/ask.js``).

The page is written here with what never changes while it is used: its controls, the game's own cards and rule
concepts with what the source says of them, the places of a state that hold cards, and the command lines to use
where the browser cannot run the engine.
"""

from __future__ import annotations

import json
from typing import Any

from checker.commands.reference import ANY_KEY, EACH_ITEM, defaults
from checker.commands.words import in_words
from checker.engine.trace import MECHANIC
from checker.site.model import GameView
from checker.site.pages.kit import a, esc, href
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import definitions

ASK_SCRIPT = "assets/ask.js"
ASK_STYLE = "assets/ask.css"
#: The commands that answer the same questions outside the browser, each with what it gives.
COMMANDS = (
    ("check", "the verdict: PASS or FAIL against the file's expectations, or the answer to a question"),
    ("explain", "the outcome and the full trace, each step with the ruling it applied"),
    ("readings", "what each reading of an ambiguous ruling would give"),
    ("options", "what each player may do after the last action"),
)


def ask_page(view: GameView) -> WrittenPage:
    here = view.ask_page()
    root = href(here, "index.md")
    data = {"game": view.id, "title": view.game.title, "root": root, "entities": _entities(view), "places": _places(view)}
    body = [
        f"<p>{a(here, view.home(), view.game.title)} · Set up a situation with the game's own cards, play what the "
        "rules allow, and read the engine's verdict with the rulings it applied. Everything runs in this browser, "
        "offline: nothing you type leaves this machine.</p>",
        '<p class="rk-ask-status" id="rk-ask-status" role="status">Loading the engine…</p>',
        _unavailable(),
        '<div class="rk-ask" id="rk-ask" hidden>',
        _start_controls(),
        _answer(),
        _actions(),
        _trace(),
        _picker(),
        _editor(),
        "</div>",
        f'<link rel="stylesheet" href="{esc(root + ASK_STYLE)}">',
        f'<script type="application/json" id="rk-ask-data">{_json(data)}</script>',
        f'<script type="module" src="{esc(root + ASK_SCRIPT)}"></script>',
    ]
    return markdown_page("Ask", body, game=view.game.title, tags=("ask",), searched=False)


def _json(data: Any) -> str:
    """JSON safe inside a script element: no '</' or '<!--' can end it or open a comment."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")


def _entities(view: GameView) -> list[dict[str, Any]]:
    """The game's own cards and rule concepts (those with a page), each with what defines it in words and as data."""
    found = []
    for entity, slug in sorted(view.entity_slugs.items()):
        kind, name = entity
        defined = definitions(view, entity)
        value = defined[0][0] if defined else None
        found.append({
            "kind": kind, "name": name, "page": f"entities/{slug}/", "card": kind != MECHANIC,
            "words": in_words(value) if value is not None else "",
            # A card only scenarios define must be defined under cards: when it is put into the state.
            "define": value if defined and defined[0][1] else None,
        })
    return found


def _places(view: GameView) -> list[str]:
    """The lists of the initial state that hold cards by name: those of the state's defaults that start empty."""
    return sorted(default.path for default in defaults(view.game)
                  if default.has_value and default.value == [] and ANY_KEY not in default.path and EACH_ITEM not in default.path)


def _unavailable() -> str:
    commands = "\n".join(f".venv/bin/checker {name} FILE" for name, _ in COMMANDS)
    listed = "".join(f"<li><code>checker {name}</code>: {esc(what)}</li>" for name, what in COMMANDS)
    return (
        '<div class="rk-ask-unavailable" id="rk-ask-unavailable" hidden>'
        '<p id="rk-ask-why"></p>'
        "<p>The same answers come from the command line, on a scenario file saved in the repository:</p>"
        f'<pre class="rk-ask-commands"><code>{esc(commands)}</code></pre><ul>{listed}</ul></div>'
    )


def _start_controls() -> str:
    return (
        '<section class="rk-ask-start" aria-labelledby="rk-ask-start-heading">'
        '<h2 id="rk-ask-start-heading">The situation</h2>'
        '<p id="rk-ask-from"></p>'
        '<div class="rk-ask-buttons">'
        '<button type="button" id="rk-ask-empty">Start from the starting position</button>'
        '<button type="button" id="rk-ask-initial">Back to the initial state</button>'
        '<button type="button" id="rk-ask-undo">Undo last action</button>'
        "</div></section>"
    )


def _picker() -> str:
    return (
        '<section class="rk-ask-picker" aria-labelledby="rk-ask-cards-heading">'
        '<h2 id="rk-ask-cards-heading">Cards and rule concepts</h2>'
        "<p>Find one of the game's own cards or rule concepts, read what the source says of it, and put a card "
        "where the state holds cards.</p>"
        '<div class="rk-ask-fields">'
        '<label for="rk-ask-filter">Name</label><input type="search" id="rk-ask-filter" autocomplete="off" '
        'aria-describedby="rk-ask-filter-count"><span id="rk-ask-filter-count" class="rk-ask-note"></span>'
        '<label for="rk-ask-entity">Card or concept</label><select id="rk-ask-entity" size="6"></select>'
        '<div id="rk-ask-entity-words" class="rk-ask-words" aria-live="polite"></div>'
        '<label for="rk-ask-place">Put it in</label><select id="rk-ask-place"></select>'
        '<button type="button" id="rk-ask-put">Put the card into the state</button>'
        "</div></section>"
    )


def _actions() -> str:
    return (
        '<section class="rk-ask-actions" aria-labelledby="rk-ask-actions-heading">'
        '<h2 id="rk-ask-actions-heading">Actions</h2>'
        '<ol id="rk-ask-played" class="rk-actions"></ol>'
        '<h3 id="rk-ask-options-heading">What the rules allow now</h3>'
        '<p id="rk-ask-where" class="rk-ask-note"></p>'
        '<div id="rk-ask-options"></div>'
        '<h3 id="rk-ask-try-heading">May I do this?</h3>'
        "<p>Write an action the list does not offer, as a scenario writes it (for example "
        "<code>{action: attack, player: A, ...}</code>): if the rules refuse it, the refusal and its reason are the answer.</p>"
        '<div class="rk-ask-fields"><label for="rk-ask-action">Action</label>'
        '<input type="text" id="rk-ask-action" autocomplete="off" spellcheck="false">'
        '<button type="button" id="rk-ask-play">Play this action</button></div>'
        "</section>"
    )


def _answer() -> str:
    return (
        '<section class="rk-ask-answer" aria-labelledby="rk-ask-answer-heading">'
        '<h2 id="rk-ask-answer-heading">The answer</h2>'
        '<div id="rk-ask-verdict" class="rk-ask-verdict" role="status" aria-live="polite" aria-atomic="true"></div>'
        '<div id="rk-ask-readings"></div>'
        "</section>"
    )


def _trace() -> str:
    return (
        '<section class="rk-ask-trace" aria-labelledby="rk-ask-trace-heading">'
        '<h2 id="rk-ask-trace-heading">Trace</h2>'
        "<p>Every step the engine took, under what caused it, each with the ruling it applied.</p>"
        '<div id="rk-ask-trace"></div>'
        '<details><summary>Every fact of the final state, as YAML</summary><pre><code id="rk-ask-outcome"></code></pre></details>'
        "</section>"
    )


def _editor() -> str:
    return (
        '<section class="rk-ask-editor" aria-labelledby="rk-ask-yaml-heading">'
        '<h2 id="rk-ask-yaml-heading">The scenario as YAML</h2>'
        "<p>The same situation as a scenario file. Edit it and ask again: a mistake is shown at its line, as "
        "<code>checker check</code> reports it.</p>"
        '<div class="rk-ask-yaml"><pre class="rk-ask-lines" id="rk-ask-lines" aria-hidden="true"></pre>'
        '<textarea id="rk-ask-text" rows="18" spellcheck="false" autocomplete="off" aria-label="Scenario file (YAML)" '
        'aria-describedby="rk-ask-errors"></textarea></div>'
        '<div id="rk-ask-errors" class="rk-ask-errors" aria-live="polite"></div>'
        '<div class="rk-ask-buttons">'
        '<button type="button" id="rk-ask-run">Ask again with this text</button>'
        '<button type="button" id="rk-ask-download">Download the YAML</button>'
        '<button type="button" id="rk-ask-dispute">Copy as a dispute</button>'
        '<span id="rk-ask-copied" class="rk-ask-note" role="status"></span>'
        "</div></section>"
    )
