"""What the core's copy of a state costs, and what sharing the card book saves.

The core deep-copies a game's state before handing it to an action's handler whenever anything
else still holds it (a checkpoint's facts, a start kept, an expected refusal's state to go on
from), so that no state anything holds can change. Static data (a card book) is held in a ``checker.engine.game.Book``,
which every copy shares. For every scenario this measures, on its initial state:

- the core's copy (``checker.engine.statecopy.deep_copy``, the Book shared);
- the same copy with the book copied too (a plain dict in its place);
- ``copy.deepcopy``, the Book shared, which the core's copy replaces;
- one whole run of the scenario, for scale.

    .venv/bin/python benchmarks/state_copy.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import copy
import time
from collections import defaultdict
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from checker.run import suite
from checker.engine.game import Book, Context
from checker.run.runner import run
from checker.engine.statecopy import deep_copy
from checker.format.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent


def unshared(state: Any) -> Any:
    """The state with every Book field replaced by a plain dict (copied by deepcopy like any data)."""
    if not is_dataclass(state):
        return state
    changes = {f.name: dict(getattr(state, f.name)) for f in fields(state) if isinstance(getattr(state, f.name), Book)}
    return replace(state, **changes)


def per_call(function: Any, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    loaded = suite.load_many(suite.scenario_files([ROOT / "scenarios"]))
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0])
    for item in loaded:
        if not isinstance(item, Scenario):
            continue
        game = suite.games()[item.game]
        try:
            state = game.setup(item.initial, item.cards, Context(game))
        except Exception:  # a scenario whose initial state is refused has nothing to copy
            continue
        plain = unshared(state)
        row = totals[item.game]
        row[0] += per_call(lambda: deep_copy(state), args.repeat)
        row[1] += per_call(lambda: deep_copy(plain), args.repeat)
        row[2] += per_call(lambda: copy.deepcopy(state), args.repeat)
        row[3] += per_call(lambda: run(item, game), max(1, args.repeat // 20))
        row[4] += 1
    print(f"{'game':<22}{'scenarios':>10}{'copy, book shared':>20}{'copy, book copied':>20}{'copy.deepcopy':>16}"
          f"{'whole run':>14}")
    for game_id, (shared, copied, generic, whole, count) in sorted(totals.items()):
        print(f"{game_id:<22}{count:>10}{shared / count * 1e6:>17.1f} µs{copied / count * 1e6:>17.1f} µs"
              f"{generic / count * 1e6:>13.1f} µs{whole / count * 1e3:>11.2f} ms")


if __name__ == "__main__":
    main()
