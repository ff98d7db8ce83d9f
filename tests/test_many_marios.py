"""Many Marios 0 engine properties over random armies (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.errors import Rejection
from checker.game import Context
from checker.games.many_marios_0 import GAME
from checker.games.many_marios_0.generators import army, battle
from checker.games.many_marios_0.rules import ROUND_LIMIT
from checker.games.many_marios_0.state import SIDES

READINGS = {r.id: r.reading_names for r in GAME.catalogue.with_status("ambiguous")}


@settings(max_examples=300, deadline=None)
@given(army, army, st.sampled_from(SIDES), st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()}))
def test_every_battle_ends_and_energy_never_goes_below_zero(a, b, first, pins) -> None:
    data = battle(a, b, first)
    context = Context(GAME, pins)
    state = GAME.setup(data["initial"], data["cards"], context)
    state = GAME.apply(state, {"action": "battle"}, context)
    facts = GAME.observe(state)
    assert facts["result"]["over"], "the battle did not end"
    assert facts["round"] < ROUND_LIMIT
    for side in SIDES:
        for name, unit_facts in facts["armies"][side]["units"].items():
            assert unit_facts["ae"] >= 0 and unit_facts["de"] >= 0, (side, name, unit_facts)
    left = {side: bool(facts["armies"][side]["lineup"]) for side in SIDES}
    result = facts["result"]
    if result["stalemate"]:
        assert result["winner"] is None and result["draw"]
    elif all(left.values()):
        raise AssertionError("a battle ended with units on both sides and no stalemate")
    else:
        assert result["winner"] == next((s for s in SIDES if left[s]), None)


@settings(max_examples=200, deadline=None)
@given(army, army)
def test_every_point_of_damage_taken_or_dealt_from_de_is_in_the_round_records(a, b) -> None:
    """A unit's final DE is its starting DE less the damage it took and its own exhaustion damage."""
    data = battle(a, b)
    context = Context(GAME)
    start = GAME.setup(data["initial"], data["cards"], context)
    before = {(s, u.name): u.de for s in SIDES for u in start.armies[s].lineup}
    for side, units in (("A", a), ("B", b)):
        for index, u in enumerate(units):
            unit = start.armies[side].lineup[index]
            assert (unit.ae, unit.de) == (
                u["set"].get("ae", u["energy"] + u["ae"]), u["set"].get("de", u["energy"] + u["de"])
            ), "a scenario's AE or DE replaces energy plus modifiers"
    end = GAME.observe(GAME.apply(start, {"action": "battle"}, context))
    taken: dict[tuple[str, str], int] = {}
    for record in end["rounds"].values():
        for hit in record["damage"]:
            side = next(s for s in SIDES if hit["to"] in end["armies"][s]["units"])
            taken[(side, hit["to"])] = taken.get((side, hit["to"]), 0) + hit["amount"]
    for (side, name), de in before.items():
        final = end["armies"][side]["units"][name]["de"]
        spent_by_itself = sum(
            hit["amount"] for record in end["rounds"].values() for hit in record["damage"]
            if hit["by"] == name and hit["kind"] == "exhaustion"
        )
        assert final == max(0, de - taken.get((side, name), 0) - spent_by_itself), (side, name)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_every_army_over_the_limit_is_shown_illegal_and_named_in_the_refusal(ap_a, ap_b, limit) -> None:
    cards = {"A0": {"kind": "unit", "ap": ap_a, "full_energy": 1}, "B0": {"kind": "unit", "ap": ap_b, "full_energy": 1}}
    initial = {"ap_limit": limit, "armies": {side: {"lineup": [{"unit": f"{side}0"}]} for side in SIDES}}
    context = Context(GAME)
    state = GAME.setup(initial, cards, context)
    facts = GAME.observe(state)
    over = [side for side, ap in (("A", ap_a), ("B", ap_b)) if ap > limit]
    for side in SIDES:
        assert facts["armies"][side]["legal"] == (side not in over)
        assert facts["armies"][side]["problems"] == (["over-ap-limit"] if side in over else [])
    try:
        GAME.apply(state, {"action": "battle"}, context)
    except Rejection as refusal:
        assert refusal.reason == "over-ap-limit" and over
        assert all(f"army {side} " in refusal.message for side in over)
    else:
        assert not over
