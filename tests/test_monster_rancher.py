"""Monster Rancher engine properties that no single scenario shows."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings

from checker.errors import Rejection
from checker.game import Context
from checker.games.monster_rancher_bc2 import GAME
from checker.games.monster_rancher_bc2.generators import ACTIONS, CARDS, INITIAL, scenarios
from checker.games.monster_rancher_bc2.state import Reduction, halve


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


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_apply_never_changes_the_state_it_is_given_and_a_refusal_stands_where_the_attacker_moved_on(data) -> None:
    """Play stands, after a refused action, where it was before; after a refused action other than
    ``defend``, where ``settle`` would leave it: the attacker moved on and the Defense Step is over."""
    context = Context(GAME)
    state = GAME.setup(data["initial"], data["cards"], context)
    for action in data["actions"]:
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
