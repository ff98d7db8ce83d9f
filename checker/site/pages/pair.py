"""The page of two entities the engine made interact, and the game page's pair picker."""

from __future__ import annotations

import itertools
import json
import posixpath

from checker.site.model import GameView
from checker.site.pages.kit import a, esc, excerpt, href, plain, plural, verdict_with_readings
from checker.site.pages.lists import Listing, capped
from checker.site.pages.written import WrittenPage, markdown_page
from checker.site.pairs import Meeting, card_line, connected_pairs, entity_label, game_template, meetings, yaml_string
from checker.engine.trace import Entity

PAIR_SEARCH_BOOST = 0.5  # a name searched for finds its entity's page first, then the pages of the pairs it is in


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
        "<ul data-search-exclude>" + "".join(f"<li>{a(here, view.ruling_page(r), r)} — {esc(excerpt(plain(view.game.catalogue[r].quote), 100))}</li>"
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
