"""How fast ``checker check`` gets through large corpora, against the floor of parsing the same YAML.

For each corpus size N (copies of the real scenarios under unique ids, in a temporary folder)
it runs, in turns, ``--repeat`` times each:

- the floor: one process reading every file with ``yaml.load(text, CSafeLoader)`` and nothing else;
- ``checker check -j 1`` (one process);
- ``checker check`` (one worker per core, the default);

and prints, from the medians: scenarios per second (default jobs, wall clock), CPU time per
scenario and its ratio to the floor's (one process each), the default run's wall time against
the floor's CPU time (one core), how much faster the default run is than ``-j 1`` on the wall
clock, and the peak resident memory of each (the largest process, for the default run). Then
each turn's two ratios: the machine's speed drifts, and a turn compares runs made close together.
Last, the start: ``checker check -j 1`` on one scenario of each game (Python, the imports, every
game built), and what the wall goal leaves each scenario: on two cores, twice the floor's time less
the start, shared among the N scenarios, against the CPU the default run spends on each.

    .venv/bin/python benchmarks/throughput.py [--sizes 1000 10000 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from corpus import Measured, environment, generated_corpus, measure, one_of_each_game  # beside this script

FLOOR = """
import sys
from pathlib import Path
import yaml
for path in sorted(p for p in Path(sys.argv[1]).rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""


def median(runs: list[Measured]) -> Measured:
    return Measured(*(statistics.median(getattr(run, name) for run in runs) for name in ("wall", "cpu", "peak_mib")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 50_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    env = environment()
    checker = [sys.executable, "-m", "checker", "check"]
    with tempfile.TemporaryDirectory(prefix="rulings-start-") as tmp:
        one_of_each_game(Path(tmp))
        measure([*checker, "-j", "1", tmp], env=env)
        start = statistics.median(measure([*checker, "-j", "1", tmp], env=env).wall for _ in range(5))
    print(f"{'files':>7} {'scen/s':>8} {'floor ms/scen':>14} {'check ms/scen':>14} {'CPU ratio':>10} "
          f"{'wall ratio':>11} {'-j speedup':>11} {'peak MiB (-j 1)':>16} {'peak MiB (default)':>19}")
    for size in args.sizes:
        with tempfile.TemporaryDirectory(prefix="rulings-throughput-") as tmp:
            corpus = Path(tmp)
            generated_corpus(corpus, size)
            measure([*checker, "-j", "1", str(corpus)], env=env)  # writes the bytecode caches, warms the page cache
            floors, singles, defaults = [], [], []
            for _ in range(args.repeat):
                floors.append(measure([sys.executable, "-c", FLOOR, str(corpus)], env=env))
                singles.append(measure([*checker, "-j", "1", str(corpus)], env=env))
                defaults.append(measure([*checker, str(corpus)], env=env))
        floor, single, default = median(floors), median(singles), median(defaults)
        print(f"{size:>7} {size / default.wall:>8.0f} {floor.cpu / size * 1e3:>14.3f} {single.cpu / size * 1e3:>14.3f} "
              f"{single.cpu / floor.cpu:>10.2f} {default.wall / floor.cpu:>11.2f} {single.wall / default.wall:>11.2f} {single.peak_mib:>16.0f} "
              f"{default.peak_mib:>19.0f}", flush=True)
        turns = zip(floors, singles, defaults)
        print(f"{'':>7} each turn, CPU ratio / wall ratio: "
              + ", ".join(f"{s.cpu / f.cpu:.2f} / {d.wall / f.cpu:.2f}" for f, s, d in turns), flush=True)
        print(f"{'':>7} start {start:.2f} s; the wall goal leaves {2 * (floor.cpu - start) / size * 1e3:.3f} ms of CPU a scenario "
              f"on two cores, the default run spends {(default.cpu - start) / size * 1e3:.3f}", flush=True)


if __name__ == "__main__":
    main()
