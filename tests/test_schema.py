"""The published JSON Schema is current, valid draft-07, and what scenario files point at."""

from __future__ import annotations

import json

import jsonschema

from checker import suite
from checker.scenario import MODELINE
from checker.schema import published_text
from tests.conftest import ROOT


def test_published_schema_is_up_to_date() -> None:
    published = (ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8")
    assert published == published_text(suite.games()), "run 'make schema'"


def test_published_schema_is_valid_draft_07() -> None:
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)


def test_every_scenario_file_carries_the_schema_modeline() -> None:
    for path in suite.scenario_files([ROOT / "scenarios"]):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(MODELINE), path
        target = (path.parent / first[len(MODELINE) :]).resolve()
        assert target == (ROOT / "schema" / "scenario.schema.json").resolve(), path


def test_schema_accepts_every_scenario_as_data(scenarios) -> None:
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    for scenario in scenarios:
        jsonschema.validate(scenario.raw, schema, cls=jsonschema.Draft7Validator)
