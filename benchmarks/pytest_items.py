"""What running scenarios under pytest costs: ``-n 2`` against ``-n 0``, and per scenario over ``checker check``.

Generates N scenarios (copies of the real ones under unique ids) in a temporary project and
runs, in turns, ``--repeat`` times each: ``checker check -j 1``, ``pytest -n 0``, ``pytest -n 2``,
and pytest on N trivial items (a parametrized ``pass``) and on 2, which gives what pytest itself
spends on an item: why the scenarios are checked in groups, not one item each. Prints the
medians' ratios.

    .venv/bin/python benchmarks/pytest_items.py [--scenarios 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from corpus import Measured, environment, generated_corpus, measure  # beside this script

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
    env = environment()
    count = args.scenarios
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    with tempfile.TemporaryDirectory(prefix="rulings-pytest-") as tmp:
        project = Path(tmp) / "project"
        generated_corpus(project / "scenarios", count)
        (project / "pytest.ini").write_text("[pytest]\ntestpaths = scenarios\n", encoding="utf-8")
        many, two = trivial_project(Path(tmp) / "many", count), trivial_project(Path(tmp) / "two", 2)
        commands = {
            "check": ([sys.executable, "-m", "checker", "check", "-j", "1", "scenarios"], project),
            "n0": ([*pytest, "-n", "0"], project),
            "n2": ([*pytest, "-n", "2"], project),
            "trivial": ([*pytest, "-p", "no:rulings-scenarios"], many),
            "trivial2": ([*pytest, "-p", "no:rulings-scenarios"], two),
        }
        measure(commands["check"][0], cwd=project, env=env)  # bytecode, caches
        runs: dict[str, list[Measured]] = {label: [] for label in commands}
        for _ in range(args.repeat):
            for label, (command, cwd) in commands.items():
                runs[label].append(measure(command, cwd=cwd, env=env))
    wall = {label: statistics.median(r.wall for r in done) for label, done in runs.items()}
    cpu = {label: statistics.median(r.cpu for r in done) for label, done in runs.items()}
    print(f"{count} scenarios, medians of {args.repeat}")
    print(f"  pytest -n 2 wall / pytest -n 0 wall: {wall['n2'] / wall['n0']:.2f} "
          f"({wall['n2']:.1f} s / {wall['n0']:.1f} s; goal 0.60)")
    print(f"  CPU per scenario over checker check -j 1: {(cpu['n0'] - cpu['check']) / count * 1e3:.3f} ms (goal 0.3 ms)")
    print(f"  pytest's own CPU per trivial item:       {(cpu['trivial'] - cpu['trivial2']) / (count - 2) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
