"""Generated scenario corpora for the benchmarks, and how to measure one command on them.

A corpus is N copies of the real scenarios, cycled, each under a new id, written into a
folder the caller gives (a temporary one: never the repository).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent


def generated_corpus(target: Path, count: int) -> int:
    sources = sorted((ROOT / "scenarios").rglob("*.yaml"))
    for number in range(count):
        source = sources[number % len(sources)]
        text = source.read_text(encoding="utf-8")
        text = re.sub(r"^id: (.+)$", rf"id: \g<1>-{number}", text, count=1, flags=re.M)
        folder = target / source.parent.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{source.stem}-{number}.yaml").write_text(text, encoding="utf-8")
    return count


def one_of_each_game(target: Path) -> int:
    """The first scenario of each game's folder, as it is: what ``checker check`` spends before its files."""
    folders = sorted(folder for folder in (ROOT / "scenarios").iterdir() if folder.is_dir())
    for folder in folders:
        first = min(folder.rglob("*.yaml"))
        (target / folder.name).mkdir(parents=True, exist_ok=True)
        (target / folder.name / first.name).write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    return len(folders)


@dataclass(frozen=True)
class Measured:
    wall: float  # seconds
    cpu: float  # seconds of user and system time, the command's and its worker processes'
    peak_mib: float  # the largest resident set of the command or any one of its workers


def measure(command: Sequence[str], *, cwd: Path = ROOT, env: dict[str, str] | None = None) -> Measured:
    """Run ``command`` to the end, its output discarded, and what it took."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def environment() -> dict[str, str]:
    """This environment with the repository importable and bytecode cached, as an installed checker runs."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env
