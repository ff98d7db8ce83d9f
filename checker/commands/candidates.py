"""Candidate disputes: question scenarios found by the search, written for a person to review.

A candidate is an ordinary question file (no ``expect:``), marked ``status: disputed``,
that cites the one ambiguous ruling whose reading changes its outcome; its notes say it
was found automatically and what each reading gives. Candidates live outside
``scenarios/`` (default ``candidates/<game>/``): they join the golden suite only when a
person moves them there.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from checker.commands.words import action_words
from checker.engine.catalogue import Ruling
from checker.run.compare import shown
from checker.commands.readings import Variation
from checker.format.yamlwrite import yaml_text
from checker.format.scenario import MODELINE, schema_reference

#: Scenario data: ``initial``, ``cards`` (optional) and ``actions``, as a scenario file writes them.
ScenarioData = dict[str, Any]
#: The longest title the scenario format accepts.
TITLE_LIMIT = 200
#: Differing facts named in a candidate's notes, per reading; the file itself shows the rest.
FACTS_IN_NOTES = 6
#: How :attr:`checker.commands.readings.Branch.asserted` labels a question's outcome facts; the notes leave it out.
FINAL = "final outcome: "


#: A card name that says nothing of the card: a letter code, alone or after one word ("K1", "Card NB", "Event E1").
PLACEHOLDER = re.compile(r"(?:[A-Z][a-z]+ )?[A-Z0-9]{1,4}")


def named(data: ScenarioData) -> ScenarioData:
    """The data with each card it defines under a code name (``PLACEHOLDER``) renamed for what it is: the words of
    its definition (``SPELL Zatch Bell, lose-mp``), everywhere the data names it."""
    cards = data.get("cards") or {}
    names: dict[str, str] = {}
    for name, definition in cards.items():
        if PLACEHOLDER.fullmatch(name) and isinstance(definition, Mapping):
            words = _what_it_is(definition)
            if words:
                names[name] = _unique(words, {*cards, *names.values()})
    return _renamed(data, names) if names else data


def _what_it_is(definition: Mapping[str, Any]) -> str:
    """A card definition's text values, then the kinds of its effects."""
    said = [value for value in definition.values() if isinstance(value, str)]
    kinds = [item["kind"] for value in definition.values() if isinstance(value, list)
             for item in value if isinstance(item, Mapping) and isinstance(item.get("kind"), str)]
    return " ".join(said) + (", " if said and kinds else "") + ", ".join(dict.fromkeys(kinds))


def _unique(name: str, taken: set[str]) -> str:
    number = 2
    candidate = name
    while candidate in taken:
        candidate, number = f"{name} ({number})", number + 1
    return candidate


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, Mapping):
        return {_renamed(key, names): _renamed(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    return value


def canonical(data: Mapping[str, Any]) -> str:
    """The data as one stable text (what a candidate's id hashes)."""
    return json.dumps(data, sort_keys=True, default=str)


def candidate_id(ruling: str, data: ScenarioData) -> str:
    """``candidate-<ruling>-<hash of the data>``: the same scenario always gets the same id."""
    digest = hashlib.sha1(canonical(data).encode("utf-8")).hexdigest()[:8]
    return f"candidate-{re.sub(r'[^a-z0-9]+', '-', ruling.lower()).strip('-')}-{digest}"


def document(game_id: str, ruling: Ruling, data: ScenarioData, notes: str = "") -> dict[str, Any]:
    """The candidate as a scenario file's data, keys in the order a person reads them."""
    doc: dict[str, Any] = {
        "id": candidate_id(ruling.id, data),
        "game": game_id,
        "title": question(ruling, data["actions"]),
        "rulings": [ruling.id],
        "status": "disputed",
        "notes": notes,
    }
    if data.get("cards"):
        doc["cards"] = data["cards"]
    doc["initial"] = data["initial"]
    doc["actions"] = data["actions"]
    return doc


def question(ruling: Ruling, actions: Sequence[Mapping[str, Any]]) -> str:
    """The title a judge would give the candidate: where in the rules, after what, and which reading holds."""
    where = ", ".join(ruling.section[-2:])
    names = [reading.name.replace("-", " ") for reading in ruling.readings]
    readings = ", ".join(names[:-1]) + f" or {names[-1]}"
    last = action_words(actions[-1]) if actions else "setting up"
    room = TITLE_LIMIT - len(f"{where}: after , is it {readings}?")
    if len(last) > room:
        last = last[: max(0, room - 1)].rstrip(" ,—") + "…"
    return f"{where}: after {last}, is it {readings}?"


def notes(variation: Variation) -> str:
    """What changes with the ruling's reading: the refusals and the outcome facts that differ, the broad ones first."""
    ruling = variation.ruling
    changed = sorted(variation.differing(), key=lambda key: key.count("."))
    listed, more = changed[:FACTS_IN_NOTES], len(changed) - FACTS_IN_NOTES
    parts = [
        f"under {branch.readings[ruling]}, "
        + ", ".join(f"{key.removeprefix(FINAL)} = {shown(branch.asserted.get(key))}" for key in listed)
        for branch in variation.branches
    ]
    rest = f" ({more} more facts differ: run `checker readings` on this file.)" if more > 0 else ""
    return (
        "Found automatically by `checker disputes --find`, then shrunk: review it, and promote it to the scenarios "
        f"folder (with the reading adopted or expectations added) or delete it. What changes with {ruling}: "
        + "; ".join(parts) + "." + rest
    )


def text(doc: Mapping[str, Any], schema_ref: str) -> str:
    return f"{MODELINE}{schema_ref}\n" + yaml_text(dict(doc), flow_leaves=True)


def write(doc: Mapping[str, Any], folder: Path, schema: Path) -> Path:
    """Write the candidate into ``folder`` (created if needed), its modeline pointing at ``schema``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{doc['id']}.yaml"
    path.write_text(text(doc, schema_reference(schema, folder)), encoding="utf-8")
    return path
