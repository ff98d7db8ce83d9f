"""Many Marios 0: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.many_marios_0 import GAME

CARDS = {
    "Mario": {"kind": "unit", "ap": 1, "full_energy": 3},
    "Mushroom": {"kind": "item", "ap": 1, "de": 1},
    "Fort": {"kind": "building", "ap": 1, "ae": 1},
}
LEGAL_B = {"lineup": [{"unit": "Mario"}]}


def refusal(army_a: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        GAME.setup({"ap_limit": 10, "armies": {"A": army_a, "B": LEGAL_B}}, CARDS, Context(GAME))
    return caught.value


def test_an_unknown_unit_is_named_with_the_nearest_unit_and_its_place() -> None:
    error = refusal({"lineup": [{"unit": "Marion"}]})
    assert error.message == "unknown unit 'Marion' (did you mean 'Mario'?)"
    assert error.path == ("initial", "armies", "A", "lineup", 0, "unit")
    assert error.expected == "a unit defined under 'cards:'"


def test_a_card_of_another_kind_is_not_a_unit_and_only_units_are_suggested() -> None:
    error = refusal({"lineup": [{"unit": "Mushroom"}]})
    assert error.message == "unknown unit 'Mushroom'"
    assert error.path == ("initial", "armies", "A", "lineup", 0, "unit")


def test_an_unknown_item_and_an_unknown_building_are_located() -> None:
    item = refusal({"lineup": [{"unit": "Mario", "items": ["Mushroom", "Mushrom"]}]})
    assert item.message == "unknown item 'Mushrom' (did you mean 'Mushroom'?)"
    assert item.path == ("initial", "armies", "A", "lineup", 0, "items", 1)
    assert item.expected == "a item defined under 'cards:'"
    building = refusal({"lineup": [{"unit": "Mario"}], "buildings": ["Mario"]})
    assert building.message == "unknown building 'Mario'"
    assert building.path == ("initial", "armies", "A", "buildings", 0)


def test_a_unit_cannot_enter_above_its_full_energy() -> None:
    error = refusal({"lineup": [{"unit": "Mario", "energy": 4}]})
    assert error.message == "Mario has 4 energy, above its full 3"
    assert error.path == ("initial", "armies", "A", "lineup", 0, "energy")
    assert error.expected == "at most 3"
    at_full = GAME.setup({"ap_limit": 10, "armies": {"A": {"lineup": [{"unit": "Mario", "energy": 3}]}, "B": LEGAL_B}},
                         CARDS, Context(GAME))
    assert at_full.armies["A"].lineup[0].energy == 3


def test_two_units_of_one_army_need_two_names() -> None:
    error = refusal({"lineup": [{"unit": "Mario"}, {"unit": "Mario"}]})
    assert error.message == "two units named 'Mario' in army A"
    assert error.path == ("initial", "armies", "A", "lineup", 1)
    assert error.expected == "names unique per army (give 'name:' to field two of a unit)"
