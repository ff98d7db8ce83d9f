"""The pytest collectors and items of scenario files (see :mod:`checker.pytest_plugin`)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import pytest

from checker.run import batch, suite
from checker.commands import report
from checker.engine.game import AnyGame
from checker.pytest_plugin.options import GROUP_SIZE
from checker.run.runner import RunResult
from checker.format.scenario import Scenario

PASSING = ("pass", "question")


class ScenarioFolder(pytest.Directory):
    """A folder inside a ``scenarios`` folder: its scenario files, in groups or each on its own, then its other
    entries as pytest collects them (ignore options and hooks apply as in any folder)."""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        config, ihook = self.config, self.ihook
        size = config.stash[GROUP_SIZE]
        grouped: list[Path] = []
        for entry in sorted(os.scandir(self.path), key=lambda entry: entry.name):
            path = Path(entry.path)
            if os.path.isdir(path):  # False for a link that loops or leads nowhere
                if not self.session.isinitpath(path, with_parents=True) and ihook.pytest_ignore_collect(collection_path=path, config=config):
                    continue
                folder = ihook.pytest_collect_directory(path=path, parent=self)
                if folder is not None:
                    yield folder
            elif path.suffix in suite.SUFFIXES or os.path.isfile(path):  # a scenario name that is no file fails as one
                if not self.session.isinitpath(path) and ihook.pytest_ignore_collect(collection_path=path, config=config):
                    continue
                if path.suffix not in suite.SUFFIXES:
                    yield from ihook.pytest_collect_file(file_path=path, parent=self)
                elif size == 1 or self.session.isinitpath(path) or config.getoption("keyword"):
                    yield ScenarioFile.from_parent(self, path=path)
                else:
                    grouped.append(path)
        for files in _split(grouped, size):
            name = files[0].stem if len(files) == 1 else f"{files[0].stem}..{files[-1].stem}"
            yield ScenarioGroup.from_parent(self, name=name, files=files)


def _split(files: Sequence[Path], size: int) -> list[Sequence[Path]]:
    """``files`` in order, in as few groups of at most ``size`` as there can be, of sizes that differ by one at most."""
    count = -(-len(files) // size)
    return [files[len(files) * number // count : len(files) * (number + 1) // count] for number in range(count)]


class GroupFailed(Exception):
    def __init__(self, checked: int, shown: list[str]) -> None:
        super().__init__(f"{len(shown)} of {checked} scenarios did not pass")
        self.shown = shown


class ScenarioGroup(pytest.Item):
    """Scenario files checked as ``checker check`` checks them (ids unique among them), failing if any does not pass."""

    def __init__(self, *, files: Sequence[Path], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.files = files
        self.add_marker(pytest.mark.scenario)

    def runtest(self) -> None:
        render = functools.partial(_shown_unless_passing, games=suite.games())
        checked = list(batch.check_files(suite.default(), self.files, render, jobs=1))
        shown = [item.shown for item in checked if item.verdict not in PASSING]
        if shown:
            raise GroupFailed(len(checked), shown)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, GroupFailed):
            heading = f"{excinfo.value} (pytest FILE shows one's facts, expected against actual, and its trace):"
            return "\n".join([heading, *excinfo.value.shown])
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenarios {self.name}"


def _shown_unless_passing(result: RunResult, games: Mapping[str, AnyGame]) -> str:
    return "" if result.verdict in PASSING else report.check_text(result, games)


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        item = suite.load(self.path)
        if isinstance(item, Scenario):
            yield ScenarioItem.from_parent(self, name=item.id, scenario=item)
        else:
            yield InvalidScenarioItem.from_parent(self, name=self.path.stem, result=item)


class ScenarioFailed(Exception):
    def __init__(self, result: RunResult) -> None:
        super().__init__(result.verdict)
        self.result = result


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.add_marker(pytest.mark.scenario)

    def runtest(self) -> None:
        result = suite.run_one(self.scenario)
        if result.verdict not in PASSING:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return failure_text(excinfo.value.result)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.name}"


class InvalidScenarioItem(pytest.Item):
    def __init__(self, *, result: RunResult, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.result = result

    def runtest(self) -> None:
        raise ScenarioFailed(self.result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return report.headline(self.result)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"invalid scenario file {self.name}"


def failure_text(result: RunResult) -> str:
    lines = [report.headline(result)]
    if result.error is not None:
        return "\n".join(lines)
    if result.crash:
        lines += report.details(result)  # the traceback, then the trace up to the crash
        return "\n".join(lines)
    lines.append("expected against actual, field by field:")
    lines += report.details(result)
    lines.append("trace:")
    lines += report.trace_lines(result.trace)
    return "\n".join(lines)
