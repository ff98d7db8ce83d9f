"""Mutation testing of every game's rules modules against the golden scenarios (`make mutation`).

For each rules module (``checker/games/<game>/rules.py`` and ``state.py``) this runs mutmut
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

    python tools/mutation_report.py [--workers 2] [--module PATH ...] [--report-only]

Exit status: 0 when every module reaches the goal (85 % killed, equivalents subtracted), 1 when
one does not, 2 for a broken ``equivalent.yaml`` or a mutmut run that could not start.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
from mutmut.utils.format_utils import orig_function_and_class_names_from_key

from mutation_stage import stage

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path("checker/games")
RULES_MODULES = ("rules.py", "state.py")
STAGE = Path("build/mutation")  # the copy mutmut works in (see mutation_stage)
STAGED = ("checker", "scenarios", "pyproject.toml")
OUT = Path("mutation")
REPORT = OUT / "REPORT.md"
LOGS = OUT / "logs"
EQUIVALENT = OUT / "equivalent.yaml"
DURATIONS = LOGS / "durations.json"  # seconds of each module's last run, for --report-only
GOAL = 0.85
KILLED = ("killed", "timeout")  # a mutant that makes the scenarios loop forever is caught too
EQUIVALENT_KEYS = {"module", "mutant", "change", "reason"}
#: What a mutant not killed changes, by the call around its line: the ruling a trace step cites
#: (the first argument of ``context.note``), the rest of a trace step (its text, entities and
#: numbers), a bad-input message (``InputError``), or the rules themselves. Survivors are grouped
#: by it, the rules first.
TRACE, BAD_INPUT = "note", "InputError"
KINDS = ("rules", "citation", "trace step", "bad-input message")


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
    stale: list[tuple[Equivalent, str]] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(1 for status in self.status_by_mutant.values() if status in statuses)

    @property
    def made(self) -> int:
        return len(self.status_by_mutant)

    @property
    def not_killed(self) -> list[str]:
        excused = {mutant_prefix(self.module) + entry.mutant for entry in self.equivalent}
        return [name for name, status in self.status_by_mutant.items() if status not in KILLED and name not in excused]

    def of_kind(self, kind: str) -> list[str]:
        return [name for name in self.not_killed if self.kind_by_mutant.get(name, "rules") == kind]

    @property
    def score(self) -> float:
        judged = self.made - len(self.equivalent)
        return 1.0 if judged == 0 else self.count(*KILLED) / judged


def rules_modules(chosen: list[str]) -> list[Path]:
    """The modules to mutate: the chosen ones, else every game's rules and state modules."""
    if chosen:
        modules = [Path(path) for path in chosen]
        unknown = [str(path) for path in modules if path.parent.parent != GAMES or path.name not in RULES_MODULES]
        if unknown:
            raise BadInput(f"not a rules module (checker/games/<game>/rules.py or state.py): {', '.join(unknown)}")
        return modules
    return sorted(path for name in RULES_MODULES for path in GAMES.glob(f"*/{name}"))


def mutant_prefix(module: Path) -> str:
    """mutmut's name prefix for a module's mutants: checker.games.<game>.rules."""
    return ".".join(module.with_suffix("").parts) + "."


def last_durations() -> dict[str, float]:
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.is_file() else {}


def run_mutmut(module: Path, workers: int) -> float:
    """Run (or rerun) every mutant of one module; return the seconds it took."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / f"{module.parent.name}.{module.stem}.log"
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(workers), mutant_prefix(module) + "*"]
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


def load_equivalents(path: Path) -> list[Equivalent]:
    if not path.is_file():
        return []
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise BadInput(f"{where}: not YAML: {getattr(error, 'problem', error)}") from None
    if not isinstance(entries, list):
        raise BadInput(f"{path}: expected a list of mutants, each with {', '.join(sorted(EQUIVALENT_KEYS))}")
    equivalents = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or set(entry) != EQUIVALENT_KEYS or not all(isinstance(v, str) and v.strip() for v in entry.values()):
            raise BadInput(f"{path}: entry {index} needs exactly the text keys {', '.join(sorted(EQUIVALENT_KEYS))}")
        equivalents.append(Equivalent(entry["module"], entry["mutant"], entry["change"].strip(), entry["reason"].strip()))
    return equivalents


def collect(module: Path, seconds: float | None, equivalents: list[Equivalent]) -> ModuleResult:
    result = ModuleResult(module, seconds, statuses(module))
    original = Path.cwd() / module
    source = original.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for name, status in result.status_by_mutant.items():
        if status not in KILLED:
            diff = staged_diff(module, name)
            result.diff_by_mutant[name] = diff
            result.line_by_mutant[name] = source_line(original, name, diff)
            result.kind_by_mutant[name] = kind_at(source, tree, result.line_by_mutant[name], change_of(diff))
    for entry in (e for e in equivalents if e.module == str(module)):
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
        "step cites (`expect_cites:` kills these), the rest of a trace step (its text, entities or",
        "numbers), or the message of a bad-input error (golden scenarios are valid files).",
        "",
        "| module | made | killed | survived | timeout | no tests | other | equivalent | killed share "
        "| not killed: rules / citation / trace / bad input | run time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        other = r.made - r.count("killed", "survived", "timeout", "no tests")
        mark = "" if r.score >= GOAL else " (below goal)"
        lines.append(
            f"| `{r.module}` | {r.made} | {r.count('killed')} | {r.count('survived')} | {r.count('timeout')} "
            f"| {r.count('no tests')} | {other} | {len(r.equivalent)} | {percent(r.score)}{mark} "
            f"| {' / '.join(str(len(r.of_kind(kind))) for kind in KINDS)} | {duration(r.seconds)} |"
        )
    for r in results:
        lines += ["", f"## `{r.module}`", ""]
        for entry, why in r.stale:
            lines.append(f"- stale entry in `{EQUIVALENT}`: `{entry.mutant}`: {why}")
        if r.stale:
            lines.append("")
        if not r.not_killed:
            lines.append("Every mutant is killed or listed as equivalent.")
        for kind in KINDS:
            names = r.of_kind(kind)
            if names:
                lines += ["", f"### Not killed, {kind}: {len(names)}"]
            for name in names:
                line = r.line_by_mutant.get(name)
                where = f", line {line}" if line else ""
                heading = f"#### `{name.removeprefix(mutant_prefix(r.module))}` ({r.status_by_mutant[name]}{where})"
                lines += ["", heading, "", "```diff", change_of(r.diff_by_mutant[name]), "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--module", action="append", default=[], help="a rules module to mutate (default: all)")
    parser.add_argument("--report-only", action="store_true", help="write the report from the last run's results")
    args = parser.parse_args(argv)
    try:
        modules = rules_modules(args.module)
        equivalents = load_equivalents(EQUIVALENT)
        if not args.report_only:
            # A full run starts afresh: mutmut does not notice a changed scenario. One module's run
            # keeps the other modules' results and refreshes only the files that changed.
            stage(Path.cwd(), STAGE, rules_modules([]), STAGED, fresh=not args.module)
            if not args.module:
                DURATIONS.unlink(missing_ok=True)
        seconds = last_durations()
        for module in [] if args.report_only else modules:
            seconds[str(module)] = run_mutmut(module, args.workers)
            DURATIONS.write_text(json.dumps(seconds, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        results = [collect(m, seconds.get(str(m)), equivalents) for m in modules]
    except BadInput as error:
        print(f"mutation: {error}", file=sys.stderr)
        return 2
    OUT.mkdir(exist_ok=True)
    REPORT.write_text(render(results, args.workers), encoding="utf-8")
    for r in results:
        print(f"{r.module}: {percent(r.score)} killed of {r.made} mutants ({len(r.not_killed)} not killed), {duration(r.seconds)}")
    print(f"report: {REPORT}")
    below = [str(r.module) for r in results if r.score < GOAL]
    if below:
        print(f"below {percent(GOAL)} killed: {', '.join(below)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
