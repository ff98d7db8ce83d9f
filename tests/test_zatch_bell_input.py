"""Zatch Bell! The Card Battle: an initial state the rules cannot start from, and the message that says why.

Each message names what is wrong, where it stands in the file and what would be accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.zatch_bell import GAME
from checker.run import suite

LEGAL_B = {"book": {1: "Brago"}}
BOOK_A = {1: "Zatch Bell", 2: "Kiyo Takamine", 3: "Gofure", 4: "Gofure (Transformed)"}


def refusal(side_a: dict[str, Any], cards: dict[str, Any] | None = None) -> InputError:
    """The message for a game that starts in the Battle Phase with A's side as given (B: Brago alone)."""
    initial = {"start": "battle-phase", "players": {"A": side_a, "B": LEGAL_B}}
    with pytest.raises(InputError) as caught:
        GAME.setup(initial, cards or {}, Context(GAME))
    return caught.value


def test_a_card_of_the_scenario_that_the_catalogue_lacks_gives_its_type() -> None:
    error = refusal({"book": {1: "Zatch Bell"}}, cards={"Kanchome": {"power": 1000}})
    assert error.message == "card 'Kanchome' has no type"
    assert error.path == ("cards", "Kanchome")
    assert error.expected == "type: one of MAMODO, PARTNER, MJ12, SPELL, EVENT"


@pytest.mark.parametrize("effect", [{"kind": "injure", "select_all": True},
                                    {"kind": "gain-mp", "also": [{"kind": "injure", "select_all": True}]}], ids=["effect", "also"])
def test_an_effect_that_selects_all_cards_names_their_type(effect: dict[str, Any]) -> None:
    error = refusal({"book": {1: "Zatch Bell"}}, cards={"Card SA": {"type": "MJ12", "effects": [effect]}})
    assert error.message == "card 'Card SA': an effect that selects all cards names their type"
    assert error.path == ("cards", "Card SA", "effects", 0) + (("also", 0) if "also" in effect else ())
    assert error.expected == 'of_type: MAMODO, PARTNER or MJ12 ("Select all *type* cards")'


@pytest.mark.parametrize("book", [{1: "Zatch Bell", 7: "S-010 Zakerr"}, ["Zatch Bell"] * 6 + ["S-010 Zakerr"]],
                         ids=["pages by number", "list of pages"])
def test_a_page_holds_a_card_some_definition_names(book: Any) -> None:
    error = refusal({"book": book})
    assert error.message == "page 7 holds 'S-010 Zakerr', which no card definition names"
    assert error.path == ("initial", "players", "A", "book")
    assert error.expected == "a card of cards.yaml or of the scenario's cards:"


@pytest.mark.parametrize("page", [7, 34])
def test_the_book_opens_at_the_first_of_two_open_pages(page: int) -> None:
    error = refusal({"book": {1: "Zatch Bell"}, "page": page})
    assert error.message == f"page {page} is not the first of the open pages"
    assert error.path == ("initial", "players", "A", "page")
    assert error.expected == "1, an even page 2 to 30 (open with the next page), or 32"


#: A card the scenario puts in play, under a MAMODO, with a PARTNER, among the MJ12 or in the
#: Discard Pile that the book does not hold: where it stands, and the message's words for it.
NOT_IN_THE_BOOK = {
    "in play": ({"in_play": [{"card": "Brago"}]}, ("in_play", 0), "'Brago' to take"),
    "in play from its page": ({"in_play": [{"card": "Gofure", "page": 5}]}, ("in_play", 0), "'Gofure' to take from page 5"),
    "under a MAMODO": ({"in_play": [{"card": "Gofure (Transformed)", "under": ["Zofis"]}]}, ("in_play", 0, "under"),
                       "'Zofis' to take"),
    "partner": ({"in_play": [{"card": "Zatch Bell", "partner": "Megumi Oumi"}]}, ("in_play", 0, "partner"),
                "'Megumi Oumi' to take"),
    "MJ12": ({"mj12": ["Gofure", "MJ-901"]}, ("mj12", 1), "'MJ-901' to take"),
    "discard pile": ({"discard": ["Kiyo Takamine", "S-001 Zaker"]}, ("discard", 1), "'S-001 Zaker' to take"),
}


@pytest.mark.parametrize("case", NOT_IN_THE_BOOK, ids=list(NOT_IN_THE_BOOK))
def test_a_card_that_left_the_book_is_taken_from_a_page_that_holds_it(case: str) -> None:
    placed, place, words = NOT_IN_THE_BOOK[case]
    error = refusal({"book": BOOK_A, **placed})
    assert error.message == f"A's book holds no {words}"
    assert error.path == ("initial", "players", "A", *place)
    assert error.expected == "a card the book holds, on the page given"


def test_until_without_keep_is_refused_where_it_is_written() -> None:
    error = refusal({"book": {1: "Zatch Bell", 2: "Card U"}},
                    cards={"Card U": {"type": "MJ12", "effects": [{"kind": "gain-mp", "amount": 1, "also": [
                        {"kind": "power", "amount": 500, "until": "end-phase"}]}]}})
    assert error.message.startswith("'until' without 'keep'")
    assert error.path == ("cards", "Card U", "effects", 0, "also", 0, "until")
    assert "keep: stay" in (error.expected or "")


def test_a_key_of_other_effect_kinds_says_where_it_counts() -> None:
    data = {"id": "x", "game": "zatch-bell", "title": "x", "actions": [],
            "cards": {"Card P": {"type": "MJ12", "effects": [{"kind": "power", "amount": 500, "stone_tablet": True}]}},
            "initial": {"players": {"A": {"book": {1: "Zatch Bell"}}, "B": LEGAL_B}}}
    with pytest.raises(InputError) as caught:
        suite.default().from_data(data, "x.yaml")
    assert caught.value.path == ("cards", "Card P", "effects", 0, "stone_tablet")
    assert caught.value.message == ("unknown key 'stone_tablet'; 'stone_tablet' counts only in kind injure, kind petrify, kind discard, "
                                    "kind negate-effects")
