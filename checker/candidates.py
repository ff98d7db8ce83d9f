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
import os
import re
from pathlib import Path
from typing import Any, Mapping

from checker.compare import differing, flatten
from checker.readings import Branch, Exploration
from checker.report import yaml_text
from checker.runner import SETUP
from checker.scenario import MODELINE

#: Scenario data: ``initial``, ``cards`` (optional) and ``actions``, as a scenario file writes them.
ScenarioData = dict[str, Any]
#: Differing facts named in a candidate's notes, per reading; the file itself shows the rest.
FACTS_IN_NOTES = 6
REFUSED = "refused: "


def canonical(data: Mapping[str, Any]) -> str:
    """The data as one stable text (what a candidate's id hashes)."""
    return json.dumps(data, sort_keys=True, default=str)


def candidate_id(ruling: str, data: ScenarioData) -> str:
    """``candidate-<ruling>-<hash of the data>``: the same scenario always gets the same id."""
    digest = hashlib.sha1(canonical(data).encode("utf-8")).hexdigest()[:8]
    return f"candidate-{re.sub(r'[^a-z0-9]+', '-', ruling.lower()).strip('-')}-{digest}"


def document(game_id: str, ruling: str, data: ScenarioData, notes: str = "") -> dict[str, Any]:
    """The candidate as a scenario file's data, keys in the order a person reads them."""
    doc: dict[str, Any] = {
        "id": candidate_id(ruling, data),
        "game": game_id,
        "title": f"Found automatically: the reading of {ruling} changes this outcome",
        "rulings": [ruling],
        "status": "disputed",
        "notes": notes,
    }
    if data.get("cards"):
        doc["cards"] = data["cards"]
    doc["initial"] = data["initial"]
    doc["actions"] = data["actions"]
    return doc


def notes(ruling: str, exploration: Exploration) -> str:
    """What changes with the ruling's reading: the refusals and the outcome facts that differ."""
    branches = exploration.varying(ruling, exploration.branches[0].readings)
    flats = [_seen(branch) for branch in branches]
    changed = sorted(differing(flats), key=lambda key: key.count("."))  # the broad facts first
    shown, hidden = changed[:FACTS_IN_NOTES], len(changed) - FACTS_IN_NOTES
    parts = []
    for branch, flat in zip(branches, flats, strict=True):
        facts = ", ".join(f"{key} = {_value(flat, key)}" for key in shown)
        parts.append(f"under {branch.readings[ruling]}, {facts}")
    more = f" ({hidden} more facts differ: run `checker readings` on this file.)" if hidden > 0 else ""
    return (
        "Found automatically by `checker disputes --find`, then shrunk: review it, and promote it to the scenarios "
        f"folder (with the reading adopted or expectations added) or delete it. What changes with {ruling}: "
        + "; ".join(parts) + "." + more
    )


def _value(flat: Mapping[str, Any], key: str) -> str:
    if key in flat:
        return json.dumps(flat[key], ensure_ascii=False)
    return "no" if key.startswith(REFUSED) else "nothing"


def _seen(branch: Branch) -> dict[str, Any]:
    """What a player sees of one run: its outcome facts and which actions were refused (and why)."""
    refused = {
        REFUSED + ("initial state" if index == SETUP else f"action {index + 1}"): rejection.reason
        for index, rejection in branch.result.rejections.items()
    }
    return {**flatten(branch.result.outcome), **refused}


def text(doc: Mapping[str, Any], schema_ref: str) -> str:
    return f"{MODELINE}{schema_ref}\n" + yaml_text(dict(doc), flow_leaves=True)


def write(doc: Mapping[str, Any], folder: Path, schema: Path) -> Path:
    """Write the candidate into ``folder`` (created if needed), its modeline pointing at ``schema``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{doc['id']}.yaml"
    reference = Path(os.path.relpath(schema.resolve(), folder.resolve())).as_posix()
    path.write_text(text(doc, reference), encoding="utf-8")
    return path
