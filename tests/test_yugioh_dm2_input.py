"""Yu-Gi-Oh! Duel Monsters 2: an initial state the rules cannot start from or an action they
cannot carry out as written, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.yugioh_dm2 import GAME
from checker.run.suite import Suite
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

ACTION_CARDS = {
    **CARDS,
    "Pitfall": {"type": "trap", "effect": {"kind": "destroy"}},
    "Shove": {"type": "magic", "effect": {"kind": "move"}},
    "Call": {"type": "magic", "effect": {"kind": "special-summon", "monster": "Knight", "from": "hand"}},
}
FIELD = {
    "A": {"hand": ["Trap Hole", "Pitfall", "Shove", "Call", "Knight"], "monsters": {1: {"card": "Knight", "name": "Red"}}},
    "B": {"monsters": {2: {"card": "Knight", "name": "Blue"}}},
}


def action_refusal(*actions: dict[str, Any], field: dict[str, Any] = FIELD) -> InputError:
    """The message for the last of ``actions``, played in A's Battle Phase."""
    context = Context(GAME)
    state = GAME.setup({"players": field}, ACTION_CARDS, context)
    return refusal_of_last(GAME, state, context, [{"action": "battle-phase", "player": "A"}, *actions])


def chain_refusal(activation: dict[str, Any]) -> InputError:
    """The message as the Chain holding A's ``activation`` (made before the Battle Phase) resolves."""
    context = Context(GAME)
    state = GAME.setup({"players": FIELD}, ACTION_CARDS, context)
    return refusal_of_last(GAME, state, context, [{"action": "activate", "player": "A", **activation}, {"action": "resolve-chain"}])


def test_an_attacker_not_on_the_field_is_named_with_the_monsters_that_are() -> None:
    error = action_refusal({"action": "attack", "attacker": "Rde", "target": "Blue"})
    assert error.message == "no monster named 'Rde' on the field (did you mean 'Red'?)"
    assert error.path == ("attacker",) and error.expected == "one of: Red, Blue"


def test_a_monster_named_on_an_empty_field_is_told_there_is_none() -> None:
    error = action_refusal({"action": "attack", "attacker": "Red", "target": "Blue"}, field={"A": {}, "B": {}})
    assert error.message == "no monster named 'Red' on the field"
    assert error.path == ("attacker",) and error.expected == "one of: no monster is on the field"


def test_an_attack_is_made_by_the_turn_players_monster() -> None:
    error = action_refusal({"action": "attack", "attacker": "Blue", "target": "Red"})
    assert error.message == "Blue is not A's monster"
    assert error.path == ("attacker",) and error.expected is None


def test_an_attack_targets_the_opponents_monster() -> None:
    error = action_refusal({"action": "attack", "attacker": "Red", "target": "Red"})
    assert error.message == "Red is not B's monster"
    assert error.path == ("target",) and error.expected is None


def test_an_attack_names_what_it_attacks() -> None:
    error = action_refusal({"action": "attack", "attacker": "Red"})
    assert error.message == "an attack names its target ('target:'), targets, a 'target_zone:', or is 'direct: true'"
    assert error.path == () and error.expected is None


@pytest.mark.parametrize("card", ["Knight", "Trap Hole"], ids=["a monster card", "a trap without an effect"])
def test_only_a_magic_or_trap_card_with_an_effect_is_activated(card: str) -> None:
    error = action_refusal({"action": "activate", "player": "A", "card": card})
    assert error.message == f"{card} is not a Magic or Trap card with an effect"
    assert error.path == ("card",) and error.expected is None


def test_an_effect_on_a_monster_resolves_on_the_target_its_activation_named() -> None:
    error = chain_refusal({"card": "Pitfall"})
    assert error.message == "Pitfall needs a target: name it with 'target:'"
    assert error.path == () and error.expected == "a 'target:' key"


@pytest.mark.parametrize("zone", [{}, {"zone": 2}], ids=["no zone", "the zone it stands in"])
def test_a_monster_moves_to_an_empty_zone_its_activation_named(zone: dict[str, Any]) -> None:
    error = chain_refusal({"card": "Shove", "target": "Blue", **zone})
    assert error.message == "Shove moves Blue to an empty Monster Card Zone: give 'zone:'"
    assert error.path == ("zone",) and error.expected is None


@pytest.mark.parametrize("zone", [{}, {"zone": 1}], ids=["no zone", "a zone a monster stands in"])
def test_a_special_summon_places_its_monster_in_an_empty_zone_its_activation_named(zone: dict[str, Any]) -> None:
    error = chain_refusal({"card": "Call", **zone})
    assert error.message == "Call places Knight in an empty Monster Card Zone: give 'zone:'"
    assert error.path == ("zone",) and error.expected is None


# --- Bad input found as the Chain resolves is the activation's ----------------------------------


def test_a_value_read_as_the_chain_resolves_is_reported_at_the_activation_that_wrote_it() -> None:
    context = Context(GAME)
    state = GAME.setup({"players": FIELD}, ACTION_CARDS, context)
    context.action = 0
    state = GAME.apply(state, {"action": "activate", "player": "A", "card": "Shove", "target": "Blue"}, context)
    context.action = 1
    with pytest.raises(InputError) as caught:
        GAME.apply(state, {"action": "resolve-chain"}, context)
    assert caught.value.action == 0 and caught.value.path == ("zone",)


def test_a_scenario_with_a_bad_target_points_at_the_line_of_the_activation(tmp_path: Path) -> None:
    scenario = tmp_path / "bad-target.yaml"
    scenario.write_text(
        "id: bad-target\n"
        "game: yugioh-dm2\n"
        "title: A target misspelt in the activation\n"
        "cards:\n"
        "  Knight: {type: monster, atk: 1200, def: 1000}\n"
        "  Pitfall: {type: trap, effect: {kind: destroy}}\n"
        "initial:\n"
        "  players:\n"
        "    A: {hand: [Pitfall]}\n"
        "    B: {monsters: {2: {card: Knight, name: Blue}}}\n"
        "actions:\n"
        "  - {action: activate, player: A, card: Pitfall, target: Bleu}\n"
        "  - {action: resolve-chain}\n"
        "expect: {players: {B: {graveyard: [Knight]}}}\n",
        encoding="utf-8")
    [result] = Suite({GAME.id: GAME}).check([scenario])
    assert result.verdict == "invalid" and result.error is not None
    assert result.error.render("bad-target.yaml") == (
        "bad-target.yaml:12:58: error: no monster named 'Bleu' on the field (did you mean 'Blue'?) "
        "(expected one of: Blue)")
