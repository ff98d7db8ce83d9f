"""Every word of a scenario counts: each optional key the schema accepts changes some real scenario's outcome.

For each action and effect kind of each game (a key every kind of a family takes, at the family), the real
scenarios that give the key are played again with it taken out or changed (see :mod:`tests.vocabulary`);
at least one must come out differently. A key no scenario gives, or that changes nothing where it is given,
is read nowhere the scenarios show: it wants a scenario derived from the text, or it goes from the schema.
Each key is tried on at most ``USES`` scenarios, stopping at the first that differs.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.format.scenario import Scenario
from checker.run import suite
from tests.vocabulary import Place, Use, changed, optional_keys, uses

#: How many of the scenarios giving a key are played again, at most.
USES = 12

#: Keys no scenario of this repository shows counting yet, by (game, place, key), with what they are waiting for.
PENDING: dict[tuple[str, str, str], str] = {
    **{("yugioh-dm2", f"effect {kind}", "mandatory"): "no scenario shows an optional effect declined"
       for kind in ("change-def", "change-atk", "destroy", "return-to-hand", "move", "special-summon", "gain-lp", "damage")},
    **{("yugioh-dm2", f"effect {kind}", "target"): "no scenario gives it"
       for kind in ("change-def", "change-atk", "return-to-hand", "move")},
    ("yugioh-dm2", "effect change-def", "until"): "no scenario gives it",
    ("yugioh-dm2", "effect move", "zone"): "no scenario gives it",
}


@pytest.fixture(scope="module")
def by_game(scenarios: list[Scenario]) -> dict[str, list[Scenario]]:
    grouped: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        grouped.setdefault(scenario.game, []).append(scenario)
    return grouped


def _first_change(game_id: str, place: Place, key: str, schema: Any, given: list[Scenario]) -> str | None:
    """How the first of the scenarios giving ``key`` at ``place`` changes with it, or why none does."""
    game = suite.games()[game_id]
    found = [Use(scenario, path) for scenario in given for path in uses(scenario, game, place, key)]
    if not found:
        return None
    for use in found[:USES]:
        how = changed(suite.default(), use, key, schema)
        if how is not None:
            return how
    return None


def _keys() -> list[tuple[str, Place, str, Any]]:
    return [(game_id, place, key, schema) for game_id, game in suite.games().items()
            for place, keys in optional_keys(game).items() for key, schema in keys.items()]


def test_every_optional_key_changes_some_outcome(by_game: dict[str, list[Scenario]]) -> None:
    silent = []
    for game_id, place, key, schema in _keys():
        if (game_id, str(place), key) in PENDING:
            continue
        if _first_change(game_id, place, key, schema, by_game.get(game_id, [])) is None:
            silent.append(f"{game_id}: {key} at {place}")
    assert not silent, "keys no scenario shows counting:\n" + "\n".join(silent)


def test_every_key_given_to_a_kind_counts_there(by_game: dict[str, list[Scenario]]) -> None:
    """A key every kind of a family takes is read for the kinds the scenarios give it to: each such kind shows it."""
    silent = []
    for game_id, place, key, schema in _keys():
        if place.name is not None:
            continue
        for kind in suite.games()[game_id].vocabulary.effects[place.family].names:
            own = Place(place.family, kind)
            given = by_game.get(game_id, [])
            if any(True for scenario in given for _ in uses(scenario, suite.games()[game_id], own, key)) \
                    and _first_change(game_id, own, key, schema, given) is None:
                silent.append(f"{game_id}: {key} at {own}")
    assert not silent, "keys given to a kind that change nothing there:\n" + "\n".join(silent)


def test_the_pending_keys_are_still_accepted_and_silent(by_game: dict[str, list[Scenario]]) -> None:
    """A pending key the schema no longer takes, or that a scenario now shows counting, leaves the list."""
    accepted = {(game_id, str(place), key): (place, schema) for game_id, place, key, schema in _keys()}
    stale = [entry for entry in PENDING if entry not in accepted]
    shown = [entry for entry in PENDING if entry in accepted
             and _first_change(entry[0], accepted[entry][0], entry[2], accepted[entry][1], by_game.get(entry[0], [])) is not None]
    assert not stale and not shown, (stale, shown)


def test_a_key_that_changes_nothing_is_told_from_one_that_does(by_game: dict[str, list[Scenario]]) -> None:
    """The check can fail: a scenario's notes change no outcome; the MAMODO card that PROTECTS does."""
    scenario = next(s for s in by_game["zatch-bell"] if s.id == "zb-attacker-wins-protect-injury-and-effects")
    resolve = next(a.index for a in scenario.actions if a.data.get("action") == "resolve")
    assert changed(suite.default(), Use(scenario, ("actions", resolve)), "protect", {}) is not None
    assert changed(suite.default(), Use(scenario, ()), "notes", {}) is None
