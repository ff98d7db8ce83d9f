"""Yu-Gi-Oh! Duel Monsters 2: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.errors import InputError
from checker.game import Context
from checker.games.yugioh_dm2 import GAME
from tests.refusals import refusal_of_last

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


# --- An action the rules cannot carry out as written ------------------------------------------

FIELD = {
    "A": {"hand": ["Trap Hole"], "monsters": {1: {"card": "Knight", "name": "Red"}}},
    "B": {"monsters": {2: {"card": "Knight", "name": "Blue"}}},
}


def action_refusal(*actions: dict[str, Any]) -> InputError:
    context = Context(GAME)
    state = GAME.setup({"players": FIELD}, CARDS, context)
    return refusal_of_last(GAME, state, context, [{"action": "battle-phase", "player": "A"}, *actions])


def test_an_attacker_not_on_the_field_is_named_with_the_monsters_that_are() -> None:
    error = action_refusal({"action": "attack", "attacker": "Rde", "target": "Blue"})
    assert error.message == "no monster named 'Rde' on the field (did you mean 'Red'?)"
    assert error.path == ("attacker",) and error.expected == "one of: Red, Blue"


def test_an_attack_is_made_by_the_turn_players_monster_on_the_opponents() -> None:
    theirs = action_refusal({"action": "attack", "attacker": "Blue", "target": "Red"})
    assert theirs.message == "Blue is not A's monster" and theirs.path == ("attacker",)
    own = action_refusal({"action": "attack", "attacker": "Red", "target": "Red"})
    assert own.message == "Red is not B's monster" and own.path == ("target",)


def test_an_attack_names_what_it_attacks() -> None:
    error = action_refusal({"action": "attack", "attacker": "Red"})
    assert error.message == "an attack names its target ('target:'), targets, a 'target_zone:', or is 'direct: true'"


def test_only_a_magic_or_trap_card_with_an_effect_is_activated() -> None:
    error = action_refusal({"action": "activate", "player": "A", "card": "Knight"})
    assert error.message == "Knight is not a Magic or Trap card with an effect" and error.path == ("card",)
