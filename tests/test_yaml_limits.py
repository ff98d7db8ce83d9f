"""Nesting and size limits of both YAML loaders, tested far beyond where each would fail.

LibYAML's composer (the quick loader) overflows the C stack at about 24,000 levels
(``benchmarks/yaml_limits.py`` finds where): a crash there kills the process, so each deep
input is read in a subprocess, where a segmentation fault is a failed test, not a dead pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.format import yamlsafe
from tests.conftest import ROOT, SCENARIOS
from tests.test_fuzz import damaged_scenarios, generated_documents

CRASH_DEPTH = 24_000  # where LibYAML's composer overflows an 8 MiB stack
STYLES = {
    "flow": lambda depth: "initial: " + "[" * depth + "]" * depth + "\n",
    "block": lambda depth: "initial:\n" + "- " * depth + "x\n",
    "mappings": lambda depth: "initial: " + "{a: " * depth + "x" + "}" * depth + "\n",
}


def in_subprocess(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "RULINGS_CACHE": "off"})


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("depth", [10 * yamlsafe.MAX_DEPTH, 10 * CRASH_DEPTH])
def test_both_loaders_refuse_deep_nesting_without_crashing(style: str, depth: int) -> None:
    run = in_subprocess(f"""
        from checker.format import yamlsafe
        from checker.engine.errors import InputError
        from tests.test_yaml_limits import STYLES
        text = STYLES[{style!r}]({depth})
        assert yamlsafe._load_plain(text) is yamlsafe._UNSURE, "the quick loader read it"
        try:
            yamlsafe._load_marked(text)
        except InputError as error:
            print(error.message, error.position.line, error.position.column)
    """)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith(f"nesting deeper than {yamlsafe.MAX_DEPTH} levels "), run.stdout


@pytest.mark.parametrize("command", [["check"], ["explain"], ["readings"], ["new", "monster-rancher-bc2", "--from"]])
def test_every_command_refuses_a_file_nested_ten_times_deeper_than_libyaml_survives(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    depth = min(10 * CRASH_DEPTH, yamlsafe.MAX_BYTES // 2 - 100)  # as deep as a file within the size limit goes
    path.write_text("id: deep\ngame: monster-rancher-bc2\ntitle: deep\n" + STYLES["flow"](depth), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "checker", *command, str(path)], capture_output=True, text=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "RULINGS_CACHE": "off"})
    assert run.returncode == 2, run.stderr[-2000:]
    assert f"{path}:4:" in run.stdout + run.stderr and "nesting deeper than" in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_a_file_ten_times_the_size_limit_is_refused_for_its_size(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(STYLES["flow"](5 * yamlsafe.MAX_BYTES), encoding="utf-8")
    with pytest.raises(yamlsafe.InputError, match=f"larger than the {yamlsafe.MAX_BYTES} bytes allowed"):
        yamlsafe.load_file(str(path))


def deepest(text: str) -> int | None:
    """How deep the parser's events nest, or None when the text is not YAML."""
    depth = most = 0
    try:
        for event in yaml.parse(text, Loader=yamlsafe.Loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                most = max(most, depth)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return None
    return most


NESTED = st.recursive(
    st.sampled_from(["x", "1", "''"]),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        inner.map(lambda item: "- " + item.replace("\n", "\n  ")),
        inner.map(lambda item: "? " + item.replace("\n", "\n  ") + "\n: y"),
        inner.map(lambda item: "k:\n" + item),
        inner.map(lambda item: "k:\n  " + item.replace("\n", "\n  ")),
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.one_of(NESTED, generated_documents().map(lambda b: b.decode("utf-8", "replace")),
                      damaged_scenarios().map(lambda b: b.decode("utf-8", "replace"))))
def test_the_bound_on_nesting_is_never_below_the_nesting(text: str) -> None:
    depth = deepest(text)
    if depth is not None:
        assert depth <= yamlsafe.nesting_bound(text)


def test_every_real_scenario_is_within_the_quick_loaders_depth() -> None:
    bounds = {path.name: yamlsafe.nesting_bound(path.read_text(encoding="utf-8")) for path in SCENARIOS.rglob("*.yaml")}
    assert max(bounds.values()) <= yamlsafe.QUICK_DEPTH, sorted(bounds.items(), key=lambda item: item[1])[-3:]
