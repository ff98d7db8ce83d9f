"""My Crypto Saga: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.errors import InputError
from checker.games.my_crypto_saga.state import build_state

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
