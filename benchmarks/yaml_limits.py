"""Where each YAML loader fails, against the limits the checker refuses at.

For each way of nesting (flow lists, block lists, flow mappings) it finds, by bisection in child
processes, the shallowest nesting at which LibYAML's composer (the quick loader, building its
tree by recursion in C) crashes the process, and the file size that takes; then it reads a file of
that nesting, and one of ten times it, with each of the checker's loaders (``_load_plain``, which
is never given it, and ``_load_marked``, which refuses it from the parser's events), each in a
child process, and prints how each ended and how long it took. The checker refuses at
``MAX_DEPTH`` levels and ``MAX_BYTES`` bytes, and gives LibYAML's composer at most ``QUICK_DEPTH``.

    .venv/bin/python benchmarks/yaml_limits.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.format import yamlsafe  # noqa: E402 - after the repository is importable
from tests.test_yaml_limits import STYLES  # noqa: E402

COMPOSE = "import yaml, sys; from tests.test_yaml_limits import STYLES; yaml.CSafeLoader(STYLES[sys.argv[1]](int(sys.argv[2]))).get_single_node()"
CHECKER = """
import sys
from checker.format import yamlsafe
from checker.engine.errors import InputError
from tests.test_yaml_limits import STYLES
text = STYLES[sys.argv[1]](int(sys.argv[2]))
try:
    got = getattr(yamlsafe, sys.argv[3])(text)
    print("unsure" if got is yamlsafe._UNSURE else "read")
except InputError as error:
    print("refused:", error.message)
"""


def child(code: str, *args: object) -> tuple[int, str, float]:
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    return run.returncode, run.stdout.strip(), time.perf_counter() - start


def crash_depth(style: str) -> int:
    low, high = 1_000, 1_000_000  # LibYAML composes ``low`` levels; ``high`` crashes it
    while high - low > 500:
        middle = (low + high) // 2
        low, high = (middle, high) if child(COMPOSE, style, middle)[0] == 0 else (low, middle)
    return high


def main() -> None:
    print(f"refused at: {yamlsafe.MAX_DEPTH} levels, {yamlsafe.MAX_BYTES} bytes; LibYAML composes at most {yamlsafe.QUICK_DEPTH}")
    for style, text in STYLES.items():
        depth = crash_depth(style)
        print(f"{style}: LibYAML's composer crashes at about {depth} levels ({len(text(depth))} bytes)")
        for levels in (depth, 10 * depth):
            for loader in ("_load_plain", "_load_marked"):
                code, said, seconds = child(CHECKER, style, levels, loader)
                print(f"  {levels:>8} levels, {len(text(levels)):>9} bytes, {loader:<13} exit {code:>4} in {seconds:5.2f} s: {said}")


if __name__ == "__main__":
    main()
