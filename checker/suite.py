"""Many scenarios at once: finding files, loading them, ids unique across the set."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable, Mapping

from checker.errors import InputError
from checker.game import Game
from checker.games import registry
from checker.runner import RunResult, run
from checker.scenario import Scenario, load_scenario, scenario_from_data
from checker.schema import Validator

SUFFIXES = (".yaml", ".yml")


class Suite:
    """Scenarios of a set of games: finding, loading (ids unique across the set) and running them."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games
        self.validator = Validator(games)

    def load(self, path: Path) -> Scenario | RunResult:
        """The scenario in ``path``, or an ``invalid`` result saying what is wrong with it."""
        try:
            return load_scenario(path, self.games, self.validator)
        except InputError as error:
            return RunResult.invalid(str(path), error)

    def from_data(self, data: Mapping[str, object], path: str, *, validate: bool = True) -> Scenario:
        """A scenario from plain data (a file not yet written); raises :class:`InputError` if it is not valid.

        ``validate=False`` skips the schema (see :func:`checker.scenario.scenario_from_data`).
        """
        return scenario_from_data(data, path, self.games, self.validator if validate else None)

    def load_many(self, paths: Iterable[Path]) -> list[Scenario | RunResult]:
        loaded: list[Scenario | RunResult] = []
        first_file: dict[str, str] = {}
        for path in paths:
            item = self.load(path)
            if isinstance(item, Scenario):
                if item.id in first_file:
                    error = InputError(
                        f"id {item.id!r} is already used by {first_file[item.id]}",
                        path=("id",),
                        expected="an id unique across the repository",
                    )
                    item = RunResult.invalid(item.path, item.document.locate(error))
                else:
                    first_file[item.id] = item.path
            loaded.append(item)
        return loaded

    def run_one(self, item: Scenario | RunResult) -> RunResult:
        if isinstance(item, RunResult):
            return item
        return run(item, self.games[item.game])

    def check(self, paths: Iterable[str | Path]) -> list[RunResult]:
        return [self.run_one(item) for item in self.load_many(scenario_files(paths))]


@functools.cache
def default() -> Suite:
    """The games of this repository (``checker.games``)."""
    return Suite(registry())


def games() -> Mapping[str, Game]:
    return default().games


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named by ``paths``: files as given, folders searched recursively.

    Naming nothing that holds a scenario is bad input: a run that checked nothing must not
    look like a run where everything passed.
    """
    found: list[Path] = []
    named = [Path(raw) for raw in paths]
    for path in named:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(f"no such file or folder: {path}", expected="a scenario file or a folder of them")
    if not found:
        where = ", ".join(str(path) for path in named) or "nothing named"
        raise InputError(f"no scenario found in {where}", expected=f"files ending in {' or '.join(SUFFIXES)}")
    return found


def load(path: Path) -> Scenario | RunResult:
    return default().load(path)


def load_many(paths: Iterable[Path]) -> list[Scenario | RunResult]:
    return default().load_many(paths)


def run_one(item: Scenario | RunResult) -> RunResult:
    return default().run_one(item)


def check(paths: Iterable[str | Path]) -> list[RunResult]:
    return default().check(paths)


def exit_code(results: list[RunResult]) -> int:
    verdicts = {result.verdict for result in results}
    if "invalid" in verdicts:
        return 2
    if verdicts & {"fail", "error"}:
        return 1
    return 0
