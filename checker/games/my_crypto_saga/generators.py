"""Random battles for My Crypto Saga (Hypothesis strategies), shared by the property tests and the dispute finder.

What is drawn: the number of players and games, the Pre-Charge and the KP of a Wait, each
deck's cards (the Kami of a card is named after its Number, ``K3``, so the one-Number-per-Kami
rule holds), the skills of some Card Types, each game's deal and every Charge Action. Cards are
selected on a timeout: the lowest Number in hand. Everything shrinks towards two players, one
game, and decks of Fire cards with Number 1, where every game is a tie.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from checker.games.my_crypto_saga.state import ELEMENTS

SEATS = ("A", "B", "C", "D")
DECK = 10
HAND = 3
#: Games in a battle; a battle can stop (as a scenario) after any of them.
GAMES = 3
CARD_TYPES = [f"{element} K{number}" for number in range(1, 11) for element in ELEMENTS]

card = st.fixed_dictionaries({"number": st.integers(1, 10), "element": st.sampled_from(ELEMENTS), "kp": st.integers(60, 100)})
charge = st.one_of(st.sampled_from(["wait", "escape", "timeout"]), st.builds(lambda n: {"charge": n}, st.integers(0, 30)))
skill = st.one_of(
    st.fixed_dictionaries({"kind": st.just("add"), "amount": st.integers(-3, 5),
                           "to": st.sampled_from(["self", "opponents", "own-next"])}),
    st.fixed_dictionaries({"kind": st.just("element"), "element": st.sampled_from([*ELEMENTS, "Light"]),
                           "to": st.sampled_from(["self", "opponents"])}),
)
skills = st.dictionaries(st.sampled_from(CARD_TYPES), st.fixed_dictionaries({"skills": st.lists(skill, min_size=1, max_size=2)}),
                         max_size=6)


def deck(seat: str, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"{seat}{index + 1}", "kami": f"K{drawn['number']}", "number": drawn["number"], "element": drawn["element"],
             "kp": drawn["kp"]} for index, drawn in enumerate(cards)]


@st.composite
def battles(draw: st.DrawFn, redeal: bool = True) -> dict[str, Any]:
    """A battle's scenario data: ``initial``, ``cards`` (the skills) and the actions of one to three games.

    A deal takes cards not dealt before, unless ``redeal`` lets it (in half the battles) take
    any card of the deck, which one reading refuses.
    """
    seats = list(SEATS[: draw(st.integers(2, len(SEATS)))])
    decks = {seat: deck(seat, draw(st.lists(card, min_size=DECK, max_size=DECK))) for seat in seats}
    initial = {"players": seats, "charge_regulation": draw(st.integers(10, 50)), "wait_kp": draw(st.integers(0, 30)),
               "decks": decks}
    whole_deck = redeal and draw(st.booleans())
    dealt: dict[str, list[str]] = {seat: [] for seat in seats}
    timeouts = {seat: "timeout" for seat in seats}
    actions: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, GAMES))):
        hands = {}
        for seat in seats:
            left = [c["id"] for c in decks[seat] if whole_deck or c["id"] not in dealt[seat]]
            hands[seat] = [left[i] for i in draw(st.lists(st.integers(0, len(left) - 1), min_size=HAND, max_size=HAND,
                                                          unique=True))]
            dealt[seat] += hands[seat]
        actions += [{"action": "deal", "hands": hands}, {"action": "pre-round", "select": timeouts}]
        actions += [{"action": "round", "select": timeouts, "charge": {seat: draw(charge) for seat in seats}}
                    for _ in range(2)]
    return {"initial": initial, "cards": draw(skills), "actions": actions}


def scenarios() -> st.SearchStrategy[dict[str, Any]]:
    return battles()
