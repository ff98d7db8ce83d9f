"""Yu-Gi-Oh! Duel Monsters 2: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.errors import InputError
from checker.game import Context
from checker.games.yugioh_dm2 import GAME

CARDS = {"Knight": {"type": "monster", "atk": 1200, "def": 1000}, "Trap Hole": {"type": "trap"}}


def setup(side_a: dict[str, Any], **more: Any) -> Any:
    return GAME.setup({"players": {"A": side_a, "B": {}}, **more}, CARDS, Context(GAME))


def refusal(side_a: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        setup(side_a)
    return caught.value


@pytest.mark.parametrize("pile", ["hand", "set", "graveyard"])
def test_an_unknown_card_in_a_pile_is_named_with_its_place(pile: str) -> None:
    error = refusal({pile: ["Knight", "Knigt"]})
    assert error.message == "unknown card 'Knigt' (did you mean 'Knight'?)"
    assert error.path == ("initial", "players", "A", pile, 1)
    assert error.expected == "a card defined under 'cards:' (this chapter names no cards)"


def test_the_piles_and_life_points_are_the_players_own() -> None:
    state = setup({"lp": 4000, "hand": ["Knight"], "set": ["Trap Hole"], "graveyard": ["Knight", "Trap Hole"]})
    player = state.players["A"]
    assert (player.lp, player.hand, player.set_cards, player.graveyard) == (4000, ["Knight"], ["Trap Hole"], ["Knight", "Trap Hole"])
    assert state.players["B"].lp == 8000


def test_a_monster_on_the_field_must_be_a_known_monster_card() -> None:
    unknown = refusal({"monsters": {1: {"card": "Knigt"}}})
    assert unknown.message == "unknown card 'Knigt' (did you mean 'Knight'?)"
    assert unknown.path == ("initial", "players", "A", "monsters", 1, "card")
    trap = refusal({"monsters": {1: {"card": "Trap Hole"}}})
    assert trap.message == "'Trap Hole' is not a monster card"
    assert trap.path == ("initial", "players", "A", "monsters", 1, "card") and trap.expected == "a monster card"


def test_two_monsters_on_the_field_need_two_names() -> None:
    error = refusal({"monsters": {1: {"card": "Knight"}, 2: {"card": "Knight"}}})
    assert error.message == "two monsters named 'Knight' on the field"
    assert error.path == ("initial", "players", "A", "monsters", 2)
    assert error.expected == "names unique on the field (give 'name:' to field two of a card)"
