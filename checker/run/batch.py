"""Checking many scenario files as a stream: in file order, on every core, keeping only what is reported.

Each file is loaded, validated and run by a worker process, which sends back its verdict and
what the report shows of it (rendered there), never the scenario or its trace; ids are checked
for uniqueness here, in file order, as :meth:`checker.run.suite.Suite.load_many` does.
"""

from __future__ import annotations

import functools
import gc
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar, cast

from checker.run.runner import RunResult, Verdict
from checker.format.scenario import Scenario
from checker.run.suite import Suite

T = TypeVar("T")
#: Below this many items (files, pages) one process does them all: starting workers would cost more.
PARALLEL_FROM = 64


@dataclass(frozen=True)
class Checked(Generic[T]):
    verdict: Verdict
    shown: T  # what the report shows of the file, rendered from its result


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_files(suite: Suite, files: Sequence[Path], render: Callable[[RunResult], T], jobs: int) -> Iterator[Checked[T]]:
    """Every file's verdict and rendered result, in the order of ``files``, checked on ``jobs`` processes."""
    first_file: dict[str, str] = {}
    for path, scenario_id, checked in _checked(suite, files, render, jobs):
        if scenario_id is not None:
            if scenario_id in first_file:
                duplicate = suite.duplicate(suite.load(path), first_file[scenario_id])
                yield Checked(duplicate.verdict, render(duplicate))
                continue
            first_file[scenario_id] = str(path)
        yield checked


_Done = tuple[Path, "str | None", Checked[T]]
Item = TypeVar("Item")
U = TypeVar("U")
_work: Callable[[Any], object] | None = None  # what a forked worker does with each item


def each(items: Sequence[Item], work: Callable[[Item], U], jobs: int,
         prepare: Callable[[], object] | None = None) -> Iterator[U]:
    """``work(item)`` for every item (a scenario file, a page to make), in the order of ``items``, on ``jobs`` forked processes (one
    below :data:`PARALLEL_FROM` items, or where processes cannot be forked). The workers inherit ``work`` and
    whatever is imported or built before they start, ``prepare()`` last (what each would otherwise build
    again; called from :data:`PARALLEL_FROM` items on, on one process too); only each item and what ``work``
    returns cross between processes, so both must be picklable."""
    global _work
    if len(items) < PARALLEL_FROM:
        yield from map(work, items)
        return
    if prepare is not None:
        prepare()
    import multiprocessing

    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(work, items)
        return
    _work = work  # inherited by the forked workers, not sent to them
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for done in pool.imap(_in_worker, _slices(items, jobs)):
                yield from cast("list[U]", done)
    finally:
        _work = None


def _slices(items: Sequence[Item], jobs: int, smallest: int = 4, largest: int = 512) -> Iterator[Sequence[Item]]:
    """``items`` in consecutive slices, which the workers take one at a time: each a ``2 * jobs``-th of what is
    left (guided self-scheduling), so there are few rounds and the last are small, and the workers end together.
    A round costs the parent's threads about a millisecond of a core; a slice of at most ``largest`` items keeps
    the report streaming."""
    start = 0
    while start < len(items):
        size = max(smallest, min(largest, (len(items) - start) // (2 * jobs)))
        yield items[start : start + size]
        start += size


def _in_worker(items: Sequence[Any]) -> list[object]:
    assert _work is not None
    return [_work(item) for item in items]


def _checked(suite: Suite, files: Sequence[Path], render: Callable[[RunResult], T], jobs: int) -> Iterator[_Done[T]]:
    return each(files, functools.partial(_check_one, suite, render), jobs, prepare=functools.partial(ready, suite))


def ready(suite: Suite) -> None:
    """Build every game, then leave all that is built so far (it lives to the end) out of the garbage collector's
    rounds: each round walks only what the files make, and forked workers do not write to the pages they share."""
    list(suite.games.values())
    gc.freeze()


def _check_one(suite: Suite, render: Callable[[RunResult], T], path: Path) -> _Done[T]:
    item = suite.load(path)
    result = suite.run_one(item)
    return path, item.id if isinstance(item, Scenario) else None, Checked(result.verdict, render(result))
