"""A :class:`checker.commands.diff.Diff` as text for a terminal, Markdown for a pull request, JSON for tools."""

from __future__ import annotations

from typing import Any, Callable
from urllib.parse import quote

from checker.commands.diff import ABSENT, Change, Diff, FileDiff
from checker.commands.report import LABELS
from checker.format.yamlwrite import yaml_inline

AFTER = "the working tree"
#: How many changed facts a Markdown row shows before saying how many more there are.
MARKDOWN_FACTS = 10


def _verdict(file: FileDiff, side: str) -> str:
    observed = getattr(file, side)
    return LABELS.get(observed.verdict, observed.verdict.upper()) if observed else "nothing"


def _plural(number: int, word: str) -> str:
    return f"{word}{'' if number == 1 else 's'}"


def count_phrases(diff: Diff, number: Callable[[int], str] = str) -> list[str]:
    """The counts in words, in a fixed order; ``number`` dresses each number (bold in Markdown)."""
    c = diff.counts()
    return [
        f"{number(c['verdicts_changed'])} {_plural(c['verdicts_changed'], 'verdict')} changed",
        f"{number(c['answers_changed'])} {_plural(c['answers_changed'], 'answer')} changed",
        f"{number(c['facts_changed'])} {_plural(c['facts_changed'], 'fact')} changed in "
        f"{c['files_with_facts_changed']} {_plural(c['files_with_facts_changed'], 'file')}",
        f"{number(c['rulings_newly_cited'])} {_plural(c['rulings_newly_cited'], 'ruling')} newly cited",
        f"{number(c['rulings_no_longer_cited'])} no longer cited",
        f"{number(c['became_invalid'])} {_plural(c['became_invalid'], 'file')} became invalid",
        f"{number(c['became_valid'])} became valid",
        f"{number(c['added'])} added",
        f"{number(c['removed'])} removed",
    ]


def _base(diff: Diff, short: Callable[[str], str] = str) -> str:
    return f"{diff.base.label} ({short(diff.base.short)})"


def _nothing(diff: Diff) -> str:
    return (
        f"Nothing changed between {_base(diff)} and {AFTER}: "
        f"{diff.compared} {_plural(diff.compared, 'file')} compared, the same verdicts, answers, facts, "
        "refusals, citations and validity."
    )


def _value(value: Any) -> str:
    """A fact's value as a scenario writes it (YAML), or "nothing" for a side that does not have it."""
    return "nothing" if value is ABSENT else yaml_inline(value)


def _fact_line(change: Change) -> str:
    return f"{change.name}: {_value(change.before)} → {_value(change.after)}"


def _refusal_line(change: Change) -> str:
    return f"{change.name} refused: {_value(change.before)} → {_value(change.after)}"


def _verdict_lines(file: FileDiff) -> list[str]:
    if file.before is None:
        return [f"new file: {_verdict(file, 'after')}"]
    if file.after is None:
        return [f"removed (was {_verdict(file, 'before')})"]
    if file.verdict_changed:
        return [f"verdict: {_verdict(file, 'before')} → {_verdict(file, 'after')}"]
    return ["answer changed"] if file.answer_changed else []


def _notes(file: FileDiff) -> list[str]:
    """What a reader needs beside the verdict: where the file was, why it is invalid or crashed."""
    notes = [f"moved from {file.moved_from}"] if file.moved_from else []
    if file.before is None or file.verdict_changed:
        sides = (("before", file.before), ("now", file.after))
        notes += [f"{side}: {observed.problem}" for side, observed in sides if observed and observed.problem]
    return notes


def _citation_lines(file: FileDiff) -> list[str]:
    lines = [f"newly cited: {', '.join(file.newly_cited)}"] if file.newly_cited else []
    return lines + ([f"no longer cited: {', '.join(file.no_longer_cited)}"] if file.no_longer_cited else [])


def text(diff: Diff) -> str:
    if not diff.files:
        return _nothing(diff)
    lines = [f"checker diff: {_base(diff)} → {AFTER}, {diff.compared} {_plural(diff.compared, 'file')} compared"]
    for game, files in diff.by_game().items():
        lines.append(game)
        for file in files:
            lines.append(f"  {file.label}  ({file.current.path})")
            details = _verdict_lines(file) + _notes(file) + [_fact_line(c) for c in file.facts]
            details += [_refusal_line(c) for c in file.refusals] + _citation_lines(file)
            lines += ["    " + line for line in details]
    lines.append(", ".join(count_phrases(diff)))
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _markdown_verdict(file: FileDiff) -> str:
    if file.before is None:
        return f"new: {_verdict(file, 'after')}"
    if file.after is None:
        return f"removed (was {_verdict(file, 'before')})"
    if file.verdict_changed:
        return f"{_verdict(file, 'before')} → **{_verdict(file, 'after')}**"
    return _verdict(file, "after") + (", **answer changed**" if file.answer_changed else "")


def _markdown_changes(file: FileDiff) -> str:
    shown = [f"{_code(c.name)}: {_code(_value(c.before))} → {_code(_value(c.after))}" for c in file.facts]
    shown += [f"{c.name} refused: {_code(_value(c.before))} → {_code(_value(c.after))}" for c in file.refusals]
    if len(shown) > MARKDOWN_FACTS:
        shown = shown[:MARKDOWN_FACTS] + [f"… and {len(shown) - MARKDOWN_FACTS} more (`checker diff` lists them all)"]
    return "<br>".join(_cell(line) for line in _notes(file) + shown)


def _markdown_rulings(file: FileDiff) -> str:
    parts = [f"newly cited: {', '.join(map(_code, file.newly_cited))}"] if file.newly_cited else []
    parts += [f"no longer cited: {', '.join(map(_code, file.no_longer_cited))}"] if file.no_longer_cited else []
    return "<br>".join(parts)


def _markdown_file(file: FileDiff, links: str | None) -> str:
    """The file's id, linked to it under ``links`` (the address files are read at, such as a pull request's
    head on the forge); without one, its path in code, since a relative link breaks in a comment."""
    if links is None:
        return f"{_cell(file.label)} ({_code(file.current.path)})"
    return f"[{_cell(file.label)}]({links.rstrip('/')}/{quote(file.current.path)})"


def markdown(diff: Diff, links: str | None = None) -> str:
    """The summary for a pull-request comment; ``links`` is the address the scenario files are read at."""
    lines = [f"### checker diff: {_base(diff, _code)} → {AFTER}", ""]
    if not diff.files:
        return "\n".join(lines + [_nothing(diff)])
    lines += [" · ".join(count_phrases(diff, lambda n: f"**{n}**")) + f" ({diff.compared} files compared)", ""]
    for game, files in diff.by_game().items():
        lines += [f"#### {game}", "", "| scenario | verdict | facts | rulings |", "| --- | --- | --- | --- |"]
        for file in files:
            lines.append(f"| {_markdown_file(file, links)} | {_markdown_verdict(file)} | {_markdown_changes(file)} | {_markdown_rulings(file)} |")
        lines.append("")
    return "\n".join(lines).rstrip()


def _change_json(change: Change, name_key: str) -> dict[str, Any]:
    data: dict[str, Any] = {name_key: change.name}
    data.update({side: value for side, value in (("before", change.before), ("after", change.after)) if value is not ABSENT})
    return data


def _file_json(file: FileDiff) -> dict[str, Any]:
    return {
        "id": file.label,
        "path": file.current.path,
        "moved_from": file.moved_from,
        "verdict": {"before": file.before.verdict if file.before else None, "after": file.after.verdict if file.after else None},
        "verdict_changed": file.verdict_changed,
        "answer_changed": file.answer_changed,
        "problem": {"before": file.before.problem if file.before else None, "after": file.after.problem if file.after else None},
        "facts": [_change_json(change, "fact") for change in file.facts],
        "refusals": [_change_json(change, "action") for change in file.refusals],
        "newly_cited": list(file.newly_cited),
        "no_longer_cited": list(file.no_longer_cited),
    }


def as_json(diff: Diff) -> dict[str, Any]:
    return {
        "base": {"revision": diff.base.label, "commit": diff.base.commit},
        "compared": diff.compared,
        "changed": diff.changed,
        "counts": diff.counts(),
        "games": {game: [_file_json(file) for file in files] for game, files in diff.by_game().items()},
    }
