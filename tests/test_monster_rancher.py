"""Monster Rancher engine properties that no single scenario shows."""

from __future__ import annotations

import copy
import itertools

import pytest

from checker.errors import Rejection
from checker.game import Context
from checker.games import registry
from checker.games.monster_rancher_bc2.state import Reduction, halve

GAME = registry()["monster-rancher-bc2"]

INITIAL = {
    "env": "Nice Fight",
    "players": {
        "A": {"hand": ["Shotgun", "Critical", "Fire River"], "monsters": [{"name": "Phoenix", "attribute": "Air", "lp": 20},
                                                                         {"name": "Pixie", "attribute": "Air", "lp": 20}]},
        "B": {"hand": ["Hide", "Grit"], "monsters": [{"name": "Mocchi", "attribute": "Ground", "lp": 10},
                                                    {"name": "Pixie", "attribute": "Air", "lp": 10}]},
    },
}


def fresh():
    context = Context(GAME.catalogue)
    return GAME.setup(INITIAL, {}, context), context


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


ACTIONS = [
    {"action": "attack", "player": "A", "monster": "Pixie", "card": "Shotgun", "combo": ["Critical"], "split": {"Mocchi": 5}},
    {"action": "attack", "player": "A", "monster": "Pixie", "card": "Shotgun", "split": {"Mocchi": 3}},
    {"action": "attack", "player": "A", "monster": "Phoenix", "card": "Fire River"},
    {"action": "defend", "player": "B", "monster": "Mocchi", "card": "Hide", "choose": "Pixie"},
    {"action": "defend", "player": "B", "monster": "Pixie", "card": "Grit"},
    {"action": "end-turn", "player": "A"},
    {"action": "draw", "player": "B"},
]


@pytest.mark.parametrize("sequence", list(itertools.permutations(range(len(ACTIONS)), 3)))
def test_apply_changes_the_state_it_is_given_only_to_end_a_defense_step_for_good(sequence: tuple[int, ...]) -> None:
    """A refused action other than ``defend`` leaves the state as ``settle`` would: Defense Step over."""
    state, context = fresh()
    for index in sequence:
        action = ACTIONS[index]
        before = copy.deepcopy(GAME.observe(state))
        ended = GAME.observe(GAME.settle(state, Context(GAME.catalogue)))
        try:
            following, refused = GAME.apply(state, action, context), False
        except Rejection:
            following, refused = state, True
        moved_on = refused and action["action"] != "defend"
        assert GAME.observe(state) == (ended if moved_on else before)
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
    context = Context(GAME.catalogue)
    with pytest.raises(KeyError):
        context.note("mr.no-such-ruling", "text")


def test_a_rejected_attack_leaves_hand_guts_and_lp_as_they_were() -> None:
    state, context = fresh()
    with pytest.raises(Rejection) as rejected:
        GAME.apply(state, ACTIONS[1], context)
    assert rejected.value.reason == "env-forbids-final-damage"
    assert rejected.value.ruling == "mr.attack.env-prohibition"
    assert GAME.observe(state)["players"]["A"]["hand"] == ["Shotgun", "Critical", "Fire River"]
