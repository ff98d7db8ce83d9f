"""``checker new``: a skeleton scenario a player can start a dispute or a question from.

The skeleton is a valid question (it expects nothing): the game's starter state and actions
(``starter.yaml``) or those of an existing scenario, with the defaults of the initial state
written out, the ambiguous rulings and their readings, and the facts the outcome can be
asserted on, as comments. It cannot know what the player means to ask: the title says so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Collection, Iterable

from checker.commands import reference
from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.format.yamlwrite import yaml_text
from checker.format.scenario import MODELINE, Scenario

#: Where a file printed to standard output is meant to go: ``scenarios/<game>/FILE``.
DEFAULT_SCHEMA_REF = "../../schema/scenario.schema.json"
ID_LIMIT = 100
TOP_LEVEL_ID = re.compile(r"""^id:[ \t]*["']?([a-z0-9-]+)["']?[ \t]*(?:#.*)?$""", re.M)
UNFOLDED = 1000  # no text of a skeleton is folded onto further lines


def skeleton(game: AnyGame, *, question: bool, source: Scenario | None, taken: Collection[str], schema_ref: str,
             named: str = "") -> str:
    """The text of a new scenario of ``game``; its id is ``named``, or else one none of ``taken``."""
    start = _start(game, source)
    base = source.id if source else f"new-{game.id}"
    scenario_id = named or unique_id(f"{base}-{'question' if question else 'dispute'}", taken)
    if source:
        title = f"Question: {source.title}" if question else source.title
    else:
        title = "Question: what happens when ...?" if question else "What is disputed, in one line"
    parts = [
        f"{MODELINE}{schema_ref}",
        f"# A new {game.title} {'question' if question else 'dispute'}. Change the state and the actions, then:",
        "#   checker check FILE      the answer while it has no expect:, the verdict once it has",
        "#   checker explain FILE    the outcome and the trace, each step citing its ruling",
        "#   checker readings FILE   the outcome under every reading of the ambiguous rulings it touches",
        yaml_text({"id": scenario_id, "game": game.id, "title": title}).rstrip(),
    ]
    if not question:
        parts.append("status: disputed                  # add ruling: (adopted, reasoning, date) once it is ruled on")
    parts.append(yaml_text({"rulings": list(start["rulings"])}, flow_leaves=True).rstrip()
                 + f"  # ids of the {game.id} catalogue it is about")
    parts += _readings(game, start["readings"])
    for key in ("tags", "assumptions"):
        if start[key]:
            parts.append(yaml_text({key: start[key]}, width=UNFOLDED).rstrip())
    if start["cards"]:
        parts.append(yaml_text({"cards": start["cards"]}, flow_leaves=True, width=UNFOLDED).rstrip())
    parts += _defaults_comment(game)
    parts.append(yaml_text({"initial": reference.with_defaults(game, start["initial"])}, flow_leaves=True, width=UNFOLDED).rstrip())
    parts.append(yaml_text({"actions": start["actions"]}, flow_leaves=True, width=UNFOLDED).rstrip())
    parts += _facts_comment(game, question)
    return "\n".join(parts) + "\n"


def _start(game: AnyGame, source: Scenario | None) -> dict[str, Any]:
    """The keys the skeleton copies: from the source scenario (expectations dropped) or the starter."""
    if source is None:
        data = game.starter
        if not data:
            raise InputError(f"{game.id} has no starter.yaml to start a scenario from", expected="--from FILE, a scenario to start from")
        return {
            "rulings": [], "readings": {}, "tags": [], "assumptions": list(data.get("assumptions", ())),
            "cards": dict(data.get("cards", {})), "initial": dict(data.get("initial", {})),
            "actions": list(data.get("actions", ())),
        }
    return {
        "rulings": list(source.rulings), "readings": dict(source.readings), "tags": list(source.tags),
        "assumptions": list(source.assumptions), "cards": dict(source.cards), "initial": dict(source.initial),
        "actions": [dict(action.data) for action in source.actions],
    }


def _readings(game: AnyGame, pinned: dict[str, str]) -> list[str]:
    """The readings the source pins, then every other ambiguous ruling's readings as comments."""
    lines = [yaml_text({"readings": pinned}).rstrip()] if pinned else []
    free = [r for r in game.catalogue.with_status("ambiguous") if r.id not in pinned]
    if free:
        lines.append("# readings: pin one of these readings (else the engine reads the ruling the default way):")
        for ruling in free:
            names = " | ".join(r.name + (" (default)" if r.default else "") for r in ruling.readings)
            lines.append(f"#   {ruling.id}: {names}")
    return lines


def _defaults_comment(game: AnyGame) -> list[str]:
    inherited = reference.defaults(game)
    if not inherited:
        return ["# The initial state: every key is required (the game assumes none)."]
    lines = ["# The initial state. What the game assumes for a key left out (its value is written out below):"]
    for default in inherited:
        value = reference.default_value(default) if default.has_value else ""
        text = " — ".join(part for part in (value, default.description) if part)
        lines.append(f"#   {default.path}: {text}")
    return lines


def _facts_comment(game: AnyGame, question: bool) -> list[str]:
    facts = reference.facts(game)
    width = max((len(f.path) for f in facts), default=0)
    lines = [
        f"# Facts the outcome gives (`checker facts {game.id}`; * is a name or number, [] each record):",
        *(f"#   {fact.path.ljust(width)}  {fact.kind}" for fact in facts),
    ]
    if not question:
        lines += [
            "# To say what you expect, add expect: with the facts you expect (only those are compared),",
            "# nested as in the paths above, at the end or on an action (then right after it), e.g.:",
            "# expect:",
            f"#   {_example(facts)}",
        ]
    return lines


def _example(facts: list[reference.Fact]) -> str:
    """An expectation line for the first fact that is a plain value, with a placeholder value."""
    for fact in facts:
        parts = fact.path.split(".")
        if "[]" in fact.path or "mapping" in fact.kind or "list" in fact.kind:
            continue
        nested = "VALUE"
        for part in reversed(parts[1:]):
            nested = f"{{{part}: {nested}}}"
        return f"{parts[0]}: {nested}"
    return "FACT: VALUE"


def unique_id(base: str, taken: Collection[str]) -> str:
    """``base`` (shortened to an id's length), or ``base-2``, ``base-3`` ... the first not taken."""
    stem = base[: ID_LIMIT - 4].rstrip("-")
    if stem not in taken:
        return stem
    number = 2
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def id_from_name(target: Path) -> str:
    """The id a file named ``target`` declares: its name in lower case, every run of other characters a
    hyphen ('' when nothing is left)."""
    return re.sub(r"[^a-z0-9]+", "-", target.stem.lower()).strip("-")[:ID_LIMIT]


def known_ids(files: Iterable[Path]) -> set[str]:
    """The ids the files declare on a top-level ``id:`` line (read as text: far faster than YAML).

    An id written otherwise (a document in flow style) is not seen; ``checker check`` still
    reports a clash.
    """
    found: set[str] = set()
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found.update(TOP_LEVEL_ID.findall(text))
    return found


def write_new(target: Path, text: str) -> None:
    """Create ``target`` with ``text``; an existing file is never overwritten."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        raise InputError(f"{target} already exists: not overwriting it", expected="a new file name for --output") from None
    except OSError as error:
        raise InputError(f"cannot write {target}: {error.strerror or error}", expected="a file you may create for --output") from None
