"""My Crypto Saga: the rules and the format of a battle's decks, and KP conservation over random games (Hypothesis)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.cli import main
from checker.errors import Rejection
from checker.game import Context
from checker.games.my_crypto_saga import GAME
from tests.conftest import SCENARIOS

READINGS = {r.id: r.reading_names for r in GAME.catalogue.with_status("ambiguous")}
BASE = SCENARIOS / "my-crypto-saga" / "game-and-kp-tally.yaml"


def broken(tmp_path: Path, change, reject: str | None = None) -> Path:
    """The tally scenario with A's deck changed, expecting the game to refuse it for ``reject`` (if given)."""
    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    change(data["initial"]["decks"]["A"])
    if reject is not None:
        data = {**{k: v for k, v in data.items() if k not in ("actions", "expect")}, "reject": {"reason": reject}, "actions": []}
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


#: Rules the page states for a deck: the game refuses the battle, with the reason and the ruling.
DECK_RULES = {
    "Kami with two Numbers": (lambda deck: deck[4].update(kami="Zeus"), "kami-number-differs", "mcs.card.kami-types"),
    "Number above 10": (lambda deck: deck[0].update(number=11), "number-out-of-range", "mcs.card.number"),
    "Number 0": (lambda deck: deck[0].update(number=0), "number-out-of-range", "mcs.card.number"),
    "Light in a deck": (lambda deck: deck[0].update(element="Light"), "light-in-deck", "mcs.card.light"),
    "nine cards": (lambda deck: deck.pop(), "deck-size", "mcs.overview.three-games"),
    "eleven cards": (lambda deck: deck.append({**deck[0], "id": "a11"}), "deck-size", "mcs.overview.three-games"),
}
#: Mistakes of the file itself: not a scenario that can be run.
DECK_FORMAT_ERRORS = {
    "card id twice": (lambda deck: deck[1].update(id="a1"), "card id 'a1' is used twice"),
    "unknown Element": (lambda deck: deck[0].update(element="Dark"), "unknown value 'Dark'"),
    "Number not a number": (lambda deck: deck[0].update(number="ten"), "'ten'"),
    "unknown key": (lambda deck: deck[0].update(rarity="rare"), "unknown key 'rarity'"),
}


@pytest.mark.parametrize("case", DECK_RULES, ids=list(DECK_RULES))
def test_a_deck_that_breaks_a_rule_fails_a_battle_that_expects_to_start(case: str, tmp_path: Path, capsys) -> None:
    change, reason, ruling = DECK_RULES[case]
    assert main(["check", str(broken(tmp_path, change))]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL"), out
    assert reason in out, out


@pytest.mark.parametrize("case", DECK_RULES, ids=list(DECK_RULES))
def test_a_deck_that_breaks_a_rule_is_refused_with_its_reason_and_ruling(case: str, tmp_path: Path, capsys) -> None:
    change, reason, ruling = DECK_RULES[case]
    path = broken(tmp_path, change, reject=reason)
    assert main(["check", str(path)]) == 0, capsys.readouterr().out
    assert main(["explain", str(path)]) == 0
    assert ruling in capsys.readouterr().out


@pytest.mark.parametrize("case", DECK_FORMAT_ERRORS, ids=list(DECK_FORMAT_ERRORS))
def test_a_deck_written_wrong_is_an_invalid_file(case: str, tmp_path: Path, capsys) -> None:
    change, message = DECK_FORMAT_ERRORS[case]
    path = broken(tmp_path, change)
    assert main(["check", str(path)]) == 2
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("INVALID")][0]
    assert message in line, line
    assert f"{path}:" in line


def decks(seats: list[str]) -> dict:
    elements = ["Fire", "Water", "Leaf"]
    return {
        seat: [{"id": f"{seat}{n}", "kami": f"{seat}K{n}", "number": n, "element": elements[(n + i) % 3], "kp": 60}
               for n in range(1, 11)]
        for i, seat in enumerate(seats)
    }


choice = st.one_of(st.sampled_from(["wait", "escape", "timeout"]), st.builds(lambda n: {"charge": n}, st.integers(0, 30)))
skill = st.fixed_dictionaries({"kind": st.sampled_from(["add", "element"]), "amount": st.integers(-3, 5),
                               "element": st.sampled_from(["Fire", "Water", "Leaf", "Light"]),
                               "to": st.sampled_from(["self", "opponents", "own-next"])})


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 4),
    order=st.randoms(use_true_random=False),
    charges=st.lists(choice, min_size=24, max_size=24),
    skills=st.dictionaries(st.sampled_from([f"{e} AK{n}" for e in ("Fire", "Water", "Leaf") for n in range(1, 11)]),
                           st.lists(skill, max_size=2), max_size=6),
    pins=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()}),
)
def test_kp_is_conserved(players, order, charges, skills, pins) -> None:
    """Per game: what the winners receive + Play Charge + Jackpot + anything undistributed = the pool."""
    seats = ["A", "B", "C", "D"][:players]
    context = Context(GAME, pins)
    initial = {"players": seats, "charge_regulation": 20, "wait_kp": 20, "decks": decks(seats)}
    state = GAME.setup(initial, {k: {"skills": [{**s, "to": s["to"]} for s in v]} for k, v in skills.items()}, context)
    total_kp = sum(card.kp for card in state.cards.values())
    moves = iter(charges)
    for game in range(3):
        hands = {seat: order.sample([f"{seat}{n}" for n in range(1, 11) if f"{seat}{n}" not in state.players[seat].dealt], 3)
                 for seat in seats}
        try:
            state = GAME.apply(state, {"action": "deal", "hands": hands}, context)
            state = GAME.apply(state, {"action": "pre-round", "select": {s: "timeout" for s in seats}}, context)
            for _ in range(2):
                charge = {s: next(moves, "timeout") for s in seats}
                state = GAME.apply(state, {"action": "round", "select": {s: "timeout" for s in seats}, "charge": charge}, context)
        except Rejection:
            return  # a charge the card cannot pay is refused; nothing more to check in this battle
        record = GAME.observe(state)["games"][str(game + 1)]
        paid = sum(record["received"].values())
        assert paid + record["play_charge"] + record["jackpot"] + record["undistributed"] == record["pool"], record
        facts = GAME.observe(state)
        assert all(card["kp"] >= 0 for card in facts["cards"].values())
        kept = facts["burned"] + facts["jackpot"] + facts["set_aside"] + facts["pool"]
        assert sum(c["kp"] for c in facts["cards"].values()) + kept == total_kp
