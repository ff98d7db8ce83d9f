"""How the time to check one scenario grows with its actions, when many of them are refused.

For each size N it writes, into a temporary folder, one Monster Rancher scenario of N actions
(`scenario`): rounds of four turn ends, of which two are refused, one the scenario expects and one
it does not (a Breeder ending the other's turn), and two are accepted. Turn ends leave the state the
size it was (an attack would add to the history of attacks the state keeps, and every copy of the
state would grow with it). It then checks the file as ``checker check -j 1`` does
(``checker.cli.main``, in this process, after a first check that builds the games) ``--repeat``
times, and prints the median time, the actions checked per second, the time per action, and the
time per action against the smallest size's: near 1 when the time grows linearly with the actions.
``--command`` times ``explain`` or ``readings`` instead.

    .venv/bin/python benchmarks/refusals.py [--sizes 250 1000 5000] [--repeat 3] [--command check]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker import cli  # noqa: E402 - after the repository is importable

ROUND = [
    "- {action: end-turn, player: A}",
    "- {action: end-turn, player: A}",  # refused, not expected: it is B's turn
    "- {action: end-turn, player: B}",
    "- {action: end-turn, player: B, reject: {reason: not-your-turn}}",
]


def scenario(actions: int) -> str:
    """A golden Monster Rancher scenario of ``actions`` actions, half of them refused."""
    return "\n".join([
        f"id: refusals-{actions}",
        "game: monster-rancher-bc2",
        f"title: {actions} turn ends, half of them refused",
        "initial:",
        "  players:",
        "    A: {monsters: [{name: Golem, attribute: Ground, lp: 20}]}",
        "    B: {monsters: [{name: Durahan, attribute: Ground, lp: 20}]}",
        "actions:",
        *(ROUND * -(-actions // len(ROUND)))[:actions],
        f"expect: {{turn: {1 + (actions + 1) // 2}}}",
        "",
    ])


def refused(actions: int) -> int:
    return actions // 2


def checked(path: Path, command: str = "check") -> tuple[float, str]:
    """The wall time of ``checker COMMAND PATH`` (``check -j 1``) in this process, and what it printed."""
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        cli.main([command, *(["-j", "1"] if command == "check" else []), str(path)])
    return time.perf_counter() - start, out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--command", choices=("check", "explain", "readings"), default="check")
    args = parser.parse_args()
    print(f"checker {args.command}")
    print(f"{'actions':>8} {'refused':>8} {'seconds':>8} {'actions/s':>10} {'µs/action':>10} {'per action / first':>19}")
    first = None
    with tempfile.TemporaryDirectory(prefix="rulings-refusals-") as tmp:
        warm = Path(tmp) / "warm.yaml"
        warm.write_text(scenario(10), encoding="utf-8")
        checked(warm)  # builds every game once
        for size in args.sizes:
            path = Path(tmp) / f"refusals-{size}.yaml"
            path.write_text(scenario(size), encoding="utf-8")
            runs = [checked(path, args.command) for _ in range(args.repeat)]
            wall = statistics.median(seconds for seconds, _ in runs)
            per_action = wall / size
            first = first or per_action
            print(f"{size:>8} {refused(size):>8} {wall:>8.3f} {size / wall:>10.0f} {per_action * 1e6:>10.1f} {per_action / first:>19.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
