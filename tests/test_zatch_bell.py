"""Zatch Bell! The Card Battle: the Spell Book validator refuses each construction rule with its reason and
ruling, and random legal turns keep the invariants the manual implies (Hypothesis: random legal play from the
starts the game's scenarios give, :mod:`checker.commands.randomplay`)."""

from __future__ import annotations

import functools
import os
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from checker.commands import randomplay
from checker.cli import main
from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.games import registry
from checker.games.zatch_bell import GAME
from checker.games.zatch_bell.moves import places
from checker.games.zatch_bell.state import BOOK_PAGES, State
from checker.format.scenario import Scenario
from checker.run.suite import Suite, scenario_files
from tests.conftest import SCENARIOS

READINGS = {r.id: r.reading_names for r in GAME.catalogue.with_status("ambiguous")}
CLASSED = {
    "Middle Spell": {"type": "SPELL", "number": "S-950", "class": "intermediate", "mamodo": "Zatch Bell"},
    "Top Spell": {"type": "SPELL", "number": "S-960", "class": "superior", "mamodo": "Zatch Bell"},
    "E-900": {"type": "EVENT", "number": "E-900"},
    **{f"M-90{n}": {"type": "MAMODO", "power": 1000} for n in range(1, 9)},
}

#: Each rule of Spell Book construction: A's book breaking it, the reason the game refuses it with, the ruling cited.
BOOK_RULES: dict[str, tuple[dict[Any, Any], dict[str, Any], str, str]] = {
    "31 cards": ({1: "Zatch Bell"}, {"size": 31}, "book-size", "zb.book.exactly-32"),
    "33 cards": ({1: "Zatch Bell"}, {"size": 33}, "book-size", "zb.book.exactly-32"),
    "a SPELL on page 1": ({1: "S-001 Zaker", 2: "Zatch Bell"}, {}, "first-page-not-regular-mamodo", "zb.book.first-page-mamodo"),
    "a transformed MAMODO on page 1": ({1: "Gofure (Transformed)"}, {}, "first-page-not-regular-mamodo", "zb.book.first-page-mamodo"),
    "an EVENT on page 32": ({1: "Zatch Bell", 32: "E-900"}, {}, "last-page-not-spell", "zb.book.last-page-spell"),
    "a MAMODO on page 32": ({1: "Zatch Bell", 32: "Brago"}, {}, "last-page-not-spell", "zb.book.last-page-spell"),
    "Intermediate on page 11": ({1: "Zatch Bell", 11: "Middle Spell"}, {}, "intermediate-before-page-12", "zb.book.intermediate-page-12"),
    "Superior on page 21": ({1: "Zatch Bell", 21: "Top Spell"}, {}, "superior-before-page-22", "zb.book.superior-page-22"),
    "9 MAMODO cards": ({1: "Zatch Bell", **{n + 1: f"M-90{n}" for n in range(1, 9)}}, {}, "too-many-mamodo-cards",
                       "zb.book.max-8-mamodo"),
    "5 copies of S-001": ({1: "Zatch Bell", "2-6": "S-001 Zaker"}, {}, "too-many-copies", "zb.book.max-4-copies"),
}
#: Books at the limits that the game accepts.
BOOKS_ACCEPTED = {
    "Intermediate on page 12, Superior on 22": {1: "Zatch Bell", 12: "Middle Spell", 22: "Top Spell"},
    "8 MAMODO cards": {1: "Zatch Bell", **{n + 1: f"M-90{n}" for n in range(1, 8)}},
    "4 of S-001 and 4 of S-002 Zaker": {1: "Zatch Bell", "2-5": "S-001 Zaker", "6-9": "S-002 Zaker"},
}


def book_scenario(tmp_path: Path, book: dict[Any, Any], extra: dict[str, Any], reject: str | None) -> Path:
    data: dict[str, Any] = {
        "id": "zb-book-test", "game": "zatch-bell", "title": "A Spell Book", "cards": CLASSED,
        "initial": {"players": {"A": {"book": book, **extra}, "B": {"book": {1: "Brago"}}}},
        "actions": [],
    }
    if reject:
        data["reject"] = {"reason": reject}
    else:
        data["expect"] = {"players": {"A": {"mp": 2}}}
    path = tmp_path / "book.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", BOOK_RULES, ids=list(BOOK_RULES))
def test_a_book_that_breaks_a_construction_rule_is_refused_with_its_reason_and_ruling(case: str, tmp_path: Path, capsys) -> None:
    book, extra, reason, ruling = BOOK_RULES[case]
    path = book_scenario(tmp_path, book, extra, reason)
    assert main(["check", str(path)]) == 0, capsys.readouterr().out
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert ruling in out and reason in out, out


@pytest.mark.parametrize("case", BOOK_RULES, ids=list(BOOK_RULES))
def test_a_game_expected_to_start_fails_on_a_broken_book(case: str, tmp_path: Path, capsys) -> None:
    book, extra, reason, _ = BOOK_RULES[case]
    assert main(["check", str(book_scenario(tmp_path, book, extra, None))]) == 1
    assert reason in capsys.readouterr().out


@pytest.mark.parametrize("case", BOOKS_ACCEPTED, ids=list(BOOKS_ACCEPTED))
def test_a_book_at_the_limits_is_accepted(case: str, tmp_path: Path, capsys) -> None:
    assert main(["check", str(book_scenario(tmp_path, BOOKS_ACCEPTED[case], {}, None))]) == 0, capsys.readouterr().out


def cards_in(state: State, name: str) -> int:
    return sum(places(state, name).values())


@functools.cache
def corpus() -> tuple[Scenario, ...]:
    loaded = Suite(registry()).load_many(scenario_files([SCENARIOS / "zatch-bell"]))
    return tuple(item for item in loaded if isinstance(item, Scenario))


@functools.cache
def starts() -> tuple[randomplay.Start, ...]:
    """Where random play begins: the initial states of the game's scenarios, and a prefix of their actions."""
    return tuple(randomplay.starts(GAME, corpus()))


def drawn(data: st.DataObject, pins: dict[str, str] | None, max_actions: int,
          origins: Sequence[randomplay.Start] | None = None) -> dict[str, Any]:
    """A random legal game under ``pins``, from ``origins`` (else every start); a start whose book the readings refuse
    (the first page's regular MAMODO card, the tournament ban) is no game."""
    try:
        return data.draw(randomplay.scenarios(GAME, origins or starts(), max_actions=max_actions, pins=pins))
    except Rejection:
        reject()


def turned_back(before: State, after: State) -> bool:
    """Whether a card effect turned pages back in the action between the two states ("Pages may not be turned back
    without the use of card effects")."""
    return any(entry.endswith(": turn-back-pages") for entry in after.log[len(before.log):])


def check_invariants(before: State, after: State, books: dict[str, Counter[str]]) -> None:
    for name in ("A", "B"):
        old, new = before.players[name], after.players[name]
        assert new.mp >= 0, f"{name}'s MP is negative"
        assert new.opening >= old.opening or turned_back(before, after), f"{name}'s pages went back"
        assert len(new.mamodo) <= 3, f"{name} has more than 3 MAMODO cards in play"
        assert places(after, name) == books[name], f"a card of {name}'s book is in two places, or in none"
        events = [(i, c) for i, c in enumerate(old.pages) if c is not None and after.card(c).type == "EVENT"]
        assert all(new.pages[i] == c or new.discard.count(c) > old.discard.count(c) for i, c in events), \
            "an EVENT card left its page, but for the Discard Pile"


#: CI plays the same 150 games every run; RULINGS_PROPERTY_EXAMPLES=N plays N new random ones (a long search).
PROPERTY_EXAMPLES = int(os.environ.get("RULINGS_PROPERTY_EXAMPLES", "150"))


@settings(max_examples=PROPERTY_EXAMPLES, deadline=None, derandomize="RULINGS_PROPERTY_EXAMPLES" not in os.environ,
          database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), pins=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()}))
def test_random_legal_turns_keep_the_invariants(data: st.DataObject, pins: dict[str, str]) -> None:
    """MP never negative, pages only forward (unless a card effect turns them back), at most 3 MAMODO cards in play,
    each card of each book in exactly one place (its page, play, the SPELL card zone, the Discard Pile), an EVENT card
    in its page (unless an effect sends it to the Discard Pile); the stack holds only the last Action and the cut-ins
    that answered it, and is empty once play settles. Every action drawn is accepted: it was listed as legal."""
    game = drawn(data, pins, 12)
    context = Context(GAME, pins)
    state = GAME.setup(game["initial"], game["cards"], context)
    books = {name: places(state, name) for name in ("A", "B")}
    for name in ("A", "B"):
        assert cards_in(state, name) == BOOK_PAGES
    for action in game["actions"]:
        after = GAME.apply(state, action, context)
        check_invariants(state, after, books)
        links = after.stack.links
        assert all(link.effect.negates for link in links[1:]), "the stack holds more than one Action that is no cut-in"
        assert all(a.player != b.player for a, b in zip(links, links[1:])), "a cut-in answers its own player's Action"
        state = after
    try:
        settled = GAME.settle(state, context)
    except Rejection:
        return  # the rules refuse to run the END PHASE (an [IN PLAY] effect names a card gone from play): no one can go on
    check_invariants(state, settled, books)
    assert not settled.stack, "the stack did not empty"


def reached_a_battle(first: State, state: State) -> bool:
    return state.last_battle is not None


def turned_over(first: State, state: State) -> bool:
    return state.turn > first.turn


def resolved(words: str) -> Callable[[State, State], bool]:
    return lambda first, state: any(words in entry for entry in state.log)


#: What random legal play reaches, and the rulings (by prefix) of the scenarios it is played from (None: all of them).
REACHED: dict[str, tuple[Callable[[State, State], bool], tuple[str, ...] | None]] = {
    "a Battle": (reached_a_battle, None),
    "the next turn": (turned_over, None),
    "a cut-in effect negating": (resolved(": negate "), ("zb.cut-in.",)),
    "a [STAY] effect": (resolved("[STAY]"), ("zb.stay.", "zb.glossary.stay")),
    "a [STANDBY] effect": (resolved("[STANDBY]"), ("zb.standby.", "zb.glossary.standby")),
}


def scenarios_about(rulings: tuple[str, ...]) -> set[str]:
    """The scenarios that declare a ruling of these (by prefix)."""
    return {scenario.id for scenario in corpus() if any(r.startswith(rulings) for r in scenario.rulings)}


@pytest.mark.parametrize("what", REACHED)
def test_random_games_reach_battles_and_end_phases(what: str) -> None:
    """Random legal play is not stuck: some drawn games play Battles, turn over, and resolve cut-ins, [STAY] and
    [STANDBY] effects (played from the starts of the scenarios about them)."""
    reached, rulings = REACHED[what]
    about = scenarios_about(rulings) if rulings is not None else None
    origins = [start for start in starts() if about is None or start.origin in about]
    found = 0

    @settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def game(data: st.DataObject) -> None:
        nonlocal found
        played = drawn(data, None, 16, origins)
        context = Context(GAME, {})
        state = first = GAME.setup(played["initial"], played["cards"], context)
        for action in played["actions"]:
            state = GAME.apply(state, action, context)
        found += reached(first, state)

    game()
    assert found, f"no random game reached {what}"
