"""Who may act: the one record of priority, kept by the core on a game's state.

A step of ``procedure.yaml`` may declare a priority rule (:class:`checker.engine.procedure.PriorityRule`):
who acts first, whether play alternates, what a pass does and when passes end the step. The core
keeps, on the state's ``priority`` attribute, one :class:`Priority` record of where that rule stands:
which step it belongs to, who holds priority and who has passed since the last action. The walk
opens a new record when play comes to a step with a rule (:class:`checker.engine.procedure.Walker`),
and the context records each action and pass (:meth:`checker.engine.game.Context.take_turn`,
:meth:`checker.engine.game.Context.pass_turn`). A game never changes the record itself.

The record is immutable: every change gives a new one, which copies of the state share.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Priority:
    """Where the priority rule of the step the game stands at is: who acts next, who has passed."""

    players: tuple[str, ...]  # every player, in the order play goes round
    step: str | None = None  # the step whose rule this is (``None``: no step with a rule is under way)
    holder: str | None = None  # who acts next (``None``: either player may, or no one once ``ended``)
    passed: tuple[str, ...] = ()  # who has passed since the last action, in the order they passed
    ended: bool = False  # passes have ended the step

    def __post_init__(self) -> None:
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise ValueError(f"priority goes round two players or more, each once: {self.players!r}")

    def after(self, player: str) -> str:
        """The player who comes after ``player`` in the order of play."""
        index = self.players.index(player)
        return self.players[(index + 1) % len(self.players)]

    def opened(self, step: str, holder: str | None) -> "Priority":
        """A new record for ``step``: ``holder`` acts first, no one has passed."""
        if holder is not None and holder not in self.players:
            raise ValueError(f"{holder!r} does not play this game ({', '.join(self.players)})")
        return Priority(self.players, step, holder)

    def closed(self) -> "Priority":
        """No step with a priority rule is under way."""
        return Priority(self.players)

    def acted(self, player: str, *, alternates: bool) -> "Priority":
        """``player`` performed an action: the passes are forgotten; alternating, the next player acts."""
        return replace(self, holder=self.after(player) if alternates else self.holder, passed=())

    def passing(self, player: str, *, gives: bool) -> "Priority":
        """``player`` passed: recorded; when the pass ``gives`` priority, the next player acts."""
        passed = self.passed if player in self.passed else (*self.passed, player)
        return replace(self, holder=self.after(player) if gives else self.holder, passed=passed)

    @property
    def all_passed(self) -> bool:
        """Every player has passed since the last action."""
        return set(self.passed) == set(self.players)

    def given(self, player: str) -> "Priority":
        """``player`` acts next (a rule of the game decided it)."""
        if player not in self.players:
            raise ValueError(f"{player!r} does not play this game ({', '.join(self.players)})")
        return replace(self, holder=player)

    def ending(self) -> "Priority":
        """Passes ended the step: no one holds priority any more."""
        return replace(self, holder=None, ended=True)
