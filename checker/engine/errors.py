"""The two ways a scenario can go wrong, kept apart on purpose.

:class:`InputError` means the *file* is wrong (it is not a scenario we can
run); :class:`Rejection` means the *game* refuses an action, which a scenario
may expect and assert on.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import yaml

#: A location inside a YAML document: mapping keys and sequence indices.
DataPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


class InputError(Exception):
    """A scenario file that cannot be run as written.

    ``path`` points into the document so the loader can turn it into a line and
    column; ``expected`` says what would have been accepted. Raised while an
    action is played, ``path`` is inside that action, unless ``action`` names
    the earlier action that wrote the bad value (a target read only when the
    effect it was chosen for resolves, say).
    """

    def __init__(
        self,
        message: str,
        *,
        path: DataPath = (),
        expected: str | None = None,
        position: Position | None = None,
        on_key: bool = False,
        also: Iterable["InputError"] = (),
        action: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.expected = expected
        self.position = position
        self.on_key = on_key
        self.also = tuple(also)  # further problems of the same file, independent of this one
        self.action = action  # the index of the action ``path`` is inside, if not the one being played

    def located(self, position: Position | None) -> "InputError":
        return InputError(
            self.message,
            path=self.path,
            expected=self.expected,
            position=position,
            on_key=self.on_key,
            also=self.also,
            action=self.action,
        )

    def in_action(self, index: int) -> "InputError":
        """This problem, ``path`` being inside action ``index`` (the one that wrote the value), not the one played."""
        return InputError(self.message, path=self.path, expected=self.expected, position=self.position,
                          on_key=self.on_key, also=self.also, action=index)

    def with_others(self, others: Iterable["InputError"]) -> "InputError":
        """This problem, reported first, and ``others`` after it."""
        return InputError(
            self.message, path=self.path, expected=self.expected, position=self.position, on_key=self.on_key,
            also=others, action=self.action,
        )

    @property
    def problems(self) -> tuple["InputError", ...]:
        """Every problem, this one first."""
        return (self, *self.also)

    def render(self, file: str) -> str:
        where = file
        if self.position is not None:
            where = f"{file}:{self.position.line}:{self.position.column}"
        text = f"{where}: error: {self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text


@dataclass
class Rejection(Exception):
    """The rules refuse an action; the state is left as it was.

    ``reason`` is a stable, machine-readable code (``env-forbids-final-damage``);
    ``message`` explains it to a player; ``ruling`` names the ruling applied.
    """

    reason: str
    message: str
    ruling: str | None = None
    values: dict[str, Any] = field(default_factory=dict)
    #: The state play stands at after the refusal: the state before the action, or what the
    #: game had already finished before it refused (set by :meth:`checker.engine.game.Game.apply`).
    standing: Any = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"


def show(value: Any, limit: int = 80) -> str:
    """A value as a reader wrote it, in YAML's one-line form, cut to ``limit`` characters with its size."""
    text = yaml.safe_dump(value, default_flow_style=True, width=float("inf"), allow_unicode=True).strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    text = text.removesuffix("...").strip()
    if len(text) <= limit:
        return text
    size = f"{len(value)} items" if isinstance(value, (list, dict)) else f"{len(text)} characters"
    return f"{text[:limit]}… ({size})"


def nearest(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'X'?)" for the choice closest to a misspelt ``word``, if one is close."""
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def one_of(choices: Iterable[Any], limit: int = 12) -> str:
    """"one of 'a', 'b' and N more": what an error message says was expected."""
    items = [str(choice) for choice in choices]
    shown = ", ".join(f"'{item}'" for item in items[:limit])
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return f"one of {shown}{more}"


#: What each JSON type is called in a message.
TYPE_WORDS: Mapping[str, str] = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def described_value(value: Any) -> str:
    """What a value a reader wrote is, in a message: "a mapping", "a list [1, 2]", "text 'x'", "the number 3"."""
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return f"a list {show(value)}"
    if isinstance(value, bool) or value is None:
        return show(value)
    if isinstance(value, str):
        return f"text {quoted(value)}"
    return f"the number {show(value)}"


def quoted(value: Any) -> str:
    """Text in quotes, as the choices it is compared with are shown (long text cut, as :func:`show` cuts it);
    anything else as YAML."""
    return f"'{value}'" if isinstance(value, str) and len(value) <= 80 else show(value)
