"""Scenario files as pytest items: a folder's files checked in groups, or a file on its own.

Registered through the ``pytest11`` entry point, so ``pytest`` collects the YAML files under any
folder named ``scenarios`` (option ``scenario_folder``). A folder's scenario files are checked in
groups of at most ``scenario_group_size`` (default 100), one pytest item per group, named after
its first and last file: pytest's own cost per item would otherwise exceed the checker's per
scenario. A group checks its files as ``checker check`` does and fails with what ``checker
check`` prints of each scenario that did not pass.

A file named on the command line, every file when ``-k`` selects, and every file when
``scenario_group_size`` is 1 or a JUnit report is asked for (``--junitxml``) is an item of its
own, named by its scenario id: ``-k`` selects by id or file name, a JUnit report has a test case
per scenario, and a failure shows the expected against the actual facts and the trace.

The items (:mod:`checker.pytest_plugin.items`), and the checker with them, are imported only where
there are scenarios to collect: not in a run of other tests, nor in pytest-xdist's controller.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.pytest_plugin.options import GROUP_SIZE


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("scenario_folder", "folder name under which YAML files are scenarios", default="scenarios")
    parser.addini(
        "scenario_group_size", "how many scenario files one pytest item checks at most (1: each file its own item)", default="100"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "scenario: a golden scenario file")
    text = config.getini("scenario_group_size")
    size = int(text) if text.isdigit() else 0
    if size < 1:
        raise pytest.UsageError(f"scenario_group_size = {text!r}: expected a whole number, 1 or more")
    # A JUnit report (--junitxml) is read by CI dashboards: there each scenario is a test case named by its id.
    config.stash[GROUP_SIZE] = 1 if config.getoption("xmlpath", None) else size


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    relative = path.relative_to(config.rootpath) if path.is_relative_to(config.rootpath) else path
    if config.getini("scenario_folder") not in relative.parts:
        return None
    from checker.pytest_plugin.items import ScenarioFolder

    return ScenarioFolder.from_parent(parent, path=path)
