"""Many Marios 0 engine properties over random armies and random legal play (Hypothesis)."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checker.commands import randomplay
from checker.run import suite
from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.games.many_marios_0 import GAME
from checker.games.many_marios_0.rules import ROUND_LIMIT
from checker.games.many_marios_0.state import ABILITIES, SIDES, State
from checker.format.scenario import Scenario
from tests.conftest import SCENARIOS

READINGS = {r.id: r.reading_names for r in GAME.catalogue.with_status("ambiguous")}

# --- Random armies: what no scenario's start gives ---------------------------------------------
# Every unit is its own card with no Army Points (the challenge's limit is 0), carrying one item with its
# modifiers when it has any; they shrink towards one plain unit a side.

#: One unit as drawn: energy, abilities, its item's modifiers, and optionally AE/DE set directly.
unit = st.fixed_dictionaries({
    "energy": st.integers(0, 6),
    "abilities": st.lists(st.sampled_from(ABILITIES), unique=True, max_size=3),
    "ae": st.integers(0, 3),
    "de": st.integers(0, 3),
    "damage": st.integers(0, 3),
    "set": st.fixed_dictionaries({}, optional={"ae": st.integers(0, 4), "de": st.integers(1, 4)}),
})
army = st.lists(unit, min_size=1, max_size=5)


def battle(a: list[dict[str, Any]], b: list[dict[str, Any]], first: str = "A") -> dict[str, Any]:
    """The scenario data of a battle between the drawn armies: ``initial``, ``cards`` and the one ``battle`` action."""
    cards: dict[str, Any] = {}
    armies: dict[str, Any] = {}
    for side, units in zip(SIDES, (a, b), strict=True):
        lineup = []
        for index, drawn in enumerate(units):
            name = f"{side}{index}"
            cards[name] = {"kind": "unit", "ap": 0, **({"abilities": drawn["abilities"]} if drawn["abilities"] else {})}
            entry: dict[str, Any] = {"unit": name, "energy": drawn["energy"], **drawn["set"]}
            modifiers = {key: drawn[key] for key in ("ae", "de", "damage") if drawn[key]}
            if modifiers:
                cards[f"{name} kit"] = {"kind": "item", "ap": 0, **modifiers}
                entry["items"] = [f"{name} kit"]
            lineup.append(entry)
        armies[side] = {"lineup": lineup}
    initial = {"ap_limit": 0, "first_player": first, "armies": armies}
    return {"initial": initial, "cards": cards, "actions": [{"action": "battle"}]}


# --- Random legal play from the scenarios' starts ----------------------------------------------


@functools.cache
def random_play() -> st.SearchStrategy[dict[str, Any]]:
    """Random legal play from where the game's scenarios start (:mod:`checker.commands.randomplay`): battles fought a few
    rounds at a time, or to the end."""
    loaded = suite.load_many(suite.scenario_files([SCENARIOS / GAME.id]))
    return randomplay.scenarios(GAME, randomplay.starts(GAME, [s for s in loaded if isinstance(s, Scenario)]))


def fought(data: dict[str, Any], pins: dict[str, str] | None = None) -> tuple[State, State]:
    """The battle as the scenario data sets it up, and once its actions are played and it is fought to the end (an
    army over the challenge's AP does not fight: no battle)."""
    context = Context(GAME, pins)
    start = GAME.setup(data["initial"], data["cards"], context)
    state = start
    for action in data["actions"]:
        state = GAME.apply(state, action, context)
    if not state.over:
        try:
            state = GAME.apply(state, {"action": "battle"}, context)
        except Rejection as refused:
            assert refused.reason == "over-ap-limit", refused
            assume(False)
    return start, state


#: A battle between random armies under random readings, or random legal play under the default readings,
#: each with its unit draws (None for random play).
drawn_battles = st.one_of(
    st.builds(lambda a, b, first, pins: (battle(a, b, first), pins, (a, b)), army, army, st.sampled_from(SIDES),
              st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()})),
    st.deferred(lambda: random_play()).map(lambda data: (data, None, None)),
)


@settings(max_examples=300, deadline=None)
@given(drawn_battles)
def test_every_battle_ends_and_energy_never_goes_below_zero(drawn) -> None:
    data, pins, _ = drawn
    _, state = fought(data, pins)
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
@given(drawn_battles)
def test_every_point_of_damage_taken_or_dealt_from_de_is_in_the_round_records(drawn) -> None:
    """A unit's final DE is its starting DE less the damage it took and its own exhaustion damage."""
    data, _, units = drawn
    start, state = fought(data)
    before = {(s, u.name): u.de for s in SIDES for u in start.armies[s].lineup}
    if units is not None:
        for side, drawn_units in zip(SIDES, units, strict=True):
            for index, u in enumerate(drawn_units):
                unit = start.armies[side].lineup[index]
                assert (unit.ae, unit.de) == (
                    u["set"].get("ae", u["energy"] + u["ae"]), u["set"].get("de", u["energy"] + u["de"])
                ), "a scenario's AE or DE replaces energy plus modifiers"
    end = GAME.observe(state)
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
