"""Random battles for Many Marios 0 (Hypothesis strategies), shared by the property tests and the dispute finder.

Every unit is its own card with no Army Points (the challenge's limit is 0), carrying one
item with its modifiers when it has any; they shrink towards one plain unit a side.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from checker.games.many_marios_0.state import ABILITIES, SIDES

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


def scenarios() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(battle, army, army, st.sampled_from(SIDES))
