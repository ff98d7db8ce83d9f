"""The deep copy the core makes of a game's state, to play on or to keep: ``copy.deepcopy``'s result, sooner.

Plain containers and dataclass instances (the stuff game states are made of) are copied here
directly, each dataclass by a copier written out for its fields; anything else, and any class with
its own copying protocol, goes to ``copy.deepcopy`` with the same memo, so shared references stay
shared. Not copied at all: what is :class:`Shared` (a :class:`checker.engine.game.Book`, a
:class:`Snapshot`), and what cannot change (a tuple, or a frozen dataclass, that holds only what
cannot change).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Callable, Generic, Iterable, TypeVar

T = TypeVar("T")
Memo = dict[int, Any]

_ATOMIC: frozenset[type] = frozenset(
    {type(None), int, float, bool, complex, str, bytes, range, type, type(Ellipsis), type(NotImplemented)}
)
_PROTOCOL = ("__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__")


def deep_copy(value: T) -> T:
    memo: Memo = {}
    copied: T = _copy(value, memo)
    return copied


class Shared:
    """What never changes once made: a copy of a state that holds it holds the same object, as ``copy.deepcopy`` gives too."""

    __slots__ = ()

    def __deepcopy__(self, memo: Memo) -> "Shared":
        return self


class Snapshot(Shared, Generic[T]):
    """A state kept as it stood at some moment (what negating an effect returns to), never changed.

    Copying a state that holds a snapshot shares the snapshot; :meth:`restore` gives a copy of its own to work on.
    """

    __slots__ = ("_state",)

    def __init__(self, state: T) -> None:
        self._state = deep_copy(state)

    def restore(self) -> T:
        return deep_copy(self._state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snapshot) and bool(self._state == other._state)

    def __repr__(self) -> str:
        return f"Snapshot({self._state!r})"


def _copy(value: Any, memo: Memo) -> Any:
    kind = type(value)
    if kind in _ATOMIC:
        return value
    done = memo.get(id(value), memo)
    if done is not memo:
        return done
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier_for(kind)
    return copier(value, memo)


def _all_atomic(items: Iterable[Any]) -> bool:
    """Whether every item is of an atomic type: a test made in C, without a Python loop."""
    return _ATOMIC.issuperset(map(type, items))


def _copy_dict(value: dict[Any, Any], memo: Memo) -> dict[Any, Any]:
    if not value or _all_atomic(value.values()) and _all_atomic(value):
        result = value.copy()
        memo[id(value)] = result
        return result
    result = {}
    memo[id(value)] = result
    if _all_atomic(value):  # names as keys: most dicts of a state
        result.update({key: item if type(item) in _ATOMIC else _copy(item, memo) for key, item in value.items()})
    else:
        for key, item in value.items():
            result[key if type(key) in _ATOMIC else _copy(key, memo)] = item if type(item) in _ATOMIC else _copy(item, memo)
    return result


def _copy_list(value: list[Any], memo: Memo) -> list[Any]:
    if not value or _all_atomic(value):  # most lists of a state are empty or hold names and numbers
        result = value.copy()
        memo[id(value)] = result
        return result
    result = []
    memo[id(value)] = result
    result.extend([item if type(item) in _ATOMIC else _copy(item, memo) for item in value])
    return result


def _copy_tuple(value: tuple[Any, ...], memo: Memo) -> tuple[Any, ...]:
    if not value or _all_atomic(value):
        return value
    items = tuple(_copy(item, memo) for item in value)
    if id(value) in memo:  # the tuple was reached again through its own items
        return memo[id(value)]  # type: ignore[no-any-return]
    result = value if all(a is b for a, b in zip(items, value)) else items
    memo[id(value)] = result
    return result


def _copy_frozenset(value: frozenset[Any], memo: Memo) -> frozenset[Any]:
    if not value or _all_atomic(value):
        return value
    items = [_copy(item, memo) for item in value]
    result = value if all(a is b for a, b in zip(items, value)) else frozenset(items)
    memo[id(value)] = result
    return result


def _copy_set(value: set[Any], memo: Memo) -> set[Any]:
    result = value.copy() if not value or _all_atomic(value) else {_copy(item, memo) for item in value}
    memo[id(value)] = result
    return result


def _copy_object(value: Any, memo: Memo) -> Any:
    result = object.__new__(type(value))
    memo[id(value)] = result
    result.__dict__.update(_copy_dict(value.__dict__, memo))
    return result


def _dataclass_copier(kind: type) -> Callable[[Any, Memo], Any]:
    """A copier written out for ``kind``'s fields, which copies an instance without looping over its ``__dict__``.

    An instance holding other attributes than its fields, or lacking one, goes to :func:`_copy_object`.
    A frozen instance whose fields all copy to themselves is immutable through and through, so the copy
    is the instance itself, as with a tuple.
    """
    names = [f.name for f in dataclasses.fields(kind)]
    frozen = kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    lines = [
        "def copy(value, memo):",
        "    fields = value.__dict__",
        "    try:",
        *(f"        given_{index} = fields[{name!r}]" for index, name in enumerate(names)),
        "    except KeyError:",
        "        return _copy_object(value, memo)",
        f"    if len(fields) != {len(names)}:",
        "        return _copy_object(value, memo)",
        "    result = _new(cls)",
        "    memo[id(value)] = result",
        *(f"    made_{index} = given_{index} if type(given_{index}) in _ATOMIC else _copy(given_{index}, memo)"
          for index in range(len(names))),
    ]
    made = "{" + ", ".join(f"{name!r}: made_{index}" for index, name in enumerate(names)) + "}"
    if frozen:
        unchanged = " and ".join(f"made_{index} is given_{index}" for index in range(len(names))) or "True"
        lines += [f"    if {unchanged}:", "        memo[id(value)] = value", "        return value",
                  f"    _set(result, '__dict__', {made})"]
    else:
        lines.append(f"    result.__dict__ = {made}")
    lines.append("    return result")
    namespace = {"cls": kind, "_new": object.__new__, "_set": object.__setattr__, "_ATOMIC": _ATOMIC, "_copy": _copy,
                 "_copy_object": _copy_object}
    exec("\n".join(lines), namespace)  # noqa: S102 - source made above from the class's own field names
    copier: Callable[[Any, Memo], Any] = namespace["copy"]  # type: ignore[assignment]  # made by exec above
    return copier


def _deepcopy(value: Any, memo: Memo) -> Any:
    return copy.deepcopy(value, memo)


def _shared(value: Any, memo: Memo) -> Any:
    return value


def _copier_for(kind: type) -> Callable[[Any, Memo], Any]:
    """How ``copy.deepcopy`` copies a ``kind``, done without its general machinery where that is safe."""
    plain: dict[type, Callable[[Any, Memo], Any]] = {dict: _copy_dict, list: _copy_list, tuple: _copy_tuple, set: _copy_set, frozenset: _copy_frozenset}
    if kind in plain:
        return plain[kind]
    if issubclass(kind, Shared) and kind.__deepcopy__ is Shared.__deepcopy__:
        return _shared
    default_protocol = all(getattr(kind, name, None) is getattr(object, name, None) for name in _PROTOCOL)
    has_dict_only = not any(vars(base).get("__slots__") for base in kind.__mro__)
    if dataclasses.is_dataclass(kind) and default_protocol and has_dict_only and kind.__new__ is object.__new__:
        return _dataclass_copier(kind)
    return _deepcopy


_COPIERS: dict[type, Callable[[Any, Memo], Any]] = {}
