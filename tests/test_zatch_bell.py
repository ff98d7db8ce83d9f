"""Zatch Bell! The Card Battle: the Spell Book validator refuses each construction rule with its reason and
ruling, and random legal turns keep the invariants the manual implies (Hypothesis)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.cli import main
from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.games.zatch_bell import GAME
from checker.games.zatch_bell.generators import scenarios
from checker.games.zatch_bell.state import BOOK_PAGES, State

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


def places(state: State, name: str) -> Counter[str]:
    """Every card of a player's book, counted once wherever it is: on its page, in play, in the Discard Pile, out for a Battle
    or a No Battle SPELL card waiting in the SPELL card zone."""
    player = state.players[name]
    found = Counter(c for c in player.pages if c is not None)
    found.update(player.in_play_cards())
    found.update(player.discard)
    found.update(spell for spell, _ in player.no_battle_out)
    if state.battle is not None:
        found.update(spell.card for side, spell in ((state.attacker, state.battle.spell), (state.defender, state.battle.defense))
                     if side == name and spell is not None)
    return found


def cards_in(state: State, name: str) -> int:
    return sum(places(state, name).values())


def play(state: State, action: dict[str, Any], context: Context) -> State:
    """The state after an action, or where its refusal left the game (a refused action is a wrong move, not the end)."""
    try:
        return GAME.apply(state, action, context)
    except Rejection as rejection:
        return rejection.standing if rejection.standing is not None else state


def check_invariants(before: State, after: State, books: dict[str, Counter[str]]) -> None:
    for name in ("A", "B"):
        old, new = before.players[name], after.players[name]
        assert new.mp >= 0, f"{name}'s MP is negative"
        assert new.opening >= old.opening, f"{name}'s pages went back"
        assert len(new.mamodo) <= 3, f"{name} has more than 3 MAMODO cards in play"
        assert places(after, name) == books[name], f"a card of {name}'s book is in two places, or in none"
        events = [i for i, c in enumerate(old.pages) if c is not None and after.card(c).type == "EVENT"]
        assert all(new.pages[i] == old.pages[i] for i in events), "an EVENT card left its page"


#: CI plays the same 150 games every run; RULINGS_PROPERTY_EXAMPLES=N plays N new random ones (a long search).
PROPERTY_EXAMPLES = int(os.environ.get("RULINGS_PROPERTY_EXAMPLES", "150"))


@settings(max_examples=PROPERTY_EXAMPLES, deadline=None, derandomize="RULINGS_PROPERTY_EXAMPLES" not in os.environ,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=scenarios(), pins=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()}))
def test_random_legal_turns_keep_the_invariants(data: dict[str, Any], pins: dict[str, str]) -> None:
    """MP never negative, pages only forward (no effect here turns them back), at most 3 MAMODO cards in play,
    each card of each book in exactly one place (its page, play, the SPELL card zone, the Discard Pile); the stack
    holds only the last Action and the cut-ins that answered it, and is empty once play settles."""
    context = Context(GAME, pins)
    try:
        state = GAME.setup(data["initial"], data["cards"], context)
    except Rejection:
        return  # only the tournament reading refuses a book here, and none of these cards has an "e"
    books = {name: places(state, name) for name in ("A", "B")}
    for name in ("A", "B"):
        assert cards_in(state, name) == BOOK_PAGES
    for action in data["actions"]:
        after = play(state, action, context)
        check_invariants(state, after, books)
        links = after.stack.links
        assert all(link.effect.negates for link in links[1:]), "the stack holds more than one Action that is no cut-in"
        assert all(a.player != b.player for a, b in zip(links, links[1:])), "a cut-in answers its own player's Action"
        state = after
    settled = GAME.settle(state, context)
    check_invariants(state, settled, books)
    assert not settled.stack, "the stack did not empty"


def test_random_games_reach_battles_and_end_phases() -> None:
    """The strategy is not all refusals: some drawn games play Battles, turn over, and resolve cut-ins, [STAY] and [STANDBY] effects."""
    battles = turns = 0
    resolved: list[str] = []

    @settings(max_examples=100, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(data=scenarios(max_actions=60))
    def game(data: dict[str, Any]) -> None:
        nonlocal battles, turns
        context = Context(GAME, {})
        state = GAME.setup(data["initial"], data["cards"], context)
        for action in data["actions"]:
            state = play(state, action, context)
        battles += state.last_battle is not None
        turns += state.turn > 1
        resolved.extend(state.log)

    game()
    assert battles and turns
    assert any(": negate " in entry for entry in resolved), "no cut-in effect negated anything"
    assert any("[STAY]" in entry for entry in resolved) and any("[STANDBY]" in entry for entry in resolved)
