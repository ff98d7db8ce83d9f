"""The response stack: cards and effects played in response to each other.

Links are added on top; when every player passes in turn, the stack resolves
last in, first out (who has passed is the core's priority record,
:class:`checker.engine.priority.Priority`, not the stack's). A link may negate
the link below it, which then resolves to nothing. Some games call the stack a
Chain, others call it cut-ins or responses. The stack is immutable: every
operation returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Generic, Iterable, Mapping, TypeVar

from checker.engine.errors import InputError

E = TypeVar("E")


@dataclass(frozen=True)
class Link(Generic[E]):
    """One card or effect on the stack: who played it, what it is, and what it will do."""

    player: str
    card: str
    effect: E
    target: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)  # choices made when it was played (a zone, say)
    source: str | None = None  # the card in play whose effect this is, if not ``card`` itself
    action: int | None = None  # the index of the action that played it, whose ``target`` and ``params`` it carries
    negated: bool = False


#: What resolving one link does: given the link and the stack below it, the stack left afterwards.
Resolver = Callable[[int, Link[E], "ResponseStack[E]"], "ResponseStack[E]"]


@dataclass(frozen=True)
class ResponseStack(Generic[E]):
    links: tuple[Link[E], ...] = ()

    def __len__(self) -> int:
        return len(self.links)

    def __bool__(self) -> bool:
        return bool(self.links)

    @property
    def cards(self) -> list[str]:
        """The cards on the stack, bottom first."""
        return [link.card for link in self.links]

    @property
    def top(self) -> Link[E] | None:
        return self.links[-1] if self.links else None

    @property
    def standing(self) -> list[Link[E]]:
        """The links not negated, bottom first."""
        return [link for link in self.links if not link.negated]

    def push(self, link: Link[E]) -> "ResponseStack[E]":
        """A new link on top."""
        return ResponseStack((*self.links, link))

    def pop(self) -> "ResponseStack[E]":
        """The stack below the top link."""
        if not self.links:
            raise IndexError("the stack is empty")
        return ResponseStack(self.links[:-1])

    def extend(self, links: Iterable[Link[E]]) -> "ResponseStack[E]":
        return ResponseStack((*self.links, *links))

    def negate(self, number: int) -> "ResponseStack[E]":
        """Link ``number`` (1 is the bottom) will resolve to nothing."""
        index = number - 1
        if not 0 <= index < len(self.links):
            raise IndexError(f"the stack has no link {number}")
        negated = replace(self.links[index], negated=True)
        return replace(self, links=(*self.links[:index], negated, *self.links[index + 1:]))

    def resolve(
        self,
        context: Any,
        resolver: Resolver[E],
        *,
        label: str = "Link",
        entity: Callable[[Link[E]], tuple[str, str]] = lambda link: ("card", link.card),
    ) -> "ResponseStack[E]":
        """Resolve every link, last in first out; a negated link is noted and skipped.

        ``resolver(number, link, below)`` applies one link's effect and returns the stack
        below it, possibly changed (a link that negates the one below it, say). ``label``
        is the game's word for a link, ``entity`` what a link is in the trace.
        Returns the empty stack. Bad input found as a link resolves (its target, say) is reported at
        the action that played the link, which wrote it.
        """
        stack: ResponseStack[E] = self
        while stack.links:
            number, link = len(stack.links), stack.links[-1]
            below: ResponseStack[E] = ResponseStack(stack.links[:-1])
            if link.negated:
                context.note(None, f"{label} {number} ({link.card}) was negated: it resolves to nothing",
                             involves=[entity(link)])
                stack = below
                continue
            context.note(None, f"{label} {number} resolves: {link.card}", involves=[entity(link)])
            try:
                stack = resolver(number, link, below)
            except InputError as error:
                if link.action is None or error.action is not None:
                    raise
                raise error.in_action(link.action) from None
        return ResponseStack()
