"""The core, tested through Spark Duel (tests/toygame), the core's own example game."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from checker.commands import report
from checker.run.compare import compare, project
from checker.engine.game import Book, Context
from checker.engine.procedure import BindingError, Procedure, StepHandlers, Walker, load_procedure
from checker.run.runner import SETUP, run
from checker.format.scenario import ExpectedStep
from checker.format.schema import build_schema
from checker.engine.stack import Link, ResponseStack
from checker.engine.statecopy import Snapshot, deep_copy
from checker.run.suite import Suite, exit_code, scenario_files
from checker.engine.trace import TraceStep
from checker.engine.vocabulary import Vocabulary
from tests.toygame import GAME, rules

TOY = Path(__file__).parent / "toygame"
DUELS = TOY / "duels"


@pytest.fixture(scope="module")
def toy() -> Suite:
    return Suite({GAME.id: GAME})


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def variant(tmp_path: Path, source: str, *replacements: tuple[str, str]) -> Path:
    text = (DUELS / source).read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return write(tmp_path, source, text)


# --- The example game plays by its rules ------------------------------------------------------


def test_every_duel_passes(toy: Suite) -> None:
    results = toy.check([DUELS])
    assert len(results) >= 8
    assert [(r.id, r.verdict) for r in results if r.verdict != "pass"] == []


def test_the_catalogue_quotes_the_rules_verbatim() -> None:
    lines = (TOY / "rules.md").read_text(encoding="utf-8").splitlines()
    for ruling in GAME.catalogue.rulings:
        assert ruling.quote in lines[ruling.line - 1], ruling.id


# --- The procedure ----------------------------------------------------------------------------


def test_the_order_of_play_is_depth_first() -> None:
    assert GAME.procedure.order == (
        "check-hands", "attacker-spark", "defender-spark", "responses", "resolve-responses", "compare", "end-of-round",
    )
    assert [(p.id, parent.id if parent else None) for p, parent in GAME.procedure.all_phases()] == [
        ("preparation", None), ("round", None), ("comparing", "round"),
    ]


def test_a_phase_repeats_when_a_loop_comes_back_into_it() -> None:
    procedure = GAME.procedure
    assert procedure.repeats(procedure.phase("round"))
    assert procedure.repeats(procedure.phase("comparing"))
    assert not procedure.repeats(procedure.phase("preparation"))


def _procedure(tmp_path: Path, text: str) -> Procedure:
    return load_procedure(write(tmp_path, "procedure.yaml", text))


STEPS_AB = """
id: p
title: P
phases:
  - id: one
    title: One
    steps:
      - {id: a, title: A, condition: ready}
      - {id: b, title: B, returns_to: a}
"""


def test_binding_refuses_a_step_without_handler_and_a_condition_without_predicate(tmp_path: Path) -> None:
    handlers: StepHandlers[Any] = StepHandlers()
    handlers("a")(lambda context, state, action: None)
    with pytest.raises(BindingError) as error:
        Walker(_procedure(tmp_path, STEPS_AB), handlers)
    assert "step 'b' has no handler" in str(error.value)
    assert "condition 'ready' has no predicate" in str(error.value)


def test_binding_refuses_a_handler_for_an_undeclared_step(tmp_path: Path) -> None:
    handlers: StepHandlers[Any] = StepHandlers()
    for step in ("a", "b", "c"):
        handlers(step)(lambda context, state, action: None)
    handlers.condition("ready")(lambda state: True)
    with pytest.raises(BindingError, match="handler for undeclared step 'c'"):
        Walker(_procedure(tmp_path, STEPS_AB), handlers)


def test_an_unknown_step_attribute_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BindingError, match="unknown keys"):
        _procedure(tmp_path, STEPS_AB.replace("returns_to: a", "return_to: a"))


@dataclass
class Cursor:
    step: str | None = None
    ready: bool = True


class Recorder:
    """A stand-in context that records the steps run."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def in_step(self, phase: Any, step: Any, handler: Any, *args: Any) -> None:
        self.ran.append(step.id)
        handler(self, *args)


def _walker(tmp_path: Path) -> Walker[Cursor]:
    handlers: StepHandlers[Cursor] = StepHandlers()
    handlers("a")(lambda context, state, action: None)
    handlers("b")(lambda context, state, action: None)
    handlers.condition("ready")(lambda state: state.ready)
    return Walker(_procedure(tmp_path, STEPS_AB), handlers)


def test_advance_follows_the_loop_and_skips_a_step_whose_condition_fails(tmp_path: Path) -> None:
    walker, context, state = _walker(tmp_path), Recorder(), Cursor()
    walker.advance(context, state, "b", {})
    assert context.ran == ["a", "b"] and state.step is None  # b returns to a: the cursor stands before a
    state.ready = False
    walker.advance(context, state, "b", {})
    assert context.ran == ["a", "b", "b"]
    assert {("a", "condition"), ("b", "returns_to")} <= walker.read


# --- The response stack -----------------------------------------------------------------------


class Notes:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def note(self, ruling: Any, text: str, **_: Any) -> None:
        self.lines.append(text)


def test_the_stack_resolves_last_in_first_out_and_skips_a_negated_link() -> None:
    stack: ResponseStack[str] = ResponseStack().push(Link("A", "one", "x")).push(Link("B", "two", "y"))
    stack = stack.push(Link("A", "three", "z"))
    resolved: list[str] = []

    def resolver(number: int, link: Link[str], below: ResponseStack[str]) -> ResponseStack[str]:
        resolved.append(link.card)
        return below.negate(1) if link.card == "two" else below

    notes = Notes()
    assert not stack.resolve(notes, resolver)
    assert resolved == ["three", "two"]
    assert notes.lines[-1] == "Link 1 (one) was negated: it resolves to nothing"


def test_the_stack_never_changes_in_place() -> None:
    empty: ResponseStack[str] = ResponseStack()
    one = empty.push(Link("A", "one", "x"))
    assert empty.cards == [] and one.cards == ["one"]
    assert not one.negate(1) == one and not one.links[0].negated
    assert [link.card for link in one.push(Link("B", "two", "y")).negate(1).standing] == ["two"]


# --- The vocabulary ---------------------------------------------------------------------------


def test_the_schema_is_derived_from_the_vocabulary() -> None:
    definitions = build_schema({GAME.id: GAME})["definitions"][GAME.id]
    assert definitions["action"]["properties"]["action"]["enum"] == ["spark", "respond", "pass"]
    assert definitions["effect"]["properties"]["kind"]["enum"] == ["shield", "break"]
    assert "hand-too-large" in definitions["reject-reason"]["enum"]
    assert "no-window" in definitions["reject-reason"]["enum"]  # the core's own reason


def test_a_word_registered_twice_is_refused() -> None:
    vocabulary = Vocabulary()
    vocabulary.action("go", "Go.")(lambda c, s, a: None)
    with pytest.raises(ValueError, match="registered twice"):
        vocabulary.action("go", "Go again.")(lambda c, s, a: None)
    with pytest.raises(ValueError, match="declared twice"):
        vocabulary.reasons(no_window="again")
    with pytest.raises(ValueError, match="undeclared parameters"):
        vocabulary.action("stop", "Stop.", required=["player"])(lambda c, s, a: None)


def test_context_refuses_an_undeclared_reason_and_an_unknown_reading() -> None:
    context = Context(GAME)
    with pytest.raises(KeyError, match="does not declare"):
        context.reject("no-such-reason", "x")
    with pytest.raises(KeyError, match="not an ambiguous ruling"):
        context.reading("toy.compare.shield")
    with pytest.raises(KeyError, match="does not list"):
        context.read(rules.EQUAL_SPARKS, "no-such-reading")
    assert context.read(rules.EQUAL_SPARKS, "both-lose-one")


# --- Golden runs: engine regressions are FAILs, bad files are INVALID -----------------------


def test_an_action_refused_against_expectation_is_a_fail_naming_the_reason(toy: Suite, tmp_path: Path) -> None:
    path = variant(tmp_path, "shield-halves.yaml", ('hand: ["2", Shield]', 'hand: ["2"]'))
    [result] = toy.check([path])
    assert result.verdict == "fail" and exit_code([result]) == 1
    text = "\n".join(report.details(result))
    assert "actions[2].reject.reason: expected nothing, got not-in-hand (refused: Shield is not in B's hand)" in text
    assert "line 12: after action 3:" in text  # the action's line in the file


def test_an_expected_fact_the_engine_no_longer_produces_is_a_fail() -> None:
    """A name the engine does not produce (a monster gone from the field) is a mismatch, not a bad file."""
    expected = {"players": {"B": {"monsters": {"Mochi": {"lp": 7}}}}}
    actual = {"players": {"B": {"monsters": {"Mocchi": {"lp": 7}, "Golem": {"lp": 20}}}}}
    [mismatch] = compare(expected, actual, at=("expect",))
    assert mismatch.render() == (
        "players.B.monsters.Mochi: expected {lp: 7}, got nothing "
        "(no fact 'Mochi' here (did you mean 'Mocchi'?); there are: Mocchi, Golem)"
    )
    assert mismatch.at == ("expect", "players", "B", "monsters", "Mochi")


def test_a_list_expected_in_any_order_matches_a_pairing_of_its_items() -> None:
    """Each expected record matches a different actual one; the first fit is not always the pairing that works."""
    actual = [{"by": "Mario", "to": "Goomba"}, {"by": "Mario", "to": "Koopa"}]
    expected = {"in_any_order": [{"by": "Mario"}, {"by": "Mario", "to": "Goomba"}]}
    assert compare(expected, actual) == []
    assert project(expected, actual) == [{"by": "Mario"}, {"by": "Mario", "to": "Goomba"}]  # in the order expected
    assert compare({"in_any_order": ["Imp", "Goblin"]}, ["Goblin", "Imp"]) == []
    assert compare(["Imp", "Goblin"], ["Goblin", "Imp"]) != []  # a plain list keeps its order


def test_a_list_expected_in_any_order_fails_on_other_items_or_length() -> None:
    [other] = compare({"destroyed": {"in_any_order": ["Imp", "Imp"]}}, {"destroyed": ["Goblin", "Imp"]}, at=("expect",))
    assert other.render() == ("destroyed: expected [Imp, Imp], got [Goblin, Imp] "
                              "(no order of the facts matches the items expected)")
    assert other.at == ("expect", "destroyed", "in_any_order")
    [length] = compare({"in_any_order": ["Imp"]}, ["Goblin", "Imp"], name="destroyed")
    assert length.render() == "destroyed (length): expected 1, got 2"


def test_an_expectation_may_write_a_list_in_any_order_and_a_state_may_not(toy: Suite, tmp_path: Path) -> None:
    spark = '{action: spark, player: A, card: "9"}'
    matching = variant(tmp_path, "shield-halves.yaml",
                       (spark, spark[:-1] + ', expect: {players: {B: {hand: {in_any_order: [Shield, "2"]}}}}}'))
    [result] = toy.check([matching])
    assert result.verdict == "pass"
    wrong = variant(tmp_path, "shield-halves.yaml",
                    (spark, spark[:-1] + ', expect: {players: {B: {hand: {in_any_order: [Shield, "3"]}}}}}'))
    [result] = toy.check([wrong])
    assert result.verdict == "fail" and "no order of the facts matches" in "\n".join(report.details(result))
    unordered_state = variant(tmp_path, "shield-halves.yaml", ('B: {hand: ["2", Shield]}', 'B: {hand: {in_any_order: ["2", Shield]}}'))
    [result] = toy.check([unordered_state])
    assert result.verdict == "invalid"
    not_a_list = variant(tmp_path, "shield-halves.yaml", (spark, spark[:-1] + ", expect: {players: {B: {hand: {in_any_order: 3}}}}}"))
    [result] = toy.check([not_a_list])
    assert result.verdict == "invalid" and result.error is not None
    assert "wrong type: got the number 3 (expected a list)" in result.error.render(result.path)  # what is wrong inside it


def test_a_refused_initial_state_is_a_golden_test(toy: Suite, tmp_path: Path) -> None:
    [expected] = toy.check([DUELS / "hand-too-large.yaml"])
    assert expected.verdict == "pass" and expected.rejections[SETUP].reason == "hand-too-large"
    accepted = variant(tmp_path, "hand-too-large.yaml", ('["1", "2", "3", "4"]', '["1", "2", "3"]'))
    [result] = toy.check([accepted])
    assert result.verdict == "fail"
    assert "the game accepted the initial state" in result.mismatches[0][1].render()
    unexpected = variant(tmp_path, "higher-spark-wins.yaml", ('A: {hand: ["7"]}', 'A: {hand: ["7", "1", "2", "3"]}'))
    [result] = toy.check([unexpected])
    assert result.verdict == "fail" and "hand-too-large" in report.details(result)[0]


def test_a_ruling_listed_under_expect_cites_must_be_cited_by_the_run(toy: Suite, tmp_path: Path) -> None:
    """The Break's ruling applies only when a Break is played: a duel without one cannot cite it."""
    cites = ("rulings: [toy.round.break-negates, toy.round.resolve]\n",
             "rulings: [toy.round.break-negates, toy.round.resolve]\nexpect_cites: [toy.round.break-negates]\n")
    [cited] = toy.check([variant(tmp_path, "break-negates-shield.yaml", cites)])
    assert cited.verdict == "pass"
    without_break = variant(tmp_path, "shield-halves.yaml", ("game: spark-duel\n", "game: spark-duel\nexpect_cites: [toy.round.resolve, toy.round.break-negates]\n"))
    [result] = toy.check([without_break])
    assert result.verdict == "fail" and exit_code([result]) == 1
    text = "\n".join(report.details(result))
    assert "cites: expected toy.round.break-negates, got nothing (the trace does not cite it)" in text
    assert "line 3" in text and "toy.round.resolve" not in text
    unknown = variant(tmp_path, "shield-halves.yaml", ("game: spark-duel\n", "game: spark-duel\nexpect_cites: [toy.round.brake]\n"))
    [invalid] = toy.check([unknown])
    assert invalid.verdict == "invalid" and exit_code([invalid]) == 2
    assert "unknown ruling 'toy.round.brake'" in invalid.error.render(invalid.path)


def test_a_step_listed_under_expect_trace_must_be_in_the_trace_with_its_entities_and_numbers(toy: Suite, tmp_path: Path) -> None:
    """B plays Spark 2: a step cites the Spark ruling, involves card 2 and shows spark 2."""
    def expecting(step: str) -> Path:
        return variant(tmp_path, "shield-halves.yaml", ("game: spark-duel\n", f"game: spark-duel\nexpect_trace:\n  - {step}\n"))

    [matched] = toy.check([expecting('{cites: toy.round.sparks, involves: [[card, "2"]], values: {spark: 2}}')])
    assert matched.verdict == "pass"
    for wrong in ('{cites: toy.round.sparks, involves: [[card, "3"]]}', "{cites: toy.round.sparks, values: {spark: 3}}",
                  "{cites: toy.round.break-negates}"):
        [result] = toy.check([expecting(wrong)])
        assert result.verdict == "fail", wrong
        assert "no step of the trace matches it" in "\n".join(report.details(result))
    [invalid] = toy.check([expecting("{cites: toy.round.spark}")])
    assert invalid.verdict == "invalid" and "unknown ruling 'toy.round.spark'" in invalid.error.render(invalid.path)


def test_a_ruling_listed_under_expect_not_cited_must_not_be_cited_by_the_run(toy: Suite, tmp_path: Path) -> None:
    """A duel without a Break never cites the Break's ruling; one with a Break does, and fails."""
    [without_break] = toy.check([variant(tmp_path, "shield-halves.yaml",
                                         ("game: spark-duel\n", "game: spark-duel\nexpect_not_cited: [toy.round.break-negates]\n"))])
    assert without_break.verdict == "pass"
    with_break = variant(tmp_path, "break-negates-shield.yaml",
                         ("rulings:", "expect_not_cited: [toy.compare.shield, toy.round.break-negates]\nrulings:"))
    [result] = toy.check([with_break])
    assert result.verdict == "fail" and exit_code([result]) == 1
    text = "\n".join(report.details(result))
    assert "not cited: expected nothing, got toy.round.break-negates (the trace cites it: The Break negates the Shield" in text
    assert "toy.compare.shield" not in text  # a Shield the Break negates never resolves
    unknown = variant(tmp_path, "shield-halves.yaml", ("game: spark-duel\n", "game: spark-duel\nexpect_not_cited: [toy.round.brake]\n"))
    [invalid] = toy.check([unknown])
    assert invalid.verdict == "invalid" and "unknown ruling 'toy.round.brake'" in invalid.error.render(invalid.path)


def test_a_step_listed_under_expect_trace_without_a_ruling_matches_a_step_citing_any_or_none(toy: Suite, tmp_path: Path) -> None:
    def expecting(step: str) -> Path:
        return variant(tmp_path, "shield-halves.yaml", ("game: spark-duel\n", f"game: spark-duel\nexpect_trace:\n  - {step}\n"))

    [matched] = toy.check([expecting('{involves: [[card, "2"]], values: {spark: 2}}')])
    assert matched.verdict == "pass"
    [unmatched] = toy.check([expecting("{values: {spark: 3}}")])
    assert unmatched.verdict == "fail"
    assert "trace: expected a step showing spark = 3, got nothing" in "\n".join(report.details(unmatched))
    [empty] = toy.check([expecting("{}")])
    assert empty.verdict == "invalid"
    uncited = TraceStep(text="B discards", ruling=None, phase=None, step=None, action=0, values={"cards": 1},
                        entities=(("card", "2"),), settling=False)
    assert ExpectedStep(None, (("card", "2"),), {"cards": 1}).matches(uncited)
    assert not ExpectedStep("toy.round.sparks", (("card", "2"),)).matches(uncited)


def test_a_trace_step_without_a_text_or_with_a_malformed_entity_is_a_bug_in_the_rules() -> None:
    context = Context(GAME)
    context.note("toy.round.sparks", "A plays Spark 2", involves=[("card", "2")])
    with pytest.raises(TypeError, match="needs a text"):
        context.note("toy.round.sparks", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\(kind, name\) texts"):
        context.note("toy.round.sparks", "A plays Spark 2", involves=[("card", None)])  # type: ignore[list-item]


def test_a_trace_step_naming_an_undeclared_kind_or_mechanic_is_a_bug_in_the_rules() -> None:
    context = Context(GAME)
    context.note("toy.round.sparks", "The higher Spark wins", involves=[("card", "2"), ("mechanic", "Spark")])
    for entity in [("Card", "2"), ("monster", "2"), ("mechanic", "spark"), ("mechanic", "Sparks")]:
        with pytest.raises(TypeError, match="does not declare"):
            context.note("toy.round.sparks", "The higher Spark wins", involves=[entity])


def test_a_mechanic_is_described_by_the_games_mechanics_file() -> None:
    assert GAME.describe("mechanic", "hand") == {"what": "The cards a player holds, at most 3.", "section": "1. Preparation"}
    assert GAME.describe("mechanic", "draw") is None
    assert GAME.describe("card", "hand") is None


def test_a_crash_in_a_rules_module_reports_its_traceback_and_the_trace(toy: Suite, monkeypatch) -> None:
    def broken(context: Context, state: Any, action: Any) -> None:
        raise ZeroDivisionError("a bug in the rules")

    monkeypatch.setitem(GAME.rules.steps.handlers, "compare", broken)
    [result] = toy.check([DUELS / "higher-spark-wins.yaml"])
    assert result.verdict == "error" and exit_code([result]) == 1
    text = "\n".join(report.details(result))
    assert "Traceback" in text and "ZeroDivisionError: a bug in the rules" in text
    assert "The defender B plays Spark 4" in text  # the trace up to the crash


def test_a_file_that_is_wrong_on_its_own_stays_invalid(toy: Suite, tmp_path: Path) -> None:
    path = variant(tmp_path, "higher-spark-wins.yaml", ("{action: pass, player: B}", "{action: pas, player: B}"))
    [result] = toy.check([path])
    assert result.verdict == "invalid" and exit_code([result]) == 2
    assert result.error is not None and "unknown action 'pas'" in result.error.message


def test_declared_rulings_that_the_run_does_not_cite_are_reported(toy: Suite, tmp_path: Path) -> None:
    path = variant(tmp_path, "higher-spark-wins.yaml", ("toy.prep.life]", "toy.prep.life, toy.compare.shield]"))
    [result] = toy.check([path])
    assert result.verdict == "pass"
    assert report.citation_note(result, GAME.catalogue) == "  declared, not cited by the trace: toy.compare.shield"


def test_trace_lines_tell_setup_actions_and_the_end_apart(toy: Suite) -> None:
    [result] = toy.check([DUELS / "higher-spark-wins.yaml"])
    headings = [line for line in report.trace_lines(result.trace) if line.startswith("  --")]
    assert headings[0] == "  -- setup / Preparation" and headings[1].startswith("  -- action 1")


def test_applying_an_action_never_changes_the_state_it_was_given(toy: Suite) -> None:
    [item] = toy.load_many(scenario_files([DUELS / "break-negates-shield.yaml"]))
    seen: list[tuple[Any, Any]] = []

    class Audit:
        def before(self, state: Any) -> None:
            self.snapshot = copy.deepcopy(state)

        def after(self, given: Any, produced: Any) -> None:
            seen.append((given == self.snapshot, given is produced))

        def observed(self, facts: Any) -> None:
            pass

    assert run(item, GAME, audit=Audit()).verdict == "pass"
    assert seen and all(unchanged and not same for unchanged, same in seen)


def test_a_run_changes_only_states_it_copied_itself(toy: Suite, monkeypatch) -> None:
    """The state setup gives is never changed where it stands: a setup that leaves the scenario's own lists in it
    (here: each hand) leaves the scenario as it was, and the run as any other."""
    [item] = toy.load_many(scenario_files([DUELS / "break-negates-shield.yaml"]))
    written = pickle.dumps((item.initial, [action.data for action in item.actions]))
    expected = toy.run_one(item)
    setup = rules.setup

    def sharing(context: Context, initial: Any, cards: Any, book: Any) -> Any:
        state = setup(context, initial, cards, book)
        for name, player in state.players.items():
            player.hand = initial["players"][name]["hand"]
        return state

    monkeypatch.setattr(rules, "setup", sharing)
    result = toy.run_one(item)
    assert pickle.dumps((item.initial, [action.data for action in item.actions])) == written
    assert (result.verdict, result.outcome, result.trace) == ("pass", expected.outcome, expected.trace)


@dataclass
class _Node:
    name: str
    children: list[Any]
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Fixed:
    values: dict[str, int]


def test_the_state_copy_is_deepcopys_copy_with_shared_parts_shared_once() -> None:
    shared = _Node("shared", [1, {"a": [2, 3]}])
    fixed = _Fixed({"x": 1})
    book = Book({"card": fixed})
    state = {"a": shared, "b": [shared, (shared, 4)], "book": book, "fixed": fixed, "tags": {frozenset({"t"})}}
    state["self"] = [state]
    made = deep_copy(state)
    assert repr(made) == repr(copy.deepcopy(state))
    assert made["a"] is made["b"][0] is made["b"][1][0] and made["a"] is not shared
    assert made["self"][0] is made and made["book"] is book
    assert made["fixed"] == fixed and made["fixed"] is not fixed and made["fixed"].values is not fixed.values
    made["a"].children[1]["a"].append(9)
    assert shared.children[1]["a"] == [2, 3]


@dataclass(frozen=True)
class _Printed:
    name: str
    costs: tuple[int, ...] = ()


def test_a_book_is_a_read_only_dict_that_every_copy_shares() -> None:
    zatch = _Printed("Zatch", (1,))
    book = Book({"Zatch": zatch})
    assert book["Zatch"] is zatch and "Zatch" in book and book.get("Kiyo") is None and book == {"Zatch": zatch}
    changes = [lambda: book.__setitem__("Kiyo", zatch), lambda: book.__delitem__("Zatch"), lambda: book.update(Kiyo=zatch),
               lambda: book.setdefault("Kiyo", zatch), lambda: book.pop("Zatch"), book.popitem, book.clear,
               lambda: book.__ior__({"Kiyo": zatch})]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert book == {"Zatch": zatch} and repr(book) == "Book(1 entries)"
    assert deep_copy(book) is book and copy.deepcopy(book) is book and deep_copy({"cards": book})["cards"] is book
    for made in (pickle.loads(pickle.dumps(book)), copy.copy(book)):
        assert type(made) is Book and made == book


def test_the_state_copy_shares_what_cannot_change_and_copies_what_can() -> None:
    printed = _Printed("Zatch", (1, 2))
    node = _Node("n", [printed, _Fixed({"x": 1})])
    node.extra = "an attribute beyond the fields"  # type: ignore[attr-defined]
    lacking = _Node("lacking", [1])
    del lacking.tags  # the class default stands in for it
    state = {"node": node, "printed": printed, "lacking": lacking}
    made = deep_copy(state)
    assert made["lacking"].children == [1] and made["lacking"].children is not lacking.children and "tags" not in vars(made["lacking"])
    assert made["printed"] is printed and made["node"].children[0] is printed  # frozen, and everything in it too
    assert made["node"] is not node and made["node"].extra == node.extra  # type: ignore[attr-defined]
    assert repr(made) == repr(copy.deepcopy(state))
    kept = Snapshot(state)
    state["node"].children.append("later")
    copied = deep_copy({"kept": kept})
    assert copied["kept"] is kept and kept == Snapshot(made)
    restored = kept.restore()
    assert restored["node"].children == [printed, _Fixed({"x": 1})]
    restored["node"].children.clear()
    assert kept.restore()["node"].children == [printed, _Fixed({"x": 1})]


def test_a_folder_names_its_scenario_files_in_path_order_hidden_ones_too_not_through_a_linked_folder(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    for name in ("a/x.yaml", "a/b/y.yml", ".h.yaml", ".yaml", "other/z.yaml", "a-b.yaml", "a/notes.txt"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "a" / "link").symlink_to(tmp_path / "other")  # a folder reached twice is listed once
    (tmp_path / "zl.yaml").symlink_to(tmp_path / "other" / "z.yaml")
    (tmp_path / "broken.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "folder.yaml").mkdir()
    found = scenario_files([tmp_path])  # a link to nothing is listed: its loading says what it is
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        ".h.yaml", "a/b/y.yml", "a/x.yaml", "a-b.yaml", "broken.yaml", "other/z.yaml", "zl.yaml"]
    assert found == sorted(p for p in tmp_path.rglob("*") if p.suffix in (".yaml", ".yml") and not p.is_dir())
