"""Who may act, and what: the actions a step declares, its priority rule, and the core's one record of priority.

A small procedure of its own tests the walker; Spark Duel tests the rules as its ``rules.md`` states them
("When both players pass in turn, the responses resolve"), derived here by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from checker.engine.errors import Rejection
from checker.engine.game import Context
from checker.engine.priority import Priority
from checker.engine.procedure import BindingError, Procedure, StepHandlers, Walker, load_procedure
from tests.toygame import GAME

#: An opening (one action allowed), a deal, a round of Actions (the attacker first, alternating, two passes in turn end
#: it; its phase declares the actions), and a close that play moves on to. After the deal, which declares nothing, the
#: game waits at the repeating step of Actions.
PROCEDURE = """
id: play
title: Play
over: {condition: game-won, refuse: game-over, ruling: r.over}
phases:
  - id: opening
    title: Opening
    steps:
      - id: open
        title: Open
        actions: {allows: [open], refuse: not-now, ruling: r.open}
      - id: deal
        title: Deal
  - id: actions
    title: Actions
    actions: {allows: [act, pass], refuse: not-now, ruling: r.act}
    steps:
      - id: act
        title: The players act in turn, the attacker first
        repeat: true
        priority: {first: attacker, alternates: true, pass: gives, ends: all-pass, then: close,
                   refuse: not-your-turn, ruling: r.turns}
      - id: close
        title: Close
        actions: {allows: [], refuse: closed, ruling: r.close, involves: [[mechanic, close]]}
"""


def _procedure(tmp_path: Path, text: str = PROCEDURE) -> Procedure:
    path = tmp_path / "procedure.yaml"
    path.write_text(text)
    return load_procedure(path)


@dataclass
class Table:
    step: str | None = None
    attacker: str = "A"
    won: bool = False
    priority: Priority = field(default_factory=lambda: Priority(("A", "B")))


class Referee:
    """A stand-in context: runs handlers, and builds refusals without a catalogue."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.involved: list[Any] = []

    def in_step(self, phase: Any, step: Any, handler: Any, *args: Any) -> None:
        self.ran.append(step.id)
        handler(self, *args)

    def reject(self, reason: str, message: str, ruling: str | None = None, *, involves: Any = (), **_: Any) -> Rejection:
        self.involved.append(tuple(involves))
        return Rejection(reason, message, ruling, {})


def _handlers() -> StepHandlers[Table]:
    handlers: StepHandlers[Table] = StepHandlers()
    for step in ("open", "deal", "act", "close"):
        handlers(step)(lambda context, state, action: None)
    handlers.condition("game-won")(lambda state: state.won)
    handlers.role("attacker")(lambda state: state.attacker)
    return handlers


def _walker(tmp_path: Path) -> Walker[Table]:
    return Walker(_procedure(tmp_path), _handlers())


def _refused(call: Any) -> tuple[str, str | None]:
    with pytest.raises(Rejection) as refused:
        call()
    return refused.value.reason, refused.value.ruling


def test_a_step_refuses_an_action_it_does_not_declare_with_its_reason_and_ruling(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    walker.advance(referee, table, "open", {})
    walker.check_action(referee, table, {"action": "open"})
    assert _refused(lambda: walker.check_action(referee, table, {"action": "act"})) == ("not-now", "r.open")
    walker.advance(referee, table, "deal", {})
    walker.check_action(referee, table, {"action": "act"})
    assert _refused(lambda: walker.check_action(referee, table, {"action": "open"})) == ("not-now", "r.act")
    assert {("open", "actions"), ("phase:actions", "actions")} <= walker.read  # the phase's declaration, for its steps


def test_after_the_opening_the_game_waits_at_the_repeating_step_with_the_attacker_to_act(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table(attacker="B")
    walker.advance(referee, table, "open", {})
    assert walker.standing(table).id == "open" and table.priority == Priority(("A", "B"))  # type: ignore[union-attr]
    walker.advance(referee, table, "deal", {})
    assert walker.standing(table).id == "act"  # type: ignore[union-attr]
    assert table.step == "deal" and table.priority == Priority(("A", "B"), "act", "B")


def test_play_alternates_and_an_action_out_of_turn_is_refused(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    walker.advance(referee, table, "deal", {})
    assert _refused(lambda: walker.take_turn(referee, table, "B")) == ("not-your-turn", "r.turns")
    walker.take_turn(referee, table, "A")
    walker.run(referee, table, "act", {})  # the repeating step runs again: its record stays
    assert table.priority.holder == "B"
    assert _refused(lambda: walker.pass_turn(referee, table, "A", {})) == ("not-your-turn", "r.turns")


def test_both_passes_in_turn_end_the_step_and_play_moves_on(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    walker.advance(referee, table, "deal", {})
    assert not walker.pass_turn(referee, table, "A", {})
    assert table.priority.holder == "B" and table.priority.passed == ("A",)
    walker.take_turn(referee, table, "B")  # an action: the pass before it no longer counts
    assert table.priority.passed == () and table.priority.holder == "A"
    assert not walker.pass_turn(referee, table, "A", {})
    assert walker.pass_turn(referee, table, "B", {})
    assert referee.ran[-1] == "close" and table.step == "close"
    assert table.priority == Priority(("A", "B"))  # no rule at the close: the record is closed
    assert _refused(lambda: walker.check_action(referee, table, {"action": "act"})) == ("closed", "r.close")
    assert referee.involved[-1] == (("mechanic", "close"),)  # the entities the declared refusal names


def test_every_player_passing_at_once_ends_the_step_and_a_pass_without_a_rule_ends_nothing(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    walker.advance(referee, table, "open", {})
    assert not walker.pass_turn(referee, table, "A", {})  # no rule at the opening
    walker.advance(referee, table, "deal", {})
    assert walker.pass_turn(referee, table, None, {}) and table.step == "close"


def test_what_a_pass_means_runs_once_it_is_recorded_before_play_moves_on(tmp_path: Path) -> None:
    handlers = _handlers()
    meant: list[tuple[str, bool, str | None]] = []

    @handlers.passed("act")
    def meaning(context: Any, state: Table, action: Any) -> None:
        meant.append((action["player"], state.priority.ended, state.step))

    walker, referee, table = Walker(_procedure(tmp_path), handlers), Referee(), Table()
    walker.advance(referee, table, "deal", {})
    walker.pass_turn(referee, table, "A", {"player": "A"})
    walker.pass_turn(referee, table, "B", {"player": "B"})
    assert meant == [("A", False, "deal"), ("B", True, "deal")] and table.step == "close"
    handlers.passed("open")(meaning)
    with pytest.raises(BindingError, match="a pass is given a meaning at 'open', which has no priority rule"):
        Walker(_procedure(tmp_path), handlers)


def test_an_action_that_needs_no_priority_is_recorded_all_the_same(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    walker.advance(referee, table, "deal", {})
    walker.pass_turn(referee, table, "A", {})
    walker.take_turn(referee, table, "A", in_turn=False)  # out of turn (a response that interrupts): not refused
    assert table.priority.holder == "B" and table.priority.passed == ()


def test_a_game_started_mid_way_stands_where_it_says_and_no_one_acts_once_it_is_over(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table(attacker="B")
    walker.start_at(table, "deal")
    assert referee.ran == [] and table.priority == Priority(("A", "B"), "act", "B")
    table.won = True
    walker.start_at(table, "deal")
    assert table.priority == Priority(("A", "B"))


def test_a_step_that_runs_closes_the_record_of_the_step_play_left(tmp_path: Path) -> None:
    handlers = _handlers()
    seen: list[Priority] = []
    handlers.handlers["close"] = lambda context, state, action: seen.append(state.priority)
    walker, referee, table = Walker(_procedure(tmp_path), handlers), Referee(), Table()
    walker.advance(referee, table, "deal", {})
    walker.pass_turn(referee, table, None, {})
    assert seen == [Priority(("A", "B"))]  # the close's handler no longer sees the Actions' record


def test_reached_says_whether_play_stands_at_a_step_or_after_it(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table()
    assert not walker.reached(table, "open")  # before the first step
    walker.advance(referee, table, "deal", {})
    assert walker.reached(table, "open") and walker.reached(table, "deal") and not walker.reached(table, "close")


def test_a_game_that_is_over_refuses_every_action(tmp_path: Path) -> None:
    walker, referee, table = _walker(tmp_path), Referee(), Table(won=True)
    walker.advance(referee, table, "open", {})
    assert _refused(lambda: walker.check_action(referee, table, {"action": "open"})) == ("game-over", "r.over")
    assert ("procedure", "over") in walker.read


def test_binding_refuses_a_role_without_binder_and_a_binder_without_role(tmp_path: Path) -> None:
    handlers = _handlers()
    del handlers.roles["attacker"]
    handlers.role("defender")(lambda state: "B")
    with pytest.raises(BindingError) as error:
        Walker(_procedure(tmp_path), handlers)
    assert "role 'attacker' has no binder" in str(error.value)
    assert "role binder 'defender' is named by no priority rule" in str(error.value)


@pytest.mark.parametrize("old, new, message", [
    ("then: close,", "then: close, else: x,", "unknown keys"),
    ("ends: all-pass, then: close,", "then: close,", "no pass ends the step"),
    ("then: close,", "then: nowhere,", "undeclared 'nowhere'"),
    ("pass: gives,", "pass: hands-over,", "pass is one of"),
    ("refuse: not-your-turn,", "", r"the reject reason \(refuse\) for acting out of turn is missing"),
    ("refuse: closed, ruling: r.close,", "ruling: r.close,", r"the reject reason \(refuse\) for any other action"),
])
def test_a_declaration_the_engine_cannot_act_on_is_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in PROCEDURE
    with pytest.raises(BindingError, match=message):
        Walker(_procedure(tmp_path, PROCEDURE.replace(old, new)), _handlers())


def test_the_rules_in_words_say_what_the_engine_does(tmp_path: Path) -> None:
    procedure = _procedure(tmp_path)
    assert procedure.step("act").rules_in_words(procedure) == [
        "only act, pass (refused: not-now)",  # its phase's
        "the attacker acts first; play alternates; a pass gives priority to the other player; when every player has "
        "passed since the last action, the step ends, and play moves on to “Close”; out of turn: not-your-turn",
    ]
    assert procedure.step("close").rules_in_words(procedure) == ["no action (refused: closed)"]  # involves: the trace's
    assert procedure.over is not None and procedure.over.in_words() == "once game won, every action is refused (game-over)"


# --- Spark Duel, by its rules.md ----------------------------------------------------------------


def _duel(*actions: dict[str, Any]) -> tuple[Any, Context]:
    context = Context(GAME)
    state = GAME.setup({"players": {"A": {"hand": ["9", "Break"]}, "B": {"hand": ["2", "Shield"]}}}, {}, context)
    for action in actions:
        state = GAME.apply(state, action, context)
    return state, context


SPARKS = ({"action": "spark", "player": "A", "card": "9"}, {"action": "spark", "player": "B", "card": "2"})


def test_a_response_before_the_defenders_spark_is_refused_as_the_step_declares() -> None:
    state, context = _duel(SPARKS[0])
    with pytest.raises(Rejection) as refused:
        GAME.apply(state, {"action": "respond", "player": "B", "card": "Shield"}, context)
    assert (refused.value.reason, refused.value.ruling) == ("no-responses-now", "toy.round.responses")


def test_a_player_passing_twice_in_a_row_does_not_end_the_responses() -> None:
    """"When both players pass in turn, the responses resolve": one player's passes are one player's."""
    state, _ = _duel(*SPARKS, {"action": "respond", "player": "B", "card": "Shield"},
                     {"action": "pass", "player": "A"}, {"action": "pass", "player": "A"})
    assert state.step == "responses" and state.responses.cards == ["Shield"] and state.priority.passed == ("A",)
    state, _ = _duel(*SPARKS, {"action": "respond", "player": "B", "card": "Shield"},
                     {"action": "pass", "player": "A"}, {"action": "pass", "player": "A"}, {"action": "pass", "player": "B"})
    assert state.responses.cards == [] and state.players["B"].life == 7  # resolved: the Shield halved 7 to 3


def test_a_response_after_a_pass_makes_both_players_pass_again() -> None:
    state, _ = _duel(*SPARKS, {"action": "pass", "player": "A"}, {"action": "respond", "player": "B", "card": "Shield"},
                     {"action": "pass", "player": "B"})
    assert state.step == "responses" and state.priority.passed == ("B",)
    state = GAME.apply(state, {"action": "pass", "player": "A"}, Context(GAME))
    assert state.responses.cards == [] and state.attacker == "B"  # resolved, compared, the roles exchanged


def test_a_duel_that_is_over_refuses_every_action() -> None:
    context = Context(GAME)
    state = GAME.setup({"players": {"A": {"life": 1, "hand": ["1", "Shield"]}, "B": {"hand": ["9"]}}}, {}, context)
    for action in (SPARKS[0] | {"card": "1"}, {"action": "spark", "player": "B", "card": "9"},
                   {"action": "pass", "player": "A"}, {"action": "pass", "player": "B"}):
        state = GAME.apply(state, action, context)
    assert state.loser == "A"
    for action in ({"action": "respond", "player": "A", "card": "Shield"}, {"action": "pass", "player": "B"}):
        with pytest.raises(Rejection) as refused:
            GAME.apply(state, action, context)
        assert (refused.value.reason, refused.value.ruling) == ("duel-over", "toy.end.lose")
