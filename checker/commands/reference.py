"""What a game's scenarios can assert and what they inherit, read from the game's schema.

The facts are every property of the ``outcome`` definition, walked through references,
nested mappings and lists; the defaults are every property of the ``state`` definition
that declares a ``default`` (a value) or whose description says what it defaults to. Both
are only as true as the schema: a default the engine does not apply is caught by the
tests that run a scenario with its defaults written out, not here.
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from checker.engine.game import AnyGame
from checker.format.yamlwrite import yaml_text
from checker.engine.errors import TYPE_WORDS

ANY_KEY = "*"  # a key the scenario chooses: a side, a monster's name, a round number
EACH_ITEM = "[]"  # every record of a list
MAX_DEPTH = 12  # deeper than any outcome; stops a schema that refers to itself


@dataclass(frozen=True)
class Fact:
    path: str  # e.g. 'players.*.monsters.*.lp'
    kind: str  # in words: 'a whole number', 'one of A, B', 'a mapping or null'
    description: str


@dataclass(frozen=True)
class Default:
    path: str  # e.g. 'players.*.guts'
    value: Any  # the value the game assumes; ``NO_VALUE`` when only the description says
    description: str

    @property
    def has_value(self) -> bool:
        return self.value is not NO_VALUE


NO_VALUE: Any = object()


class _Schema:
    """A game's schema fragment, with its local references (``#/name``) followed."""

    def __init__(self, game: AnyGame) -> None:
        self.definitions: Mapping[str, Any] = game.schema["definitions"]

    def resolve(self, node: Any) -> dict[str, Any]:
        """The node with its ``$ref`` replaced by the definition (keys written beside the ref win)."""
        seen = 0
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and seen < MAX_DEPTH:
            target = self.definitions.get(node["$ref"].removeprefix("#/"), {})
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            seen += 1
        return node if isinstance(node, dict) else {}

    def branches(self, node: dict[str, Any]) -> list[dict[str, Any]]:
        """The node and the alternatives it allows (``anyOf``, ``oneOf``), each resolved."""
        found = [node]
        for key in ("anyOf", "oneOf"):
            found += [self.resolve(branch) for branch in node.get(key, ())]
        return found

    def children(self, node: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        """(path part, schema) of what is nested in the node: its keys, any key, each item."""
        for branch in self.branches(node):
            for name, child in branch.get("properties", {}).items():
                yield f".{name}", self.resolve(child)
            for child in branch.get("patternProperties", {}).values():
                yield f".{ANY_KEY}", self.resolve(child)
            extra = branch.get("additionalProperties")
            if isinstance(extra, dict):
                yield f".{ANY_KEY}", self.resolve(extra)
            items = branch.get("items")
            if isinstance(items, dict):
                yield EACH_ITEM, self.resolve(items)


def _kind(schema: _Schema, node: dict[str, Any]) -> str:
    """The value a schema node accepts, in words."""
    words: list[str] = []
    for branch in schema.branches(node):
        if "enum" in branch:
            words.append("one of " + ", ".join("null" if v is None else str(v) for v in branch["enum"]))
            continue
        if "const" in branch:
            words.append(f"exactly {branch['const']}")
            continue
        types = branch.get("type", [])
        for name in [types] if isinstance(types, str) else types:
            word = TYPE_WORDS.get(name, name)
            if name == "array" and isinstance(branch.get("items"), dict):
                item = schema.resolve(branch["items"])
                word = "a list of records" if item.get("type") == "object" or "properties" in item else "a list"
            words.append(word)
    unique = list(dict.fromkeys(words))
    return " or ".join(unique) if unique else "any value"


def _description(schema: _Schema, node: dict[str, Any]) -> str:
    for branch in schema.branches(node):
        if branch.get("description"):
            return str(branch["description"])
    return ""


def _walk(schema: _Schema, node: dict[str, Any], path: str, depth: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    if depth > MAX_DEPTH:
        return
    for part, child in schema.children(node):
        below = (path + part).lstrip(".")
        yield below, child
        yield from _walk(schema, child, below, depth + 1)


def facts(game: AnyGame) -> list[Fact]:
    """Every fact the game's outcome schema lets a scenario assert, in the schema's order."""
    return list(_facts(game))


@functools.lru_cache(maxsize=16)
def _facts(game: AnyGame) -> tuple[Fact, ...]:
    """Walked once per game: a page that puts many facts in words describes each from them (:func:`fact_description`)."""
    schema = _Schema(game)
    found: dict[str, Fact] = {}
    for path, node in _walk(schema, schema.resolve({"$ref": "#/outcome"}), ""):
        if path not in found:
            found[path] = Fact(path, _kind(schema, node), _description(schema, node))
    return tuple(found.values())


FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]*$")  # a key the schema names, as against one a scenario chooses (A, Golem)


def fact_description(game: AnyGame, path: str) -> tuple[str, tuple[str, ...]]:
    """What a fact at ``path`` (``players.A.mp``) is, as the game's schema describes it, without its full stop
    ('' when the schema does not say), and the keys of the path a scenario chose (``A``), in order."""
    parts = path.split(".")
    chosen = tuple(part for part in parts if not FIELD_NAME.match(part))
    for fact in _facts(game):
        pattern = fact.path.split(".")
        if len(pattern) == len(parts) and all(p in (ANY_KEY, part) for p, part in zip(pattern, parts)):
            return re.split(r"\. |: |; ", re.sub(r" *\([^)]*\)", "", fact.description))[0].rstrip("."), chosen
    return "", chosen


def defaults(game: AnyGame) -> list[Default]:
    """What a scenario's initial state inherits when it leaves a key out."""
    schema = _Schema(game)
    found: dict[str, Default] = {}
    for path, node in _walk(schema, schema.resolve({"$ref": "#/state"}), ""):
        description = _description(schema, node)
        if "default" in node:
            found.setdefault(path, Default(path, node["default"], description))
        elif "default" in description.lower():
            found.setdefault(path, Default(path, NO_VALUE, description))
    return list(found.values())


def with_defaults(game: AnyGame, initial: Mapping[str, Any]) -> dict[str, Any]:
    """The initial state with every default value written out where the state leaves the key out."""
    schema = _Schema(game)
    filled: dict[str, Any] = _fill(schema, schema.resolve({"$ref": "#/state"}), copy.deepcopy(dict(initial)))
    return filled


def _fill(schema: _Schema, node: dict[str, Any], data: Any, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        return data
    if isinstance(data, dict):
        for branch in schema.branches(node):
            properties = branch.get("properties", {})
            for name, child in properties.items():
                resolved = schema.resolve(child)
                if name not in data and "default" in resolved:
                    data[name] = copy.deepcopy(resolved["default"])
            ordered = [name for name in properties if name in data]
            data = {name: data[name] for name in [*ordered, *(k for k in data if k not in properties)]}
            for name, value in data.items():
                if name in properties:
                    data[name] = _fill(schema, schema.resolve(properties[name]), value, depth + 1)
                else:
                    extra = branch.get("additionalProperties")
                    patterns = list(branch.get("patternProperties", {}).values())
                    child = extra if isinstance(extra, dict) else (patterns[0] if patterns else None)
                    if child is not None:
                        data[name] = _fill(schema, schema.resolve(child), value, depth + 1)
    elif isinstance(data, list):
        items = [schema.resolve(b.get("items")) for b in schema.branches(node) if isinstance(b.get("items"), dict)]
        if items:
            return [_fill(schema, items[0], value, depth + 1) for value in data]
    return data


def markdown(game: AnyGame) -> str:
    """The reference as Markdown: the facts a scenario can assert, then the defaults it inherits."""
    lines = [
        f"# {game.title}: facts and defaults",
        "",
        f"Generated from the `outcome` and `state` definitions of the game's schema (`{game.id}`).",
        f"`{ANY_KEY}` stands for a key the scenario chooses (a side, a name, a number), `{EACH_ITEM}` for each record of a list.",
        "",
        "## Facts a scenario can assert",
        "",
        "| fact | value | what it is |",
        "|---|---|---|",
        *(f"| `{f.path}` | {f.kind} | {_cell(f.description)} |" for f in facts(game)),
        "",
        "## Defaults of the initial state",
        "",
    ]
    inherited = defaults(game)
    if not inherited:
        lines.append("None: the initial state spells out every key.")
    else:
        lines += ["| key | when left out | what it is |", "|---|---|---|"]
        lines += [f"| `{d.path}` | {default_text(d)} | {_cell(d.description)} |" for d in inherited]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def default_value(default: Default) -> str:
    """A default's value as it is written in YAML (``null``, ``true``, ``[]``, ``A``)."""
    return yaml_text(default.value, flow_leaves=True).strip().removesuffix("...").strip()


def default_text(default: Default) -> str:
    """The default for a Markdown table: the YAML value as code, or 'see the description'."""
    return f"`{default_value(default)}`" if default.has_value else "see the description"
