"""Every scenario file is a pytest item named by its scenario id.

Registered through the ``pytest11`` entry point, so ``pytest`` collects the
YAML files under any folder named ``scenarios`` (option ``scenario_folder``).
``-k``, ``-x``, ``--lf`` and pytest-xdist work on these items as on any test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from checker import report, suite
from checker.runner import RunResult
from checker.scenario import Scenario


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("scenario_folder", "folder name under which YAML files are scenarios", default="scenarios")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in suite.SUFFIXES:
        return None
    folder = parent.config.getini("scenario_folder")
    relative = file_path.relative_to(parent.config.rootpath) if file_path.is_relative_to(parent.config.rootpath) else file_path
    if folder not in relative.parts[:-1]:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


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
        if result.verdict not in ("pass", "question"):
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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "scenario: a golden scenario file")
