"""Random turns for Monster Rancher (Hypothesis strategies), shared by the property tests and the dispute finder.

One cast and a pool of moves chosen to meet the redirection rulings (Hide, Shield against a
Ground-only AoE, an attack with effects on damage): what is drawn is the Environment (none or
Nice Fight) and a short sequence of moves from the pool, legal or not.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

#: Cards the document describes without numbers, as the scenarios define them.
CARDS: dict[str, Any] = {
    "Tail Whip": {"kind": "attack", "user": "Golem", "damage": 5,
                  "on_damage": [{"kind": "grant-status", "status": "Can't Attack", "turns": 2},
                                {"kind": "guts-loss", "amount": 1}]},
}

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


def turn(env: str | None, moves: list[int]) -> dict[str, Any]:
    """The scenario data of ``moves`` (indices into :data:`ACTIONS`) played from :data:`INITIAL` under ``env``."""
    initial = copy.deepcopy(INITIAL)
    if env is None:
        del initial["env"]
    else:
        initial["env"] = env
    return {"initial": initial, "cards": copy.deepcopy(CARDS), "actions": [copy.deepcopy(ACTIONS[i]) for i in moves]}


def scenarios() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(turn, st.sampled_from([None, "Nice Fight"]),
                     st.lists(st.integers(0, len(ACTIONS) - 1), min_size=1, max_size=4))
