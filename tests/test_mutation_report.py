"""The mutation report tool (`make mutation`): staging, counting, subtracting equivalents, bad input.

The tool needs mutmut, which the `test` dependency group installs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutation_report.py"
sys.path.insert(0, str(TOOL.parent))  # the tool imports its sibling mutation_stage, as a script does
spec = importlib.util.spec_from_file_location("mutation_report", TOOL)
assert spec and spec.loader
tool = importlib.util.module_from_spec(spec)
sys.modules["mutation_report"] = tool
spec.loader.exec_module(tool)

MODULE = Path("checker/games/many_marios_0/rules.py")
PREFIX = "checker.games.many_marios_0.rules."
DIFF = """--- checker/games/many_marios_0/rules.py
+++ checker/games/many_marios_0/rules.py
@@ -1,3 +1,3 @@
 def f(a, b):
-    if a <= b:
+    if a < b:
         return a"""


def result(statuses: dict[str, str], equivalent: tuple[Any, ...] = ()) -> Any:
    named = {PREFIX + name: status for name, status in statuses.items()}
    module = tool.ModuleResult(MODULE, 75.0, named)
    module.diff_by_mutant = {name: DIFF for name, status in named.items() if status not in tool.KILLED}
    module.equivalent = list(equivalent)
    return module


def test_the_change_is_the_removed_and_added_lines_only() -> None:
    assert tool.change_of(DIFF) == "-    if a <= b:\n+    if a < b:"


def test_timeouts_count_as_killed_and_equivalents_leave_the_count() -> None:
    statuses = {f"x_f__mutmut_{n}": "killed" for n in range(1, 8)} | {
        "x_f__mutmut_8": "timeout", "x_f__mutmut_9": "survived", "x_f__mutmut_10": "no tests",
    }
    plain = result(statuses)
    assert plain.made == 10 and plain.score == pytest.approx(0.8)
    assert plain.not_killed == [PREFIX + "x_f__mutmut_9", PREFIX + "x_f__mutmut_10"]
    excused = result(statuses, (tool.Equivalent(str(MODULE), "x_f__mutmut_9", "-    if a <= b:\n+    if a < b:", "r"),))
    assert excused.score == pytest.approx(8 / 9)
    assert excused.not_killed == [PREFIX + "x_f__mutmut_10"]


def test_the_report_counts_each_module_and_shows_each_survivor_with_its_diff() -> None:
    text = tool.render([result({"x_f__mutmut_1": "killed", "x_f__mutmut_2": "survived"})], workers=2)
    assert "| `checker/games/many_marios_0/rules.py` | 2 | 1 | 1 | 0 | 0 | 0 | 0 / 0 | 50.0 % (below goal) | 1 / 0 / 0 / 0 / 0 | 1 min 15 s |" in text
    assert "### Not killed, rules: 1\n\n#### `x_f__mutmut_2` (survived)" in text
    assert "```diff\n-    if a <= b:\n+    if a < b:\n```" in text


def test_a_survivor_is_grouped_by_the_call_its_line_belongs_to() -> None:
    source = (
        "def f(context, n):\n"
        "    if n > 1:\n"
        "        context.note('r.id', 'text',\n"
        "                     involves=[thing('x')])\n"
        "    raise InputError(f'bad {n}', path=('n',))\n"
    )
    tree = tool.ast.parse(source)
    changes = {
        2: "-    if n > 1:\n+    if n >= 1:",
        3: "-        context.note('r.id', 'text',\n+        context.note(None, 'text',",
        4: "-                     involves=[thing('x')])\n+                     involves=[thing('XXxXX')])",
        5: "-    raise InputError(f'bad {n}', path=('n',))\n+    raise InputError(None, path=('n',))",
    }
    assert [tool.kind_at(source, tree, line, change) for line, change in changes.items()] == [
        "rules", "citation", "trace step", "bad-input message",
    ]
    text_only = "-        context.note('r.id', 'text',\n+        context.note('r.id', 'XXtextXX',"
    assert tool.kind_at(source, tree, 3, text_only) == "trace step"
    assert tool.kind_at(source, tree, None, "") == "rules"


def test_a_broken_equivalents_file_is_one_located_message(tmp_path: Path) -> None:
    broken = tmp_path / "equivalent.yaml"
    broken.write_text("- module: a\n  mutant: [b\n", encoding="utf-8")
    with pytest.raises(tool.BadInput, match=r"equivalent\.yaml:3:1: not YAML"):
        tool.load_equivalents(broken)
    broken.write_text("- module: checker/games/x/rules.py\n  mutant: x_f__mutmut_1\n  reason: same\n", encoding="utf-8")
    with pytest.raises(tool.BadInput, match="entry 1 needs exactly the text keys change, module, mutant, reason"):
        tool.load_equivalents(broken)
    broken.write_text("- class: typos\n  reason: harmless\n", encoding="utf-8")
    with pytest.raises(tool.BadInput, match="entry 1: unknown class 'typos' \\(known: trace wording\\)"):
        tool.load_equivalents(broken)


FUNCTION = """\
def f(context, unit, turn):
    context.note("r.id", f"{unit.name} deals {unit.ae} damage" + (" again" if turn else ""),
                 involves=[thing("unit")], damage=unit.ae)
    context.note("r.id", ", ".join(str(n) for n in turn))
    context.note("r.id", f"{unit.name} {'waits' if turn else 'charges'}", spent=unit.ae)
    raise context.reject("too-late", message=f"{unit.name} cannot act")
"""


@pytest.mark.parametrize(("before", "after", "wording"), [
    ('deals {unit.ae} damage"', 'deals {unit.ae} DAMAGE"', True),
    ('" again"', '"XX againXX"', True),
    ('", ".join', '"XX, XX".join', True),
    ('cannot act"', 'cannot actXX"', True),
    ("'waits' if", "'XXwaitsXX' if", True),  # a branch of a choice inside a field
    ("if turn else 'charges'", "if not turn else 'charges'", False),  # its condition
    ('"r.id", f"{unit.name}', '"XXr.idXX", f"{unit.name}', False),  # the ruling cited
    ('thing("unit")', 'thing("XXunitXX")', False),  # an entity
    ('damage=unit.ae', 'damage=None', False),  # a number
    ('f"{unit.name} deals', 'None', False),  # the whole text, its numbers with it
    ('if turn else', 'if not turn else', False),  # a condition
    ('deals {unit.ae} damage"', 'deals {unit.de} damage"', False),  # an interpolated field
    ('"too-late"', '"XXtoo-lateXX"', False),  # the reject reason
])
def test_a_change_to_one_literal_of_a_trace_steps_text_only_is_wording(before: str, after: str, wording: bool) -> None:
    assert before in FUNCTION
    mutant = FUNCTION.replace(before, after, 1)
    assert tool.changes_only_wording(FUNCTION, mutant) is wording


def test_survivors_of_an_excused_class_leave_the_count_and_are_listed_apart() -> None:
    statuses = {"x_f__mutmut_1": "killed", "x_f__mutmut_2": "survived", "x_f__mutmut_3": "survived"}
    module = result(statuses)
    module.kind_by_mutant = {PREFIX + "x_f__mutmut_2": tool.WORDING, PREFIX + "x_f__mutmut_3": "rules"}
    assert module.score == pytest.approx(1 / 3) and len(module.not_killed) == 2
    module.equivalent_classes = {tool.WORDING: "prose"}
    assert module.score == pytest.approx(1 / 2) and module.not_killed == [PREFIX + "x_f__mutmut_3"]
    text = tool.render([module], workers=2)
    assert "| 1 / 0 / 0 / 0 / 0 |" in text and "| 0 / 1 |" in text
    assert "### Equivalent by class, trace wording: 1\n\nReason (`mutation/equivalent.yaml`): prose" in text


def test_only_rules_and_state_modules_of_a_game_can_be_chosen() -> None:
    assert tool.rules_modules([str(MODULE)]) == [MODULE]
    section = Path("checker/games/zatch_bell/rules/battle_in.py")
    assert tool.rules_modules([str(section)]) == [section]
    for other in ("checker/run/runner.py", "checker/games/zatch_bell/rules/__init__.py", "checker/games/zatch_bell/generators.py"):
        with pytest.raises(tool.BadInput, match="not a rules module"):
            tool.rules_modules([other])


def test_every_module_of_a_rules_package_is_mutated_but_the_package_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = tmp_path / "checker" / "games"
    for name in ("one/rules.py", "one/state.py", "one/generators.py", "two/rules/__init__.py", "two/rules/common.py",
                 "two/rules/turn.py", "two/state.py"):
        (games / name).parent.mkdir(parents=True, exist_ok=True)
        (games / name).write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert [str(path) for path in tool.rules_modules([])] == [
        "checker/games/one/rules.py", "checker/games/one/state.py", "checker/games/two/rules/common.py",
        "checker/games/two/rules/turn.py", "checker/games/two/state.py",
    ]
    assert tool.mutant_prefix(Path("checker/games/two/rules/turn.py")) == "checker.games.two.rules.turn."


def test_a_stopped_run_counts_what_it_reached_and_is_not_at_the_goal() -> None:
    stopped = result({"x_a__mutmut_1": "killed", "x_a__mutmut_2": "killed", "x_a__mutmut_3": "not checked"})
    assert stopped.unreached == [PREFIX + "x_a__mutmut_3"] and stopped.survivors == [] and stopped.not_killed == []
    assert stopped.score == 1.0 and not stopped.at_goal
    text = tool.render([stopped], 2)
    assert "1 mutants not run: the run was stopped (`--resume` runs them)." in text
    assert "(of the 2 run)" in text and "Every mutant is killed" not in text


def test_resume_runs_only_the_mutants_a_stopped_run_did_not_reach(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    staged = tmp_path / MODULE
    staged.parent.mkdir(parents=True)
    staged.write_text(tool.undecorate(MODULE.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setattr(tool, "STAGE", tmp_path)
    monkeypatch.setattr(tool, "DURATIONS", tmp_path / "durations.json")
    reached = {PREFIX + "x_a__mutmut_1": "killed", PREFIX + "x_a__mutmut_2": "not checked",
               PREFIX + "x_b__mutmut_1": "survived", PREFIX + "x_b__mutmut_2": "not checked"}
    monkeypatch.setattr(tool, "statuses", lambda module: reached)
    runs: list[tuple[Path, list[str] | None]] = []
    monkeypatch.setattr(tool, "run_mutmut", lambda module, workers, mutants=None: runs.append((module, mutants)) or 2.0)
    monkeypatch.setattr(tool, "report", lambda modules, equivalents, workers: 0)
    staged_again: list[bool] = []
    monkeypatch.setattr(tool, "stage", lambda root, target, modules, copied, *, fresh: staged_again.append(fresh))
    monkeypatch.setattr(tool, "refresh_copies", lambda: None)
    assert tool.resume([MODULE], tool.Equivalents(), 2) == 0
    assert runs == [(MODULE, [PREFIX + "x_a__mutmut_2", PREFIX + "x_b__mutmut_2"])]
    assert staged_again == [False]  # the scenarios as they are now, the mutants kept
    staged.write_text("def changed(): pass\n", encoding="utf-8")
    with pytest.raises(tool.BadInput, match="changed since the last run"):
        tool.resume([MODULE], tool.Equivalents(), 2)
    assert tool.main(["--resume"]) == 2


DECORATED = """\
registered = []


def register(name):
    def add(function):
        registered.append((name, function.__name__))
        return function
    return add


@register("first")
@register(
    "second",
)
def handler(x):
    return x + 1


class Thing:
    def __init__(self):
        self._v = 1

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value

    @staticmethod
    def twice(x):
        return 2 * x
"""


def test_staging_turns_each_decorator_into_an_assignment_that_does_the_same() -> None:
    import mutation_stage

    staged = mutation_stage.undecorate(DECORATED)
    assert "@register" not in staged and "    @property" not in staged
    assert 'handler = (register("first"))((register(\n    "second",\n))(handler))' in staged
    assert "    v = (property)(v)" in staged
    assert "    @v.setter" in staged and "    @staticmethod" in staged  # kept: see the module's docstring
    before, after = {}, {}
    exec(DECORATED, before)
    exec(staged, after)
    assert after["registered"] == before["registered"] == [("second", "handler"), ("first", "handler")]
    thing = after["Thing"]()
    thing.v = 5
    assert (after["handler"](1), thing.v, after["Thing"].twice(3)) == (2, 5, 6)
