"""Time and memory the checker spends on hostile files: the fuzz test's inputs, measured.

Draws inputs from the same strategies as tests/test_fuzz.py (generated YAML and damaged real
scenarios), checks each as one file, and prints the slowest file's time and the largest
peak of traced memory, against the targets of one second and a bounded footprint per file.

    .venv/bin/python benchmarks/fuzz.py [--examples 500]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
import sys
import tracemalloc
from pathlib import Path

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the strategies live with the tests

from checker.cli import main
from tests.test_fuzz import damaged_scenarios, generated_documents


def measure(content: bytes, folder: Path) -> tuple[float, int, int]:
    path = folder / "fuzz.yaml"
    path.write_bytes(content)
    tracemalloc.start()
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", str(path)])
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak, code


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500)
    args = parser.parse_args()
    inputs = st.one_of(generated_documents(), damaged_scenarios())
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        measure(b"id: warm-up\n", folder)  # imports and schema building, once
        rows = [measure(inputs.example(), folder) for _ in range(args.examples)]
    slowest = max(rows)
    codes = {code: sum(1 for row in rows if row[2] == code) for code in (0, 1, 2)}
    print(f"{args.examples} hostile files: exit 0/1/2 = {codes[0]}/{codes[1]}/{codes[2]}")
    print(f"slowest file: {slowest[0] * 1000:.0f} ms (target: under 1000 ms)")
    print(f"largest peak of traced memory: {max(row[1] for row in rows) / 2**20:.1f} MiB")
    print(f"median time: {sorted(row[0] for row in rows)[len(rows) // 2] * 1000:.1f} ms")


if __name__ == "__main__":
    main_benchmark()
