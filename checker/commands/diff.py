"""What changed between two checkers' views of the same scenario files (``checker diff``).

Files are matched by scenario id, and by path when a file has no id on one side
(it did not load) or its id changed. Facts are compared leaf by leaf, lists of
mappings item by item, whether or not an expectation covers them; a file that
is invalid or crashed on either side has no complete outcome, so only its
verdict and its problem are compared. Only verdicts and the answers of
questions (outcome facts and refusals) count as a change for the exit code;
files added or removed are listed without counting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker.run.compare import flatten
from checker.commands.gitrev import Revision
from checker.commands.snapshot import Observed

#: The game of a file that loaded on neither side.
UNKNOWN_GAME = "(files that did not load)"


class _Absent:
    def __repr__(self) -> str:
        return "nothing"


#: A fact or refusal one side does not have.
ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Change:
    """One fact or refusal, before and after; ``ABSENT`` where a side does not have it."""

    name: str
    before: Any
    after: Any


@dataclass(frozen=True)
class FileDiff:
    before: Observed | None  # None: the file is new
    after: Observed | None  # None: the file is gone
    facts: tuple[Change, ...] = ()
    refusals: tuple[Change, ...] = ()  # by action ("action 2", "the initial state")
    newly_cited: tuple[str, ...] = ()
    no_longer_cited: tuple[str, ...] = ()

    @property
    def current(self) -> Observed:
        side = self.after or self.before
        assert side is not None
        return side

    @property
    def game(self) -> str:
        return next((side.game for side in (self.after, self.before) if side and side.game), UNKNOWN_GAME)

    @property
    def label(self) -> str:
        """The scenario id, or the file name of a file without one."""
        return next((side.id for side in (self.after, self.before) if side and side.id), self.current.path)

    @property
    def moved_from(self) -> str | None:
        if self.before and self.after and self.before.path != self.after.path:
            return self.before.path
        return None

    @property
    def verdict_changed(self) -> bool:
        return bool(self.before and self.after and self.before.verdict != self.after.verdict)

    @property
    def answer_changed(self) -> bool:
        both_questions = self.before and self.after and self.before.verdict == self.after.verdict == "question"
        return bool(both_questions and (self.facts or self.refusals))

    @property
    def became_invalid(self) -> bool:
        return self.verdict_changed and self.after is not None and self.after.verdict == "invalid"

    @property
    def became_valid(self) -> bool:
        return self.verdict_changed and self.before is not None and self.before.verdict == "invalid"

    @property
    def significant(self) -> bool:
        """A change that fails ``checker diff``: a verdict or a question's answer."""
        return self.verdict_changed or self.answer_changed

    @property
    def anything(self) -> bool:
        return bool(
            self.before is None or self.after is None or self.verdict_changed or self.facts or self.refusals
            or self.newly_cited or self.no_longer_cited or self.moved_from
        )


@dataclass(frozen=True)
class Diff:
    base: Revision
    compared: int  # files found on both sides
    files: tuple[FileDiff, ...]  # those where anything changed, in path order

    @property
    def changed(self) -> bool:
        return any(file.significant for file in self.files)

    def by_game(self) -> dict[str, list[FileDiff]]:
        games: dict[str, list[FileDiff]] = {}
        for file in self.files:
            games.setdefault(file.game, []).append(file)
        return dict(sorted(games.items()))

    def counts(self) -> dict[str, int]:
        return {
            "verdicts_changed": sum(file.verdict_changed for file in self.files),
            "answers_changed": sum(file.answer_changed for file in self.files),
            "facts_changed": sum(len(file.facts) + len(file.refusals) for file in self.files),
            "files_with_facts_changed": sum(bool(file.facts or file.refusals) for file in self.files),
            "rulings_newly_cited": len({r for file in self.files for r in file.newly_cited}),
            "rulings_no_longer_cited": len({r for file in self.files for r in file.no_longer_cited}),
            "became_invalid": sum(file.became_invalid for file in self.files),
            "became_valid": sum(file.became_valid for file in self.files),
            "added": sum(file.before is None for file in self.files),
            "removed": sum(file.after is None for file in self.files),
        }


def diff(base: Revision, before: Iterable[Observed], after: Iterable[Observed]) -> Diff:
    pairs = _pairs(list(before), list(after))
    files = [compare_file(old, new) for old, new in pairs]
    changed = sorted((file for file in files if file.anything), key=lambda file: file.current.path)
    return Diff(base, sum(1 for old, new in pairs if old and new), tuple(changed))


def _pairs(before: list[Observed], after: list[Observed]) -> list[tuple[Observed | None, Observed | None]]:
    """Each file of ``after`` with its match in ``before`` (by id, then by path), then the files only ``before`` has."""
    unmatched = dict(enumerate(before))
    by_id = {old.id: index for index, old in unmatched.items() if old.id}
    matches: list[int | None] = [by_id.get(new.id) if new.id else None for new in after]
    for index in matches:
        if index is not None:
            del unmatched[index]
    by_path = {old.path: index for index, old in unmatched.items()}
    for position, new in enumerate(after):
        index = matches[position]
        if index is None and new.path in by_path:
            index = matches[position] = by_path.pop(new.path)
            del unmatched[index]
    pairs: list[tuple[Observed | None, Observed | None]] = [
        (None if index is None else before[index], new) for index, new in zip(matches, after, strict=True)
    ]
    return pairs + [(old, None) for old in unmatched.values()]


def compare_file(before: Observed | None, after: Observed | None) -> FileDiff:
    if before is None or after is None or not (before.played and after.played):
        return FileDiff(before, after)
    old_cited, new_cited = set(before.cited), set(after.cited)
    return FileDiff(
        before,
        after,
        facts=_changes(flatten(before.outcome, into_lists=True), flatten(after.outcome, into_lists=True)),
        refusals=_changes(_by_action(before.refusals), _by_action(after.refusals)),
        newly_cited=tuple(r for r in after.cited if r not in old_cited),
        no_longer_cited=tuple(r for r in before.cited if r not in new_cited),
    )


def _by_action(refusals: Mapping[str, str]) -> dict[str, str]:
    return {("the initial state" if number == "0" else f"action {number}"): reason for number, reason in refusals.items()}


def _changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[Change, ...]:
    names = dict.fromkeys([*before, *after])
    changes = (Change(name, before.get(name, ABSENT), after.get(name, ABSENT)) for name in names)
    # repr tells apart what == does not: True and 1, 1 and 1.0.
    return tuple(change for change in changes if repr(change.before) != repr(change.after) and not _no_change(change))


def _no_change(change: Change) -> bool:
    """An empty mapping or list on one side where the other has nothing: the same facts, written differently."""
    sides = (change.before, change.after)
    return any(side is ABSENT for side in sides) and any(side in ({}, []) for side in sides if side is not ABSENT)
