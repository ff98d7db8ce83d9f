"""The scenario format as a JSON Schema (draft-07), and validation against it.

The schema is assembled from the core's envelope (id, game, title, rulings,
readings, actions with their ``expect`` and ``reject``) and each game's
fragment (``schema.yaml`` beside its rules: state, cards, actions, outcome).
The same assembled schema is published as ``schema/scenario.schema.json`` for
editors and used here to validate every scenario, so the two cannot disagree.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import jsonschema_rs

from checker.engine.errors import TYPE_WORDS, InputError, described_value, nearest, one_of, quoted, show
from checker.engine.game import AnyGame
from checker.engine.vocabulary import Entry

if TYPE_CHECKING:
    import jsonschema

SCHEMA_ID = "https://rulings-checker.invalid/schema/scenario.schema.json"
SLUG = "^[a-z0-9]+(-[a-z0-9]+)*$"
ISO_DATE = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"

#: The ruling made on a disputed scenario: what was adopted, why (quoting the source), when, by whom.
RULING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The ruling made on this dispute (status: disputed): adopted, reasoning, date, optionally by.",
    "additionalProperties": False,
    "required": ["adopted", "reasoning", "date"],
    "properties": {
        "adopted": {
            "type": ["object", "string"],
            "minLength": 1,
            "minProperties": 1,
            "additionalProperties": {"type": "string"},
            "description": "The reading adopted, as {ruling id: reading name}, or the outcome adopted, in words.",
        },
        "reasoning": {"type": "string", "minLength": 1, "description": "Why, quoting the source document."},
        "date": {"type": "string", "pattern": ISO_DATE, "description": "When the ruling was made, as YYYY-MM-DD."},
        "by": {"type": "string", "description": "Who ruled."},
    },
}

#: An ambiguity a dispute proposes, which the catalogue does not list: the passage, its line, the readings in words.
PROPOSED_AMBIGUITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An ambiguity of the source that the catalogue does not list yet (status: disputed): "
                   "the passage, its line in the source document, and the competing readings in words.",
    "additionalProperties": False,
    "required": ["passage", "line", "readings"],
    "properties": {
        "passage": {"type": "string", "minLength": 1, "description": "The unclear passage, in the words of the source."},
        "line": {"type": "integer", "minimum": 1, "description": "Its line in the source document."},
        "readings": {
            "type": "array",
            "minItems": 2,
            "items": {"type": "string", "minLength": 1},
            "description": "The competing readings, each in words.",
        },
    },
}

#: A scenario that proposes an ambiguity is a dispute: ``status: disputed``.
PROPOSING_IS_DISPUTED: dict[str, Any] = {
    "if": {"required": ["proposed_ambiguity"]},
    "then": {
        "required": ["status"],
        "properties": {"status": {"const": "disputed", "description": "status: disputed (a scenario that proposes an ambiguity is a dispute)"}},
    },
}

#: A scenario that carries a ruling is a dispute: ``status: disputed``.
RULED_IS_DISPUTED: dict[str, Any] = {
    "if": {"required": ["ruling"]},
    "then": {
        "required": ["status"],
        "properties": {"status": {"const": "disputed", "description": "status: disputed (a scenario with a ruling: is a dispute)"}},
    },
}


def rebase(node: Any, prefix: str) -> Any:
    """Point a game fragment's local ``#/...`` references into its own definitions."""
    if isinstance(node, dict):
        return {
            key: (prefix + value[2:] if key == "$ref" and isinstance(value, str) and value.startswith("#/") else rebase(value, prefix))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [rebase(item, prefix) for item in node]
    return node


def tagged_union(tag: str, entries: Iterable[Entry[Any]], base: str, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A JSON Schema for objects whose ``tag`` names an entry and whose other keys are that entry's parameters.

    ``extra`` are keys every branch accepts as well (an action's ``expect``, say);
    ``base`` is where the game's own definitions live, for ``ref``.
    """
    listed = list(entries)
    branches = []
    for entry in listed:
        then: dict[str, Any] = {
            "properties": {tag: {"const": entry.name}, **dict(extra or {}), **rebase(dict(entry.params), base)},
            "required": [tag, *entry.required],
            "additionalProperties": False,
            "description": entry.description,
        }
        branches.append({"if": {"properties": {tag: {"const": entry.name}}, "required": [tag]}, "then": then})
    return {
        "type": "object",
        "required": [tag],
        "properties": {tag: {"enum": [entry.name for entry in listed]}},
        "allOf": branches,
    }


def _action_schema(game: AnyGame, base: str) -> dict[str, Any]:
    reject = {
        "type": "object",
        "description": "This action must be rejected, for this reason; the state stays as it was.",
        "additionalProperties": False,
        "required": ["reason"],
        "properties": {"reason": {"$ref": f"{base}reject-reason"}},
    }
    extra = {"expect": {"$ref": f"{base}outcome", "description": "Facts that hold after this action."}, "reject": reject}
    return tagged_union("action", game.vocabulary.actions, base, extra)


def _vocabulary_definitions(game: AnyGame, base: str) -> dict[str, Any]:
    """The definitions the game's vocabulary registers: actions, effect families, reject reasons."""
    definitions: dict[str, Any] = {
        "action": _action_schema(game, base),
        "reject-reason": {
            "enum": list(game.vocabulary.reject_reasons),
            "description": "; ".join(f"{name}: {text}" for name, text in game.vocabulary.reject_reasons.items()),
        },
    }
    for family, registry in game.vocabulary.effects.items():
        definitions[family] = tagged_union("kind", registry, base)
    return definitions


def build_schema(games: Mapping[str, AnyGame]) -> dict[str, Any]:
    definitions: dict[str, Any] = {}
    game_branches = []
    for game_id, game in games.items():
        base = f"#/definitions/{game_id}/"
        fragment = {key: rebase(value, base) for key, value in game.schema["definitions"].items()}
        derived = _vocabulary_definitions(game, base)
        clash = set(fragment) & set(derived)
        if clash:
            raise ValueError(f"{game_id}: schema.yaml defines {sorted(clash)}, which the vocabulary registers")
        fragment.update(derived)
        definitions[game_id] = fragment
        game_branches.append(
            {
                "if": {"properties": {"game": {"const": game_id}}, "required": ["game"]},
                "then": {
                    "properties": {
                        "initial": {"$ref": f"{base}state"},
                        "cards": {
                            "type": "object",
                            "description": "Cards defined by this scenario, by name, with their numbers.",
                            "additionalProperties": {"$ref": f"{base}card"},
                        },
                        "actions": {"type": "array", "items": {"$ref": f"{base}action"}},
                        "expect": {"$ref": f"{base}outcome"},
                        "reject": {
                            "type": "object",
                            "description": "The game refuses to start from this initial state, for this reason.",
                            "additionalProperties": False,
                            "required": ["reason"],
                            "properties": {"reason": {"$ref": f"{base}reject-reason"}},
                        },
                    }
                },
            }
        )
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": SCHEMA_ID,
        "title": "Rulings scenario",
        "description": "One ruling scenario: an initial state, ordered actions, and (unless it is a question) the expected outcome.",
        "type": "object",
        "required": ["id", "game", "title", "initial", "actions"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": SLUG, "maxLength": 100, "description": "Stable slug, unique across the repository."},
            "game": {"enum": list(games), "description": "Game identifier."},
            "title": {"type": "string", "minLength": 1, "maxLength": 200},
            "rulings": {"type": "array", "items": {"type": "string"}, "description": "Ruling ids this scenario demonstrates."},
            "expect_cites": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Ruling ids the run's trace must cite; one it does not cite fails the scenario.",
            },
            "expect_not_cited": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Ruling ids the run's trace must not cite; one it cites fails the scenario.",
            },
            "expect_trace": {
                "type": "array",
                "description": "Steps the run's trace must hold; one no step matches fails the scenario.",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "minProperties": 1,
                    "properties": {
                        "cites": {"type": "string", "description": "The ruling the step cites (left out: any ruling, or none)."},
                        "involves": {
                            "type": "array",
                            "description": "Entities the step involves (at least these), each [kind, name].",
                            "items": {
                                "type": "array", "minItems": 2, "maxItems": 2,
                                "items": {"type": "string", "minLength": 1},
                            },
                        },
                        "values": {
                            "type": "object",
                            "description": "Numbers the step shows (at least these), each equal.",
                        },
                    },
                },
            },
            "tags": {"type": "array", "items": {"type": "string"}},
            "status": {"enum": ["confirmed", "disputed"], "default": "confirmed"},
            "notes": {"type": "string"},
            "assumptions": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Numbers the text does not give, readings chosen, anything else assumed.",
            },
            "readings": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "Pinned readings of ambiguous rulings: ruling id -> reading name.",
            },
            "ruling": RULING_SCHEMA,
            "proposed_ambiguity": PROPOSED_AMBIGUITY_SCHEMA,
            "cards": {"type": "object"},
            "initial": {"type": "object"},
            "actions": {"type": "array"},
            "expect": {"type": "object"},
            "reject": {"type": "object", "description": "The game refuses to start from this initial state (setup)."},
        },
        "allOf": [RULED_IS_DISPUTED, PROPOSING_IS_DISPUTED, *game_branches],
        "definitions": definitions,
    }


def one_game(schema: dict[str, Any], game_id: str) -> dict[str, Any]:
    """What :func:`build_schema` made, for data whose game is ``game_id``: without the other games'
    branches and definitions, which such data never reaches, so it accepts and refuses the same data."""
    branches = [branch for branch in schema["allOf"] if _game_of(branch) in (None, game_id)]
    return {**schema, "allOf": branches, "definitions": {game_id: schema["definitions"][game_id]}}


def _game_of(branch: dict[str, Any]) -> Any:
    return branch["if"].get("properties", {}).get("game", {}).get("const")


def published_text(games: Mapping[str, AnyGame]) -> str:
    return json.dumps(build_schema(games), indent=2, sort_keys=False) + "\n"


class Validator:
    """Validates plain scenario data and turns the first problem into one :class:`InputError`.

    A compiled validator says whether data is valid; only data it refuses (or cannot take, such
    as a number too large for it) is validated again by ``jsonschema``, whose errors say where
    and why. Data of a known game is checked by that game's part of the schema alone
    (:func:`one_game`), compiled when first needed: a run of one game's files compiles no other's.
    """

    def __init__(self, games: Mapping[str, AnyGame], schema: dict[str, Any] | None = None) -> None:
        """``schema``: what :func:`build_schema` makes of ``games``, when it is already at hand."""
        self.schema = build_schema(games) if schema is None else schema
        self._compiled: dict[str | None, jsonschema_rs.Draft7Validator] = {}  # by game; None: the whole schema
        self._explaining: jsonschema.Draft7Validator | None = None

    def errors(self, data: Any) -> list[InputError]:
        try:
            if self._compiled_for(data).is_valid(data):
                return []
        except (ValueError, OverflowError):
            pass
        game = data.get("game") if isinstance(data, dict) else None
        return [self._where_it_counts(_explain(error), error, game) for error in _leaves(self._explainer().iter_errors(data))]

    def _where_it_counts(self, found: InputError, error: jsonschema.ValidationError, game: Any) -> InputError:
        """An unknown key of one branch of a tagged union (an action, an effect kind) that other branches take: say which."""
        if error.validator != "additionalProperties" or not found.path or not isinstance(error.instance, dict):
            return found
        key = found.path[-1]
        taking = [
            f"{tag} {then['properties'][tag]['const']}"
            for node in self.schema["definitions"].get(game, {}).values() if isinstance(node, dict)
            for branch in node.get("allOf", ())
            for tag in branch.get("if", {}).get("required", ())[:1]
            for then in [branch.get("then", {})]
            if tag in error.instance and key in then.get("properties", {})
        ]
        if not taking:
            return found
        counts = f"; '{key}' counts only in {', '.join(taking)}"
        return InputError(found.message + counts, path=found.path, on_key=found.on_key, expected=found.expected)

    def _compiled_for(self, data: Any) -> jsonschema_rs.Draft7Validator:
        game = data.get("game") if isinstance(data, dict) else None
        key = game if isinstance(game, str) and game in self.schema["definitions"] else None
        if key not in self._compiled:
            self._compiled[key] = jsonschema_rs.Draft7Validator(self.schema if key is None else one_game(self.schema, key))
        return self._compiled[key]

    def _explainer(self) -> jsonschema.Draft7Validator:
        if self._explaining is None:
            import jsonschema  # only for data the compiled validator refuses: it takes longer to import than most runs

            jsonschema.Draft7Validator.check_schema(self.schema)
            self._explaining = jsonschema.Draft7Validator(self.schema)
        return self._explaining


def _leaves(errors: Iterable[jsonschema.ValidationError]) -> Iterable[jsonschema.ValidationError]:
    for error in errors:
        if error.validator == "if":
            continue
        if error.context:
            yield from _leaves(error.context)
        else:
            yield error


#: What a size or range limit asks for, in words (the field's description follows it, when it has one).
LIMIT_WORDS: Mapping[str, str] = {
    "minimum": "at least {}", "maximum": "at most {}", "minItems": "at least {} items", "maxItems": "at most {} items",
    "minLength": "text of at least {} characters", "maxLength": "text of at most {} characters",
    "maxProperties": "at most {} entries",
}


#: The message for each broken size or range limit, from the value and the limit.
_BROKEN: Mapping[str, Callable[[Any, Any], str]] = {
    "maxItems": lambda got, limit: f"{len(got)} items, more than the {limit} allowed",
    "minItems": lambda got, limit: f"{len(got)} items, fewer than the {limit} required",
    "maximum": lambda got, limit: f"{show(got)} is more than the maximum of {limit}",
    "minimum": lambda got, limit: f"{show(got)} is less than the minimum of {limit}",
    "maxLength": lambda got, limit: f"text of {len(got)} characters, more than the {limit} allowed",
    "minLength": lambda got, limit: f"text of {len(got)} characters, fewer than the {limit} required",
    "pattern": lambda got, limit: f"{quoted(got)} does not have the form required",
    "maxProperties": lambda got, limit: f"{len(got)} entries, more than the {limit} allowed",
}


def _limit(kind: str, wanted: Any, instance: Any) -> str | None:
    """The message for a broken size or range limit, naming the limit."""
    message = _BROKEN.get(kind)
    return message(instance, wanted) if message is not None else None


def _explain(error: jsonschema.ValidationError) -> InputError:
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    kind = error.validator
    wanted: Any = error.validator_value
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = list(schema.get("properties", {}))
        extra = [key for key in error.instance if key not in known]
        key = extra[0] if extra else "?"
        return InputError(
            f"unknown key '{key}'{nearest(key, known)}",
            path=path + (key,),
            on_key=True,
            expected=one_of(known),
        )
    if kind == "required":
        instance: Any = error.instance
        missing = [key for key in wanted if key not in instance]
        return InputError(f"missing key '{missing[0]}'", path=path, expected=f"a '{missing[0]}' key here")
    if kind == "type":
        wanted_list = wanted if isinstance(wanted, list) else [wanted]
        words = " or ".join(TYPE_WORDS.get(str(w), str(w)) for w in wanted_list)
        return InputError(f"wrong type: got {described_value(error.instance)}", path=path, expected=words)
    if kind in ("enum", "const"):
        choices = wanted if kind == "enum" else [wanted]
        label = "value"
        if path and path[-1] == "game":
            label = "game"
        elif path and path[-1] == "action":
            label = "action"
        return InputError(
            f"unknown {label} {quoted(error.instance)}{nearest(str(error.instance), map(str, choices))}",
            path=path,
            expected=one_of(choices),
        )
    if kind == "pattern" and path and path[-1] == "id":
        return InputError(f"id {quoted(error.instance)} is not a slug", path=path, expected="lower-case words joined by '-', e.g. 'shotgun-under-nice-fight'")
    if kind == "pattern" and wanted == ISO_DATE:
        return InputError(f"date {quoted(error.instance)} is not written YYYY-MM-DD", path=path, expected="a date such as 2024-05-01")
    description = schema.get("description")
    limit = _limit(str(kind), wanted, error.instance)
    if limit is not None and kind == "pattern":  # a description says the form better than the regular expression
        return InputError(limit, path=path, expected=description or f"pattern: {wanted}")
    if limit is not None:
        bound = LIMIT_WORDS.get(str(kind), f"{kind}: {{}}").format(wanted)
        return InputError(limit, path=path, expected=f"{bound}: {description}" if description else bound)
    return InputError(f"not allowed here: {show(error.instance)} ({kind})", path=path, expected=description)

