"""My Crypto Saga: an initial state the rules cannot start from or an action they
cannot carry out as written, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.engine.errors import InputError
from checker.games.my_crypto_saga.state import build_state
from tests.refusals import refusal_of_last

KAMI = ["Zeus", "Hera", "Ares", "Apollo", "Athena", "Hermes", "Pan", "Eros", "Nike", "Iris"]


def deck(seat: str) -> list[dict[str, Any]]:
    return [{"id": f"{seat.lower()}{n}", "kami": f"{KAMI[n - 1]} {seat}", "number": n, "element": "Fire", "kp": 100}
            for n in range(1, 11)]


def initial(players: list[str], decks: dict[str, Any]) -> dict[str, Any]:
    return {"players": players, "decks": decks, "charge_regulation": 20, "wait_kp": 10}


def refusal(players: list[str], decks: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        build_state(initial(players, decks), {})
    return caught.value


def test_a_player_listed_twice_is_refused() -> None:
    error = refusal(["A", "A"], {"A": deck("A")})
    assert error.message == "a player is listed twice"
    assert error.path == ("initial", "players") and error.expected == "2 to 4 different seats"


def test_every_player_needs_a_deck() -> None:
    error = refusal(["A", "B"], {"A": deck("A")})
    assert error.message == "player B has no deck"
    assert error.path == ("initial", "decks") and error.expected == "a deck for B"


def test_a_card_id_is_unique_across_all_decks() -> None:
    second = deck("B")
    second[3]["id"] = "a7"
    error = refusal(["A", "B"], {"A": deck("A"), "B": second})
    assert error.message == "card id 'a7' is used twice"
    assert error.path == ("initial", "decks", "B", 3, "id") and error.expected == "ids unique across all decks"


def test_the_battle_is_the_scenarios_own() -> None:
    state = build_state(initial(["A", "B"], {"A": deck("A"), "B": deck("B")}), {})
    assert state.seats == ("A", "B") and (state.charge_regulation, state.wait_kp) == (20, 10)
    assert state.players["B"].deck == [f"b{n}" for n in range(1, 11)] and state.players["B"].hand == []
    card = state.cards["b4"]
    assert (card.owner, card.kami, card.number, card.element, card.kp) == ("B", "Apollo B", 4, "Fire", 100)


# --- An action the rules cannot carry out as written ------------------------------------------


def action_refusal(*actions: dict[str, Any]) -> InputError:
    from checker.engine.game import Context
    from checker.games.my_crypto_saga import GAME

    context = Context(GAME)
    state = GAME.setup(initial(["A", "B"], {"A": deck("A"), "B": deck("B")}), {}, context)
    return refusal_of_last(GAME, state, context, actions)


def test_every_player_in_the_battle_is_dealt_a_hand_of_their_own_deck() -> None:
    missing = action_refusal({"action": "deal", "hands": {"A": ["a1", "a2", "a3"]}})
    assert missing.message == "no hand dealt to B"
    assert missing.path == ("hands",) and missing.expected == "3 cards for each of A, B"
    foreign = action_refusal({"action": "deal", "hands": {"A": ["a1", "a2", "a3"], "B": ["b1", "a4", "b3"]}})
    assert foreign.message == "'a4' is not in B's deck"
    assert foreign.path == ("hands", "B", 1)
    assert foreign.expected == "a card of B's deck: " + ", ".join(f"b{n}" for n in range(1, 11))


def test_every_player_in_the_game_makes_a_choice() -> None:
    error = action_refusal({"action": "deal", "hands": {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]}},
                           {"action": "pre-round", "select": {"A": "a1"}})
    assert error.message == "no select for B"
    assert error.path == ("select",) and error.expected == "a select for each player in the game, or 'timeout'"
