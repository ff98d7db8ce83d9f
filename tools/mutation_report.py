"""Mutation testing of every game's rules modules against the golden scenarios (`make mutation`).

For each rules module (``checker/games/<game>/rules.py``, or each module of a ``rules/`` package
split by the document's sections, and ``state.py``) this runs mutmut
(configured under ``[tool.mutmut]`` in pyproject.toml: what it mutates, which tests it runs) on
that module's mutants only, times the run, and writes ``mutation/REPORT.md``: per module the
mutants made, killed, survived, timed out and not run, the share killed, and every mutant not
killed with its diff and line. Survivors listed in ``mutation/equivalent.yaml`` (mutants that
change nothing a scenario could observe, each with its reason) are subtracted; an entry whose
mutant no longer exists or no longer makes the change it records is reported as stale.

mutmut copies ``checker/`` into ``mutants/`` and runs each mutant in a fork, against the
scenarios that call the mutated function (it learns which on a clean run first). A module that
nothing calls gets "no tests" mutants, which count as not killed. The tool reads mutmut's own
result files (``mutants/**/*.meta``) and its diff function: mutmut is pinned in the
``mutation`` dependency group, so these are a fixed interface. It imports nothing of
``checker``: the code under test is the mutated copy, not the package.

    python tools/mutation_report.py [--workers 2] [--module PATH ...] [--report-only | --survivors | --resume]

Exit status: 0 when every module reaches the goal (85 % killed, equivalents subtracted), 1 when
one does not, 2 for a broken ``equivalent.yaml`` or a mutmut run that could not start.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml
import libcst as cst
from mutmut.mutation.diff_apply import get_diff_for_mutant, read_functions_from_index
from mutmut.stats import status_by_exit_code
from mutmut.utils.format_utils import orig_function_and_class_names_from_key

from mutation_stage import stage, undecorate

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path("checker/games")
RULES_MODULES = ("rules.py", "state.py")
RULES_PACKAGE = "rules"  # a game's rules split into modules, one per section of its document
STAGE = Path("build/mutation")  # the copy mutmut works in (see mutation_stage)
STAGED = ("checker", "scenarios", "tests", "pyproject.toml")
OUT = Path("mutation")
REPORT = OUT / "REPORT.md"
LOGS = OUT / "logs"
EQUIVALENT = OUT / "equivalent.yaml"
DURATIONS = LOGS / "durations.json"  # seconds of each module's last run, for --report-only
GOAL = 0.85
NOT_CHECKED = status_by_exit_code[None]  # a mutant the last run did not reach
KILLED = ("killed", "timeout")  # a mutant that makes the scenarios loop forever is caught too
EQUIVALENT_KEYS = {"module", "mutant", "change", "reason"}
#: What a mutant not killed changes, by the call around its line: the ruling a trace step cites
#: (the first argument of ``context.note``), the rest of a trace step (its text, entities and
#: numbers), a bad-input message (``InputError``), or the rules themselves. Survivors are grouped
#: by it, the rules first.
TRACE, BAD_INPUT = "note", "InputError"
#: A survivor that changes only the wording of a trace step: one string literal of the text of a
#: ``context.note`` (or of the message of a ``context.reject``, which becomes the text of the step
#: it records) into another string, found by comparing the syntax trees of the function and its
#: mutant. The ruling a step cites, its entities and its numbers (values, interpolated fields) are
#: other arguments or other nodes, so a change to them is not of this kind.
WORDING = "trace wording"
KINDS = ("rules", "citation", "trace step", WORDING, "bad-input message")
#: The calls whose second argument (or this keyword) is the text of a trace step.
WORDED_CALLS = {"note": "text", "reject": "message"}
#: Classes of mutants that ``equivalent.yaml`` may excuse as a whole, with one reason each.
EQUIVALENT_CLASSES = (WORDING,)
EQUIVALENT_CLASS_KEYS = {"class", "reason"}


class BadInput(Exception):
    """A problem with the tool's input, shown as one line without a traceback."""


@dataclass(frozen=True)
class Equivalent:
    module: str
    mutant: str
    change: str
    reason: str


@dataclass
class ModuleResult:
    module: Path
    seconds: float | None
    status_by_mutant: dict[str, str]
    diff_by_mutant: dict[str, str] = field(default_factory=dict)
    line_by_mutant: dict[str, int | None] = field(default_factory=dict)
    kind_by_mutant: dict[str, str] = field(default_factory=dict)
    equivalent: list[Equivalent] = field(default_factory=list)
    equivalent_classes: dict[str, str] = field(default_factory=dict)  # class -> reason
    stale: list[tuple[Equivalent, str]] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(1 for status in self.status_by_mutant.values() if status in statuses)

    @property
    def made(self) -> int:
        return len(self.status_by_mutant)

    @property
    def survivors(self) -> list[str]:
        return [name for name, status in self.status_by_mutant.items() if status not in (*KILLED, NOT_CHECKED)]

    @property
    def unreached(self) -> list[str]:
        """Mutants a stopped run did not reach: neither killed nor survivors (``--resume`` runs them)."""
        return [name for name, status in self.status_by_mutant.items() if status == NOT_CHECKED]

    @property
    def of_equivalent_class(self) -> list[str]:
        """Survivors excused by a class of ``equivalent.yaml``, recognised from their change."""
        return [name for name in self.survivors if self.kind_by_mutant.get(name) in self.equivalent_classes]

    @property
    def not_killed(self) -> list[str]:
        excused = {mutant_prefix(self.module) + entry.mutant for entry in self.equivalent} | set(self.of_equivalent_class)
        return [name for name in self.survivors if name not in excused]

    def of_kind(self, kind: str) -> list[str]:
        return [name for name in self.not_killed if self.kind_by_mutant.get(name, "rules") == kind]

    @property
    def score(self) -> float:
        judged = self.made - len(self.unreached) - len(self.equivalent) - len(self.of_equivalent_class)
        return 1.0 if judged == 0 else self.count(*KILLED) / judged

    @property
    def at_goal(self) -> bool:
        return self.score >= GOAL and not self.unreached


def rules_modules(chosen: list[str]) -> list[Path]:
    """The modules to mutate: the chosen ones, else every game's rules and state modules."""
    if chosen:
        modules = [Path(path) for path in chosen]
        unknown = [str(path) for path in modules if not is_rules_module(path)]
        if unknown:
            raise BadInput(
                f"not a rules module (checker/games/<game>/rules.py, rules/<section>.py or state.py): {', '.join(unknown)}"
            )
        return modules
    return sorted(
        [path for name in RULES_MODULES for path in GAMES.glob(f"*/{name}")]
        + [path for path in GAMES.glob(f"*/{RULES_PACKAGE}/*.py") if is_rules_module(path)]
    )


def is_rules_module(path: Path) -> bool:
    """A game's ``rules.py`` or ``state.py``, or a module of its ``rules`` package other than the
    ``__init__.py`` that only gathers them (mutmut names its mutants as the package's own)."""
    if path.parent.parent == GAMES:
        return path.name in RULES_MODULES
    return (path.parent.parent.parent == GAMES and path.parent.name == RULES_PACKAGE and path.suffix == ".py"
            and path.name != "__init__.py")


def mutant_prefix(module: Path) -> str:
    """mutmut's name prefix for a module's mutants: checker.games.<game>.rules. (or .rules.<section>.)"""
    return ".".join(module.with_suffix("").parts) + "."


def last_durations() -> dict[str, float]:
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.is_file() else {}


def refresh_copies() -> None:
    """Bring mutmut's copy of the code it does not mutate (``mutants/checker``: the core, the games'
    data) up to date with the staged tree. mutmut copies a file only when its copy is missing, so a
    run of one module would otherwise test against the core and data of the last whole run."""
    mutated = {STAGE / module for module in rules_modules([])}
    for path in (STAGE / "checker").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path not in mutated:
            copy = STAGE / "mutants" / path.relative_to(STAGE)
            if not copy.is_file() or copy.read_bytes() != path.read_bytes():
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, copy)


def run_mutmut(module: Path, workers: int, mutants: list[str] | None = None) -> float:
    """Run (or rerun) every mutant of one module, or only the ``mutants`` named; return the seconds it took."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / (".".join(module.relative_to(GAMES).with_suffix("").parts) + ".log")  # <game>.rules[.<section>].log
    chosen = [mutant_prefix(module) + "*"] if mutants is None else mutants
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(workers), *chosen]
    print(f"mutating {module} ({workers} workers), log in {log_path}", flush=True)
    start = time.monotonic()
    with log_path.open("w", encoding="utf-8") as log:
        finished = subprocess.run(command, cwd=STAGE, stdout=log, stderr=subprocess.STDOUT, check=False)
    seconds = time.monotonic() - start
    if finished.returncode != 0:
        tail = log_path.read_text(encoding="utf-8", errors="replace").replace("\r", "\n").strip().splitlines()[-5:]
        raise BadInput(f"mutmut failed on {module} (exit {finished.returncode}), see {log_path}:\n" + "\n".join(tail))
    return seconds


def statuses(module: Path) -> dict[str, str]:
    """Each mutant of the module and mutmut's verdict on it, from mutmut's result file."""
    meta = STAGE / "mutants" / f"{module}.meta"
    if not meta.is_file():
        raise BadInput(f"no mutation results for {module} ({meta} is missing): run without --report-only first")
    exit_codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return {name: status_by_exit_code[code] for name, code in sorted(exit_codes.items(), key=lambda item: natural_key(item[0]))}


def natural_key(name: str) -> tuple[str, int]:
    function, _, number = name.rpartition("__mutmut_")
    return function, int(number) if number.isdigit() else 0


def change_of(diff: str) -> str:
    """The lines a mutant removes and adds, without the diff's headers and context."""
    lines = diff.splitlines()
    return "\n".join(line for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---")))


def source_line(module: Path, name: str, diff: str) -> int | None:  # module: the original, not the staged copy
    """The line of the module where the mutant's first removed line is: its first match after
    the mutated function's ``def`` (the diff itself only numbers lines within the function)."""
    removed = next((line[1:].strip() for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")), None)
    function, _ = orig_function_and_class_names_from_key(name)
    lines = module.read_text(encoding="utf-8").splitlines()
    start = next((n for n, line in enumerate(lines) if re.match(rf"\s*(async\s+)?def {re.escape(function)}\(", line)), 0)
    for number in range(start, len(lines)):
        if removed and lines[number].strip() == removed:
            return number + 1
    return None


def kind_at(source: str, tree: ast.Module, line: int | None, change: str) -> str:
    """What the mutant that makes ``change`` at ``line`` of ``source`` alters: one of ``KINDS``.

    A change inside a trace step is a citation when the removed line holds the step's first
    argument and the added line no longer does."""
    if line is None:
        return "rules"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno <= line <= (node.end_lineno or node.lineno):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name == BAD_INPUT:
                return "bad-input message"
            if name == TRACE:
                cited = ast.get_source_segment(source, node.args[0]) if node.args else None
                removed = " ".join(row[1:] for row in change.splitlines() if row.startswith("-"))
                added = " ".join(row[1:] for row in change.splitlines() if row.startswith("+"))
                return "citation" if cited and cited in removed and cited not in added else "trace step"
    return "rules"


def differences(before: object, after: object, path: tuple[tuple[ast.AST, str, int | None], ...] = ()) -> list[tuple]:
    """Where two syntax trees differ: for each place, the path to it (each step a node, the field
    followed and the index in it) and the differing node of each tree. A node whose own scalar
    fields differ, or whose lists differ in length, is one place as a whole."""
    if type(before) is not type(after):
        return [(path, before, after)]
    if not isinstance(before, ast.AST):
        return [] if before == after else [(path, before, after)]
    found: list[tuple] = []
    for name in before._fields:
        old, new = getattr(before, name, None), getattr(after, name, None)
        if isinstance(old, list) and isinstance(new, list):
            if len(old) != len(new):
                return [(path, before, after)]
            for index, (x, y) in enumerate(zip(old, new)):
                found += differences(x, y, (*path, (before, name, index)))
        elif isinstance(old, ast.AST) or isinstance(new, ast.AST):
            found += differences(old, new, (*path, (before, name, None)))
        elif old != new:
            return [(path, before, after)]
    return found


def changes_only_wording(original: str, mutant: str) -> bool:
    """Whether the mutant (source of the mutated function) differs from the original function in
    one string literal of a trace step's text only, and into another string."""
    try:
        found = differences(ast.parse(textwrap.dedent(original)), ast.parse(textwrap.dedent(mutant)))
    except SyntaxError:
        return False
    if len(found) != 1:
        return False
    path, old, new = found[0]
    if not (isinstance(old, ast.Constant) and isinstance(new, ast.Constant)
            and isinstance(old.value, str) and isinstance(new.value, str)):
        return False
    starts = [i for i, step in enumerate(path) if _is_text_of_worded_call(path, i)]
    return bool(starts) and all(_builds_text(path[i]) for i in range(_text_start(path, starts[-1]), len(path)))


def _is_text_of_worded_call(path: tuple, index: int) -> bool:
    node, name, position = path[index]
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WORDED_CALLS):
        return False
    if name == "args":
        return position == 1
    keyword = node.keywords[position] if name == "keywords" else None
    return keyword is not None and keyword.arg == WORDED_CALLS[node.func.attr]


def _text_start(path: tuple, call_index: int) -> int:
    """The first step below a worded call's text argument (a keyword adds a step of its own)."""
    return call_index + (2 if path[call_index][1] == "keywords" else 1)


def _builds_text(step: tuple[ast.AST, str, int | None]) -> bool:
    """Whether a step stays within the text: the literal parts of an f-string, a ``+`` of texts,
    either branch of a choice (also one written inside an f-string's field), the separator of a
    ``join``; not a field's format, a condition, or an argument of another call (a literal reached
    only through these is text)."""
    node, name, _ = step
    if isinstance(node, ast.JoinedStr):
        return name == "values"
    if isinstance(node, ast.FormattedValue):
        return name == "value"
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Add) and name in ("left", "right")
    if isinstance(node, ast.IfExp):
        return name in ("body", "orelse")
    if isinstance(node, ast.Call):
        return name == "func" and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
    if isinstance(node, ast.Attribute):
        return name == "value" and node.attr == "join"
    return False


@dataclass(frozen=True)
class Equivalents:
    """The survivors ``equivalent.yaml`` excuses: single mutants, and whole classes of mutants
    that the tool recognises from their change (``EQUIVALENT_CLASSES``), each with its reason."""

    mutants: list[Equivalent] = field(default_factory=list)
    classes: dict[str, str] = field(default_factory=dict)


def load_equivalents(path: Path) -> Equivalents:
    if not path.is_file():
        return Equivalents()
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise BadInput(f"{where}: not YAML: {getattr(error, 'problem', error)}") from None
    if not isinstance(entries, list):
        raise BadInput(f"{path}: expected a list of mutants, each with {', '.join(sorted(EQUIVALENT_KEYS))}")
    equivalents = Equivalents()
    for index, entry in enumerate(entries, start=1):
        texts = isinstance(entry, dict) and all(isinstance(v, str) and v.strip() for v in entry.values())
        if texts and set(entry) == EQUIVALENT_CLASS_KEYS:
            if entry["class"] not in EQUIVALENT_CLASSES:
                known = ", ".join(EQUIVALENT_CLASSES)
                raise BadInput(f"{path}: entry {index}: unknown class {entry['class']!r} (known: {known})")
            equivalents.classes[entry["class"]] = entry["reason"].strip()
        elif texts and set(entry) == EQUIVALENT_KEYS:
            equivalents.mutants.append(Equivalent(entry["module"], entry["mutant"], entry["change"].strip(), entry["reason"].strip()))
        else:
            raise BadInput(
                f"{path}: entry {index} needs exactly the text keys {', '.join(sorted(EQUIVALENT_KEYS))}"
                f" (one mutant) or {', '.join(sorted(EQUIVALENT_CLASS_KEYS))} (a class of mutants)"
            )
    return equivalents


def collect(module: Path, seconds: float | None, equivalents: Equivalents) -> ModuleResult:
    result = ModuleResult(module, seconds, statuses(module), equivalent_classes=dict(equivalents.classes))
    original = Path.cwd() / module
    source = original.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for name in result.survivors:
        before, after = staged_functions(module, name)
        diff = function_diff(module, before, after)
        result.diff_by_mutant[name] = diff
        result.line_by_mutant[name] = source_line(original, name, diff)
        result.kind_by_mutant[name] = (
            WORDING if changes_only_wording(before, after)
            else kind_at(source, tree, result.line_by_mutant[name], change_of(diff))
        )
    for entry in (e for e in equivalents.mutants if e.module == str(module)):
        name = mutant_prefix(module) + entry.mutant
        status = result.status_by_mutant.get(name)
        if status is None:
            result.stale.append((entry, "no such mutant any more"))
        elif change_of(staged_diff(module, name)) != entry.change:
            result.stale.append((entry, "the mutant now makes another change"))
        elif status in KILLED:
            result.stale.append((entry, f"{status} now: no longer a survivor"))
        else:
            result.equivalent.append(entry)
    return result


def staged_functions(module: Path, name: str) -> tuple[str, str]:
    """The source of the function a mutant changes and of the mutant (from the staged tree)."""
    with contextlib.chdir(STAGE):
        functions = read_functions_from_index(name, str(module))
    if functions is None:  # no line index: mutmut's slower way, through its diff
        diff = staged_diff(module, name)
        return _side_of(diff, "-"), _side_of(diff, "+")
    before, after = (cst.Module([function]).code.strip() for function in functions)
    return before, after


def _side_of(diff: str, sign: str) -> str:
    rows = [row for row in diff.splitlines()[2:] if not row.startswith("@@")]
    return "\n".join(row[1:] for row in rows if row[:1] in (" ", sign))


def function_diff(module: Path, before: str, after: str) -> str:
    """The unified diff of a function and its mutant, as mutmut's ``get_diff_for_mutant`` makes it."""
    rows = difflib.unified_diff(before.split("\n"), after.split("\n"), fromfile=str(module), tofile=str(module), lineterm="")
    return "\n".join(rows)


def staged_diff(module: Path, name: str) -> str:
    """mutmut's diff of one mutant against the function it mutates (read from the staged tree)."""
    with contextlib.chdir(STAGE):
        return get_diff_for_mutant(name, path=str(module))


def percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def duration(seconds: float | None) -> str:
    return "not run" if seconds is None else f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def render(results: list[ModuleResult], workers: int) -> str:
    lines = [
        "# Mutation testing of the rules engines",
        "",
        f"Generated by `make mutation` (mutmut, {workers} workers). A mutant is killed when a golden scenario",
        f"that runs the mutated function fails or times out. Goal: {percent(GOAL)} killed per module, the",
        "mutants listed in `mutation/equivalent.yaml` subtracted.",
        "",
        "Mutants not killed are grouped by what they change: the rules themselves, the ruling a trace",
        "step cites (`expect_cites:` kills these), the rest of a trace step (its entities, numbers, or",
        "its whole text), only the wording of a trace step (one string literal of its text turned into",
        "another, recognised from the syntax trees of the function and its mutant), or the message of",
        "a bad-input error (golden scenarios are valid files). A class of mutants that",
        "`mutation/equivalent.yaml` excuses as a whole (with its reason) is counted apart, as",
        "\"equivalent by class\", and listed at the end of its module.",
        "",
        "| module | made | killed | survived | timeout | no tests | other | equivalent: listed / by class "
        "| killed share | not killed: rules / citation / trace / wording / bad input | run time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        other = r.made - r.count("killed", "survived", "timeout", "no tests")
        mark = "" if r.at_goal else f" (of the {r.made - len(r.unreached)} run)" if r.unreached else " (below goal)"
        lines.append(
            f"| `{r.module}` | {r.made} | {r.count('killed')} | {r.count('survived')} | {r.count('timeout')} "
            f"| {r.count('no tests')} | {other} | {len(r.equivalent)} / {len(r.of_equivalent_class)} | {percent(r.score)}{mark} "
            f"| {' / '.join(str(len(r.of_kind(kind))) for kind in KINDS)} | {duration(r.seconds)} |"
        )
    for r in results:
        lines += ["", f"## `{r.module}`", ""]
        for entry, why in r.stale:
            lines.append(f"- stale entry in `{EQUIVALENT}`: `{entry.mutant}`: {why}")
        if r.stale:
            lines.append("")
        if r.unreached:
            lines.append(f"{len(r.unreached)} mutants not run: the run was stopped (`--resume` runs them).")
        elif not r.not_killed:
            lines.append("Every mutant is killed or listed as equivalent.")
        for kind in KINDS:
            names = r.of_kind(kind)
            if names:
                lines += ["", f"### Not killed, {kind}: {len(names)}"]
            lines += mutant_entries(r, names)
        for kind, reason in r.equivalent_classes.items():
            names = [name for name in r.of_equivalent_class if r.kind_by_mutant[name] == kind]
            if names:
                lines += ["", f"### Equivalent by class, {kind}: {len(names)}", "", f"Reason (`{EQUIVALENT}`): {reason}"]
                lines += mutant_entries(r, names)
    return "\n".join(lines) + "\n"


def mutant_entries(r: ModuleResult, names: list[str]) -> list[str]:
    lines: list[str] = []
    for name in names:
        line = r.line_by_mutant.get(name)
        where = f", line {line}" if line else ""
        heading = f"#### `{name.removeprefix(mutant_prefix(r.module))}` ({r.status_by_mutant[name]}{where})"
        lines += ["", heading, "", "```diff", change_of(r.diff_by_mutant[name]), "```"]
    return lines


def rerun_survivors(modules: list[Path], equivalents: Equivalents, workers: int) -> int:
    """Rerun the mutants of each module that the last run left not killed, and rewrite the report.

    A new scenario can only kill more mutants, so the others' verdicts stand; but a changed rules
    module makes other mutants, so it needs a whole run."""
    if len(modules) != 1:
        raise BadInput("--survivors reruns one module: name it with --module")
    module = modules[0]
    staged = STAGE / module
    if not staged.is_file() or staged.read_text(encoding="utf-8") != undecorate(module.read_text(encoding="utf-8")):
        raise BadInput(f"{module} changed since the last run: run the whole module (without --survivors)")
    survivors = collect(module, None, equivalents).not_killed
    stage(Path.cwd(), STAGE, rules_modules([]), STAGED, fresh=False)
    refresh_copies()
    if survivors:
        seconds = run_mutmut(module, workers, survivors)
        print(f"reran {len(survivors)} mutants not killed of {module} in {duration(seconds)}")
    return report(modules, equivalents, workers)


def resume(modules: list[Path], equivalents: Equivalents, workers: int) -> int:
    """Run the mutants of each module that the last run did not reach (it was stopped), and rewrite the report.

    The verdicts the last run reached stand (new scenarios can only kill more: ``--survivors`` reruns
    those it left), so the module must be as it was."""
    seconds = last_durations()
    for module in modules:
        staged = STAGE / module
        if not staged.is_file() or staged.read_text(encoding="utf-8") != undecorate(module.read_text(encoding="utf-8")):
            raise BadInput(f"{module} changed since the last run: run the whole module (without --resume)")
    stage(Path.cwd(), STAGE, rules_modules([]), STAGED, fresh=False)
    refresh_copies()
    for module in modules:
        unreached = [name for name, status in statuses(module).items() if status == NOT_CHECKED]
        if unreached:
            took = run_mutmut(module, workers, unreached)
            seconds[str(module)] = seconds.get(str(module), 0.0) + took
            DURATIONS.write_text(json.dumps(seconds, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            print(f"ran the {len(unreached)} mutants of {module} the last run did not reach in {duration(took)}")
    return report(modules, equivalents, workers)


def report(modules: list[Path], equivalents: Equivalents, workers: int) -> int:
    """Write the report of the modules from the last run's results; 1 when one is below the goal."""
    seconds = last_durations()
    results = [collect(m, seconds.get(str(m)), equivalents) for m in modules]
    OUT.mkdir(exist_ok=True)
    REPORT.write_text(render(results, workers), encoding="utf-8")
    for r in results:
        unreached = f", {len(r.unreached)} not run (stopped; --resume runs them)" if r.unreached else ""
        print(f"{r.module}: {percent(r.score)} killed of {r.made} mutants ({len(r.not_killed)} not killed{unreached}), {duration(r.seconds)}")
    print(f"report: {REPORT}")
    below = [str(r.module) for r in results if not r.at_goal]
    if below:
        print(f"below {percent(GOAL)} killed: {', '.join(below)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--module", action="append", default=[], help="a rules module to mutate (default: all)")
    parser.add_argument("--report-only", action="store_true", help="write the report from the last run's results")
    parser.add_argument("--survivors", action="store_true",
                        help="with --module: rerun only the mutants the last run did not kill (after adding scenarios)")
    parser.add_argument("--resume", action="store_true",
                        help="with --module: run only the mutants a stopped run did not reach")
    args = parser.parse_args(argv)
    try:
        modules = rules_modules(args.module)
        equivalents = load_equivalents(EQUIVALENT)
        if args.survivors:
            return rerun_survivors(modules, equivalents, args.workers)
        if args.resume:
            if not args.module:
                raise BadInput("--resume continues the modules a stopped run left: name them with --module")
            return resume(modules, equivalents, args.workers)
        if not args.report_only:
            # A full run starts afresh: mutmut does not notice a changed scenario. One module's run
            # keeps the other modules' results and refreshes only the files that changed.
            stage(Path.cwd(), STAGE, rules_modules([]), STAGED, fresh=not args.module)
            refresh_copies()
            if not args.module:
                DURATIONS.unlink(missing_ok=True)
        seconds = last_durations()
        for module in [] if args.report_only else modules:
            seconds[str(module)] = run_mutmut(module, args.workers)
            DURATIONS.write_text(json.dumps(seconds, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return report(modules, equivalents, args.workers)
    except BadInput as error:
        print(f"mutation: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
