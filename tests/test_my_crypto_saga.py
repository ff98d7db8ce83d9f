"""My Crypto Saga: the rules and the format of a battle's decks, and KP conservation over random legal play (Hypothesis)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine import legal
from checker.commands import randomplay
from checker.cli import main
from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.games import registry
from checker.games.my_crypto_saga import GAME
from checker.run.runner import run
from checker.format.scenario import Scenario
from checker.run.suite import Suite, scenario_files
from tests.conftest import SCENARIOS

READINGS = {r.id: r.reading_names for r in GAME.catalogue.with_status("ambiguous")}
BASE = SCENARIOS / "my-crypto-saga" / "game-and-kp-tally.yaml"


def broken(tmp_path: Path, change, reject: str | None = None) -> Path:
    """The tally scenario with A's deck changed, expecting the game to refuse it for ``reject`` (if given)."""
    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    change(data["initial"]["decks"]["A"])
    if reject is not None:
        data = {**{k: v for k, v in data.items() if k not in ("actions", "expect", "expect_cites", "expect_trace")}, "reject": {"reason": reject}, "actions": []}
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


#: A whole battle: three games of a deal, a Pre-Round and two Rounds.
BATTLE = 12


@cache
def corpus() -> tuple[Scenario, ...]:
    loaded = Suite(registry()).load_many(scenario_files([SCENARIOS / "my-crypto-saga"]))
    return tuple(item for item in loaded if isinstance(item, Scenario))


@cache
def origins(pins: tuple[tuple[str, str], ...]) -> list[randomplay.Start]:
    """Where random play starts under these readings: the scenarios' starts, with what the readings accept of them."""
    return randomplay.starts(GAME, corpus(), dict(pins))


readings = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()})
#: Random legal play from the scenarios' starts, up to a whole battle, under readings drawn too.
battles = readings.flatmap(lambda pins: randomplay.scenarios(GAME, origins(tuple(sorted(pins.items()))), max_actions=BATTLE,
                                                             pins=pins).map(lambda data: (data, pins)))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=battles)
def test_kp_is_conserved(drawn) -> None:
    """After every action: the KP of the cards, burned, in the Jackpot, set aside and in the pool add up to
    what the cards held at the start; per game, what the winners receive + Play Charge + Jackpot + anything
    undistributed = the pool."""
    data, pins = drawn
    context = Context(GAME, pins)
    state = GAME.setup(data["initial"], data["cards"], context)
    total_kp = sum(card.kp for card in state.cards.values())
    for action in data["actions"]:
        state = GAME.apply(state, action, context)  # random play only plays what the rules allow
        facts = GAME.observe(state)
        for record in (r for r in facts["games"].values() if "received" in r):  # the games tallied so far
            paid = sum(record["received"].values())
            assert paid + record["play_charge"] + record["jackpot"] + record["undistributed"] == record["pool"], record
        assert all(card["kp"] >= 0 for card in facts["cards"].values())
        kept = facts["burned"] + facts["jackpot"] + facts["set_aside"] + facts["pool"]
        assert sum(c["kp"] for c in facts["cards"].values()) + kept == total_kp


def _joined(shared: tuple, choices: dict) -> dict:
    """The action whose parts (see ``moves.parts``) are ``shared`` and each player's ``choices``."""
    if shared[0] == "deal":
        return {"action": "deal", "hands": choices}
    if shared[0] == "pre-round":
        return {"action": "pre-round", "select": choices}
    return {"action": "round", "select": {seat: card for seat, (card, _) in choices.items()},
            "charge": {seat: charge for seat, (_, charge) in choices.items()}}


def test_any_combination_of_the_players_listed_choices_is_allowed() -> None:
    """The listed deals, Pre-Rounds and Rounds cover each player's choices rather than every combination: at every
    action of every scenario, combinations the list does not hold are accepted too (the rules judge each player's
    choice on its own), so that the list stands for all of them."""
    chance = random.Random(0)
    tried = 0
    seen: set[str] = set()

    class Recombine:
        def __init__(self, scenario: Scenario) -> None:
            self.scenario, self.pins, self.index = scenario, scenario.readings, 0

        def before(self, state) -> None:
            nonlocal tried
            played = [action.data for action in self.scenario.actions[: self.index]]
            self.index += 1
            where = repr((self.scenario.initial, self.scenario.cards, played, sorted(self.pins.items())))
            if where in seen:  # the same start and actions as another scenario's (a family of scenarios)
                return
            seen.add(where)
            groups: dict = {}
            for action in legal.legal_actions(GAME, state, self.pins):
                split = GAME.moves.parts(action)
                if split is not None:
                    groups.setdefault(split[0], []).append(split[1])
            for shared, listed in groups.items():
                for _ in range(8):
                    choices = {seat: chance.choice(listed)[seat] for seat in listed[0]}
                    action = _joined(shared, choices)
                    try:
                        GAME.apply(state, action, Context(GAME, self.pins))
                    except Rejection as refusal:
                        raise AssertionError(f"{action} combines listed choices and is refused: {refusal}") from None
                    tried += 1

        def after(self, given, produced) -> None:
            pass

        def observed(self, facts) -> None:
            pass

    for scenario in corpus():
        assert run(scenario, GAME, audit=Recombine(scenario)).crash is None
    assert tried > 0
