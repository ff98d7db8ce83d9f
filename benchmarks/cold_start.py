"""How long ``checker check FILE`` and ``checker explain FILE`` take from a cold start, against 0.25 s.

Each command runs ``--repeat`` times in a fresh interpreter (bytecode cached, as an installed
checker runs); printed are the medians of wall-clock and CPU time, and the same for a bare
``python -c pass`` measured in the same turns (what no command can go below).

    .venv/bin/python benchmarks/cold_start.py [--repeat 15] [FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from corpus import ROOT, environment, measure  # beside this script

GOAL = 0.25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(ROOT / "scenarios" / "many-marios-0" / "agility.yaml"))
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    env = environment()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "checker check FILE": [sys.executable, "-m", "checker", "check", args.file],
        "checker explain FILE": [sys.executable, "-m", "checker", "explain", args.file],
    }
    for command in commands.values():
        measure(command, env=env)  # bytecode and data caches written
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(args.repeat):
        for label, command in commands.items():
            done = measure(command, env=env)
            runs[label].append((done.wall, done.cpu))
    print(f"{'command':<24} {'wall s':>8} {'CPU s':>8} {'wall / goal':>12}")
    for label, times in runs.items():
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        print(f"{label:<24} {wall:>8.3f} {cpu:>8.3f} {wall / GOAL:>12.2f}")


if __name__ == "__main__":
    main()
