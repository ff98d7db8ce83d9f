"""The ``checker`` command line.

Exit codes: 0 every scenario passes (or is answered), 1 any fails (for
``diff``: any verdict or answer changed), 2 any input is invalid. Invalid input
gets one message with file, line and column, never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from checker.run import batch, suite
from checker.commands import report
from checker.engine.errors import InputError
from checker.engine.game import AnyGame
from checker.run.runner import RunResult

if TYPE_CHECKING:
    from checker.commands.diff import Diff
    from checker.format.scenario import Scenario

# A command imports what only it uses inside its own function: `checker check FILE` starts sooner.

SCHEMA_PATH = Path("schema") / "scenario.schema.json"
OUTPUT_SCHEMAS = Path("schema") / "output"  # the JSON Schema of each --format json output


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=str(kwargs.get("help", "")))

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("rulings-checker")
        except PackageNotFoundError:
            from checker import __version__ as number
        print(f"checker {number}")
        parser.exit()


class _Completion(argparse.Action):
    """``--completion SHELL``: argcomplete's script for SHELL, which completes from this very parser."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: str | None = None) -> None:
        from argcomplete.shell_integration import shellcode

        print(shellcode(["checker"], shell=str(values)), end="")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="checker",
        description="Check ruling scenarios against the rules engines, explain verdicts, explore readings.",
        epilog=f"Shell completion: eval \"$(checker --completion bash)\" (or zsh, fish). The JSON of each --format json "
               f"is described by a JSON Schema in {OUTPUT_SCHEMAS.as_posix()}/.",
    )
    parser.add_argument("--version", action=_Version, help="print the checker's version and exit")
    parser.add_argument("--completion", action=_Completion, choices=("bash", "zsh", "fish"), metavar="SHELL",
                        help="print the script that completes checker's commands and options in SHELL (bash, zsh or fish), and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="check scenario files or folders; one line per scenario")
    check.add_argument("paths", nargs="+", metavar="PATH", help="scenario files, or folders of them")
    check.add_argument("--format", choices=("text", "json"), default="text",
                       help="text: a line per scenario (default); json: for tools (schema/output/check.schema.json)")
    check.add_argument("-j", "--jobs", type=_count, metavar="N", help="check on N processes (default: one per core)")
    # Each JSON result also gives its game and outcome: what `checker diff` reads from the checker of another revision.
    check.add_argument("--with-outcomes", action="store_true", help=argparse.SUPPRESS)

    explain = commands.add_parser("explain", help="the outcome and the full trace of one scenario or question")
    explain.add_argument("file", metavar="FILE", help="a scenario or question file")
    explain.add_argument("--format", choices=("text", "json"), default="text",
                         help="text (default); json: with every trace step (schema/output/result.schema.json)")

    readings = commands.add_parser(
        "readings", help="whether the readings of the ambiguous rulings it touches change what the file asserts"
    )
    readings.add_argument("file", metavar="FILE", help="a scenario or question file")
    readings.add_argument("--vary-pinned", action="store_true", help="vary the readings the file pins too")
    readings.add_argument("--verbose", action="store_true", help="also every run's outcome facts that differ")

    next_ = commands.add_parser(
        "options", help="what each player may do after a file's last action, each option with the rulings that allow it"
    )
    next_.add_argument("file", metavar="FILE", help="a scenario or question file")
    next_.add_argument("--after", type=int, metavar="N", help="after action N instead (0: at the start, before any action)")
    next_.add_argument("--format", choices=("text", "json"), default="text",
                       help="text (default); json: for tools (schema/output/options.schema.json)")

    compare = commands.add_parser(
        "diff", help="what an engine change did: every scenario at a git revision and in the working tree, compared"
    )
    compare.add_argument("revision", nargs="?", metavar="REV", help="the revision to compare with (default: the merge base with main)")
    compare.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default: the repository's scenarios)")
    compare.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                         help="text for a terminal (default), markdown for a pull-request comment, json for tools "
                              "(schema/output/diff.schema.json)")
    compare.add_argument("--link-base", metavar="URL",
                         help="with --format markdown, link each file at URL/PATH (e.g. the pull request's head on the forge); "
                              "without it, paths are shown, not linked")

    new = commands.add_parser("new", help="write a skeleton scenario of GAME: a valid question to start a dispute from")
    new.add_argument("game", metavar="GAME", help="the game's id, e.g. zatch-bell")
    new.add_argument("--question", action="store_true", help="a plain question: not marked disputed, no expect: template")
    new.add_argument("--from", dest="source", metavar="FILE", help="start from this scenario's state and actions, dropping its expectations")
    new.add_argument("--output", metavar="FILE",
                     help="write FILE (never overwriting one; its id is its name) instead of printing")

    facts = commands.add_parser("facts", help="every fact a scenario of GAME can assert, and what its initial state inherits")
    facts.add_argument("game", metavar="GAME", help="the game's id, e.g. zatch-bell")

    disputes = commands.add_parser(
        "disputes", help="search a game for small scenarios whose outcome changes with one ambiguous ruling's reading"
    )
    disputes.add_argument("--find", required=True, metavar="GAME", help="the game to search")
    disputes.add_argument("--budget", type=_seconds, default=60.0, metavar="SECONDS",
                          help="wall-clock time for the whole search, shared by the rulings (default 60)")
    disputes.add_argument("--out", metavar="DIR", help="where candidates are written (default candidates/GAME)")
    disputes.add_argument("--seed", type=int, metavar="N", help="a fixed seed: the same search finds the same candidates")
    disputes.add_argument("--scenarios", default="scenarios", metavar="DIR",
                          help="the suite whose gaps are reported (default scenarios; DIR/GAME when it exists)")

    schema = commands.add_parser("schema", help="write (or --check) the published JSON Schema of the scenario format")
    schema.add_argument("--output", default=str(SCHEMA_PATH), metavar="FILE", help=f"where to write it (default {SCHEMA_PATH.as_posix()})")
    schema.add_argument("--check", action="store_true", help="exit 1 if FILE is not up to date")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions: answered from the parser, then exit
        import argcomplete

        argcomplete.autocomplete(parser)
    args = parser.parse_args(argv)
    try:
        commands = {"check": _check, "explain": _explain, "readings": _readings, "diff": _diff, "new": _new,
                    "facts": _facts, "disputes": _disputes, "schema": _schema, "options": _options}
        code = commands[args.command](args)
        sys.stdout.flush()  # inside the try: a reader that went away is noticed here, not at exit
        return code
    except InputError as error:
        print(f"checker: error: {error.message}" + (f" (expected {error.expected})" if error.expected else ""), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``checker explain FILE | head``): stop quietly, as other commands do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _check(args: argparse.Namespace) -> int:
    files = suite.scenario_files(args.paths)
    jobs = args.jobs or batch.default_jobs()
    if args.format == "json":
        checked = list(batch.check_files(suite.default(), files, functools.partial(_json_text, with_outcome=args.with_outcomes), jobs))
        verdicts = [item.verdict for item in checked]
        print(report.json_document(report.summary_of(verdicts), [item.shown for item in checked]))
    else:
        verdicts = []
        render = functools.partial(report.check_text, games=suite.games())
        for item in batch.check_files(suite.default(), files, render, jobs):
            print(item.shown)
            verdicts.append(item.verdict)
        print(report.summary_of(verdicts))
    return suite.exit_code_of(verdicts)


def _json_text(result: RunResult, *, with_outcome: bool) -> str:
    return json.dumps(report.result_json(result, with_outcome=with_outcome), indent=2)


def _single(file: str) -> RunResult:
    [item] = suite.load_many(suite.scenario_files([file]))
    return suite.run_one(item)


def _explain(args: argparse.Namespace) -> int:
    result = _single(args.file)
    if args.format == "json":
        print(json.dumps(report.result_json(result, with_trace=True), indent=2))
    else:
        print(report.explain(result), file=sys.stderr if result.verdict == "invalid" else sys.stdout)
    return suite.exit_code([result])


def _readings(args: argparse.Namespace) -> int:
    [item] = suite.load_many(suite.scenario_files([args.file]))
    if isinstance(item, RunResult):
        print(report.headline(item), file=sys.stderr)
        return 2
    from checker.commands.readings import survey

    found = survey(item, suite.games()[item.game], hold=() if args.vary_pinned else item.readings)
    if found.own.result.verdict == "invalid":
        print(report.headline(found.own.result), file=sys.stderr)
        return 2
    print(report.readings_text(found, verbose=args.verbose))
    return 0


def _options(args: argparse.Namespace) -> int:
    [item] = suite.load_many(suite.scenario_files([args.file]))
    if isinstance(item, RunResult):
        print(report.headline(item), file=sys.stderr)
        return 2
    from checker.engine import legal
    from checker.commands import whatnext

    game = suite.games()[item.game]
    if not legal.lists_actions(game):
        raise InputError(f"{game.id} does not list its actions", expected="a scenario of a game with a moves module")
    found = whatnext.what_next(item, game, args.after)
    if found.result.verdict in ("invalid", "error"):
        print(report.headline(found.result), file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(whatnext.as_json(found), indent=2))
    else:
        print(whatnext.text(found, game, path=args.file))
    return 0


def _diff(args: argparse.Namespace) -> int:
    from checker.commands import diff_format

    result = _compare(Path.cwd(), args.revision, args.paths)
    if args.format == "json":
        print(json.dumps(diff_format.as_json(result), indent=2))
    else:
        print(diff_format.markdown(result, args.link_base) if args.format == "markdown" else diff_format.text(result))
    return 1 if result.changed else 0


def _compare(here: Path, revision: str | None, paths: list[str]) -> Diff:
    """Every scenario under ``paths`` by the checker of ``revision`` and by the working tree's, side by side."""
    from concurrent.futures import ThreadPoolExecutor

    from checker.commands import diff_format, gitrev, snapshot
    from checker.commands.diff import diff

    root = gitrev.repository_root(here)
    try:
        base = gitrev.resolve(root, revision)
    except InputError:
        if revision is None or not (here / revision).exists():
            raise
        # A path where the revision goes (`checker diff scenarios/x`): the path, against the default revision.
        paths = [revision, *paths]
        base = gitrev.resolve(root, None)
    relative = gitrev.relative_paths(root, here, paths) if paths else ["scenarios"]
    with gitrev.checked_out(root, base) as tree, ThreadPoolExecutor(max_workers=2) as pool:
        for path, shown in zip(relative, paths or relative, strict=True):
            if not (tree / path).exists() and not (root / path).exists():
                raise InputError(f"no such file or folder: {shown}", expected="a scenario file or a folder of them")
        before = pool.submit(snapshot.observe, tree, relative, f"{base.label} ({base.short})")
        after = pool.submit(snapshot.observe, root, relative, diff_format.AFTER)
        return diff(base, before.result(), after.result())


def _game(game_id: str) -> AnyGame:
    return suite.game(game_id)


def _new(args: argparse.Namespace) -> int:
    from checker.commands import skeleton
    from checker.format.scenario import schema_reference

    game = _game(args.game)
    source: Scenario | None = None
    if args.source:
        [item] = suite.load_many(suite.scenario_files([args.source]))
        if isinstance(item, RunResult):
            print(report.headline(item), file=sys.stderr)
            return 2
        if item.game != game.id:
            raise InputError(f"{args.source} is a scenario of {item.game}, not {game.id}", expected=f"a {game.id} scenario after --from")
        source = item
    if args.output is None:
        taken = skeleton.known_ids(suite.scenario_files(["scenarios"])) if Path("scenarios").is_dir() else set()
        print(skeleton.skeleton(game, question=args.question, source=source, taken=taken, schema_ref=skeleton.DEFAULT_SCHEMA_REF), end="")
        return 0
    # One file is written: its id is its name, and no folder is read to choose it.
    target = Path(args.output)
    schema_ref = schema_reference(SCHEMA_PATH, target.parent)
    text = skeleton.skeleton(game, question=args.question, source=source, taken=set(), schema_ref=schema_ref,
                             named=skeleton.id_from_name(target))
    skeleton.write_new(target, text)
    print(f"wrote {target}", file=sys.stderr)
    return 0


def _facts(args: argparse.Namespace) -> int:
    from checker.commands import reference

    print(reference.markdown(_game(args.game)), end="")
    return 0


def _disputes(args: argparse.Namespace) -> int:
    from checker.commands import disputes
    from checker.engine import legal
    from checker.commands.gaps import gaps
    from checker.format.scenario import Scenario

    game = _game(args.find)
    folder = Path(args.out) if args.out else Path("candidates") / game.id
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} is a file", expected="a folder for the candidates (created if missing)")
    own_folder = Path(args.scenarios) / game.id
    files = suite.scenario_files([own_folder if own_folder.is_dir() else args.scenarios])  # refused before the search
    loaded = suite.load_many(files)
    scenarios = [item for item in loaded if isinstance(item, Scenario) and item.game == game.id]
    if not legal.lists_actions(game):
        print(f"{game.id} does not list its actions (a moves module): no random play, no search")
    else:
        seed = "random seed" if args.seed is None else f"seed {args.seed}"
        print(f"Searching {len(disputes.ambiguous(game))} ambiguous rulings of {game.id} for {args.budget:g} s ({seed}), "
              f"by random legal play from {len(scenarios)} scenarios:", flush=True)
        findings = disputes.find_disputes(game, scenarios, suite.default(), seconds=args.budget, seed=args.seed,
                                          folder=folder, schema=SCHEMA_PATH)
        for line in report.findings_lines(findings):
            print(line)
    for line in report.gaps_lines(gaps(game, [suite.run_one(item) for item in loaded])):
        print(line)
    return 0


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _schema(args: argparse.Namespace) -> int:
    from checker.commands.skeleton import cannot_write
    from checker.engine.files import not_a_file, read_regular
    from checker.format.schema import published_text

    text = published_text(suite.games())
    target = Path(args.output)
    if args.check:
        try:
            current = read_regular(target).decode("utf-8", "replace") if target.exists() else ""
        except OSError as error:
            raise InputError(f"cannot read {target}: {not_a_file(target) or error.strerror}", expected="the schema file") from None
        if current != text:
            print(f"{target} is out of date: run 'checker schema'", file=sys.stderr)
            return 1
        return 0
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise cannot_write(target, error) from None
    print(f"wrote {target}")
    return 0
