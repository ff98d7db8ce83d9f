"""Monster Rancher engine properties that no single scenario shows."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.commands import randomplay
from checker.run import suite
from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.games.monster_rancher_bc2 import GAME
from checker.games.monster_rancher_bc2.state import Reduction, halve, opponent
from checker.format.scenario import Scenario
from tests.conftest import SCENARIOS

#: Cards the document describes without numbers, as the scenarios define them.
CARDS: dict[str, Any] = {
    "Tail Whip": {"kind": "attack", "user": "Golem", "damage": 5,
                  "on_damage": [{"kind": "grant-status", "status": "Can't Attack", "turns": 2},
                                {"kind": "guts-loss", "amount": 1}]},
}

#: One cast meeting the redirection rulings (Hide, Shield against a Ground-only AoE, an attack with effects on damage).
INITIAL: dict[str, Any] = {
    "env": "Nice Fight",
    "players": {
        "A": {"guts": 10, "hand": ["Shotgun", "Critical", "Fire River", "Tail Whip"],
              "monsters": [{"name": "Phoenix", "attribute": "Air", "lp": 20}, {"name": "Pixie", "attribute": "Air", "lp": 20},
                           {"name": "Golem", "attribute": "Ground", "lp": 20}]},
        "B": {"guts": 10, "hand": ["Hide", "Grit", "Shield"],
              "monsters": [{"name": "Mocchi", "attribute": "Ground", "lp": 10}, {"name": "Pixie", "attribute": "Air", "lp": 10},
                           {"name": "Monol", "attribute": "Air", "lp": 20}]},
    },
}

ACTIONS: list[dict[str, Any]] = [
    {"action": "attack", "player": "A", "monster": "Pixie", "card": "Shotgun", "combo": ["Critical"], "split": {"Mocchi": 5}},
    {"action": "attack", "player": "A", "monster": "Pixie", "card": "Shotgun", "split": {"Mocchi": 3}},
    {"action": "attack", "player": "A", "monster": "Phoenix", "card": "Fire River"},
    {"action": "defend", "player": "B", "monster": "Mocchi", "card": "Hide", "choose": "Pixie"},
    {"action": "defend", "player": "B", "monster": "Pixie", "card": "Grit"},
    {"action": "end-turn", "player": "A"},
    {"action": "draw", "player": "B"},
    {"action": "attack", "player": "A", "monster": "Golem", "card": "Tail Whip", "target": "Mocchi"},
    {"action": "defend", "player": "B", "monster": "Monol", "card": "Shield"},
]


@functools.cache
def random_play() -> st.SearchStrategy[dict[str, Any]]:
    """Random legal play from where the game's scenarios start (:mod:`checker.commands.randomplay`)."""
    loaded = suite.load_many(suite.scenario_files([SCENARIOS / GAME.id]))
    return randomplay.scenarios(GAME, randomplay.starts(GAME, [s for s in loaded if isinstance(s, Scenario)]))


def fresh():
    context = Context(GAME)
    return GAME.setup(INITIAL, CARDS, context), context


@pytest.mark.parametrize("value", range(0, 12))
def test_halving_rounds_toward_the_favoured_side(value: int) -> None:
    up, down = halve(value, round_up=True), halve(value, round_up=False)
    assert up + down == value
    assert up - down == value % 2
    assert down == value // 2


@pytest.mark.parametrize("damage", range(0, 12))
@pytest.mark.parametrize("amount", range(0, 5))
def test_a_flat_reduction_takes_its_amount_off_and_stops_at_zero(damage: int, amount: int) -> None:
    assert Reduction("minus", amount).apply(damage) == max(0, damage - amount)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_apply_never_changes_the_state_it_is_given_and_a_refusal_stands_where_the_attacker_moved_on(data: st.DataObject) -> None:
    """Play stands, after a refused action, where it was before; after a refused action other than
    ``defend``, where ``settle`` would leave it: the attacker moved on and the Defense Step is over.

    The game is random legal play; at each of its states, one more action is tried before the one
    played: one the rules might allow there, legal or not, or the same taken by the other Breeder."""
    drawn = data.draw(random_play())
    context = Context(GAME)
    state = GAME.setup(drawn["initial"], drawn["cards"], context)
    for played in drawn["actions"]:
        listed = [*GAME.moves.candidates(state), played]
        tried = data.draw(st.sampled_from([*listed, *({**a, "player": opponent(a["player"])} for a in listed)]))
        for action in (tried, played):
            given = copy.deepcopy(state)
            ended = GAME.observe(GAME.settle(state, Context(GAME)))
            try:
                following, refused = GAME.apply(state, action, context), False
            except Rejection as rejection:
                following, refused = rejection.standing, True
            assert state == given
            if refused:
                moved_on = action["action"] != "defend"
                assert GAME.observe(following) == (ended if moved_on else GAME.observe(state))
        assert not refused, played
        state = following
        if state.loser:
            break


def test_a_refused_action_deals_the_waiting_damage_once_and_ends_the_defense_step() -> None:
    state, context = fresh()
    state = GAME.apply(state, ACTIONS[0], context)
    for refused, reason in ((ACTIONS[1], "card-not-in-hand"), (ACTIONS[3], "defense-step-over")):
        with pytest.raises(Rejection) as rejected:
            GAME.apply(state, refused, context)
        assert rejected.value.reason == reason
        state = rejected.value.standing
    state = GAME.settle(GAME.apply(state, ACTIONS[5], context), context)
    assert [step.text for step in context.trace if step.text.startswith("Mocchi takes")] == ["Mocchi takes 5 damage: LP 10 → 5"]
    assert GAME.observe(state)["players"]["B"]["monsters"]["Mocchi"]["lp"] == 5


def test_trace_follows_the_declared_procedure_order() -> None:
    state, context = fresh()
    state = GAME.apply(state, ACTIONS[0], context)
    GAME.settle(state, context)
    order = [step.id for _, step in GAME.procedure.steps()]
    walked = [step.step for step in context.trace if step.step]
    positions = [order.index(step) for step in walked]
    assert positions == sorted(positions)
    assert {"base-damage", "additive-bonus", "env-prohibition", "spread-damage", "deal-damage"} <= set(walked)


def test_the_trace_refuses_a_ruling_that_is_not_catalogued() -> None:
    context = Context(GAME)
    with pytest.raises(KeyError):
        context.note("mr.no-such-ruling", "text")


def test_a_rejected_attack_leaves_hand_guts_and_lp_as_they_were() -> None:
    state, context = fresh()
    with pytest.raises(Rejection) as rejected:
        GAME.apply(state, ACTIONS[1], context)
    assert rejected.value.reason == "env-forbids-final-damage"
    assert rejected.value.ruling == "mr.attack.env-prohibition"
    assert GAME.observe(state)["players"]["A"]["hand"] == INITIAL["players"]["A"]["hand"]
