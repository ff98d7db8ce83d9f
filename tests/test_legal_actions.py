"""What may be done next, for every game: the legal-actions contract over every scenario, and random legal play.

The contract, at every action of every scenario of every game (the example game's included):
- every action listed as legal is accepted by ``apply``;
- the action the scenario plays, when ``apply`` accepts it, is listed.

Random legal play (:mod:`checker.commands.randomplay`) from every game's scenarios never crashes, never has an action
refused, never produces a state whose facts the game's outcome schema refuses, writes scenarios the format
accepts, and keeps the game's own invariants (``invariants(first, state)`` in its moves module).
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine import legal
from checker.commands import randomplay, whatnext
from checker.engine.errors import InputError, Rejection
from checker.engine.game import Context, Game
from checker.run.runner import run
from checker.format.scenario import Scenario
from checker.run.suite import Suite, scenario_files
from checker.cli import main
from tests.conftest import DUELS, EVERY_GAME, SCENARIOS
from tests.toygame import GAME as TOY

GAMES = EVERY_GAME
#: Random games per game: a few in CI, as many as $RANDOM_PLAY_EXAMPLES says in a long run.
EXAMPLES = int(os.environ.get("RANDOM_PLAY_EXAMPLES", "25"))


def test_every_game_lists_its_actions() -> None:
    assert [game_id for game_id, game in GAMES.items() if not legal.lists_actions(game)] == []


class LegalAudit:
    """At each action of a run: what is listed is accepted, and what the scenario plays is listed if accepted."""

    def __init__(self, game: Game, scenario: Scenario) -> None:
        self.game, self.scenario = game, scenario
        self.index = 0
        self.problems: list[str] = []
        self.checked = 0

    def before(self, state: Any) -> None:
        pins = self.scenario.readings
        listed = legal.legal_actions(self.game, state, pins)
        for action in listed:
            if not self._accepts(state, action):
                self.problems.append(f"action {self.index + 1}: {action} is listed, and refused")
        played = self.scenario.actions[self.index].data
        if self._accepts(state, played):
            self.checked += 1
            if not legal.listed(self.game, played, listed, state):
                self.problems.append(f"action {self.index + 1}: {dict(played)} is accepted, and not listed")
        self.index += 1

    def _accepts(self, state: Any, action: Mapping[str, Any]) -> bool:
        try:
            self.game.apply(state, action, Context(self.game, self.scenario.readings))
        except Rejection:
            return False
        return True

    def after(self, given: Any, produced: Any) -> None:
        pass

    def observed(self, facts: Mapping[str, Any]) -> None:
        pass


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_legal_actions_agree_with_apply_on_every_scenario(game_id: str, every_scenario: list[Scenario]) -> None:
    game = GAMES[game_id]
    if not legal.lists_actions(game):
        pytest.fail(f"{game_id} does not list its actions")
    broken: dict[str, list[str]] = {}
    checked = 0
    for scenario in (s for s in every_scenario if s.game == game_id):
        audit = LegalAudit(game, scenario)
        result = run(scenario, game, audit=audit)
        assert result.crash is None, result.crash
        checked += audit.checked
        if audit.problems:
            broken[scenario.id] = audit.problems
    assert checked > 0
    assert not broken


def _outcome_validator(game: Game, suite: Suite) -> jsonschema.Draft7Validator:
    schema = suite.validator.schema
    return jsonschema.Draft7Validator({"$ref": f"#/definitions/{game.id}/outcome", "definitions": schema["definitions"]})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_legal_play_keeps_the_rules_contracts(game_id: str, every_scenario: list[Scenario],
                                                    every_game_suite: Suite) -> None:
    game = GAMES[game_id]
    if not legal.lists_actions(game):
        pytest.fail(f"{game_id} does not list its actions")
    origins = randomplay.starts(game, (s for s in every_scenario if s.game == game_id))
    outcome = _outcome_validator(game, every_game_suite)
    invariants = getattr(game.moves, "invariants", None)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(data=randomplay.scenarios(game, origins))
    def random_game(data: dict[str, Any]) -> None:
        scenario = every_game_suite.from_data({"id": "random-play", "game": game.id, "title": "Random legal play", **data},
                                   "<random play>")
        states: list[Any] = []

        class Watch:
            def before(self, state: Any) -> None:
                states.append(state)

            def after(self, given: Any, produced: Any) -> None:
                pass

            def observed(self, facts: Mapping[str, Any]) -> None:
                problems = [error.message for error in outcome.iter_errors(facts)]
                assert not problems, problems

        result = run(scenario, game, audit=Watch())
        assert result.crash is None, result.crash
        assert result.verdict == "question", (result.verdict, result.error)
        assert not result.rejections, {index: r.message for index, r in result.rejections.items()}
        if invariants is not None and states:
            first = states[0]
            for state in states[1:]:
                broken = list(invariants(first, state))
                assert not broken, broken

    random_game()


def test_random_play_is_drawn_from_what_the_rules_allow() -> None:
    """The example game: every drawn action was legal where it was played, and play shrinks to nothing."""
    suite = Suite(GAMES)
    duels = [item for item in suite.load_many(scenario_files([DUELS])) if isinstance(item, Scenario)]
    origins = randomplay.starts(TOY, duels)
    assert origins

    @settings(max_examples=40, deadline=None, database=None, derandomize=True)
    @given(data=randomplay.scenarios(TOY, origins), where=st.integers(0, 20))
    def drawn(data: dict[str, Any], where: int) -> None:
        context = Context(TOY)
        state = TOY.setup(data["initial"], data["cards"], context)
        for action in data["actions"]:
            assert legal.listed(TOY, action, legal.legal_actions(TOY, state))
            state = TOY.apply(state, action, context)

    drawn()


def test_what_each_player_may_do_after_the_last_action() -> None:
    """After both Sparks (9 against 2), the defender B may respond with the Shield it holds and the attacker A with
    its Break (rules.md, 2. A round), and either may pass; no Spark may be played until the round is compared."""
    suite = Suite(GAMES)
    scenario = suite.from_data({
        "id": "what-next", "game": TOY.id, "title": "What may be done after both Sparks",
        "initial": {"players": {"A": {"hand": ["9", "Break", "4"]}, "B": {"hand": ["2", "Shield"]}}},
        "actions": [{"action": "spark", "player": "A", "card": "9"}, {"action": "spark", "player": "B", "card": "2"}],
    }, "<what next>")
    found = whatnext.what_next(scenario, TOY)
    assert found.where == ("A round", "Responses (Shield, Break)")
    assert {player: [o.action for o in listed] for player, listed in found.by_player().items()} == {
        "A": [{"action": "respond", "player": "A", "card": "Break"}, {"action": "pass", "player": "A"}],
        "B": [{"action": "respond", "player": "B", "card": "Shield"}, {"action": "pass", "player": "B"}],
    }
    [respond] = [o for o in found.options if o.action["action"] == "respond" and o.player == "B"]
    assert "toy.round.responses" in respond.rulings
    shown = whatnext.text(found, TOY, path="what-next.yaml")
    assert "Player A may:" in shown and "respond: card Break" in shown and "allowed by: toy.round.responses" in shown


def test_what_may_be_done_after_any_action_and_what_was_played() -> None:
    """checker options --after N: at the start of a duel only the attacker's Sparks may be played (rules.md, 2. A
    round: "The attacker plays one Spark face up"), and the scenario's own first action is said; a number beyond the
    scenario's actions is one clear message and exit 2."""
    suite = Suite(GAMES)
    scenario = suite.from_data({
        "id": "what-next-start", "game": TOY.id, "title": "What may be done at the start",
        "initial": {"players": {"A": {"hand": ["9", "Break"]}, "B": {"hand": ["2"]}}},
        "actions": [{"action": "spark", "player": "A", "card": "9"}],
    }, "<what next>")
    found = whatnext.what_next(scenario, TOY, after=0)
    assert [o.action for o in found.options] == [{"action": "spark", "player": "A", "card": "9"}]
    assert found.played_next == {"action": "spark", "player": "A", "card": "9"} and found.played_by == "A"
    assert "The scenario then plays spark: card 9 (player A)." in whatnext.text(found, TOY, path="x.yaml")
    with pytest.raises(InputError, match="has 1 action: there is no action 2"):
        whatnext.what_next(scenario, TOY, after=2)


def test_checker_options_on_a_real_scenario_lists_what_it_plays_next(capsys: pytest.CaptureFixture[str]) -> None:
    """Before a Yu-Gi-Oh! scenario's attack, the turn player may declare that attack among others, and it is said."""
    path = SCENARIOS / "yugioh-dm2" / "atk-change-only-before-calculation.yaml"
    assert main(["options", str(path), "--after", "1"]) == 0
    out = capsys.readouterr().out
    assert "after action 1 of 4" in out and "The scenario then plays attack: attacker Blade, target Guard (player A)." in out
    assert "  - attack: attacker Blade, target Guard" in out.split("Player A may:")[1]
    assert main(["options", str(path), "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["after"] == 4 and shown["played_next"] is None and shown["options"]
    assert main(["options", str(path), "--after", "5"]) == 2
    assert "there is no action 5" in capsys.readouterr().err
