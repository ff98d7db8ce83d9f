"""Editing a scenario's ``actions:`` in its text, keeping whatever else the person wrote: comments, layout, order.

An action is appended as one flow mapping (``- {action: attack, player: A}``) after the last one, in the style the
list is written in; the last action is removed with its lines. Every edit is checked by loading the text it makes:
when that does not hold exactly the data intended (a layout the edit does not foresee), the data intended is written
out afresh instead, its comments lost but nothing the scenario says. A text that cannot be loaded is not edited: the
:class:`~checker.engine.errors.InputError` that says why is raised.
"""

from __future__ import annotations

from typing import Any, Mapping

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from checker.engine.errors import InputError
from checker.format.yamlsafe import Loader, load_bytes
from checker.format.yamlwrite import yaml_inline, yaml_text

UNFOLDED = 1000  # a scenario written afresh folds no text onto further lines


def with_action(text: str, action: Mapping[str, Any]) -> str:
    """``text`` with ``action`` appended to its ``actions:``."""
    data = _scenario_data(text)
    intended = {**data, "actions": [*data.get("actions", ()), dict(action)]}
    return _checked(_appended(text, yaml_inline(dict(action))), intended)


def without_last_action(text: str) -> str:
    """``text`` without the last of its ``actions:`` (``text`` itself when it has none)."""
    data = _scenario_data(text)
    if not data.get("actions"):
        return text
    intended = {**data, "actions": data["actions"][:-1]}
    return _checked(_removed(text), intended)


def with_top_level(text: str, key: str, value: Any, after: str) -> str:
    """``text`` with the top-level ``key`` set to ``value`` (a scalar), written on its own line after the key ``after``
    when it is new."""
    intended = {**_scenario_data(text), key: value}
    return _checked(_set_top_level(text, key, yaml_inline(value), after), intended)


def _scenario_data(text: str) -> dict[str, Any]:
    data = load_bytes(text.encode("utf-8")).data
    if not isinstance(data, dict):
        raise InputError("a scenario is a mapping of keys", expected="'id:', 'game:', 'title:' ... at the top level")
    if not isinstance(data.get("actions", []), list):
        raise InputError("'actions:' is not a list", path=("actions",), expected="a list of actions")
    return data


def _checked(edited: str | None, intended: dict[str, Any]) -> str:
    if edited is not None:
        try:
            if load_bytes(edited.encode("utf-8")).data == intended:
                return edited
        except InputError:
            pass
    return yaml_text(intended, flow_leaves=True, width=UNFOLDED)


def _root(text: str) -> MappingNode | None:
    try:
        root = yaml.compose(text, Loader=Loader)
    except yaml.YAMLError:
        return None
    return root if isinstance(root, MappingNode) else None


def _entry(root: MappingNode, key: str) -> tuple[Node, Node] | None:
    for key_node, value_node in root.value:
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            return key_node, value_node
    return None


def _end(node: Node) -> int:
    """Where ``node``'s own text ends: a block collection ends where its last value does, not at the next token."""
    while isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    return int(node.end_mark.index)


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """The index just past the end of the line holding ``index`` (past its newline, if it has one)."""
    if index > 0 and text[index - 1] == "\n":
        return index  # a block scalar ends at the start of the line after it
    found = text.find("\n", index)
    return len(text) if found < 0 else found + 1


def _appended(text: str, flow: str) -> str | None:
    root = _root(text)
    if root is None:
        return None
    entry = _entry(root, "actions")
    if entry is None:
        return text + ("" if text.endswith("\n") or not text else "\n") + f"actions:\n- {flow}\n"
    _, actions = entry
    if not isinstance(actions, SequenceNode):
        return None
    if actions.flow_style:
        close = actions.end_mark.index - 1  # the index of its ']'
        return text[:close] + (", " if actions.value else "") + flow + text[close:]
    indent = " " * actions.start_mark.column  # where its dashes are
    at = _line_end(text, _end(actions.value[-1]))
    return text[:at] + ("" if text[:at].endswith("\n") else "\n") + f"{indent}- {flow}\n" + text[at:]


def _removed(text: str) -> str | None:
    root = _root(text)
    entry = _entry(root, "actions") if root is not None else None
    if entry is None:
        return None
    key, actions = entry
    if not isinstance(actions, SequenceNode) or not actions.value:
        return None
    last = actions.value[-1]
    if actions.flow_style:
        start = _end(actions.value[-2]) if len(actions.value) > 1 else actions.start_mark.index + 1
        return text[:start] + text[_end(last):]
    if len(actions.value) == 1:  # the list becomes empty: written []
        return text[:key.end_mark.index] + ": []\n" + text[_line_end(text, _end(last)):]
    return text[:_line_start(text, last.start_mark.index)] + text[_line_end(text, _end(last)):]


def _set_top_level(text: str, key: str, flow: str, after: str) -> str | None:
    root = _root(text)
    if root is None:
        return None
    entry = _entry(root, key)
    if entry is not None:
        _, value = entry
        if not isinstance(value, ScalarNode):
            return None
        return text[:value.start_mark.index] + flow + text[value.end_mark.index:]
    previous = _entry(root, after)
    if previous is None:
        return None
    at = _line_end(text, _end(previous[1]))
    return text[:at] + ("" if text[:at].endswith("\n") else "\n") + f"{key}: {flow}\n" + text[at:]
