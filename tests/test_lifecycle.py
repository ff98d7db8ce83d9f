"""A dispute's life: filed from a skeleton (`checker new`), shown open, ruled (`ruling:`), shown ruled.

Also the per-game reference of facts and defaults, generated from each game's schema.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest

from checker.commands import reference, skeleton
from checker.run import suite
from checker.cli import main
from checker.engine.game import Game
from checker.games import registry
from checker.run.runner import RunResult
from checker.format.scenario import MODELINE, Scenario
from tests.conftest import ROOT, SCENARIOS, build_site

MR = "monster-rancher-bc2"
LAST_TRUMP = (SCENARIOS / MR / "last-trump-with-joys-support.yaml").read_text(encoding="utf-8")
TAGS_LINE = "tags: [hand, deck, Last Trump, trivia, shuffle]\n"
REASONING = "The document presumes the game shuffles in Joy's Support, the card played with Last Trump."
RULING = f"""ruling:
  adopted: {{mr.amb.last-trump-returned-card: combo-card}}
  reasoning: "{REASONING}"
  date: 2024-05-01
  by: the test panel
"""


def disputed(text: str, scenario_id: str, extra: str = "", status: str = "status: disputed\n") -> str:
    """The Last Trump scenario under another id, with a status and anything else after its tags."""
    assert TAGS_LINE in text
    return text.replace("id: last-trump-with-joys-support", f"id: {scenario_id}").replace(TAGS_LINE, TAGS_LINE + status + extra)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def load(path: Path) -> Scenario | RunResult:
    [item] = suite.load_many([path])
    return item


def error_of(path: Path) -> str:
    item = load(path)
    assert isinstance(item, RunResult) and item.error is not None, "expected the file to be invalid"
    return item.error.render(str(path))


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if needle in line)


# --- ruling: in the scenario format --------------------------------------------------------------


def test_a_ruled_dispute_loads_with_its_ruling(tmp_path: Path) -> None:
    path = write(tmp_path, "ruled.yaml", disputed(LAST_TRUMP, "ruled-one", RULING))
    scenario = load(path)
    assert isinstance(scenario, Scenario)
    assert scenario.ruling is not None and not scenario.is_open_dispute
    assert scenario.ruling.readings == {"mr.amb.last-trump-returned-card": "combo-card"}
    assert scenario.ruling.outcome == ""
    assert scenario.ruling.reasoning == REASONING
    assert scenario.ruling.date == datetime.date(2024, 5, 1)
    assert scenario.ruling.by == "the test panel"
    assert main(["check", str(path)]) == 0


def test_an_outcome_in_words_can_be_adopted(tmp_path: Path) -> None:
    ruling = "ruling:\n  adopted: Joy's Support goes back into the deck.\n  reasoning: As the document presumes.\n  date: 2024-05-01\n"
    scenario = load(write(tmp_path, "ruled.yaml", disputed(LAST_TRUMP, "ruled-in-words", ruling)))
    assert isinstance(scenario, Scenario) and scenario.ruling is not None
    assert scenario.ruling.outcome == "Joy's Support goes back into the deck."
    assert scenario.ruling.readings == {} and scenario.ruling.by == ""


def test_a_disputed_scenario_without_a_ruling_is_open(tmp_path: Path) -> None:
    scenario = load(write(tmp_path, "open.yaml", disputed(LAST_TRUMP, "open-one")))
    assert isinstance(scenario, Scenario) and scenario.is_open_dispute and scenario.ruling is None


@pytest.mark.parametrize("status", ["status: confirmed\n", ""])
def test_a_ruling_needs_status_disputed(tmp_path: Path, status: str) -> None:
    text = disputed(LAST_TRUMP, "ruled-confirmed", RULING, status=status)
    message = error_of(write(tmp_path, "bad.yaml", text))
    assert f"bad.yaml:{line_of(text, 'ruling:')}:1: error: a scenario with 'ruling:'" in message
    assert "'status: disputed'" in message


@pytest.mark.parametrize(
    ("before", "after", "needle", "message"),
    [
        ("combo-card}", "joy}", "adopted:", "unknown reading 'joy' of mr.amb.last-trump-returned-card"),
        ("{mr.amb.last-trump-returned-card:", "{mr.cards.sufficient:", "adopted:", "'mr.cards.sufficient' is not an ambiguous ruling"),
        ("date: 2024-05-01", "date: 1 May 2024", "date:", "date '1 May 2024' is not written YYYY-MM-DD"),
        ("date: 2024-05-01", "date: 2024-02-30", "date:", "no such date: '2024-02-30'"),
        (f'  reasoning: "{REASONING}"\n', "", "adopted:", "missing key 'reasoning'"),
        ("  by: the test panel\n", "  by: the test panel\n  verdict: yes\n", "verdict:", "unknown key 'verdict'"),
    ],
)
def test_a_wrong_ruling_is_invalid_with_its_line(tmp_path: Path, before: str, after: str, needle: str, message: str) -> None:
    text = disputed(LAST_TRUMP, "ruled-wrong", RULING.replace(before, after))
    rendered = error_of(write(tmp_path, "bad.yaml", text))
    assert f"bad.yaml:{line_of(text, needle)}:" in rendered
    assert message in rendered


def test_the_published_schema_tells_editors_a_ruling_needs_status_disputed() -> None:
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    base = {"id": "x", "game": MR, "title": "t", "initial": {"players": {"A": {"monsters": [{"name": "Pixie", "attribute": "Air", "lp": 1}]},
                                                                          "B": {"monsters": [{"name": "Mew", "attribute": "Air", "lp": 1}]}}},
            "actions": [], "ruling": {"adopted": "no change", "reasoning": "r", "date": "2024-05-01"}}
    validator = jsonschema.Draft7Validator(schema)
    assert not list(validator.iter_errors({**base, "status": "disputed"}))
    assert list(validator.iter_errors({**base, "status": "confirmed"}))
    assert list(validator.iter_errors(base))


# --- The Disputes page ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dispute_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("disputes")
    folder = work / "scenarios" / MR
    write(folder, "open-dispute.yaml", disputed(LAST_TRUMP, "open-dispute"))
    write(folder, "ruled-dispute.yaml", disputed(LAST_TRUMP, "ruled-dispute", RULING))
    write(folder, "counter-rounding.yaml", (SCENARIOS / MR / "counter-rounding.yaml").read_text(encoding="utf-8"))
    write(folder, "ruled-by-nobody.yaml", disputed(LAST_TRUMP, "ruled-by-nobody", RULING.replace("  by: the test panel\n", "")))
    write(folder, "proposing.yaml", disputed(LAST_TRUMP, "proposing", PROPOSAL))
    light = (SCENARIOS / MCS / "light-beside-three-elements.yaml").read_text(encoding="utf-8")
    ruled_light = light.replace("id: light-beside-three-elements", "id: light-ruled-tie").replace(
        "readings:\n  mcs.amb.light-with-three: light-wins\n", "status: disputed\n" + TIE_RULING)
    write(work / "scenarios" / MCS, "light-ruled-tie.yaml", ruled_light.split("expect:")[0])
    return build_site(work, work / "scenarios")


MCS = "my-crypto-saga"
TIE_RULING = """ruling:
  adopted: {mcs.amb.light-with-three: tie}
  reasoning: Fire, Water and Leaf are all present.
  date: 2025-01-15
"""
PROPOSAL = """proposed_ambiguity:
  passage: shuffle the card back into the deck
  line: 40
  readings: [the card Last Trump returned, the card played with Last Trump]
"""


def between(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end)]


def test_disputes_page_separates_open_from_ruled(dispute_site: Path) -> None:
    page = (dispute_site / "disputes" / "index.html").read_text(encoding="utf-8")
    opened = between(page, f'id="{MR}-open"', f'id="{MR}-ruled"')
    ruled = between(page, f'id="{MR}-ruled"', f'id="{MR}-proposed"')
    assert "open-dispute/" in opened and "ruled-dispute/" not in opened and "counter-rounding" not in opened
    assert "ruled-dispute/" in ruled and "open-dispute/" not in ruled and "counter-rounding" not in ruled
    # The open one: what each reading gives, and the scenario file to copy.
    assert "combo-card" in opened and "last-trump" in opened
    assert f'href="../{MR}/scenarios/open-dispute/#scenario-file"' in opened
    # The ruled one: the reading adopted, the reasoning, the date and who ruled.
    assert "mr.amb.last-trump-returned-card</a> = <code>combo-card</code>" in ruled
    assert "Joy&#x27;s Support, the card played with Last Trump." in ruled
    assert '<time datetime="2024-05-01">2024-05-01</time> by the test panel' in ruled


def test_a_ruling_by_nobody_named_ends_at_its_date(dispute_site: Path) -> None:
    page = (dispute_site / "disputes" / "index.html").read_text(encoding="utf-8")
    assert '<time datetime="2024-05-01">2024-05-01</time></p>' in page
    assert "</time>.</p>" not in page


def test_a_ruled_dispute_is_played_on_the_site_under_its_adopted_reading(dispute_site: Path) -> None:
    page = (dispute_site / MCS / "scenarios" / "light-ruled-tie" / "index.html").read_text(encoding="utf-8")
    used = page[page.index("Readings used:") :]
    assert "mcs.amb.light-with-three</a> = <code>tie</code>" in used[: used.index("</p>")]


def test_proposed_ambiguities_are_listed_apart_on_the_disputes_page(dispute_site: Path) -> None:
    page = (dispute_site / "disputes" / "index.html").read_text(encoding="utf-8")
    proposed = between(page, f'id="{MR}-proposed"', f'id="{MR}-ambiguous"')
    assert "proposing/" in proposed and "open-dispute/" not in proposed
    assert "shuffle the card back into the deck" in proposed and "Line 40 of the source" in proposed
    assert "<li>the card played with Last Trump</li>" in proposed
    assert "None." in between(page, f'id="{MCS}-proposed"', f'id="{MCS}-ambiguous"')


def test_the_linked_scenario_file_is_on_the_scenario_page(dispute_site: Path) -> None:
    page = (dispute_site / MR / "scenarios" / "open-dispute" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="scenario-file">' in page
    assert "id: open-dispute" in page[page.index('id="scenario-file"') :]


def test_a_ruled_scenario_page_shows_its_ruling(dispute_site: Path) -> None:
    page = (dispute_site / MR / "scenarios" / "ruled-dispute" / "index.html").read_text(encoding="utf-8")
    assert "Adopted:" in page and '<time datetime="2024-05-01">' in page


# --- Facts and defaults, generated from the schema ------------------------------------------------


def outcome_property_names(game: Game) -> set[str]:
    """Every property name reachable from the game's outcome definition, found by a plain scan."""
    definitions = game.schema["definitions"]
    names: set[str] = set()
    seen: set[str] = set()

    def scan(node: Any) -> Iterator[None]:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in seen:
                seen.add(ref)
                yield from scan(definitions[ref.removeprefix("#/")])
            for key, value in node.items():
                if key == "properties":
                    names.update(value)
                yield from scan(value)
        elif isinstance(node, list):
            for item in node:
                yield from scan(item)

    list(scan(definitions["outcome"]))
    return names


@pytest.mark.parametrize("game_id", list(registry()))
def test_every_outcome_property_is_in_the_generated_reference(game_id: str, capsys) -> None:
    game = registry()[game_id]
    names = outcome_property_names(game)
    assert len(names) > 5
    segments = {part for fact in reference.facts(game) for part in re.split(r"[.\[\]]+", fact.path) if part}
    assert names <= segments, names - segments
    assert main(["facts", game_id]) == 0
    printed = capsys.readouterr().out
    for fact in reference.facts(game):
        assert f"| `{fact.path}` |" in printed


def test_the_site_has_a_facts_page_per_game_linked_from_the_game_and_the_guide(dispute_site: Path) -> None:
    guide = (dispute_site / "scenario-format" / "index.html").read_text(encoding="utf-8")
    for game_id, game in registry().items():
        page = (dispute_site / game_id / "facts" / "index.html").read_text(encoding="utf-8")
        for fact in reference.facts(game):
            assert f"<code>{fact.path}</code>" in page, fact.path
        for default in reference.defaults(game):
            assert f"<code>{default.path}</code>" in page, default.path
        assert 'href="facts/"' in (dispute_site / game_id / "index.html").read_text(encoding="utf-8")
        assert f'href="../{game_id}/facts/"' in guide


def test_defaults_come_from_the_state_schema() -> None:
    inherited = {d.path: d for d in reference.defaults(registry()["yugioh-dm2"])}
    assert inherited["players.A.lp"].value == 8000
    assert inherited["turn"].value == 2
    assert not inherited["active"].has_value and "first player" in inherited["active"].description


@pytest.fixture(scope="module")
def repository() -> list[Scenario]:
    loaded = suite.load_many(suite.scenario_files([SCENARIOS]))
    assert all(isinstance(item, Scenario) for item in loaded)
    return [item for item in loaded if isinstance(item, Scenario)]


def test_a_question_from_every_scenario_answers_as_the_scenario_does_with_its_defaults_written_out(
    tmp_path: Path, repository: list[Scenario]
) -> None:
    """The defaults `checker new` writes out are the ones the engines apply: the outcome does not move."""
    for original in repository:
        game = registry()[original.game]
        target = write(tmp_path, f"{original.id}.yaml", skeleton.skeleton(game, question=True, source=original, taken=set(), schema_ref="x"))
        question = load(target)
        assert isinstance(question, Scenario) and question.is_question, target
        assert reference.with_defaults(game, original.initial) == question.initial
        before, after = suite.run_one(original), suite.run_one(question)
        assert after.verdict == "question", (original.id, after.verdict)
        assert after.outcome == before.outcome, original.id
        assert {i: r.reason for i, r in after.rejections.items()} == {i: r.reason for i, r in before.rejections.items()}


# --- checker new -----------------------------------------------------------------------------------


def first_scenario(game_id: str) -> Path:
    return suite.scenario_files([SCENARIOS / game_id])[0]


@pytest.mark.parametrize("game_id", list(registry()))
@pytest.mark.parametrize("mode", [[], ["--question"], ["--from", "FIRST"], ["--question", "--from", "FIRST"]])
def test_new_writes_a_question_that_checker_check_answers(
    game_id: str, mode: list[str], tmp_path: Path, monkeypatch, capsys, repository: list[Scenario]
) -> None:
    monkeypatch.chdir(ROOT)
    args = [str(first_scenario(game_id)) if arg == "FIRST" else arg for arg in mode]
    target = tmp_path / "scenarios" / game_id / "new.yaml"
    assert main(["new", game_id, *args, "--output", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith(MODELINE)
    assert (target.parent / first[len(MODELINE) :]).resolve() == (ROOT / "schema" / "scenario.schema.json").resolve()
    capsys.readouterr()
    assert main(["check", str(target)]) == 0
    assert capsys.readouterr().out.startswith("ANSWER")
    scenario = load(target)
    assert isinstance(scenario, Scenario) and scenario.game == game_id
    assert scenario.status == ("confirmed" if "--question" in mode else "disputed")
    assert scenario.id not in {s.id for s in repository}
    for fact in reference.facts(registry()[game_id]):
        assert f"#   {fact.path} " in text, fact.path
    assert ("# expect:" in text) == ("--question" not in mode)


def test_new_prints_to_stdout_a_file_for_the_scenarios_folder(tmp_path: Path, capsys) -> None:
    assert main(["new", MR]) == 0
    target = write(tmp_path / "scenarios" / MR, "printed.yaml", capsys.readouterr().out)
    assert main(["check", str(target)]) == 0
    first = target.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"{MODELINE}../../schema/scenario.schema.json"


def test_new_takes_an_id_no_scenario_uses_when_printing(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "scenarios" / MR, "taken.yaml", f"id: new-{MR}-dispute\n")
    write(tmp_path / "scenarios" / MR, "taken-too.yaml", f"id: new-{MR}-dispute-2\n")
    assert main(["new", MR]) == 0
    assert f"\nid: new-{MR}-dispute-3\n" in capsys.readouterr().out


def test_new_output_is_named_by_its_file_and_reads_no_folder(tmp_path: Path, monkeypatch) -> None:
    """One file is written: nothing under its folder is read, not even a loop of links or a folder of no scenario."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / "back").symlink_to(tmp_path, target_is_directory=True)
    write(tmp_path, "notes.txt", "not a scenario\n")
    target = tmp_path / "My Dispute.yaml"
    assert main(["new", MR, "--output", str(target)]) == 0
    assert "\nid: my-dispute\n" in target.read_text(encoding="utf-8")
    assert main(["check", str(target)]) == 0


def test_new_output_where_no_file_can_be_written_is_one_message(capsys) -> None:
    assert main(["new", MR, "--output", "/proc/version"]) == 2
    assert main(["new", MR, "--output", "/proc/no-such-dir/x.yaml"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 2
    assert "/proc/version already exists: not overwriting it" in err
    assert "cannot write /proc/no-such-dir/x.yaml" in err


def test_new_never_overwrites_a_file(tmp_path: Path, capsys) -> None:
    target = write(tmp_path, "mine.yaml", "my own words\n")
    assert main(["new", MR, "--output", str(target)]) == 2
    assert "already exists: not overwriting it" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "my own words\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "monster-rancher"], "unknown game 'monster-rancher' (did you mean 'monster-rancher-bc2'?)"),
        (["new", "yugioh-dm2", "--from", str(SCENARIOS / MR / "counter-rounding.yaml")], "is a scenario of monster-rancher-bc2, not yugioh-dm2"),
        (["new", MR, "--from", "no-such-file.yaml"], "no such file or folder: no-such-file.yaml"),
        (["facts", "yugioh"], "unknown game 'yugioh'"),
    ],
)
def test_new_and_facts_refuse_bad_input_in_one_line(args: list[str], message: str, capsys) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_new_from_an_invalid_file_names_its_line(tmp_path: Path, capsys) -> None:
    bad = write(tmp_path, "bad.yaml", "id: x\ngame: monster-rancher-bc2\ntitle: t\ninitial: {}\nactions: []\nbogus: 1\n")
    assert main(["new", MR, "--from", str(bad)]) == 2
    assert "bad.yaml:6:1" in capsys.readouterr().err
