"""A type described once gives its schema, its parser and its observation (checker.engine.described)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jsonschema
import pytest

from checker.engine.described import definitions, described, fact, facts, parse, spec, takes
from checker.engine.errors import InputError
from checker.engine.vocabulary import Vocabulary, ref


@described("effect", tag="kind")
@dataclass(frozen=True)
class Effect:
    kind: str = spec(description="What the effect does.")
    whose: str = spec("opponent", "Whose life it changes.", enum=["self", "opponent"])
    also: tuple[Effect, ...] = spec((), "What it goes on to do.")
    amount: int = spec(0, minimum=0, per_kind=True)
    coins: int = spec(0, "Coins flipped.", minimum=1)


@dataclass(frozen=True)
class Drain(Effect):
    """A kind with a parameter of its own."""

    pages: int = spec(1, "Pages drained.", minimum=1)


vocabulary = Vocabulary()


@vocabulary.effect("heal", "Heals 'amount'.", params=takes(Effect, "amount"))
def heal(*args: Any) -> None: ...


@vocabulary.effect("drain", "Drains 'pages' pages.", params=takes(Drain))
def drain(*args: Any) -> None: ...


@described("card", description="A card.")
@dataclass(frozen=True)
class Card:
    name: str  # the key it is listed under
    power: int = spec(description="Its Power.")
    card_class: str | None = spec(None, key="class", enum=["basic", "rare"])
    effects: tuple[Effect, ...] = spec(())


@described("side-state", facts="side-facts")
@dataclass
class Side:
    life: int = spec(10, "Life points.", minimum=0, fact=True)
    hand: list[str] = spec([], "Cards in hand.", items=ref("card-name"), fact=True)
    drawn: int = 0  # the rules' own


@described("state", facts="outcome")
@dataclass(kw_only=True)
class State:
    sides: dict[str, Side] = spec(keys=("A", "B"), fact=True)
    winner: str | None = fact(None, "Who won.")
    log: list[str] = fact(list, "What happened.", observed=lambda log: len(log), schema={"type": "integer"})


def test_a_type_gives_its_definition_and_its_facts_definition() -> None:
    found = definitions([State, Card])
    assert list(found) == ["state", "outcome", "side-state", "side-facts", "card"]  # the union's is the vocabulary's
    assert found["side-state"] == {
        "type": "object", "additionalProperties": False,
        "properties": {
            "life": {"type": "integer", "minimum": 0, "default": 10, "description": "Life points."},
            "hand": {"type": "array", "items": {"$ref": "#/card-name"}, "default": [], "description": "Cards in hand."},
        },
    }
    assert found["state"]["required"] == ["sides"]
    assert found["state"]["properties"]["sides"] == {
        "type": "object", "additionalProperties": False, "required": ["A", "B"],
        "properties": {"A": {"$ref": "#/side-state"}, "B": {"$ref": "#/side-state"}},
    }
    assert found["outcome"]["properties"]["winner"] == {"type": ["string", "null"], "description": "Who won."}
    assert found["outcome"]["properties"]["log"] == {"type": "integer", "description": "What happened."}
    assert found["card"]["required"] == ["power"]
    assert found["card"]["properties"]["class"] == {"enum": ["basic", "rare"]}
    assert found["card"]["properties"]["effects"] == {"type": "array", "items": {"$ref": "#/effect"}, "default": []}


def test_each_kind_takes_the_parameters_its_registration_names() -> None:
    heal_params = vocabulary.effects["effect"]["heal"].params
    assert list(heal_params) == ["whose", "also", "amount", "coins"]
    assert "default" not in heal_params["coins"]  # 0 stands for leaving the key out: a scenario could not write it
    assert list(vocabulary.effects["effect"]["drain"].params) == ["whose", "also", "coins", "pages"]
    with pytest.raises(TypeError, match="no per-kind parameters"):
        takes(Effect, "pages")


def test_data_parses_into_the_type_and_a_kind_into_its_own_type() -> None:
    card = parse(Card, {"power": 3, "class": "rare", "effects": [{"kind": "drain", "pages": 2, "also": [{"kind": "heal"}]}]},
                 name="Imp")
    assert card == Card(name="Imp", power=3, card_class="rare", effects=(Drain(kind="drain", pages=2, also=(Effect(kind="heal"),)),))
    state = parse(State, {"sides": {"A": {"hand": ["1"]}, "B": {"life": 3}}})
    assert state.sides == {"A": Side(hand=["1"]), "B": Side(life=3)}


@pytest.mark.parametrize(("data", "message", "path", "expected"), [
    ({"power": "3"}, "wrong type: got text '3'", ("cards", "Imp", "power"), "a whole number"),
    ({"power": True}, "wrong type: got true", ("cards", "Imp", "power"), "a whole number"),
    ({"powr": 3}, "unknown key 'powr' (did you mean 'power'?)", ("cards", "Imp", "powr"), "one of 'power', 'class', 'effects'"),
    ({}, "missing key 'power'", ("cards", "Imp"), "a 'power' key here"),
    ({"power": 1, "class": "epic"}, "unknown value 'epic'", ("cards", "Imp", "class"), "one of 'basic', 'rare'"),
    ({"power": 1, "effects": [{"kind": "heal", "whose": "me"}]}, "unknown value 'me'", ("cards", "Imp", "effects", 0, "whose"),
     "one of 'self', 'opponent'"),
    ({"power": 1, "effects": [{"kind": "drain", "also": [{"kind": "heal", "pages": 1}]}]}, "unknown key 'pages'",
     ("cards", "Imp", "effects", 0, "also", 0, "pages"), None),
    ({"power": 1, "effects": {"kind": "heal"}}, "wrong type: got a mapping", ("cards", "Imp", "effects"), "a list"),
])
def test_bad_data_is_refused_where_it_stands(data: dict[str, Any], message: str, path: tuple[Any, ...], expected: str | None) -> None:
    with pytest.raises(InputError) as caught:
        parse(Card, data, ("cards", "Imp"), name="Imp")
    assert (caught.value.message, caught.value.path) == (message, path)
    if expected is not None:
        assert caught.value.expected == expected


def test_observing_reports_the_facts_the_outcome_definition_describes() -> None:
    state = State(sides={"A": Side(life=4, hand=["2"], drawn=1), "B": Side()}, log=["x", "y"])
    observed = facts(state)
    assert observed == {"sides": {"A": {"life": 4, "hand": ["2"]}, "B": {"life": 10, "hand": []}}, "winner": None, "log": 2}
    schema = {"$ref": "#/outcome", "card-name": {"type": "string"}, **definitions([State])}
    jsonschema.validate(observed, schema)


def test_a_field_made_without_spec_is_the_rules_own() -> None:
    with pytest.raises(InputError, match="unknown key 'drawn'"):
        parse(Side, {"drawn": 2})
    assert "drawn" not in facts(Side())
    assert field  # the dataclass machinery is the standard one
