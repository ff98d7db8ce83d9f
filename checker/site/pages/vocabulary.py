"""What a game's scenarios can say: its vocabulary (actions, effect kinds, reject reasons), and the facts
they can assert with the defaults of the initial state.
"""

from __future__ import annotations

from typing import Any

from checker.commands import reference
from checker.site.model import GameView
from checker.site.pages.kit import a, esc, table
from checker.site.pages.written import WrittenPage, markdown_page


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
    """Every fact of the game's outcome schema and every default of its state schema (:mod:`checker.commands.reference`)."""
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
