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
from tests.vocabulary import Place, Use, changed, given, optional_keys

#: How many of the scenarios giving a key are played again, at most.
USES = 12

#: Keys no scenario of this repository shows counting yet, by (game, place, key), with what they are waiting for.
PENDING: dict[tuple[str, str, str], str] = {
    # "mandatory" orders the effects triggered together after damage calculation (a Chain); these kinds need a target, which a
    # triggered effect there is not given, so none of them can be triggered with another
    **{("yugioh-dm2", f"effect {kind}", "mandatory"): "read only in a Chain of triggered effects, which these kinds cannot join"
       for kind in ("change-def", "change-atk", "destroy", "return-to-hand", "move")},
}


@pytest.fixture(scope="module")
def uses(scenarios: list[Scenario]) -> dict[str, dict[tuple[Place, str], list[Use]]]:
    """Where the real scenarios give each key, by game."""
    return {game_id: given([s for s in scenarios if s.game == game_id], game) for game_id, game in suite.games().items()}


def _first_change(found: list[Use], key: str, schema: Any) -> str | None:
    """How the first of the scenarios giving ``key`` changes with it taken out or changed, or None."""
    for use in found[:USES]:
        how = changed(suite.default(), use, key, schema)
        if how is not None:
            return how
    return None


def _keys() -> list[tuple[str, Place, str, Any]]:
    return [(game_id, place, key, schema) for game_id, game in suite.games().items()
            for place, keys in optional_keys(game).items() for key, schema in keys.items()]


def test_every_optional_key_changes_some_outcome(uses: dict[str, dict[tuple[Place, str], list[Use]]]) -> None:
    silent = [f"{game_id}: {key} at {place}" for game_id, place, key, schema in _keys()
              if (game_id, str(place), key) not in PENDING and _first_change(uses[game_id].get((place, key), []), key, schema) is None]
    assert not silent, "keys no scenario shows counting:\n" + "\n".join(silent)


def test_every_key_given_to_a_kind_counts_there(uses: dict[str, dict[tuple[Place, str], list[Use]]]) -> None:
    """A key every kind of a family takes is read for the kinds the scenarios give it to: each such kind shows it."""
    silent = []
    for game_id, place, key, schema in _keys():
        if place.name is None:
            for kind in suite.games()[game_id].vocabulary.effects[place.family].names:
                found = uses[game_id].get((Place(place.family, kind), key), [])
                if found and _first_change(found, key, schema) is None:
                    silent.append(f"{game_id}: {key} at {Place(place.family, kind)}")
    assert not silent, "keys given to a kind that change nothing there:\n" + "\n".join(silent)


def test_the_pending_keys_are_still_accepted_and_silent(uses: dict[str, dict[tuple[Place, str], list[Use]]]) -> None:
    """A pending key the schema no longer takes, or that a scenario now shows counting, leaves the list."""
    accepted = {(game_id, str(place), key): (place, schema) for game_id, place, key, schema in _keys()}
    stale = [entry for entry in PENDING if entry not in accepted]
    shown = [entry for entry in PENDING if entry in accepted
             and _first_change(uses[entry[0]].get((accepted[entry][0], entry[2]), []), entry[2], accepted[entry][1]) is not None]
    assert not stale and not shown, (stale, shown)


def test_a_key_that_changes_nothing_is_told_from_one_that_does(scenarios: list[Scenario]) -> None:
    """The check can fail: a scenario's notes change no outcome; the MAMODO card that PROTECTS does."""
    scenario = next(s for s in scenarios if s.id == "zb-attacker-wins-protect-injury-and-effects")
    resolve = next(a.index for a in scenario.actions if a.data.get("action") == "resolve")
    assert changed(suite.default(), Use(scenario, ("actions", resolve)), "protect", {}) is not None
    assert changed(suite.default(), Use(scenario, ()), "notes", {}) is None
