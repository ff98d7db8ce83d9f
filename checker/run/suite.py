"""Many scenarios at once: finding files, loading them, ids unique across the set."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from checker.engine.errors import InputError, nearest, one_of
from checker.engine.files import not_a_file
from checker.engine.game import AnyGame
from checker.format.gameindex import game_index
from checker.run.runner import RunResult, run
from checker.format.scenario import Scenario, load_scenario, load_text, scenario_from_data
from checker.format.schema import Validator

SUFFIXES = (".yaml", ".yml")


class Suite:
    """Scenarios of a set of games: finding, loading (ids unique across the set) and running them."""

    def __init__(self, games: Mapping[str, AnyGame], schema: dict[str, Any] | None = None) -> None:
        """``schema``: the games' scenario schema when it is already built (else it is built here)."""
        self.games = games
        self.validator = Validator(games, schema)

    def load(self, path: Path) -> Scenario | RunResult:
        """The scenario in ``path``, or an ``invalid`` result saying what is wrong with it."""
        try:
            return load_scenario(path, self.games, self.validator)
        except InputError as error:
            return RunResult.invalid(str(path), error)

    def load_text(self, text: str, path: str) -> Scenario | RunResult:
        """``text`` as the content of a file named ``path``: what :meth:`load` gives for such a file."""
        try:
            return load_text(text, path, self.games, self.validator)
        except InputError as error:
            return RunResult.invalid(path, error)

    def from_data(self, data: Mapping[str, object], path: str, *, validate: bool = True) -> Scenario:
        """A scenario from plain data (a file not yet written); raises :class:`InputError` if it is not valid.

        ``validate=False`` skips the schema (see :func:`checker.format.scenario.scenario_from_data`).
        """
        return scenario_from_data(data, path, self.games, self.validator if validate else None)

    def load_many(self, paths: Iterable[Path]) -> list[Scenario | RunResult]:
        loaded: list[Scenario | RunResult] = []
        first_file: dict[str, str] = {}
        for path in paths:
            item = self.load(path)
            if isinstance(item, Scenario):
                if item.id in first_file:
                    item = self.duplicate(item, first_file[item.id])
                else:
                    first_file[item.id] = item.path
            loaded.append(item)
        return loaded

    @staticmethod
    def duplicate(item: Scenario | RunResult, first_file: str) -> RunResult:
        """The result of a scenario whose id ``first_file`` already uses."""
        assert isinstance(item, Scenario), "only a loaded scenario has an id"
        error = InputError(
            f"id {item.id!r} is already used by {first_file}", path=("id",), expected="an id unique across the repository"
        )
        return RunResult.invalid(item.path, item.document.locate(error))

    def run_one(self, item: Scenario | RunResult, *, keep_starts: bool = False) -> RunResult:
        if isinstance(item, RunResult):
            return item
        return run(item, self.games[item.game], keep_starts=keep_starts)

    def check(self, paths: Iterable[str | Path]) -> list[RunResult]:
        return [self.run_one(item) for item in self.load_many(scenario_files(paths))]


@functools.cache
def default() -> Suite:
    """The games of this repository (``checker.games``), each imported when a scenario of it is loaded."""
    index = game_index()
    return Suite(index.games, index.schema)


def games() -> Mapping[str, AnyGame]:
    return default().games


def game(game_id: str) -> AnyGame:
    """The game ``game_id``; :class:`InputError` (naming the nearest) when there is none."""
    known = games()
    if game_id not in known:
        raise InputError(f"unknown game {game_id!r}{nearest(game_id, known)}", expected=one_of(known))
    return known[game_id]


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named by ``paths``: files as given, folders searched recursively.

    Naming nothing that holds a scenario is bad input: a run that checked nothing must not
    look like a run where everything passed.
    """
    found: list[Path] = []
    named = [Path(raw) for raw in paths]
    for path in named:
        if path.is_dir():
            found += _files_under(path)
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(f"{not_a_file(path)}: {path}", expected="a scenario file or a folder of them")
    if not found:
        where = ", ".join(str(path) for path in named) or "nothing named"
        raise InputError(f"no scenario found in {where}", expected=f"files ending in {' or '.join(SUFFIXES)}")
    return found


def _files_under(folder: Path) -> list[Path]:
    """The scenario files in ``folder`` and its subfolders (not those reached through a symbolic link to a
    folder), in path order, from one ``scandir`` a folder: every name ending in a scenario suffix that is not a
    folder, so that one that is not a file to read (a named pipe, a link that loops or leads nowhere) is reported
    by its loading rather than left out."""
    found: list[Path] = []
    folders = [str(folder)]
    while folders:
        here = folders.pop()
        try:
            entries = list(os.scandir(here))
        except OSError as error:
            raise InputError(f"cannot read the folder {here}: {error.strerror}", expected="folders that can be read") from None
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
            elif os.path.splitext(entry.name)[1] in SUFFIXES and not os.path.isdir(entry.path):
                found.append(Path(entry.path))
    return sorted(found, key=lambda path: path.parts)


def load(path: Path) -> Scenario | RunResult:
    return default().load(path)


def load_many(paths: Iterable[Path]) -> list[Scenario | RunResult]:
    return default().load_many(paths)


def run_one(item: Scenario | RunResult, *, keep_starts: bool = False) -> RunResult:
    return default().run_one(item, keep_starts=keep_starts)


def check(paths: Iterable[str | Path]) -> list[RunResult]:
    return default().check(paths)


def exit_code(results: list[RunResult]) -> int:
    return exit_code_of(result.verdict for result in results)


def exit_code_of(verdicts: Iterable[str]) -> int:
    found = set(verdicts)
    if "invalid" in found:
        return 2
    if found & {"fail", "error"}:
        return 1
    return 0
