"""Monster Rancher Battle Card 2: an initial state the rules cannot start from or an action they
cannot carry out as written, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.engine.errors import InputError
from checker.engine.game import Context
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


def test_a_single_target_move_declares_its_target_now() -> None:
    error = action_refusal({"card": "Jab"})
    assert error.message == "Jab damages one monster: declare its target now"
    assert error.path == () and error.expected == "a 'target:' key"


def test_a_move_of_another_spread_declares_no_single_target() -> None:
    error = action_refusal({"card": "Quake", "target": "Pixie"})
    assert error.message == "Quake is a aoe move and declares no single target"
    assert error.path == ("target",) and error.expected is None


def test_a_distributable_move_says_how_its_damage_is_split() -> None:
    error = action_refusal({"card": "Spray"})
    assert error.message == "Spray is distributable: say how the damage is split"
    assert error.path == () and error.expected == "a 'split:' key"


def test_an_attack_names_its_user_its_combo_and_its_split_where_they_stand() -> None:
    user = action_refusal({"monster": "Golme", "card": "Jab", "target": "Pixie"})
    assert user.message == "side A has no monster named 'Golme'"
    assert user.path == ("monster",) and user.expected == "a monster of side A: Golem"
    unknown = action_refusal({"card": "Jab", "target": "Pixie", "combo": ["Critcal"]})
    assert unknown.message == "unknown card 'Critcal' (did you mean 'Critical'?)"
    assert unknown.path == ("combo", 0)
    not_combo = action_refusal({"card": "Jab", "target": "Pixie", "combo": ["Doll"]})
    assert not_combo.message == "'Doll' is a skill card, not usable with this action"
    assert not_combo.path == ("combo", 0) and not_combo.expected == "a combo card"
    split = action_refusal({"card": "Spray", "split": {"Pixy": 4}})
    assert split.message == "side B has no monster named 'Pixy'"
    assert split.path == ("split", "Pixy") and split.expected == "a monster of side B: Pixie, Mew"


def defend_refusal(defense: dict[str, Any]) -> InputError:
    """A's Golem uses Jab on Pixie; then B (Pixie, Golem, holding Protect and Doll) plays ``defense``."""
    initial = {"players": {
        "A": {"hand": ["Jab"], "monsters": [{"name": "Golem", "attribute": "Ground", "lp": 20}]},
        "B": {"hand": ["Protect", "Doll"], "monsters": [PIXIE, {"name": "Golem", "attribute": "Ground", "lp": 20}]},
    }}
    context = Context(GAME)
    state = GAME.setup(initial, ACTION_CARDS, context)
    attack = {"action": "attack", "player": "A", "monster": "Golem", "card": "Jab", "target": "Pixie"}
    return refusal_of_last(GAME, state, context, [attack, {"action": "defend", "player": "B", **defense}])


def test_a_defense_card_names_its_user_its_card_and_its_ally_where_they_stand() -> None:
    user = defend_refusal({"monster": "Golme", "card": "Protect", "choose": "Pixie"})
    assert user.message == "side B has no monster named 'Golme'"
    assert user.path == ("monster",) and user.expected == "a monster of side B: Pixie, Golem"
    unknown = defend_refusal({"monster": "Golem", "card": "Protet", "choose": "Pixie"})
    assert unknown.message == "unknown card 'Protet' (did you mean 'Protect'?)" and unknown.path == ("card",)
    not_defense = defend_refusal({"monster": "Pixie", "card": "Doll"})
    assert not_defense.message == "'Doll' is a skill card, not usable with this action"
    assert not_defense.path == ("card",) and not_defense.expected == "a defense card"
    ally = defend_refusal({"monster": "Golem", "card": "Protect", "choose": "Pixy"})
    assert ally.message == "side B has no monster named 'Pixy'"
    assert ally.path == ("choose",) and ally.expected == "a monster of side B: Pixie, Golem"


# --- A skill, an ENV card or a defense card the rules cannot play as written -------------------

PLAY_CARDS = {
    **ACTION_CARDS,
    "Trade In": {"kind": "skill", "user": "breeder", "effects": [{"kind": "discard-from-hand", "amount": 1}]},
    "Salvage": {"kind": "skill", "user": "breeder", "effects": [{"kind": "take-from-discard", "amount": 1}]},
    "Powder": {"kind": "skill", "type": "SPE", "user": "Pixie", "effects": [{"kind": "lose-lp", "to": "target", "amount": 2}]},
    "Mend": {"kind": "skill", "user": "any", "effects": [{"kind": "revive", "amount": 5, "to": "own-monster"}]},
    "Brace": {"kind": "skill", "user": "breeder", "effects": [{"kind": "grant-status", "status": "Doll", "to": "self"}]},
    "Purge": {"kind": "skill", "user": "breeder",
              "effects": [{"kind": "discard-from-hand", "amount": 1}, {"kind": "discard-from-hand", "amount": 1}]},
    "Cover Up": {"kind": "defense", "user": "any", "effects": [{"kind": "take-for-ally"}]},
    "Hand Off": {"kind": "defense", "user": "any", "effects": [{"kind": "pass-to-ally"}]},
}


def play_refusal(*actions: dict[str, Any], hand: list[str] | None = None) -> InputError:
    """A (Pixie, Golem) holds skills, an ENV and an attack, Doll in the discard pile; B (Centaur, Zilla) holds
    Blowhole and two redirections."""
    initial = {"players": {
        "A": {"hand": hand or ["Last Trump", "Trade In", "Salvage", "Critical", "Powder", "Cool Judge", "Jab"],
              "deck": ["Shotgun"], "discard": ["Doll"],
              "monsters": [PIXIE, {"name": "Golem", "attribute": "Ground", "lp": 20}]},
        "B": {"hand": ["Blowhole", "Cover Up", "Hand Off"], "monsters": [{"name": "Centaur", "attribute": "Ground", "lp": 10},
                                                  {"name": "Zilla", "attribute": "Ground", "lp": 10}]},
    }}
    context = Context(GAME)
    state = GAME.setup(initial, PLAY_CARDS, context)
    return refusal_of_last(GAME, state, context, [{"player": "A", **action} for action in actions])


def test_a_skill_names_its_card_its_combo_and_its_user_where_they_stand() -> None:
    card = play_refusal({"action": "skill", "card": "Last Trmp"})
    assert card.message == "unknown card 'Last Trmp' (did you mean 'Last Trump'?)" and card.path == ("card",)
    combo = play_refusal({"action": "skill", "card": "Last Trump", "combo": ["Critcal"], "choose_cards": ["Critical"]})
    assert combo.message == "unknown card 'Critcal' (did you mean 'Critical'?)" and combo.path == ("combo", 0)
    user = play_refusal({"action": "skill", "monster": "Pixy", "card": "Powder", "target": "Centaur"})
    assert user.message == "side A has no monster named 'Pixy'" and user.path == ("monster",)
    target = play_refusal({"action": "skill", "monster": "Pixie", "card": "Powder", "target": "Centuar"})
    assert target.message == "side B has no monster named 'Centuar'" and target.path == ("target",)
    assert target.expected == "a monster of side B: Centaur, Zilla"


def test_a_card_of_another_kind_is_neither_a_skill_nor_an_env() -> None:
    skill = play_refusal({"action": "skill", "monster": "Golem", "card": "Jab"})
    assert skill.message == "'Jab' is a attack card, not usable with this action"
    assert skill.path == ("card",) and skill.expected == "a skill card"
    env = play_refusal({"action": "env", "card": "Last Trump"})
    assert env.message == "'Last Trump' is a skill card, not usable with this action"
    assert env.path == ("card",) and env.expected == "a env card"
    unknown = play_refusal({"action": "env", "card": "Cool Jdge"})
    assert unknown.message == "unknown card 'Cool Jdge' (did you mean 'Cool Judge'?)" and unknown.path == ("card",)


def test_blowhole_names_the_monster_it_changes_among_its_own_side() -> None:
    error = play_refusal(
        {"action": "attack", "monster": "Golem", "card": "Jab", "target": "Centaur"},
        {"action": "defend", "player": "B", "monster": "Zilla", "card": "Blowhole", "choose": "Centuar"},
    )
    assert error.message == "side B has no monster named 'Centuar'"
    assert error.path == ("choose",) and error.expected == "a monster of side B: Centaur, Zilla"


def test_the_cards_a_skill_moves_are_listed_from_the_hand() -> None:
    missing = play_refusal({"action": "skill", "card": "Trade In"})
    assert missing.message == "Trade In moves 1 card(s) from the hand: list them in 'choose_cards'"
    assert missing.path == ("choose_cards",)
    assert missing.expected == "1 card name(s) from: Last Trump, Salvage, Critical, Powder, Cool Judge, Jab"
    too_many = play_refusal({"action": "skill", "card": "Trade In", "choose_cards": ["Critical", "Jab"]})
    assert too_many.path == ("choose_cards",)
    not_held = play_refusal({"action": "skill", "card": "Trade In", "choose_cards": ["Shotgun"]})
    assert not_held.path == ("choose_cards",)
    from_discard = play_refusal({"action": "skill", "card": "Salvage", "choose_cards": ["Critical"]})
    assert from_discard.message == "Salvage moves 1 card(s) from the discard pile: list them in 'choose_cards'"
    assert from_discard.path == ("choose_cards",) and from_discard.expected == "1 card name(s) from: Doll, Salvage"


def test_a_pile_emptied_by_the_cards_first_effect_offers_nothing_to_its_second() -> None:
    error = play_refusal({"action": "skill", "card": "Purge", "choose_cards": ["Critical"]}, hand=["Purge", "Critical"])
    assert error.message == "Purge moves 1 card(s) from the hand: list them in 'choose_cards'"
    assert error.path == ("choose_cards",) and error.expected == "1 card name(s) from: nothing"


def test_last_trump_with_one_card_left_in_hand_needs_the_choice() -> None:
    error = play_refusal({"action": "skill", "card": "Last Trump", "shuffle": [0, 1]}, hand=["Last Trump", "Critical"])
    assert error.message == "Last Trump returns 1 card(s): list them in 'choose_cards'"
    assert error.path == ("choose_cards",) and error.expected == "1 card name(s) from the hand"


def test_a_shuffle_into_the_deck_gives_its_result() -> None:
    error = play_refusal({"action": "skill", "card": "Last Trump", "choose_cards": ["Critical"]})
    assert error.message == "Last Trump shuffles the deck: give the result as 'shuffle:'"
    assert error.path == ()
    assert error.expected == "a list ordering the deck's positions 0..1 (0 = the current top card)"


def test_the_result_of_a_shuffle_orders_every_position_once() -> None:
    error = play_refusal({"action": "skill", "card": "Last Trump", "choose_cards": ["Critical"], "shuffle": [1, 1]})
    assert error.message == "'shuffle' is not an ordering of the deck's positions"
    assert error.path == ("shuffle",)
    assert error.expected == "each of 0..1 once (the deck plus the returned cards: Shotgun, Critical)"


def test_a_skill_acting_on_its_user_needs_the_monster_using_it() -> None:
    error = play_refusal({"action": "skill", "card": "Brace"}, hand=["Brace"])
    assert error.message == "Brace acts on its user: name it with 'monster:'"
    assert error.path == () and error.expected == "a 'monster:' key"


@pytest.mark.parametrize("card", ["Powder", "Mend"])
def test_a_skill_acting_on_a_monster_names_its_target(card: str) -> None:
    error = play_refusal({"action": "skill", "monster": "Pixie", "card": card}, hand=[card])
    assert error.message == f"{card} needs a target: name it with 'target:'"
    assert error.path == () and error.expected == "a 'target:' key"


JAB_AT_CENTAUR = {"action": "attack", "monster": "Golem", "card": "Jab", "target": "Centaur"}


@pytest.mark.parametrize("card", ["Cover Up", "Hand Off"])
def test_a_redirection_names_the_ally_it_acts_with(card: str) -> None:
    error = play_refusal(JAB_AT_CENTAUR, {"action": "defend", "player": "B", "monster": "Centaur", "card": card})
    assert error.message == f"{card} needs an ally: name it with 'choose:'"
    assert error.path == () and error.expected == "a 'choose:' key"


@pytest.mark.parametrize("card", ["Cover Up", "Hand Off"])
def test_the_ally_of_a_redirection_is_another_monster_than_its_user(card: str) -> None:
    error = play_refusal(JAB_AT_CENTAUR,
                         {"action": "defend", "player": "B", "monster": "Centaur", "card": card, "choose": "Centaur"})
    assert error.message == f"{card} needs another monster than its user"
    assert error.path == ("choose",) and error.expected is None
