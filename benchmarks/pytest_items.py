"""What running scenarios under pytest costs: ``-n 2`` against ``-n 0``, and per scenario over ``checker check``.

Generates N scenarios (copies of the real ones under unique ids) in a temporary project and
runs, in turns, ``--repeat`` times each: ``checker check -j 1``, ``pytest -n 0``, ``pytest -n 2``,
and pytest on N trivial items (a parametrized ``pass``) and on 2, which gives what pytest itself
spends on an item: why the scenarios are checked in groups, not one item each. Prints the
medians' ratios.

A small plugin (``-p``, written beside the corpus) notes when each process starts its first item
and ends its last, which splits each pytest run into checking and what it pays once (starting,
collecting, the summary, the workers' starts and summaries with ``-n 2``). With ``F0`` and ``F2``
paid once and ``C`` the checking of ``-n 0``, the ratio is about (F2 + C/2) / (F0 + C): the script
prints how long ``C`` must be for the ratio to stay within 0.6.

    .venv/bin/python benchmarks/pytest_items.py [--scenarios 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from corpus import Measured, environment, generated_corpus, measure  # beside this script

TIMELINE = """import os, time

_span = []


def pytest_runtest_logstart(nodeid, location):
    if not _span:
        _span.append(time.time())


def pytest_runtest_logfinish(nodeid, location):
    del _span[1:]
    _span.append(time.time())


def pytest_sessionfinish(session):
    if len(_span) == 2 and not hasattr(session.config, "workerinput"):  # the controller sees every worker's items
        with open(os.environ["TIMELINE_FILE"], "a") as out:
            out.write(f"{_span[1] - _span[0]}\\n")
"""

TRIVIAL = 'import pytest\n\n@pytest.mark.parametrize("number", range({count}))\ndef test_nothing(number):\n    pass\n'


def trivial_project(folder: Path, count: int) -> Path:
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (folder / "test_trivial.py").write_text(TRIVIAL.format(count=count), encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    count = args.scenarios
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    with tempfile.TemporaryDirectory(prefix="rulings-pytest-") as tmp:
        project = Path(tmp) / "project"
        generated_corpus(project / "scenarios", count)
        (project / "pytest.ini").write_text("[pytest]\ntestpaths = scenarios\n", encoding="utf-8")
        (Path(tmp) / "rulings_timeline.py").write_text(TIMELINE, encoding="utf-8")
        env = environment()
        env["PYTHONPATH"] += os.pathsep + tmp
        many, two = trivial_project(Path(tmp) / "many", count), trivial_project(Path(tmp) / "two", 2)
        commands = {
            "check": ([sys.executable, "-m", "checker", "check", "-j", "1", "scenarios"], project),
            "n0": ([*pytest, "-p", "rulings_timeline", "-n", "0"], project),
            "n2": ([*pytest, "-p", "rulings_timeline", "-n", "2"], project),
            "trivial": ([*pytest, "-p", "no:rulings-scenarios"], many),
            "trivial2": ([*pytest, "-p", "no:rulings-scenarios"], two),
        }
        measure(commands["check"][0], cwd=project, env=env)  # bytecode, caches
        runs: dict[str, list[Measured]] = {label: [] for label in commands}
        checking: dict[str, list[float]] = {"n0": [], "n2": []}
        for _ in range(args.repeat):
            for label, (command, cwd) in commands.items():
                timeline = Path(tmp) / f"timeline-{label}.txt"
                runs[label].append(measure(command, cwd=cwd, env={**env, "TIMELINE_FILE": str(timeline)}))
                if label in checking:
                    checking[label].append(float(timeline.read_text(encoding="utf-8")))
                    timeline.unlink()
    wall = {label: statistics.median(r.wall for r in done) for label, done in runs.items()}
    cpu = {label: statistics.median(r.cpu for r in done) for label, done in runs.items()}
    checks = {label: statistics.median(spans) for label, spans in checking.items()}
    once = {label: statistics.median(r.wall - span for r, span in zip(runs[label], spans)) for label, spans in checking.items()}
    print(f"{count} scenarios, medians of {args.repeat}")
    print(f"  pytest -n 2 wall / pytest -n 0 wall: {wall['n2'] / wall['n0']:.2f} "
          f"({wall['n2']:.1f} s / {wall['n0']:.1f} s; goal 0.60)")
    print(f"  CPU per scenario over checker check -j 1: {(cpu['n0'] - cpu['check']) / count * 1e3:.3f} ms (goal 0.3 ms)")
    print(f"  pytest's own CPU per trivial item:       {(cpu['trivial'] - cpu['trivial2']) / (count - 2) * 1e3:.3f} ms")
    share = checks["n2"] / checks["n0"]
    print(f"  checking, first item to last: -n 2 {checks['n2']:.2f} s / -n 0 {checks['n0']:.2f} s = {share:.2f}; "
          f"paid once (start, collection, summary): -n 0 {once['n0']:.2f} s, -n 2 {once['n2']:.2f} s")
    if share < 0.6:
        needed = (once["n2"] - 0.6 * once["n0"]) / (0.6 - share)
        print(f"  so the ratio is within 0.60 while -n 0 checks for {needed:.1f} s or more "
              f"({needed / count * 1e3:.2f} ms a scenario; now {checks['n0'] / count * 1e3:.2f} ms)")


if __name__ == "__main__":
    main()
