"""What a command line is expected to have: --version, shell completion, help for every option, and a
published JSON Schema for each --format json output that the output keeps to."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
from referencing import Registry, Resource

from checker import cli
from checker.cli import main
from tests.conftest import ROOT, SCENARIOS

OUTPUT = ROOT / "schema" / "output"
MR = SCENARIOS / "monster-rancher-bc2"


def output_validator(name: str) -> jsonschema.Draft7Validator:
    """The validator of ``schema/output/NAME.schema.json``, its references to the other output schemas resolved."""
    schemas = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in OUTPUT.glob("*.schema.json")}
    registry: Registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    schema = schemas[f"{name}.schema.json"]
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema, registry=registry)


def json_of(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    main(list(args))
    return json.loads(capsys.readouterr().out)


def test_check_json_keeps_to_its_schema(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ngame: monster-rancher-bc2\n", encoding="utf-8")
    files = [str(MR / "counter-rounding.yaml"), str(MR / "cards-belong-to-their-monster.yaml"), str(bad)]
    for extra in ([], ["--with-outcomes"]):
        data = json_of(capsys, "check", "--format", "json", "-j", "1", *extra, *files)
        assert [result["verdict"] for result in data["results"]] == ["pass", "pass", "invalid"]
        output_validator("check").validate(data)
    refused = data["results"][1]["rejections"]["1"]
    assert refused["reason"] == "not-your-turn" and "ruling" in refused


def test_a_result_with_a_key_the_schema_does_not_describe_is_refused() -> None:
    """The schema is closed: an output that grows a key fails the tests until the schema describes it."""
    result = {"id": "x", "path": "x.yaml", "verdict": "pass", "mismatches": [], "rejections": {}, "readings": {}, "cited": []}
    validator = output_validator("result")
    validator.validate(result)
    assert list(validator.iter_errors({**result, "colour": "red"}))


def test_explain_json_keeps_to_its_schema(capsys) -> None:
    data = json_of(capsys, "explain", "--format", "json", str(MR / "counter-rounding.yaml"))
    assert data["trace"] and data["outcome"]
    output_validator("result").validate(data)


def test_options_json_keeps_to_its_schema(capsys) -> None:
    data = json_of(capsys, "options", "--format", "json", "--after", "1", str(MR / "counter-rounding.yaml"))
    assert data["options"]
    output_validator("options").validate(data)


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    from importlib.metadata import version

    assert capsys.readouterr().out == f"checker {version('rulings-checker')}\n"


def _actions(parser: argparse.ArgumentParser, where: str = "checker") -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{where} {name}")
        else:
            yield where, action


def test_every_option_and_argument_has_help() -> None:
    missing = [f"{where} {action.dest}" for where, action in _actions(cli._parser())
               if action.help != argparse.SUPPRESS and not action.help]
    assert missing == []


def _complete(line: str) -> list[str]:
    """What the shell gets back for ``line``, asked as argcomplete's shell script asks (reading file descriptor 8)."""
    env = {**os.environ, "COMP_LINE": line, "COMP_POINT": str(len(line)), "_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n"}
    done = subprocess.run(f"{sys.executable} -m checker 8>&1 9>/dev/null", shell=True, env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_shell_completion_completes_commands_and_options() -> None:
    assert _complete("checker di") == ["diff", "disputes"]
    assert _complete("checker diff --f") == ["--format"]
    assert "--link-base" in _complete("checker diff --")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_for_each_shell(shell: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--completion", shell])
    assert exited.value.code == 0
    script = capsys.readouterr().out
    assert "_ARGCOMPLETE" in script and "checker" in script
