"""Types described once: a dataclass whose fields say what scenario data gives them and what is observed of them.

A game writes each of its data types (a state, a card, an effect) once, as a dataclass whose
scenario keys are fields made with :func:`spec` (its default, its description, its JSON Schema
keywords) and whose observed facts are fields marked ``fact`` (or made with :func:`fact`)::

    @described("player-state", facts="player-facts")
    @dataclass
    class Player:
        life: int = spec(START_LIFE, "Life points.", minimum=0, fact=True)
        hand: list[str] = spec([], "The cards in hand.", items=ref("card-name"), fact=True)
        drawn: int = 0  # the rules' own bookkeeping: neither given by a scenario nor observed

Everything else follows from that one description, so none of it can drift from the others:

- :func:`definitions`: the JSON Schema definitions of the game's ``schema.yaml`` for the type
  (``player-state``: its keys, their types, limits, defaults and descriptions) and for its facts
  (``player-facts``: the part of ``outcome`` it gives);
- :func:`parse`: an instance from scenario data, every default applied, every key converted to
  the field's type (a list to a tuple, a mapping to the described type it holds), and a located
  :class:`~checker.engine.errors.InputError` for a key, type or value the description refuses;
- :func:`facts`: what ``observe`` reports of an instance, as plain data.

A field's Python type gives its JSON type: ``int``, ``str``, ``bool``, ``float``; ``tuple[X, ...]``,
``list[X]`` and ``frozenset[X]`` an array; ``dict[str, X]`` a mapping (with ``keys=`` its fixed
keys); another described type a reference to its definition; ``X | None`` a key that may be left
out (a fact that may be null). A field made without :func:`spec` or :func:`fact` is the rules'
own: scenario data never gives it and observing never reports it.

A described type with ``tag=`` is the base of a tagged union (a card's effects, ``{kind: ...}``):
its definition is the vocabulary's (one branch per kind, :mod:`checker.engine.vocabulary`), and
a kind registered with a subclass of its own (:func:`takes`) parses into that subclass.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import sys
import types
import typing
from dataclasses import MISSING
from typing import Any, Callable, Iterable, Mapping, NamedTuple, TypeVar

from checker.engine.errors import TYPE_WORDS, DataPath, InputError, described_value, nearest, one_of, quoted

T = TypeVar("T")

JSON_TYPES: Mapping[type, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}
#: The metadata key of a described field.
SPEC = "checker.described"


@dataclasses.dataclass(frozen=True)
class Spec:
    """What a field says beyond its Python type and default."""

    description: str | None = None
    key: str | None = None  # the scenario's key, when it is not the field's name
    schema: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # JSON Schema keywords
    given: bool = True  # a scenario gives it
    fact: bool = False  # observing reports it
    observed: Callable[[Any], Any] | None = None  # what is reported of the value, when not the value itself
    fact_schema: Mapping[str, Any] | None = None  # the schema of what ``observed`` reports
    per_kind: bool = False  # a parameter only the effect kinds that name it take (see :func:`takes`)
    required: bool | None = None  # None: required when the field has no default
    keys: tuple[str, ...] = ()  # a mapping's fixed keys
    keys_required: bool = True  # each of them required of scenario data


def spec(
    default: Any = MISSING,
    description: str | None = None,
    *,
    key: str | None = None,
    ref: str | None = None,
    fact: bool = False,
    per_kind: bool = False,
    required: bool | None = None,
    keys: Iterable[str] = (),
    keys_required: bool = True,
    **schema: Any,
) -> Any:
    """A field that scenario data gives (``fact=True``: that observing also reports).

    ``default``: the value when the key is left out (none: the key is required); a list, dict or
    set default is copied for each instance, a type as the default is called for each.
    ``key``: the scenario's key, when it is not the field's name. ``required=False``: a key the
    data may leave out though the field has no default (the caller gives it). ``keys``: a
    mapping's fixed keys, each required unless ``keys_required=False``. ``per_kind``: a tagged
    union's parameter that only the kinds naming it take (:func:`takes`). ``ref``: the field is of a type the game's
    ``schema.yaml`` defines (``ref="card-name"``). Other keywords are JSON Schema keywords
    (``minimum=0``, ``enum=[...]``, ``items={...}``, ``minItems=2``), written as the schema writes them.
    """
    keywords = {**({"$ref": f"#/{ref}"} if ref else {}), **schema}
    meta = Spec(description, key, keywords, True, fact, None, None, per_kind, required, tuple(keys), keys_required)
    return _field(default, meta)


def fact(
    default: Any = MISSING,
    description: str | None = None,
    *,
    key: str | None = None,
    ref: str | None = None,
    keys: Iterable[str] = (),
    observed: Callable[[Any], Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    **keywords: Any,
) -> Any:
    """A field that observing reports and scenario data never gives (the rules set it, or ``observe`` computes it).

    ``observed``: what is reported of the value (a stack's cards, say), with ``schema`` the JSON
    Schema of what it reports; without them the value is reported as its type says. ``ref`` and
    ``keys`` are as for :func:`spec`.
    """
    written = {**({"$ref": f"#/{ref}"} if ref else {}), **keywords}
    meta = Spec(description, key, written, False, True, observed, schema, keys=tuple(keys))
    return _field(default, meta)


def _field(default: Any, meta: Spec) -> Any:
    metadata = {SPEC: meta}
    if isinstance(default, (list, dict, set)):
        value = default
        return dataclasses.field(default_factory=lambda: type(value)(value), metadata=metadata)
    if isinstance(default, type):  # a type as the default: a new instance of it for each
        return dataclasses.field(default_factory=default, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def described(name: str | None = None, *, facts: str | None = None, tag: str | None = None,
              description: str | None = None, schema: Mapping[str, Any] | None = None) -> Callable[[type[T]], type[T]]:
    """Class decorator: the dataclass is described; ``name`` is its definition in the game's schema,
    ``facts`` the definition of what observing it reports, ``tag`` the key naming the kind of a tagged
    union (whose definition the vocabulary gives), ``description`` the definition's description."""

    def decorate(cls: type[T]) -> type[T]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__}: only a dataclass is described (put @described above @dataclass)")
        cls.__described__ = _Pending(name, facts, tag, description, dict(schema or {}))  # type: ignore[attr-defined]
        return cls

    return decorate


class _Pending(NamedTuple):
    name: str | None
    facts: str | None
    tag: str | None
    description: str | None
    schema: Mapping[str, Any] = {}


def is_described(cls: Any) -> bool:
    return isinstance(cls, type) and "__described__" in cls.__dict__


# --- What a type is made of -------------------------------------------------------------------------


class _Shape:
    """A field's Python type, analysed once: how to give its schema, convert scenario data to it and report it."""

    json: str | None = None  # a scalar's JSON type
    enum: list[Any] | None = None  # a Literal's values
    nullable = False
    container: type | None = None  # tuple, list, frozenset, dict
    item: "_Shape | None" = None
    described: type | None = None


def _shape(tp: Any) -> _Shape:
    shape = _Shape()
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        shape = _shape(inner[0]) if len(inner) == 1 else _Shape()
        shape.nullable = True
        return shape
    if tp in JSON_TYPES:
        shape.json = JSON_TYPES[tp]
    elif origin is typing.Literal:
        shape.json, shape.enum = JSON_TYPES[type(args[0])], list(args)
    elif origin in (tuple, list, frozenset, set) and args and (origin is not tuple or (len(args) == 2 and args[1] is Ellipsis)):
        shape.container, shape.item = origin, _shape(args[0])
    elif origin in (dict, collections.abc.Mapping):
        shape.container, shape.item = dict, _shape(args[1]) if len(args) == 2 else _Shape()
    elif is_described(tp):
        shape.described = tp
    return shape


class Field(NamedTuple):
    name: str
    key: str
    spec: Spec
    shape: _Shape
    default: Any  # MISSING when there is none (or only a factory)
    has_default: bool


class Description:
    """A described type, analysed: its fields, schema, parser and observer."""

    def __init__(self, cls: type, pending: _Pending) -> None:
        self.cls = cls
        self.name, self.facts_name, self.tag, self.description, self.extra = pending
        self.fields: list[Field] = []
        for item in dataclasses.fields(cls):
            meta = item.metadata.get(SPEC)
            if meta is None:
                continue
            hint = _annotation(cls, item.name)
            has_default = item.default is not MISSING or item.default_factory is not MISSING
            default = item.default if item.default is not MISSING else (
                item.default_factory() if item.default_factory is not MISSING else MISSING)
            self.fields.append(Field(item.name, meta.key or item.name, meta, _shape(hint), default, has_default))
        self.given = [f for f in self.fields if f.spec.given]
        self.observed = [f for f in self.fields if f.spec.fact]
        self.keys = [f.key for f in self.given]
        self._key_set = frozenset(self.keys)
        self.kinds = _KINDS.setdefault(cls, {})  # a tagged union's kinds that parse into a type of their own
        self.union: type | None = _union_of(cls)  # the tagged union it belongs to
        self._required = frozenset(f.name for f in self.given if not (f.has_default or f.spec.required is False))

    @functools.cached_property
    def _table(self) -> dict[str, tuple[str, frozenset[type] | None, Mapping[Any, None] | None, Convert | None]]:
        """Each scenario key: its field, its scalar check and its converter (made when the type is first parsed)."""
        return {f.key: (f.name, *_accepts(f), _parser(f)) for f in self.given}

    @functools.cached_property
    def observe(self) -> Callable[[Any], dict[str, Any]]:
        """What observing reports of an instance (written out when the type is first observed)."""
        return _compiled_observer([(f.name, f.key, _observer(f)) for f in self.observed])

    # --- schema ---------------------------------------------------------------------------------

    def properties(self, *, include: Iterable[str] | None = None) -> dict[str, Any]:
        """The JSON Schema of each scenario key (``include``: only the per-kind fields named)."""
        own = set(include or ())
        return {
            f.key: _given_schema(f)
            for f in self.given
            if f.key != self.tag_key and (not f.spec.per_kind or f.name in own or f.key in own)
        }

    @property
    def tag_key(self) -> str | None:
        union = self.union
        return description_of(union).tag if union is not None else None

    def required(self) -> list[str]:
        return [f.key for f in self.given if _is_required(f) and f.key != self.tag_key]

    def definition(self) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "object", "additionalProperties": False}
        if self.description:
            node["description"] = self.description
        required = self.required()
        if required:
            node["required"] = required
        node.update(self.extra)
        node["properties"] = self.properties()
        return node

    def facts_definition(self) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "object", "additionalProperties": False}
        if self.description and self.name is None:
            node["description"] = self.description
        node["properties"] = {f.key: _fact_schema(f) for f in self.observed}
        return node

    # --- parsing --------------------------------------------------------------------------------

    def parse(self, data: Any, path: DataPath, given: Mapping[str, Any]) -> Any:
        if type(data) is not dict and not isinstance(data, collections.abc.Mapping):
            raise InputError(f"wrong type: got {described_value(data)}", path=path, expected="a mapping")
        if self.tag is not None:
            kind = data.get(self.tag)
            own = self.kinds.get(kind) if isinstance(kind, str) else None
            if own is not None and own is not self.cls:
                return description_of(own).parse(data, path, given)
        table = self._table
        values = dict(given) if given else {}
        for key, value in data.items():
            entry = table.get(key)
            if entry is None:
                raise InputError(f"unknown key '{key}'{nearest(str(key), self.keys)}", path=(*path, key), on_key=True,
                                 expected=one_of(self.keys))
            name, accepts, allowed, convert = entry
            if accepts is not None:  # a scalar: checked here, without a call
                if type(value) not in accepts or (allowed is not None and value not in allowed):
                    _check_scalar(value, accepts, allowed, (*path, key))
                values[name] = value
            else:
                values[name] = value if convert is None else convert(value, (*path, key))
        if not self._required.issubset(values):
            missing = next(f.key for f in self.given if f.name in self._required and f.name not in values)
            raise InputError(f"missing key '{missing}'", path=path, expected=f"a '{missing}' key here")
        return self.cls(**values)

    # --- observing ------------------------------------------------------------------------------


#: Annotations already evaluated, by module and text ("int", "str | None" recur in every type).
_EVALUATED: dict[tuple[str, str], Any] = {}


def _annotation(cls: type, name: str) -> Any:
    """A field's type, evaluated in the module of the class that declares it."""
    for owner in cls.__mro__:
        written = owner.__dict__.get("__annotations__", {}).get(name)
        if written is not None:
            scope = vars(sys.modules[owner.__module__])
            if isinstance(written, str) and "'" not in written and '"' not in written:
                cached = _EVALUATED.get((owner.__module__, written))
                if cached is None:
                    cached = _EVALUATED[(owner.__module__, written)] = eval(written, scope, dict(vars(owner)))  # noqa: S307 - as get_type_hints does
                return cached
            holder = types.SimpleNamespace(__annotations__={name: written})  # resolves the forward references quoted inside it
            return typing.get_type_hints(holder, scope, dict(vars(owner)))[name]
    raise TypeError(f"{cls.__name__}.{name} has no annotation")


def description_of(cls: type) -> Description:
    """The analysed description of a described type (made once, on first use); a dataclass deriving
    from a described type without a decorator of its own (a kind's parameters) is described as well."""
    found = cls.__dict__.get("__description__")
    if found is None:
        pending = cls.__dict__.get("__described__")
        if pending is None and dataclasses.is_dataclass(cls) and any(is_described(base) for base in cls.__mro__[1:]):
            pending = _Pending(None, None, None, None, {})
        if pending is None:
            raise TypeError(f"{cls.__name__} is not described (decorate it with @described)")
        found = Description(cls, pending)
        type.__setattr__(cls, "__description__", found)
    return found


def _is_required(f: Field) -> bool:
    return f.spec.required if f.spec.required is not None else not f.has_default


# --- Schema -----------------------------------------------------------------------------------------


def _type_schema(shape: _Shape, keywords: Mapping[str, Any], *, facts: bool) -> dict[str, Any]:
    """The schema a type gives, with the field's keywords: ``$ref`` or ``enum`` stand for the type itself."""
    node: dict[str, Any] = {}
    own = dict(keywords)
    if "$ref" in own:
        node["$ref"] = own.pop("$ref")
    elif "enum" in own:
        node["enum"] = own.pop("enum")
    elif shape.enum is not None:
        node["enum"] = list(shape.enum)
    elif shape.json is not None:
        node["type"] = shape.json
    elif shape.described is not None:
        node["$ref"] = f"#/{_definition_name(shape.described, facts=facts)}"
    elif shape.container is dict:
        node["type"] = "object"
        values = own.pop("values", None)
        if "properties" not in own and "additionalProperties" not in own and "patternProperties" not in own:
            node["additionalProperties"] = values if values is not None else _type_schema(shape.item or _Shape(), {}, facts=facts)
    elif shape.container is not None:
        node["type"] = "array"
        items = own.pop("items", None)
        node["items"] = items if items is not None else _type_schema(shape.item or _Shape(), {}, facts=facts)
    node.update(own)
    return node


def _definition_name(cls: type, *, facts: bool) -> str:
    found = description_of(cls)
    union = found.union if found.union is not None else cls
    name = description_of(union).name if union is not cls else found.name
    if facts:
        if found.facts_name is None:
            raise TypeError(f"{cls.__name__} is observed but declares no facts definition (@described(facts=...))")
        return found.facts_name
    if name is None:
        raise TypeError(f"{cls.__name__} is given by scenarios but declares no definition name (@described(NAME))")
    return name


def _keyed(f: Field, *, facts: bool) -> dict[str, Any]:
    """A mapping with fixed keys: each key's schema, all of them required of scenario data."""
    values = f.spec.schema.get("values")
    item = values if values is not None else _type_schema(f.shape.item or _Shape(), {}, facts=facts)
    required = not facts and f.spec.keys_required
    node = {"type": "object", "additionalProperties": False, **({"required": list(f.spec.keys)} if required else {})}
    node["properties"] = {key: dict(item) for key in f.spec.keys}
    return node


def _given_schema(f: Field) -> dict[str, Any]:
    node = _type_schema(f.shape, f.spec.schema, facts=False)
    if f.spec.keys:
        node = _keyed(f, facts=False)
    if f.has_default and (f.default is not None or _null_written(node)) and f.spec.required is None and _writable(f.default, node):
        node["default"] = list(f.default) if isinstance(f.default, (tuple, frozenset, set)) else f.default
    if f.spec.description:
        node["description"] = f.spec.description
    return node


def _writable(default: Any, node: Mapping[str, Any]) -> bool:
    """Whether a scenario could write the default (``coins: 0`` under ``minimum: 1`` stands for leaving the key out)."""
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return bool(node.get("minimum", default) <= default <= node.get("maximum", default))
    if isinstance(default, (tuple, list, frozenset, set)):
        return bool(node.get("minItems", 0) <= len(default))
    return "enum" not in node or default in node["enum"]


def _fact_schema(f: Field) -> dict[str, Any]:
    if f.spec.fact_schema is not None:
        node = dict(f.spec.fact_schema)
    else:
        node = _type_schema(f.shape, f.spec.schema, facts=True)
        if f.spec.keys:
            node = _keyed(f, facts=True)
        if f.shape.nullable:
            node = _nullable(node)
    if f.spec.description:
        node["description"] = f.spec.description
    return node


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    if "enum" in node:
        return {**node, "enum": [*node["enum"], None]}
    if isinstance(node.get("type"), str) and "$ref" not in node:
        return {**node, "type": [node["type"], "null"]}
    return {"oneOf": [{"type": "null"}, node]}


def definitions(roots: Iterable[type]) -> dict[str, Any]:
    """The schema definitions of ``roots`` and of every described type their fields hold, in that order:
    each type's definition (its ``NAME``) and its facts' (its ``facts=``). A tagged union's definition is
    the vocabulary's, not given here."""
    found: dict[str, Any] = {}
    seen: set[type] = set()

    def visit(cls: type) -> None:
        if cls in seen:
            return
        seen.add(cls)
        described_type = description_of(cls)
        if described_type.name is not None and described_type.tag is None and described_type.union is None:
            found[described_type.name] = described_type.definition()
        if described_type.facts_name is not None:
            found[described_type.facts_name] = described_type.facts_definition()
        for f in described_type.fields:
            shape = f.shape
            while shape.item is not None:
                shape = shape.item
            if shape.described is not None:
                visit(shape.described)

    for root in roots:
        visit(root)
    return found


# --- Parsing ----------------------------------------------------------------------------------------


Convert = Callable[[Any, DataPath], Any]
EMPTY: Mapping[str, Any] = {}


#: The Python types scenario data holds for each JSON type (YAML gives exactly these).
PYTHON_TYPES: Mapping[str, frozenset[type]] = {
    "boolean": frozenset({bool}), "integer": frozenset({int}), "number": frozenset({int, float}), "string": frozenset({str}),
}


def _accepts(f: Field) -> tuple[frozenset[type] | None, Mapping[Any, None] | None]:
    """A scalar field's accepted Python types and values (its enum), checked in the parser's loop."""
    if f.shape.json is None or f.spec.keys:
        return None, None
    enum = f.spec.schema.get("enum", f.shape.enum)
    accepts = PYTHON_TYPES[f.shape.json] | ({type(None)} if _null_written(f.spec.schema) else set())
    return accepts, dict.fromkeys(enum) if enum else None


def _null_written(keywords: Mapping[str, Any]) -> bool:
    """Whether the schema lets the data write null (``type: [string, "null"]``), not only leave the key out."""
    written = keywords.get("type")
    return isinstance(written, list) and "null" in written


def _check_scalar(value: Any, accepts: frozenset[type], allowed: Mapping[Any, None] | None, path: DataPath) -> None:
    """Raise the error for a scalar of the wrong type or not among its choices (one of a subtype of a right type passes)."""
    if not any(isinstance(value, kind) for kind in accepts) or (isinstance(value, bool) and bool not in accepts):
        json = next(name for name, kinds in PYTHON_TYPES.items() if kinds <= accepts)
        raise InputError(f"wrong type: got {described_value(value)}", path=path, expected=TYPE_WORDS[json])
    if allowed is not None and value not in allowed:
        choices = [str(choice) for choice in allowed]
        raise InputError(f"unknown value {quoted(value)}{nearest(str(value), choices)}", path=path, expected=one_of(choices))


def _scalar(json: str, enum: list[Any] | None, nullable: bool = False) -> Convert | None:
    accepts = PYTHON_TYPES[json] | ({type(None)} if nullable else set())
    allowed = dict.fromkeys(enum) if enum else None

    def convert(value: Any, path: DataPath) -> Any:
        if type(value) not in accepts or (allowed is not None and value not in allowed):
            _check_scalar(value, accepts, allowed, path)
        return value

    return convert


def _converter(shape: _Shape, keywords: Mapping[str, Any], *, as_item: bool = False) -> Convert | None:
    """How scenario data becomes a value of the shape (None: as it is); ``as_item``: a container's item, null
    where its type says it may be."""
    if shape.described is not None:
        target = shape.described
        bound: list[Callable[[Any, DataPath, Mapping[str, Any]], Any]] = []

        def nested(value: Any, path: DataPath) -> Any:  # the type's own parser, looked up once (it may be this very type)
            if not bound:
                bound.append(description_of(target).parse)
            return bound[0](value, path, EMPTY)

        return nested
    if shape.json is not None:
        return _scalar(shape.json, keywords.get("enum", shape.enum), (as_item and shape.nullable) or _null_written(keywords))
    if shape.container is dict:
        item = _converter(shape.item or _Shape(), {}, as_item=True)

        def mapping(value: Any, path: DataPath) -> Any:
            if type(value) is not dict and not isinstance(value, collections.abc.Mapping):
                raise InputError(f"wrong type: got {described_value(value)}", path=path, expected="a mapping")
            if item is None:
                return dict(value)
            return {key: item(entry, (*path, key)) for key, entry in value.items()}

        return mapping
    if shape.container is not None:
        make = shape.container
        items = keywords.get("items") if isinstance(keywords.get("items"), Mapping) else {}
        item = _converter(shape.item or _Shape(), items or {}, as_item=True)

        inner = shape.item or _Shape()
        accepts = PYTHON_TYPES[inner.json] if inner.json is not None else None
        allowed = dict.fromkeys(items["enum"]) if items and "enum" in items else None

        def sequence(value: Any, path: DataPath) -> Any:
            if type(value) is not list and not isinstance(value, (list, tuple)):
                raise InputError(f"wrong type: got {described_value(value)}", path=path, expected="a list")
            if accepts is not None:  # scalars: checked in one pass
                for index, entry in enumerate(value):
                    if type(entry) not in accepts or (allowed is not None and entry not in allowed):
                        _check_scalar(entry, accepts, allowed, (*path, index))
                return make(value)
            if item is None:
                return make(value)
            return make(item(entry, (*path, index)) for index, entry in enumerate(value))

        return sequence
    return None


def _parser(f: Field) -> Convert | None:
    convert = _converter(f.shape, f.spec.schema)
    if f.spec.keys and convert is not None:
        keys, required = f.spec.keys, f.spec.keys_required
        allowed, needed = frozenset(keys), frozenset(keys if required else ())
        whole = convert

        def keyed(value: Any, path: DataPath) -> Any:
            if isinstance(value, Mapping) and not (allowed.issuperset(value) and needed.issubset(value)):
                unknown = [key for key in value if key not in keys]
                if unknown:
                    raise InputError(f"unknown key '{unknown[0]}'{nearest(str(unknown[0]), keys)}", path=(*path, unknown[0]),
                                     on_key=True, expected=one_of(keys))
                missing = [key for key in keys if key not in value] if required else []
                if missing:
                    raise InputError(f"missing key '{missing[0]}'", path=path, expected=f"a '{missing[0]}' key here")
            return whole(value, path)

        return keyed
    return convert


def parse(cls: type[T], data: Any, path: DataPath = (), **given: Any) -> T:
    """An instance of the described type ``cls`` from scenario data at ``path``.

    ``given``: values of fields the data does not hold (a card's name, from the key it is listed
    under), or that stand in for a key the data leaves out. Raises :class:`InputError` for a key
    the type does not take, a required key left out, a value of the wrong type or not among its
    choices; the schema checks the rest (limits, patterns) before the data gets here.
    """
    return description_of(cls).parse(data, path, given)  # type: ignore[no-any-return]


# --- Observing --------------------------------------------------------------------------------------


Observe = Callable[[Any], Any]


def _reporter(shape: _Shape) -> Observe | None:
    if shape.described is not None:
        target = shape.described
        if any(is_described(c) and c.__dict__["__described__"].tag for c in target.__mro__):
            return facts  # a union's member may be of a kind's own type
        bound: list[Callable[[Any], dict[str, Any]]] = []

        def report(value: Any) -> dict[str, Any]:  # the type's own observer, looked up once (it may be this very type)
            if not bound:
                bound.append(description_of(target).observe)
            return bound[0](value)

        return report
    item = _reporter(shape.item or _Shape()) if shape.container is not None else None
    if shape.container is dict:
        if item is None:
            return dict
        each = item
        return lambda value: {key: (entry if entry is None else each(entry)) for key, entry in value.items()}
    if shape.container is not None:
        if item is None:
            return list
        every = item
        return lambda value: [entry if entry is None else every(entry) for entry in value]
    return None


def _observer(f: Field) -> Observe | None:
    return f.spec.observed if f.spec.observed is not None else _reporter(f.shape)


def _compiled_observer(observers: list[tuple[str, str, Observe | None]]) -> Callable[[Any], dict[str, Any]]:
    """One function that reports every fact of an instance (observing runs after every checked action: it is
    written out once, as ``dataclasses`` writes ``__init__``, rather than looping over the fields each time)."""
    scope: dict[str, Any] = {}
    parts = []
    for index, (name, key, convert) in enumerate(observers):
        if convert is None:
            parts.append(f"{key!r}: value.{name}")
        else:
            scope[f"_convert{index}"] = convert
            parts.append(f"{key!r}: (None if (_raw{index} := value.{name}) is None else _convert{index}(_raw{index}))")
    exec("def observe(value):\n    return {" + ", ".join(parts) + "}\n", scope)  # noqa: S102 - names and keys of the type's own fields
    return scope["observe"]  # type: ignore[no-any-return]


def facts(value: Any) -> dict[str, Any]:
    """What observing reports of an instance of a described type: its facts, as plain data."""
    return description_of(type(value)).observe(value)


# --- Tagged unions: kinds with parameters of their own ----------------------------------------------


class Takes(NamedTuple):
    """The parameters one kind of a tagged union takes: the fields of ``type`` (the union's base or a
    subclass of it), each per-kind field only when ``own`` names it."""

    type: type
    own: tuple[str, ...] = ()
    described: Mapping[str, str] = {}  # a per-kind parameter's description for this kind

    def properties(self) -> dict[str, Any]:
        found = description_of(self.type).properties(include=[*self.own, *self.described])
        return {key: ({**node, "description": self.described[key]} if key in self.described else node) for key, node in found.items()}

    def required(self) -> tuple[str, ...]:
        return tuple(description_of(self.type).required())


def takes(cls: type, *own: str, **described: str) -> Takes:
    """The parameters of a kind: those of ``cls`` (the union's base, or a subclass of it that adds the
    kind's own fields), with the per-kind fields ``own`` names, and those ``described`` names with what
    they mean for this kind (``takes(Effect, amount="GUTS lost.")``). Nothing is analysed yet: a kind is
    registered as its rules module is imported, and its schema is needed only when the schema is built."""
    names = _PER_KIND.get(cls)
    if names is None:
        if _union_of(cls) is None:
            raise TypeError(f"{cls.__name__} is not part of a tagged union (@described(tag=...) on it or a base)")
        per_kind = [f for f in dataclasses.fields(cls) if getattr(f.metadata.get(SPEC), "per_kind", False)]
        names = _PER_KIND[cls] = frozenset({f.name for f in per_kind} | {f.metadata[SPEC].key for f in per_kind if f.metadata[SPEC].key})
    unknown = [name for name in [*own, *described] if name not in names]
    if unknown:
        raise TypeError(f"{cls.__name__} has no per-kind parameters {unknown}")
    return Takes(cls, tuple(own), dict(described))


#: The names (and keys) of each kind type's per-kind parameters.
_PER_KIND: dict[type, frozenset[str]] = {}
#: Each tagged union's kinds that parse into a type of their own, by the union's base.
_KINDS: dict[type, dict[str, type]] = {}


def _union_of(cls: type) -> type | None:
    """The base of the tagged union ``cls`` belongs to (itself, if it is one), if any."""
    return next((c for c in cls.__mro__ if is_described(c) and c.__dict__["__described__"].tag), None)


def register_kind(kind: str, params: Takes) -> None:
    """A kind of the union ``params.type`` belongs to: its data parses into ``params.type``."""
    union = _union_of(params.type)
    assert union is not None
    _KINDS.setdefault(union, {})[kind] = params.type
