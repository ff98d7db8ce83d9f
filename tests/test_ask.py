"""The Ask page's engine (checker.commands.ask) under CPython: the same answers as the command line, and the stand-ins
the browser's bundle ships (checker/site/standins) giving the same answers as the libraries they stand in for."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from checker.cli import main
from checker.commands import ask, report
from checker.run import suite
from checker.site import askbundle
from tests.conftest import ROOT, SCENARIOS
from tests.test_bad_input import CASES, GOOD, HOSTILE, HOSTILE_VALUES

FILES = suite.scenario_files([SCENARIOS])
#: A few scenarios of every game, for what is compared through the command line or a second interpreter.
SAMPLE = [path for game in sorted({p.parent.name for p in FILES}) for path in [p for p in FILES if p.parent.name == game][:3]]


def cli(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    main(list(arguments))
    captured = capsys.readouterr()
    return captured.out + captured.err


def broken_texts() -> dict[str, str]:
    """The bad files of the command line's tests, by case."""
    texts = {f"bad input: {case}": textwrap.dedent(GOOD.format(id="bad")).replace(*change) for case, (change, _) in CASES.items()}
    texts.update({f"hostile: {case}": text for case, (text, _) in HOSTILE.items()})
    for case, (first, second, _) in HOSTILE_VALUES.items():
        text = textwrap.dedent(GOOD.format(id="hostile"))
        for change in filter(None, (first, second)):
            text = text.replace(*change)
        texts[f"hostile value: {case}"] = text
    return texts


def test_every_scenario_gets_the_result_check_and_explain_give(scenarios: list[Any]) -> None:
    for path in FILES:
        said = ask.ask(path.read_text(encoding="utf-8"), str(path))
        result = suite.run_one(suite.load(path))
        assert said["errors"] == [], path
        assert said["result"] == report.result_json(result, with_trace=True), path
        assert said["check"] == report.check_text(result, suite.games()), path
        assert said["explain"] == report.explain(result), path
        assert said["answer"]["paragraphs"], path


def test_the_command_line_prints_what_ask_gives(capsys: pytest.CaptureFixture[str]) -> None:
    for path in SAMPLE:
        said = ask.ask(path.read_text(encoding="utf-8"), str(path))
        [entry] = json.loads(cli(capsys, "check", "--format", "json", "-j", "1", str(path)))["results"]
        assert {key: said["result"][key] for key in entry} == entry, path
        assert cli(capsys, "check", "-j", "1", str(path)).splitlines()[:-1] == said["check"].splitlines(), path
        assert cli(capsys, "explain", str(path)).rstrip("\n") == said["explain"], path
        assert cli(capsys, "readings", str(path)).rstrip("\n") == said["readings"], path
        if said["options"] is not None:
            assert json.loads(cli(capsys, "options", "--format", "json", str(path))) == {
                **said["options"], "options": [{k: o[k] for k in ("player", "action", "rulings")} for o in said["options"]["options"]]
            }, path


def test_each_option_is_written_as_a_scenario_writes_it_and_can_be_played() -> None:
    path = next(p for p in FILES if p.parent.name == "zatch-bell")
    text = path.read_text(encoding="utf-8")
    options = ask.ask(text, str(path))["options"]["options"]
    assert options
    for option in options[:3]:
        played = ask.ask(ask.with_action(text, option["action"]), str(path))
        assert played["errors"] == [], option
        assert played["result"]["rejections"].get(str(len(played["answer"]["played"]))) is None, option
        assert option["words"].startswith(option["action"]["action"])
        assert option["yaml"].startswith("{action: ")


def test_broken_text_gets_the_located_message_check_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for case, text in broken_texts().items():
        path = tmp_path / "bad.yaml"
        path.write_text(text, encoding="utf-8")
        printed = cli(capsys, "check", str(path))
        said = ask.ask(text, str(path))
        assert said["check"] == printed.splitlines()[0] if "result" not in said else True, case
        assert said["errors"], case
        first = said["errors"][0]
        assert printed.startswith(f"INVALID  {first['text']}"), case
        assert first["text"].startswith(f"{path}:{first['line']}:{first['column']}: error: {first['message']}"), case


def test_start_gives_a_valid_new_scenario_of_every_game() -> None:
    for game in ask.games():
        text = ask.start(game["id"])
        said = ask.ask(text)
        assert said["errors"] == [] and said["result"]["verdict"] == "question", game
        assert "status: disputed" in text
        assert (game["id"] in text) and ask.ask(ask.start(game["id"], question=True))["errors"] == []
    with pytest.raises(Exception, match="unknown game 'zatch-belle'"):
        ask.start("zatch-belle")


def test_an_action_appended_then_removed_gives_the_text_back() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        data = suite.load(path).raw
        if not data.get("actions"):
            continue
        last = {k: v for k, v in data["actions"][-1].items() if k not in ("expect", "reject")}
        shorter = ask.without_last_action(text)
        assert suite.default().load_text(shorter, str(path)).raw["actions"] == data["actions"][:-1], path
        longer = ask.with_action(shorter, last)
        assert suite.default().load_text(longer, str(path)).raw["actions"] == [*data["actions"][:-1], last], path
        assert ask.without_last_action(longer) == shorter, path  # the edit keeps the text as written around it


def test_edits_keep_comments_and_layout() -> None:
    text = "# my question\nid: q\ngame: zatch-bell\ntitle: T  # why\nactions:\n  - {action: pass, player: A}  # first\n# end\n"
    appended = ask.with_action(text, {"action": "resolve"})
    assert appended == text.replace("# first\n", "# first\n  - {action: resolve}\n")
    assert ask.without_last_action(appended) == text
    assert ask.without_last_action(text) == text.replace("actions:\n  - {action: pass, player: A}  # first\n", "actions: []\n")
    flow = "id: q\nactions: [{action: pass}]  # flow\n"
    assert ask.with_action(flow, {"action": "resolve"}) == "id: q\nactions: [{action: pass}, {action: resolve}]  # flow\n"
    assert ask.without_last_action(ask.with_action(flow, {"action": "resolve"})) == flow
    assert ask.with_action("id: q\n", {"action": "resolve"}) == "id: q\nactions:\n- {action: resolve}\n"
    with pytest.raises(Exception, match="YAML syntax"):
        ask.with_action("id: [q\n", {"action": "resolve"})


def test_as_dispute_marks_the_text_disputed_and_keeps_the_rest() -> None:
    text = ask.start("zatch-bell", question=True)
    disputed = ask.as_dispute(text)
    assert suite.default().load_text(disputed, "x.yaml").status == "disputed"
    assert disputed.replace("status: disputed\n", "", 1) == text
    assert ask.as_dispute(disputed) == disputed


def test_call_answers_in_json_and_says_what_is_wrong() -> None:
    assert json.loads(ask.call("games", "[]"))["value"] == ask.games()
    refused = json.loads(ask.call("with_action", json.dumps(["id: [q\n", {"action": "resolve"}])))
    assert refused["ok"] is False and "YAML syntax" in refused["error"]


# --- The stand-ins, as the browser runs them: no LibYAML, no compiled validator, no compiled rpds ------------------

BROWSER_LIKE = f"""
import json, sys
sys.path.insert(0, {str(askbundle.STANDINS)!r})
import yaml
for name in [n for n in dir(yaml) if n.startswith("C") and n[1:2].isupper()]:
    delattr(yaml, name)
from checker.commands import ask
import jsonschema_rs, rpds
assert jsonschema_rs.__file__.startswith({str(askbundle.STANDINS)!r}) and rpds.__file__.startswith({str(askbundle.STANDINS)!r})
print(json.dumps([ask.ask(text, name) for name, text in json.load(sys.stdin)]))
"""


def test_the_browsers_libraries_give_the_same_answers_and_messages() -> None:
    asked = [(str(path), path.read_text(encoding="utf-8")) for path in SAMPLE]
    asked += [("bad.yaml", text) for text in broken_texts().values()]
    done = subprocess.run([sys.executable, "-c", BROWSER_LIKE], input=json.dumps(asked), capture_output=True, text=True,
                          cwd=ROOT, check=True)
    for (name, text), said in zip(asked, json.loads(done.stdout), strict=True):
        assert said == ask.ask(text, name), name


PURE_PYYAML = """
import sys, yaml
for name in [n for n in dir(yaml) if n.startswith("C") and n[1:2].isupper()]:
    delattr(yaml, name)
from checker.format.yamlsafe import load_bytes
from checker.engine.errors import InputError
for text in sys.stdin.read().split("\\0"):
    try:
        load_bytes(text.encode())
        print("valid")
    except InputError as error:
        print(error.render("f.yaml"))
"""

#: Texts PyYAML's parser refuses in other words than LibYAML's, one for each problem worded differently.
BROKEN_YAML = [
    "a: b: c\n", "a:\n  - b\n  c: - d\n", "a: [b, c\n", "a: {b: c\nd: e}\n", "a: {b: c] \n", "a: [b, c}\n",
    "a:\n  b: 1\n c: 2\n", "- a\n- b\nc: d\n", "a: |0\n  x\n", "a: |x\n  y\n", "a: >-x\n", "a: &\n", "a: *\n",
    "a: \"\\q\"\n", "a: \"\\x4\"\n", "a: '\n---\n'\n", "a: !<x\n", "a: !x!y z\n", "%YAML 2.0\n---\na: 1\n", "%\n",
    "%YAML 1.1\n%YAML 1.1\n---\na: 1\n", "%TAG !x! y\n%TAG !x! y\n---\na: 1\n", "a: @b\n", "a: `b\n",
    "a: [b, : c]\n", "a: {b: [c}\n", "a: \"b\n", "a: b\n\x07\n", "key: - a\n",
]


def test_pyyaml_without_libyaml_gives_libyamls_messages() -> None:
    done = subprocess.run([sys.executable, "-c", PURE_PYYAML], input="\0".join(BROKEN_YAML), capture_output=True,
                          text=True, cwd=ROOT, check=True)
    from checker.engine.errors import InputError
    from checker.format.yamlsafe import load_bytes

    for text, pure in zip(BROKEN_YAML, done.stdout.splitlines(), strict=True):
        with pytest.raises(InputError) as refused:
            load_bytes(text.encode())
        assert pure == refused.value.render("f.yaml"), text


def test_the_rpds_standin_behaves_as_rpds() -> None:
    import importlib.util

    import rpds

    spec = importlib.util.spec_from_file_location("rpds_standin", askbundle.STANDINS / "rpds.py")
    assert spec is not None and spec.loader is not None
    standin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(standin)
    for module in (rpds, standin):
        empty = module.HashTrieMap()
        one = empty.insert("a", 1)
        assert dict(one) == {"a": 1} and dict(empty) == {} and len(one) == 1
        assert dict(one.update({"b": 2}, [("c", 3)])) == {"a": 1, "b": 2, "c": 3}
        assert dict(one.discard("a")) == {} and dict(one.discard("z")) == {"a": 1}
        assert dict(module.HashTrieMap.convert({"x": 1})) == {"x": 1} and one.get("z") is None
        with pytest.raises(KeyError):
            one.remove("z")
        assert hash(module.HashTrieMap({"a": 1})) == hash(one) and one == module.HashTrieMap({"a": 1})
        items = module.HashTrieSet().insert("u").insert("v")
        assert set(items) == {"u", "v"} and set(items.discard("u")) == {"v"} and set(items.update(["w"])) == {"u", "v", "w"}
        with pytest.raises(KeyError):
            items.remove("z")
        listed = module.List().push_front(1).push_front(2)
        assert list(listed) == [2, 1] and list(listed.drop_first()) == [1] and len(listed) == 2


def test_the_validator_standin_judges_as_jsonschema_rs(scenarios: list[Any]) -> None:
    import importlib.util

    import jsonschema_rs

    spec = importlib.util.spec_from_file_location("jsonschema_rs_standin", askbundle.STANDINS / "jsonschema_rs.py")
    assert spec is not None and spec.loader is not None
    standin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(standin)
    schema = suite.default().validator.schema
    compiled, stand = jsonschema_rs.Draft7Validator(schema), standin.Draft7Validator(schema)
    import yaml

    data = [scenario.raw for scenario in scenarios[::10]]
    data += [yaml.safe_load(text) for case, text in broken_texts().items() if case.startswith("bad input") and "syntax" not in case]
    for item in data:
        assert stand.is_valid(item) == compiled.is_valid(item)
    assert not all(stand.is_valid(item) for item in data)


def test_the_verdict_alone_then_its_options_and_readings() -> None:
    path = next(p for p in FILES if p.parent.name == "zatch-bell")
    text = path.read_text(encoding="utf-8")
    full, quick = ask.ask(text, str(path)), ask.ask(text, str(path), False)
    assert quick["readings"] is None and quick["options"] is None
    assert {k: v for k, v in full.items() if k not in ("readings", "options")} == {
        k: v for k, v in quick.items() if k not in ("readings", "options")}
    assert ask.options(text, str(path)) == full["options"] and ask.readings(text, str(path)) == full["readings"]
    assert ask.options("id: [", "x.yaml") is None and ask.readings("id: [", "x.yaml") is None


def test_the_bundle_holds_the_engine_its_libraries_and_its_cache_and_is_reproducible(tmp_path: Path, monkeypatch) -> None:
    import zipfile

    from checker.format.gameindex import source_hash

    made = []
    for folder in ("one", "two"):
        monkeypatch.setenv("RULINGS_CACHE", str(tmp_path / folder))
        made.append(askbundle.bundle().read_bytes())
    assert made[0] == made[1]
    names = zipfile.ZipFile(askbundle.bundle()).namelist()
    assert {"checker/commands/ask.py", "checker/games/zatch_bell/rulings.yaml", "yaml/scanner.py", "rpds.py",
            "jsonschema_rs.py", "jsonschema_specifications/schemas/draft7/metaschema.json"} <= set(names)
    assert f"cache/games-{source_hash()}.json" in names  # the index the browser looks up, under the same key
    assert not [name for name in names if name.endswith((".so", ".pyc")) or name.startswith(("checker/site/", "checker/cli"))]
