"""The part of ``rpds`` (persistent data structures) that ``referencing`` and ``jsonschema`` use, in plain Python.

Each collection is immutable and each change returns a new one, as ``rpds``'s do; a change copies the collection (no
shared trie), which costs nothing at the size of a registry of schemas.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class HashTrieMap(Mapping[K, V]):
    __slots__ = ("_items",)

    def __init__(self, value: Mapping[K, V] | Iterable[tuple[K, V]] = (), **kwds: V) -> None:
        items: dict[Any, V] = dict(value)
        items.update(kwds)
        self._items = items

    @classmethod
    def convert(cls, value: Mapping[K, V] | Iterable[tuple[K, V]]) -> HashTrieMap[K, V]:
        return value if isinstance(value, HashTrieMap) else cls(value)

    @classmethod
    def fromkeys(cls, keys: Iterable[K], value: Any = None) -> HashTrieMap[K, Any]:
        return cls((key, value) for key in keys)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"HashTrieMap({self._items!r})"

    def insert(self, key: K, value: V) -> HashTrieMap[K, V]:
        return HashTrieMap({**self._items, key: value})

    def remove(self, key: K) -> HashTrieMap[K, V]:
        if key not in self._items:
            raise KeyError(key)
        return self.discard(key)

    def discard(self, key: K) -> HashTrieMap[K, V]:
        return HashTrieMap({k: v for k, v in self._items.items() if k != key}) if key in self._items else self

    def update(self, *others: Mapping[K, V] | Iterable[tuple[K, V]]) -> HashTrieMap[K, V]:
        items = dict(self._items)
        for other in others:
            items.update(other)
        return HashTrieMap(items)


class HashTrieSet(frozenset[T]):
    __slots__ = ()

    def insert(self, value: T) -> HashTrieSet[T]:
        return HashTrieSet(self | {value})

    def discard(self, value: T) -> HashTrieSet[T]:
        return HashTrieSet(self - {value}) if value in self else self

    def remove(self, value: T) -> HashTrieSet[T]:
        if value not in self:
            raise KeyError(value)
        return self.discard(value)

    def update(self, *others: Iterable[T]) -> HashTrieSet[T]:
        return HashTrieSet(self.union(*others))

    def __repr__(self) -> str:
        return f"HashTrieSet({set(self)!r})"


class List(Iterable[T]):
    """A persistent list; ``push_front`` adds at the front."""

    __slots__ = ("_items",)

    def __init__(self, value: Iterable[T] = (), *more: T) -> None:
        self._items: tuple[T, ...] = (*value, *more)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, List) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"List({list(self._items)!r})"

    @property
    def first(self) -> T:
        if not self._items:
            raise IndexError("empty list")
        return self._items[0]

    @property
    def rest(self) -> List[T]:
        return List(self._items[1:])

    def push_front(self, value: T) -> List[T]:
        return List((value, *self._items))

    def drop_first(self) -> List[T]:
        return self.rest
