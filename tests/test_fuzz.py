"""Hostile and damaged scenario files, generated: the checker always answers, never crashes.

For every input: exit status 0, 1 or 2; no exception escapes (no traceback); every INVALID
names file, line and column. Inputs are YAML documents built from random nesting, anchors and
aliases, tags and scalars of every type and size, truncated, byte-flipped and spliced copies of
the real scenarios, and random legal play from the real scenarios' starts (every game's moves
module lists what the rules allow) with its actions then damaged (a value replaced, a key
dropped, an action repeated or moved), so that fuzzing reaches play: every refusal is then one
the game declares. CI runs a bounded number of examples; set
``RULINGS_FUZZ_EXAMPLES`` for a long run. Time and memory per file are measured by
``benchmarks/fuzz.py``, not here (timed tests are flaky on a shared machine).
"""

from __future__ import annotations

import copy
import functools
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.commands import randomplay
from checker.engine import legal
from checker.format import yamlsafe
from checker.cli import main
from checker.run import suite
from checker.format.scenario import Scenario
from tests.conftest import SCENARIOS

EXAMPLES = int(os.environ.get("RULINGS_FUZZ_EXAMPLES", "120"))
REAL = [path.read_bytes() for path in sorted(SCENARIOS.rglob("*.yaml"))]
LOCATED = re.compile(r"^INVALID  .+:\d+:\d+: error: ", re.MULTILINE)

TRICKY_SCALARS = [
    "~", "null", "true", "no", "on", ".inf", "-.nan", "0x1F", "0o17", "1e999", "-0", "1_000",
    "2026-11-23", "12:30:00", "'quoted'", '"\\u0000"', '"\\x07"', "9" * 600, "x" * 3000, "é漢🎲", "''",
    "!!binary aGVsbG8=", "!!python/object:os.system", "!custom value", "!!str 7", "!!int '3'", "<<",
    "*undefined", "&anchor", "%", "@at", "`tick", "? complex", "- dash", "{", "[", "}", "]", ": colon",
]
KEYS = ["id", "game", "title", "initial", "actions", "expect", "players", "A", "B", "action", "reject",
        "reason", "cards", "readings", "rulings", "hand", "lp", "monsters", "<<", "? x", "1", "", "~"]
GAMES = ["monster-rancher-bc2", "yugioh-dm2", "many-marios-0", "my-crypto-saga", "no-such-game"]


def _flow(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(st.sampled_from(KEYS), children).map(lambda kv: f"{kv[0]}: {kv[1]}")
    return st.one_of(
        st.lists(children, max_size=6).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(pair, max_size=6).map(lambda items: "{" + ", ".join(items) + "}"),
        st.tuples(st.sampled_from(["&a ", "&b ", "!tag ", "!!map ", "!!seq ", ""]), children).map("".join),
    )


VALUES = st.recursive(
    st.one_of(st.sampled_from(TRICKY_SCALARS), st.integers().map(str), st.floats().map(repr),
              st.text(max_size=40).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
              st.sampled_from(["*a", "*b"])),
    _flow, max_leaves=40,
)


@st.composite
def generated_documents(draw: st.DrawFn) -> bytes:
    """A scenario-shaped document whose every value may be anything YAML can say."""
    lines = [f"id: {draw(st.sampled_from(['fuzz', 'Fuzz!', '']))}", f"game: {draw(st.sampled_from(GAMES))}"]
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=8)):
        lines.append(f"{key}: {draw(VALUES)}")
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@st.composite
def damaged_scenarios(draw: st.DrawFn) -> bytes:
    """A real scenario, truncated, with bytes flipped, or spliced with another."""
    text = bytearray(draw(st.sampled_from(REAL)))
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["truncate", "flip", "splice", "duplicate-line", "indent"]))
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        if how == "truncate":
            del text[at:]
        elif how == "flip":
            text[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "splice":
            other = draw(st.sampled_from(REAL))
            text[at:at] = other[: draw(st.integers(0, len(other)))]
        elif how == "duplicate-line":
            end = text.find(b"\n", at) + 1 or len(text)
            start = text.rfind(b"\n", 0, at) + 1
            text[end:end] = text[start:end]
        else:
            start = text.rfind(b"\n", 0, at) + 1
            text[start:start] = b"  "
    return bytes(text)


def check_one(tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(content)
    code = main(["check", str(path)])  # an exception escaping here is the traceback a user would see
    output = capsys.readouterr()
    text = output.out + output.err
    assert code in (0, 1, 2), text
    if code == 2:
        assert LOCATED.search(text), text
    assert "Traceback" not in text and "internal error" not in text, text
    assert path.read_bytes() == content  # nothing the user wrote is touched


FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="RULINGS_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(content=generated_documents())
def test_generated_documents_never_crash_the_checker(tmp_path: Path, capsys, content: bytes) -> None:
    check_one(tmp_path, content, capsys)


@FUZZ
@given(content=damaged_scenarios())
def test_damaged_scenarios_never_crash_the_checker(tmp_path: Path, capsys, content: bytes) -> None:
    check_one(tmp_path, content, capsys)


def _same_reading(content: bytes) -> None:
    """A document read quickly (no positions) is the document read with every position."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return
    quick = yamlsafe._load_plain(text)
    if quick is yamlsafe._UNSURE:
        return
    assert yaml.safe_dump(quick) == yaml.safe_dump(yamlsafe._load_marked(text).data)


@FUZZ
@given(content=st.one_of(generated_documents(), damaged_scenarios()))
def test_the_quick_reading_gives_the_data_of_the_positioned_one(content: bytes) -> None:
    _same_reading(content)


@pytest.mark.parametrize("path", sorted(SCENARIOS.rglob("*.yaml")), ids=lambda path: path.stem)
def test_every_real_scenario_is_read_quickly(path: Path) -> None:
    content = path.read_bytes()
    assert yamlsafe._load_plain(content.decode("utf-8")) is not yamlsafe._UNSURE
    _same_reading(content)


PLAYED = sorted(game_id for game_id, game in suite.games().items() if legal.lists_actions(game))


@functools.cache
def _starts(game_id: str) -> list[randomplay.Start]:
    game = suite.games()[game_id]
    loaded = suite.load_many(suite.scenario_files([SCENARIOS / game_id]))
    return randomplay.starts(game, (item for item in loaded if isinstance(item, Scenario)))


@st.composite
def played_then_damaged(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A game's random legal play from a real scenario's start, then its actions damaged."""
    game_id = draw(st.sampled_from(PLAYED))
    data = draw(randomplay.scenarios(suite.games()[game_id], _starts(game_id)))
    actions: list[dict[str, Any]] = data["actions"]
    for _ in range(draw(st.integers(0, 3)) if actions else 0):
        at = draw(st.integers(0, len(actions) - 1))
        action = actions[at]
        if not action:  # every key dropped already
            continue
        how = draw(st.sampled_from(["value", "drop", "repeat", "move", "swap-player"]))
        key = draw(st.sampled_from(sorted(action)))
        if how == "value":
            action[key] = draw(st.one_of(st.sampled_from(TRICKY_SCALARS), st.integers(-3, 99), st.floats(),
                                         st.sampled_from([[], {}, None, True, "A", "B", "Golem", [1, 2], {"x": 1}])))
        elif how == "drop":
            del action[key]
        elif how == "repeat":
            actions.insert(at, copy.deepcopy(action))
        elif how == "move":
            actions.insert(draw(st.integers(0, len(actions) - 1)), actions.pop(at))
        elif "player" in action:
            action["player"] = "B" if action["player"] == "A" else "A"
    return game_id, data


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 10))
@given(drawn=played_then_damaged())
def test_damaged_random_play_never_crashes_and_refuses_only_for_declared_reasons(tmp_path: Path, capsys, drawn) -> None:
    game_id, data = drawn
    document = {"id": "fuzz-play", "game": game_id, "title": "Random play, damaged", **data}
    try:
        content = yaml.safe_dump(document, allow_unicode=True, sort_keys=False).encode("utf-8")
    except yaml.YAMLError:
        return
    check_one(tmp_path, content, capsys)
    item = suite.load(tmp_path / "fuzz.yaml")
    if isinstance(item, Scenario):
        result = suite.run_one(item)
        assert result.crash is None, result.crash
        declared = suite.games()[game_id].vocabulary.reject_reasons
        assert {r.reason for r in result.rejections.values()} <= set(declared)
