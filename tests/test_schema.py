"""The published JSON Schema is current, valid draft-07, and what scenario files point at."""

from __future__ import annotations

import copy
import json

import jsonschema
import jsonschema_rs

from checker.run import suite
from checker.format.scenario import MODELINE
from checker.format.schema import one_game, published_text
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


def test_one_games_part_of_the_schema_judges_that_games_data_as_the_whole_schema_does(scenarios) -> None:
    schema = suite.default().validator.schema
    whole = jsonschema_rs.Draft7Validator(schema)
    alone = {game_id: jsonschema_rs.Draft7Validator(one_game(schema, game_id)) for game_id in suite.games()}
    assert all(len(one_game(schema, game_id)["definitions"]) == 1 for game_id in suite.games())
    refused = 0
    for scenario in scenarios:
        variants = [scenario.raw]
        for key in ("initial", "actions", "expect"):
            if key in scenario.raw:
                broken = copy.deepcopy(scenario.raw)
                broken[key] = {"not": "what a game takes"} if key != "actions" else [{"action": "no-such-action"}]
                variants.append(broken)
        for data in variants:
            assert alone[scenario.game].is_valid(data) == whole.is_valid(data), (scenario.path, data is scenario.raw)
            refused += not whole.is_valid(data)
    assert refused > len(scenarios)  # the broken variants were refused, by both
