"""Monster Rancher Battle Card 2: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.errors import InputError
from checker.game import Context
from checker.games.monster_rancher_bc2 import GAME
from tests.refusals import refusal_of_last

LEGAL_B = {"monsters": [{"name": "Golem", "attribute": "Ground", "lp": 20}]}


def setup(side_a: dict[str, Any], **more: Any) -> Any:
    return GAME.setup({"players": {"A": side_a, "B": LEGAL_B}, **more}, {}, Context(GAME))


def refusal(side_a: dict[str, Any], **more: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        setup(side_a, **more)
    return caught.value


PIXIE = {"name": "Pixie", "attribute": "Air", "lp": 10}


@pytest.mark.parametrize("pile", ["hand", "deck", "discard"])
def test_an_unknown_card_in_a_pile_is_named_with_its_place(pile: str) -> None:
    error = refusal({pile: ["Doll", "Dol"], "monsters": [PIXIE]})
    assert error.message == "unknown card 'Dol' (did you mean 'Doll'?)"
    assert error.path == ("initial", "players", "A", pile, 1)
    assert error.expected == "a card of the catalogue or one defined under 'cards:'"


def test_the_piles_are_the_breeders_own() -> None:
    state = setup({"hand": ["Doll"], "deck": ["Grit"], "discard": ["Doll", "Grit"], "guts": 3, "monsters": [PIXIE]})
    breeder = state.players["A"]
    assert (breeder.hand, breeder.deck, breeder.discard, breeder.guts) == (["Doll"], ["Grit"], ["Doll", "Grit"], 3)


def test_two_monsters_of_one_side_need_two_names() -> None:
    error = refusal({"monsters": [PIXIE, PIXIE]})
    assert error.message == "two monsters named 'Pixie' on side A"
    assert error.path == ("initial", "players", "A", "monsters", 1, "name")
    assert error.expected == "names unique per side (give 'species' to field two of a kind)"


def test_an_unknown_status_is_located_on_its_monster_or_breeder() -> None:
    on_monster = refusal({"monsters": [{**PIXIE, "statuses": {"Dol": 1}}]})
    assert on_monster.message == "unknown status 'Dol' (did you mean 'Doll'?)"
    assert on_monster.path == ("initial", "players", "A", "monsters", 0, "statuses", "Dol")
    assert on_monster.expected == "a status of the catalogue or one defined under 'cards:'"
    on_breeder = refusal({"monsters": [PIXIE], "statuses": {"Dol": 1}})
    assert on_breeder.path == ("initial", "players", "A", "statuses", "Dol")


def test_the_env_in_play_must_be_an_env_card() -> None:
    unknown = refusal({"monsters": [PIXIE]}, env="Cool Jdge")
    assert unknown.message == "unknown card 'Cool Jdge' (did you mean 'Cool Judge'?)"
    assert unknown.path == ("initial", "env")
    not_env = refusal({"monsters": [PIXIE]}, env="Doll")
    assert not_env.message == "'Doll' is not an ENV card"
    assert not_env.path == ("initial", "env") and not_env.expected == "an ENV card"


# --- An action the rules cannot carry out as written ------------------------------------------

ACTION_CARDS = {
    "Jab": {"kind": "attack", "user": "Golem", "damage": 3},
    "Quake": {"kind": "attack", "user": "Golem", "damage": 2, "spread": "aoe"},
    "Spray": {"kind": "attack", "user": "Golem", "damage": 4, "spread": "distributable"},
}


def action_refusal(action: dict[str, Any]) -> InputError:
    initial = {"players": {
        "A": {"hand": ["Jab", "Quake", "Spray", "Doll"], "monsters": [{"name": "Golem", "attribute": "Ground", "lp": 20}]},
        "B": {"monsters": [PIXIE, {"name": "Mew", "attribute": "Ground", "lp": 10}]},
    }}
    context = Context(GAME)
    state = GAME.setup(initial, ACTION_CARDS, context)
    return refusal_of_last(GAME, state, context, [{"action": "attack", "player": "A", "monster": "Golem", **action}])


def test_a_target_that_is_not_a_monster_of_the_other_side_is_named_with_the_ones_that_are() -> None:
    error = action_refusal({"card": "Jab", "target": "Golem"})
    assert error.message == "side B has no monster named 'Golem'"
    assert error.path == ("target",)
    assert error.expected == "a monster of side B: Pixie, Mew"


def test_a_card_of_another_kind_cannot_attack() -> None:
    error = action_refusal({"card": "Doll"})
    assert error.message == "'Doll' is a skill card, not usable with this action"
    assert error.path == ("card",) and error.expected == "a attack card"


def test_a_single_target_move_needs_its_target_and_others_take_none() -> None:
    missing = action_refusal({"card": "Jab"})
    assert missing.message == "Jab damages one monster: declare its target now"
    assert missing.expected == "a 'target:' key"
    extra = action_refusal({"card": "Quake", "target": "Pixie"})
    assert extra.message == "Quake is a aoe move and declares no single target"
    assert extra.path == ("target",)
    split = action_refusal({"card": "Spray"})
    assert split.message == "Spray is distributable: say how the damage is split"
    assert split.expected == "a 'split:' key"
