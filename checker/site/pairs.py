"""'What happens when X meets Y': where the engine made two entities interact, and the pairs it never has.

Pairs are the edges of a game's interaction graph; a pair's meetings are the trace steps of
each scenario in which the engine applied a ruling involving both. An unconnected pair gets a
question scenario to start from, filled from one template here and, for the pair picker of a
game page, by the browser from the same template.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from checker.site.model import GameView
from checker.commands.summary import Met, Shown
from checker.engine.trace import Entity

#: A question scenario for two entities; the tokens are replaced here and in the picker's script.
QUESTION_TEMPLATE = (
    "id: {id}\n"
    "game: {game}\n"
    "title: What happens when {a} meets {b}?\n"
    "tags: {tags}\n"
    "{cards}"
    "initial: {}      # the state, in the game's words (see the game's 'What a scenario can say')\n"
    "actions: []      # the actions in which they meet\n"
    "# No expect: the engine answers the question (checker explain FILE).\n"
)


@dataclass(frozen=True)
class Meeting:
    """One scenario in which the engine made two entities interact, and what it did there."""

    result: Shown
    met: Met

    @property
    def rulings(self) -> list[str]:
        return list(self.met.rulings)

    def answer(self) -> str:
        """What the engine did when they met, in one line."""
        return self.met.answer


def ordered(a: Entity, b: Entity) -> tuple[Entity, Entity]:
    first, second = sorted((a, b))
    return first, second


def connected_pairs(view: GameView) -> list[tuple[Entity, Entity]]:
    return sorted(ordered(a, b) for a, b in view.graph.edges)


def meetings(view: GameView, a: Entity, b: Entity) -> list[Meeting]:
    """Every scenario in which a step citing a ruling involved both, in scenario order."""
    interaction = view.graph.edges[a, b]["interaction"]
    pair = ordered(a, b)
    return [Meeting(result, result.meetings[pair]) for result in (view.by_id[sid] for sid in sorted(interaction.scenarios))]


def unconnected(view: GameView, entity: Entity) -> list[Entity]:
    """Entities of the open-question kinds that no scenario makes ``entity`` interact with, most connected first."""
    if entity[0] not in view.question_kinds:
        return []
    others = [o for o in view.graph if o[0] in view.question_kinds and o != entity and not view.graph.has_edge(entity, o)]
    return sorted(others, key=lambda o: (-view.graph.degree(o), o))


def definitions(view: GameView, entity: Entity) -> list[tuple[Any, list[str]]]:
    """What defines the entity: the game's catalogue entry, else each distinct ``cards:`` entry of the
    scenarios it appears in, most used first, with the scenarios that use it."""
    kind, name = entity
    described = view.game.describe(kind, name)
    if described is not None:
        return [(described, [])]
    where = view.graph.nodes[entity].get("scenarios", set())
    by_text: dict[str, list[str]] = {}
    values: dict[str, Any] = {}
    for result in (view.by_id[sid] for sid in sorted(where)):
        if name in result.cards:
            text = json.dumps(result.cards[name], sort_keys=True)
            by_text.setdefault(text, []).append(result.id)
            values[text] = result.cards[name]
    counts = Counter({text: len(ids) for text, ids in by_text.items()})
    return [(values[text], by_text[text]) for text, _ in counts.most_common()]


def card_line(view: GameView, entity: Entity) -> str | None:
    """The entity's ``cards:`` line for a question, when only scenarios define it (the catalogue needs none)."""
    lines: dict[Entity, str | None] = view.memo.setdefault("card lines", {})
    if entity not in lines:
        found = definitions(view, entity) if view.game.describe(*entity) is None else []
        lines[entity] = f"  {yaml_string(entity[1])}: {json.dumps(found[0][0], ensure_ascii=False)}" if found else None
    return lines[entity]


def yaml_string(text: str) -> str:
    """A name as a YAML (JSON) string, safe whatever it holds."""
    return json.dumps(text, ensure_ascii=False)


def fill_question(template: str, tokens: dict[str, str]) -> str:
    for token, value in tokens.items():
        template = template.replace("{" + token + "}", value)
    return template


def question_tokens(view: GameView, a: Entity, b: Entity) -> dict[str, str]:
    cards = [line for line in (card_line(view, a), card_line(view, b)) if line]
    return {
        "id": f"{view.entity_slugs[a]}-meets-{view.entity_slugs[b]}",
        "a": entity_label(a),
        "b": entity_label(b),
        "tags": f"[{yaml_string(a[1])}, {yaml_string(b[1])}]",
        "cards": "cards:\n" + "\n".join(cards) + "\n" if cards else "",
    }


def question(view: GameView, a: Entity, b: Entity) -> str:
    """A question scenario asking what happens when ``a`` meets ``b``."""
    return fill_question(game_template(view), question_tokens(view, a, b))


def game_template(view: GameView) -> str:
    return fill_question(QUESTION_TEMPLATE, {"game": view.id})


def pair_fragment(view: GameView, a: Entity, b: Entity) -> str:
    """The URL fragment that opens the game page's pair picker on two entities."""
    return f"#pair={view.entity_slugs[a]}--{view.entity_slugs[b]}"


def entity_label(entity: Entity) -> str:
    return f"{entity[1]} ({entity[0]})"
