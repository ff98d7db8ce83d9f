"""A game's vocabulary, registered once: its actions, its effect kinds and its reject reasons.

Each action and effect kind is registered with the handler that carries it out and the
JSON Schema of its parameters; each reject reason with what it means. The scenario
schema's enums and branches, the dispatch, :meth:`checker.engine.game.Context.reject`'s check
and the docs are all derived from this one registry::

    vocabulary = Vocabulary()
    vocabulary.reasons(not_your_turn="It is the other player's turn.")

    @vocabulary.action("end-turn", "End the turn.", params={"player": ref("player")}, required=["player"])
    def end_turn(context, state, action): ...

    @vocabulary.effect("change-atk", "The target's ATK changes by ``amount``.", params={"amount": INTEGER})
    def change_atk(context, state, link): ...

``params`` use the game's schema definitions with ``ref("name")``. An effect kind may instead take
the parameters of a described type (:mod:`checker.engine.described`): ``params=takes(Effect,
"amount")`` (the type's parameters, with its per-kind ``amount``), or a dataclass deriving from
it that adds the kind's own parameters, into which a card's effect of that kind is then parsed::

    @dataclass(frozen=True)
    class Drain(Effect):
        pages: int = spec(1, "How many pages the opponent turns.", minimum=1)

    @vocabulary.effect("drain", "The opponent turns 'pages' pages.", params=takes(Drain))
    def drain(context, state, owner, source, effect: Drain, action): ...
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterable, Mapping, TypeVar

from checker.engine.described import Takes, register_kind

H = TypeVar("H", bound=Callable[..., Any])

#: Reasons the core itself may give, for every game.
CORE_REASONS: Mapping[str, str] = {
    "no-window": "Nothing may be played while the game stands at this step.",
}


def ref(name: str) -> dict[str, str]:
    """A parameter of a type the game's ``schema.yaml`` defines."""
    return {"$ref": f"#/{name}"}


@dataclass(frozen=True)
class Entry(Generic[H]):
    """One word of the vocabulary: its handler and the schema of its parameters."""

    name: str
    description: str
    handler: H
    given: Mapping[str, Any] | Takes = field(default_factory=dict)  # the parameters as registered
    needed: tuple[str, ...] = ()  # the parameters registered as required

    @property
    def type(self) -> type | None:
        """The described type a card's effect of this kind is parsed into, if any."""
        return self.given.type if isinstance(self.given, Takes) else None

    @functools.cached_property
    def required(self) -> tuple[str, ...]:
        typed = self.given.required() if isinstance(self.given, Takes) else ()
        return tuple(dict.fromkeys([*typed, *self.needed]))

    @functools.cached_property
    def params(self) -> Mapping[str, Any]:
        """The JSON Schema of each parameter (a described type's, worked out when the schema is built: a run needs none)."""
        if not isinstance(self.given, Takes):
            return dict(self.given)
        found = self.given.properties()
        undeclared = [key for key in self.required if key not in found]
        if undeclared:
            raise ValueError(f"{self.name!r} requires parameters its type does not give it: {undeclared}")
        # a parameter this kind requires has no default, whatever the type gives others
        return {key: ({k: v for k, v in node.items() if k != "default"} if key in self.required else node) for key, node in found.items()}


class Registry(Generic[H]):
    """Entries of one kind (the actions, or one family of effects), in registration order."""

    def __init__(self, noun: str) -> None:
        self.noun = noun
        self.entries: dict[str, Entry[H]] = {}

    def register(
        self, name: str, description: str, *, params: Mapping[str, Any] | Takes | None = None, required: Iterable[str] = ()
    ) -> Callable[[H], H]:
        def decorate(handler: H) -> H:
            if name in self.entries:
                raise ValueError(f"{self.noun} {name!r} is registered twice")
            needed = tuple(required)
            if isinstance(params, Takes):
                register_kind(name, params)  # its parameters are checked against the type when the schema is built
            else:
                undeclared = [key for key in needed if key not in (params or {})]
                if undeclared:
                    raise ValueError(f"{self.noun} {name!r} requires undeclared parameters {undeclared}")
            self.entries[name] = Entry(name, description.strip(), handler, params if isinstance(params, Takes) else dict(params or {}), needed)
            return handler

        return decorate

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def __getitem__(self, name: str) -> Entry[H]:
        return self.entries[name]

    def __iter__(self) -> Any:
        return iter(self.entries.values())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.entries)


class Vocabulary:
    """Everything a scenario of one game may say, and who carries it out."""

    def __init__(self) -> None:
        self.actions: Registry[Callable[..., Any]] = Registry("action")
        self.effects: dict[str, Registry[Callable[..., Any]]] = {}
        self.reject_reasons: dict[str, str] = dict(CORE_REASONS)

    def action(
        self, name: str, description: str, *, params: Mapping[str, Any] | None = None, required: Iterable[str] = ()
    ) -> Callable[[H], H]:
        """Decorator: the handler ``(context, state, action)`` of one action of the scenario format."""
        return self.actions.register(name, description, params=params, required=required)  # type: ignore[return-value]

    def effect(
        self,
        kind: str,
        description: str,
        *,
        family: str = "effect",
        params: Mapping[str, Any] | Takes | None = None,
        required: Iterable[str] = (),
    ) -> Callable[[H], H]:
        """Decorator: one kind of effect a card may have; ``family`` names the schema definition it belongs to."""
        registry = self.effects.setdefault(family, Registry(f"{family} kind"))
        return registry.register(kind, description, params=params, required=required)  # type: ignore[return-value]

    def reasons(self, **described: str) -> None:
        """Declare reject reasons: ``not_your_turn="..."`` declares ``not-your-turn``."""
        for key, description in described.items():
            name = key.replace("_", "-")
            if name in self.reject_reasons:
                raise ValueError(f"reject reason {name!r} is declared twice")
            self.reject_reasons[name] = description

    def effect_handler(self, family: str, kind: str) -> Callable[..., Any]:
        return self.effects[family][kind].handler
