"""A damaged cache never changes a verdict and never stops a run.

Every file of a filled cache is damaged in several ways (a different way for each file in each
round), then every scenario is checked, in a new process (a process reads the cache once), and
what ``checker check`` prints must be what it prints with ``RULINGS_CACHE=off``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from checker.engine import datafile
from tests.conftest import ROOT


COMMAND = [sys.executable, "-m", "checker", "check", "scenarios", "-j", "1", "--format", "json"]


def environment(cache: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "RULINGS_CACHE": cache}


def check_everything(cache: str) -> tuple[int, str, str]:
    run = subprocess.run(COMMAND, capture_output=True, text=True, cwd=ROOT, env=environment(cache))
    return run.returncode, run.stdout, run.stderr


@pytest.fixture(scope="module")
def expected() -> tuple[int, str, str]:
    """What checking every scenario prints without a cache."""
    found = check_everything("off")
    assert found[0] == 0 and found[2] == "", found[2]
    return found


def edited(text: bytes) -> bytes:
    """The entry with every whole number in its JSON one more, under its own first line: a hand edit."""
    header, _, body = text.partition(b"\n")

    def bump(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, (int, dict, list)):
            return value
        if isinstance(value, int):
            return value + 1
        if isinstance(value, dict):
            return {key: bump(item) for key, item in value.items()}
        return [bump(item) for item in value]

    return header + b"\n" + json.dumps(bump(json.loads(body))).encode("utf-8")


def replace(path: Path, make: Callable[[Path], None]) -> None:
    path.unlink()
    make(path)


DAMAGE: dict[str, Callable[[Path, bytes, bytes], None]] = {
    "null": lambda path, text, other: path.write_bytes(b"null"),
    "an empty mapping": lambda path, text, other: path.write_bytes(b"{}"),
    "empty": lambda path, text, other: path.write_bytes(b""),
    "cut in half": lambda path, text, other: path.write_bytes(text[: len(text) // 2]),
    "its numbers edited": lambda path, text, other: path.write_bytes(edited(text)),
    "its data without its first line": lambda path, text, other: path.write_bytes(text.partition(b"\n")[2]),
    "another entry's": lambda path, text, other: path.write_bytes(other),
    "not UTF-8": lambda path, text, other: path.write_bytes(b"\xff\xfe\x00" + text[3:]),
    "nested past recursion": lambda path, text, other: path.write_bytes(b"[" * 100_000),
    "a folder": lambda path, text, other: replace(path, lambda p: p.mkdir()),
    "a named pipe": lambda path, text, other: replace(path, lambda p: os.mkfifo(p)),
    "a link to itself": lambda path, text, other: replace(path, lambda p: p.symlink_to(p.name)),
    "a link to nothing": lambda path, text, other: replace(path, lambda p: p.symlink_to("missing.json")),
}
ROUNDS = 3


def test_no_damage_to_any_cache_file_changes_a_verdict(tmp_path: Path, expected: tuple[int, str, str]) -> None:
    cache = tmp_path / "cache"
    assert check_everything(str(cache)) == expected  # fills the cache
    entries = sorted(cache.glob("*.json"))
    assert len(entries) > 10
    ways = list(DAMAGE)
    for round_ in range(ROUNDS):
        texts = {path: path.read_bytes() if path.is_file() else b"" for path in entries}
        for number, path in enumerate(entries):
            if path.is_dir():
                path.rmdir()
                path.write_bytes(texts[entries[number - 1]])
            way = ways[(number * ROUNDS + round_) % len(ways)]
            DAMAGE[way](path, texts[path], texts[entries[number - 1]])
        assert check_everything(str(cache)) == expected, f"round {round_}"


def test_runs_filling_one_cache_at_once_each_give_every_verdict(tmp_path: Path, expected: tuple[int, str, str]) -> None:
    runs = [subprocess.Popen(COMMAND, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             env=environment(str(tmp_path / "cache"))) for _ in range(3)]
    for run in runs:
        out, err = run.communicate()
        assert (run.returncode, out, err) == expected
    assert not list((tmp_path / "cache").glob("*.tmp"))  # every entry written whole, under its own name


@pytest.mark.parametrize("folder", ["a file", "a link to itself", "read-only"])
def test_a_cache_folder_that_cannot_be_used_changes_nothing(folder: str, tmp_path: Path, monkeypatch) -> None:
    where = tmp_path / "cache"
    if folder == "a file":
        where.write_text("not a folder", encoding="utf-8")
    elif folder == "a link to itself":
        where.symlink_to(where.name)
    else:
        where.mkdir()
        where.chmod(0o500)
    monkeypatch.setenv("RULINGS_CACHE", str(where))
    built: list[int] = []

    def build() -> dict[str, int]:
        built.append(1)
        return {"made": len(built)}

    assert datafile.cached("some-key", build) == {"made": 1}
    keeps = folder == "read-only" and os.geteuid() == 0  # permissions do not stop root
    assert datafile.cached("some-key", build) == {"made": 1 if keeps else 2}  # made again: nothing could be kept
