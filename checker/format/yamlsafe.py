"""Safe YAML loading that remembers where every value came from.

Scenario files are untrusted. PyYAML's ``SafeLoader`` already refuses to build
arbitrary objects; on top of it this module

* bounds the file size, the nesting depth and the number of nodes after alias
  expansion (so a "billion laughs" file is refused, not expanded). LibYAML's own
  loader builds its tree by recursion in C, which tens of thousands of levels
  overflow: it is given only a text that cannot nest deeper than ``QUICK_DEPTH``
  (:func:`nesting_bound`); the loader that records positions refuses deep nesting
  from the parser's events, before it recurses;
* refuses explicit tags, merge keys, non-string keys and duplicate keys, an alias to a
  value that contains it, and whole numbers of more than ``MAX_DIGITS`` characters;
* records the line and column of every key and value, so a later error about
  ``actions[2].card`` can point at the exact place in the file; a value written as an
  alias is placed where the alias is written, not where its anchor is.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from checker.engine.errors import DataPath, InputError, Position
from checker.engine.files import not_a_file, read_regular
from checker.format.yamlwording import AT_THE_BACKSLASH, libyaml_words

#: LibYAML's parser when PyYAML was built with it (its wheels are), else the pure-Python one.
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PURE = Loader is yaml.SafeLoader  # its errors are then given LibYAML's words: the same message from either
MAX_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_NODES = 50_000
MAX_DIGITS = 100  # far beyond any number a game uses, far below Python's own conversion limit
#: The deepest nesting (by :func:`nesting_bound`) LibYAML's composer is given. It overflows an 8 MiB stack at about
#: 24,000 levels (``benchmarks/yaml_limits.py``), some 350 bytes a level: this needs 1.4 MiB.
QUICK_DEPTH = 4000

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_INT = "tag:yaml.org,2002:int"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


class Document:
    """Plain data (dicts, lists, scalars) plus where each piece was written.

    A document read from ``source`` text works out its positions when they are first asked
    for (an error to locate, a mismatch to point at), by reading the text again.
    """

    def __init__(self, data: Any, source: str | None = None) -> None:
        self.data = data
        self._source = source
        self._value_marks: dict[DataPath, Position] = {}
        self._key_marks: dict[DataPath, Position] = {}

    @property
    def value_marks(self) -> dict[DataPath, Position]:
        self._mark()
        return self._value_marks

    @property
    def key_marks(self) -> dict[DataPath, Position]:
        self._mark()
        return self._key_marks

    def _mark(self) -> None:
        if self._source is not None:
            marked = _load_marked(self._source)
            self._value_marks, self._key_marks, self._source = marked.value_marks, marked.key_marks, None

    def position(self, path: DataPath, *, on_key: bool = False) -> Position | None:
        """The position of ``path``, or of its nearest ancestor that has one."""
        if on_key and path in self.key_marks:
            return self.key_marks[path]
        probe = tuple(path)
        while True:
            if probe in self.value_marks:
                return self.value_marks[probe]
            if not probe:
                return None
            probe = probe[:-1]

    def locate(self, error: InputError) -> InputError:
        """The error, and every further problem it carries, with their lines and columns."""
        located = error if error.position is not None else error.located(self.position(error.path, on_key=error.on_key))
        if not error.also:
            return located
        return located.with_others(self.locate(other) for other in error.also)


def _position(mark: Any) -> Position | None:
    if mark is None:
        return None
    return Position(mark.line + 1, mark.column + 1)


def _load_within_size(text: str) -> Document:
    data = _load_plain(text)
    return _load_marked(text) if data is _UNSURE else Document(data, source=text)


def _load_marked(text: str) -> Document:
    """The document with every position, or the :class:`InputError` the text deserves."""
    try:
        loader = _MarkingLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        position = _position(mark)
        if _PURE:
            problem = libyaml_words(problem, exc.context)
            if problem == AT_THE_BACKSLASH and position is not None:
                position = Position(position.line, position.column - 1)
        raise InputError(f"YAML syntax: {problem}", expected="well-formed YAML", position=position) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        at = exc.position
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise InputError(
            f"YAML syntax: {libyaml_words(exc.reason, None) if _PURE else exc.reason} (character U+{code:04X})", expected="well-formed YAML",
            position=Position(text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1),
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"YAML syntax: {exc}", expected="well-formed YAML", position=Position(1, 1)) from None
    if root is None:
        raise InputError("the file is empty", expected="a scenario mapping", position=Position(1, 1))
    document = Document(data=None)
    document.data = _Converter(document).convert(root, ())
    return document


class _Alias:
    """A value written as an alias: the node its anchor names, and where the alias is written."""

    def __init__(self, target: Node, start_mark: Any) -> None:
        self.target = target
        self.start_mark = start_mark


#: ``Loader``, composing in Python: LibYAML's composes in C, PyYAML's own (where there is no LibYAML) in Python already.
_ComposingInPython: type = (
    Loader if issubclass(Loader, yaml.composer.Composer) else type("_ComposingInPython", (yaml.composer.Composer, Loader), {})
)


class _MarkingLoader(_ComposingInPython):  # type: ignore[misc]
    """``Loader``'s parser, composed in Python: the nesting is refused from the events before it is built (no
    recursion beyond ``MAX_DEPTH``), a second document before it is read, and each alias keeps where it is written."""

    def __init__(self, text: str) -> None:
        Loader.__init__(self, text)
        yaml.composer.Composer.__init__(self)
        self.depth = 0

    def compose_document(self) -> Any:
        root = super().compose_document()
        if self.check_event(yaml.DocumentStartEvent):
            raise InputError(
                "more than one YAML document in the file",
                expected="one scenario per file (no second '---')",
                position=_position(self.peek_event().start_mark),
            )
        return root

    def compose_node(self, parent: Node | None, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            named = super().compose_node(parent, index)
            assert named is not None  # the composer refuses an alias to no anchor
            return _Alias(named, event.start_mark)
        if not isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            return super().compose_node(parent, index)
        if self.depth == MAX_DEPTH:
            raise InputError(
                f"nesting deeper than {MAX_DEPTH} levels",
                expected=f"at most {MAX_DEPTH} nested mappings or lists",
                position=_position(event.start_mark),
            )
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_UNSURE = object()


def _load_plain(text: str) -> Any:
    """The data of a document within every limit, without positions; ``_UNSURE`` if anything is unusual.

    Whatever this returns, :func:`_load_marked` returns too; anything it is not sure of (a syntax
    error, a limit, an alias nested too deep) is left to :func:`_load_marked`, which says what is wrong. So is
    a text that may nest deeper than ``QUICK_DEPTH``: :func:`_load_marked` refuses deep nesting before it recurses.
    """
    if nesting_bound(text) > QUICK_DEPTH:
        return _UNSURE
    try:
        loader = _QuickLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
        return _UNSURE if root is None else _PlainConverter().convert(root, 0)
    except Exception:
        return _UNSURE


class _QuickLoader(Loader):  # type: ignore[misc, valid-type]
    """``Loader``, resolving tags sooner: it has no path resolvers, so a plain scalar's tag depends on its text alone."""

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is not ScalarNode:
            return str(super().resolve(kind, value, implicit))
        if not implicit[0] or value[:1] not in _MAY_BE_TYPED:
            return _STR
        tag = _TAG_OF_PLAIN.get(value)
        if tag is None:
            tag = str(super().resolve(kind, value, implicit))
            if len(value) <= 64 and len(_TAG_OF_PLAIN) < 10_000:
                _TAG_OF_PLAIN[value] = tag
        return tag


assert not Loader.yaml_path_resolvers
#: What a plain scalar that is not text may start with: YAML 1.1's implicit types are looked up by first character
#: (``""`` for the empty scalar), and none applies to every character.
_MAY_BE_TYPED = frozenset(Loader.yaml_implicit_resolvers)
assert None not in _MAY_BE_TYPED
_TAG_OF_PLAIN: dict[str, str] = {}


class _Unsure(Exception):
    pass


_CONSTRUCTOR = yaml.SafeLoader("")
_SCALARS = {tag: _CONSTRUCTOR.yaml_constructors[tag].__get__(_CONSTRUCTOR) for tag in _PLAIN_TAGS}
_STR = "tag:yaml.org,2002:str"


class _PlainConverter:
    """Nodes to plain data, refusing (``_Unsure``) whatever :class:`_Converter` would refuse.

    Nesting is counted on the tree, aliases expanded, so it is never less than the parser's
    nesting :class:`_MarkingLoader` counts; an alias to a value that contains it nests without end.
    """

    def __init__(self) -> None:
        self.nodes = 0

    def convert(self, node: Node, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Unsure
        kind = type(node)
        if kind is ScalarNode:
            tag = node.tag
            if tag == _STR or tag == _TIMESTAMP:
                return node.value
            if tag == _INT:
                value = node.value
                if len(value) > MAX_DIGITS:
                    raise _Unsure
                if value.isdecimal() and value.isascii() and (value[0] != "0" or value == "0"):
                    return int(value)  # what YAML 1.1's int constructor gives a plain decimal (no sign, base, "_" or ":")
            elif tag not in _SCALARS:
                raise _Unsure
            return _SCALARS[tag](node)
        depth += 1
        if depth > MAX_DEPTH:
            raise _Unsure
        if kind is SequenceNode and node.tag == _SEQ:
            return [self.convert(item, depth) for item in node.value]
        if kind is MappingNode and node.tag == _MAP:
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if type(key_node) is not ScalarNode or key_node.tag not in _PLAIN_TAGS:
                    raise _Unsure
                key = str(key_node.value)
                if key in result:
                    raise _Unsure
                result[key] = self.convert(value_node, depth)
            return result
        raise _Unsure


def load_file(path: str) -> Document:
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        raise InputError(f"cannot read file: {not_a_file(path) or exc.strerror}",
                         expected="a scenario file to read") from None
    return load_bytes(raw)


def load_bytes(raw: bytes) -> Document:
    """A file's content, loaded as :func:`load_file` loads the file: the same limits, the same located errors."""
    if len(raw) > MAX_BYTES:
        raise InputError(
            f"file is larger than the {MAX_BYTES} bytes allowed",
            expected="a scenario of at most 256 KiB",
            position=Position(1, 1),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8 text (byte {exc.start})", expected="a UTF-8 encoded YAML file",
            position=Position(raw.count(b"\n", 0, exc.start) + 1, exc.start - line_start + 1),
        ) from None
    return _load_within_size(text)  # its size checked above, in bytes


def nesting_bound(text: str) -> int:
    """A bound on how deep ``text`` can nest, from its characters alone.

    A flow collection opens with ``[`` or ``{``; a block collection inside another starts further
    right than its parent, or (a list as a mapping's value) at its column, under one that does: so
    block nesting is at most twice the longest line, and flow nesting adds at most every bracket.
    """
    longest = max(map(len, text.split("\n")))  # a line YAML breaks elsewhere (CR, NEL) only makes it larger
    return text.count("[") + text.count("{") + 2 * (longest + 1)


class _Converter:
    def __init__(self, document: Document) -> None:
        self.document = document
        self.nodes = 0
        self.constructor = yaml.SafeLoader("")
        self.open: set[int] = set()  # the mappings and lists being converted: an alias to one of them is a loop
        self.aliased = 0  # how many aliases the value being converted is inside: its positions are theirs

    def convert(self, node: Node | _Alias, path: DataPath) -> Any:
        if isinstance(node, _Alias):
            # What the anchor's value holds is placed where the alias is written, as one value.
            self.document.value_marks.setdefault(path, _position(node.start_mark))  # type: ignore[arg-type]
            self.aliased += 1
            try:
                return self.convert(node.target, path)
            finally:
                self.aliased -= 1
        if id(node) in self.open:
            raise InputError(
                "an alias refers to a mapping or list that contains it (the value would never end)",
                expected="an alias to a value outside itself, or the value written out",
                position=self.document.key_marks.get(path) or _position(node.start_mark),
            )
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise InputError(
                f"the document expands to more than {MAX_NODES} values (alias expansion?)",
                expected="a scenario without runaway aliases",
                position=_position(node.start_mark),
            )
        if not self.aliased:
            self.document.value_marks.setdefault(path, _position(node.start_mark))  # type: ignore[arg-type]
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        if isinstance(node, SequenceNode):
            self._require_tag(node, _SEQ)
            with self._inside(node):
                return [self.convert(item, path + (index,)) for index, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            self._require_tag(node, _MAP)
            with self._inside(node):
                return self._mapping(node, path)
        raise InputError("unsupported YAML node", position=_position(node.start_mark))

    @contextlib.contextmanager
    def _inside(self, node: Node) -> Iterator[None]:
        self.open.add(id(node))
        try:
            yield
        finally:
            self.open.discard(id(node))

    def _require_tag(self, node: Node, tag: str) -> None:
        if node.tag != tag:
            raise InputError(
                f"YAML tag '{node.tag}' is not allowed",
                expected="plain mappings, lists and scalars without tags",
                position=_position(node.start_mark),
            )

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value
        if node.tag not in _PLAIN_TAGS:
            raise InputError(
                f"YAML tag '{node.tag}' is not allowed",
                expected="plain text, numbers, true/false or null",
                position=_position(node.start_mark),
            )
        if node.tag == _INT and len(node.value) > MAX_DIGITS:
            raise InputError(
                f"a whole number written with {len(node.value)} characters, more than the {MAX_DIGITS} allowed",
                expected=f"a number of at most {MAX_DIGITS} digits",
                position=_position(node.start_mark),
            )
        return self.constructor.construct_object(node, deep=True)

    def _mapping(self, node: MappingNode, path: DataPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for written_key, value_node in node.value:
            key_node = written_key.target if isinstance(written_key, _Alias) else written_key
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise InputError(
                    "merge keys ('<<') are not supported",
                    expected="each key written out",
                    position=_position(written_key.start_mark),
                )
            if not isinstance(key_node, ScalarNode) or key_node.tag not in _PLAIN_TAGS:
                raise InputError(
                    "a mapping key must be plain text",
                    expected="a text key",
                    position=_position(written_key.start_mark),
                )
            key = str(key_node.value)
            if key in result:
                raise InputError(
                    f"duplicate key '{key}'",
                    expected="each key once per mapping",
                    position=_position(written_key.start_mark),
                )
            if not self.aliased:
                self.document.key_marks[path + (key,)] = _position(written_key.start_mark)  # type: ignore[assignment]
            result[key] = self.convert(value_node, path + (key,))
        return result
