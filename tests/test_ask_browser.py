"""The Ask page's engine in a real browser (Debian's headless Chromium), offline: Pyodide and the engine's bundle from
the built site give, for every scenario of the repository, the verdict and outcome ``checker check`` gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from checker.cli import main
from checker.commands import report
from checker.run import suite
from tests.browser import VIEWPORTS, Watched, open_page, watched_tab
from tests.conftest import SCENARIOS, Site
from tests.test_ask import broken_texts

pytestmark = pytest.mark.browser
#: Loads the engine once for the tab: ``window.rkEngine``; answers ``null``, or why it could not load.
LOAD = """async () => {
  const module = await import('./assets/ask-engine.js');
  try { window.rkEngine = await module.loadEngine(); return null; } catch (error) { return error.message; }
}"""
#: Asks the engine about each ``[name, text]`` in turn: what ``ask`` gives, or the error of the call.
ASK_EACH = """async (items) => {
  const answers = [];
  for (const [name, text] of items) {
    try { answers.push(await window.rkEngine.ask(text, name)); } catch (error) { answers.push({failed: error.message}); }
  }
  return answers;
}"""
BATCH = 60  # scenarios asked in one call into the page


@pytest.fixture(scope="module")
def engine_tab(browser: Any, site: Site) -> Iterator[Watched]:
    """A tab on the site's home page with the engine loaded."""
    for tab in watched_tab(browser, VIEWPORTS["desktop"]):
        open_page(tab, site, "")
        tab.page.set_default_timeout(120_000)
        assert tab.page.evaluate(LOAD) is None
        yield tab


def asked(tab: Watched, items: list[tuple[str, str]]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = []
    for start in range(0, len(items), BATCH):
        answers += tab.page.evaluate(ASK_EACH, items[start:start + BATCH])
    return answers


def test_every_scenario_gets_the_verdict_and_outcome_check_gives(engine_tab: Watched) -> None:
    files = suite.scenario_files([SCENARIOS])
    answers = asked(engine_tab, [(str(path), path.read_text(encoding="utf-8")) for path in files])
    for path, answer in zip(files, answers, strict=True):
        expected = json.loads(json.dumps(report.result_json(suite.run_one(suite.load(path)), with_outcome=True)))
        assert "failed" not in answer, (path, answer.get("failed"))
        assert answer["errors"] == [], path
        assert answer["result"]["verdict"] == expected["verdict"], path
        assert answer["result"]["outcome"] == expected["outcome"], path
        assert answer["result"]["rejections"] == expected["rejections"], path


def test_broken_text_gets_the_message_check_prints(engine_tab: Watched, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = broken_texts()
    path = tmp_path / "bad.yaml"
    answers = asked(engine_tab, [(str(path), text) for text in texts.values()])
    for (case, text), answer in zip(texts.items(), answers, strict=True):
        path.write_text(text, encoding="utf-8")
        main(["check", str(path)])
        printed = capsys.readouterr()
        assert answer["errors"], case
        assert (printed.out + printed.err).startswith(f"INVALID  {answer['errors'][0]['text']}"), case


def test_the_engine_edits_and_starts_scenarios(engine_tab: Watched) -> None:
    said = engine_tab.page.evaluate("""async () => {
      const e = window.rkEngine;
      const text = await e.start('zatch-bell');
      const asked = await e.ask(text);
      const option = asked.options.options[0];
      const longer = await e.withAction(text, option.action);
      let refused = null;
      try { await e.withAction('id: [q', {action: 'resolve'}); } catch (error) { refused = error.message; }
      return {text, verdict: asked.result.verdict, longer, shorter: await e.withoutLastAction(longer),
              disputed: await e.asDispute(text), refused};
    }""")
    assert said["verdict"] == "question"
    assert said["shorter"] == said["text"] != said["longer"]
    assert "status: disputed" in said["disputed"]
    assert "YAML syntax" in said["refused"]


def test_a_call_that_fails_in_the_worker_leaves_the_next_answered(engine_tab: Watched) -> None:
    said = engine_tab.page.evaluate("""async () => {
      const failed = await window.rkEngine.call('games', 1n).then(() => null, (error) => error.message);
      return [failed, (await window.rkEngine.games()).map((game) => game.id)];
    }""")
    assert "BigInt" in said[0]
    assert set(said[1]) == set(suite.games())


def test_a_page_without_the_ask_panel_loads_none_of_the_engine(tab: Watched, site: Site) -> None:
    requested: list[str] = []
    tab.page.on("request", lambda request: requested.append(request.url))
    open_page(tab, site, "monster-rancher-bc2/scenarios/nice-fight-boundary/")
    open_page(tab, site, "monster-rancher-bc2/")
    assert len(requested) > 2
    assert not [url for url in requested if "pyodide" in url or "/assets/ask" in url], requested


#: Starts the engine and asks at once, before it has loaded: the order of what settles, and the answer or the error.
ASK_AT_ONCE = """async (text) => {
  const engine = (await import('./assets/ask-engine.js')).startEngine();
  const order = [];
  const asked = engine.ask(text).then((said) => { order.push('answered'); return said; },
                                      (error) => { order.push('refused'); return {failed: error.message}; });
  engine.ready.then(() => order.push('ready'), (error) => order.push('not ready: ' + error.message));
  const said = await asked;
  await new Promise((resolve) => setTimeout(resolve, 0));
  return [order, said];
}"""


def test_a_question_asked_before_the_engine_has_loaded_is_answered_once_it_has(tab: Watched, site: Site) -> None:
    path = SCENARIOS / "zatch-bell" / "alternate-pass-then-act.yaml"
    expected = report.result_json(suite.run_one(suite.load(path)), with_outcome=True)
    open_page(tab, site, "")
    tab.page.set_default_timeout(120_000)
    order, said = tab.page.evaluate(ASK_AT_ONCE, path.read_text(encoding="utf-8"))
    assert order == ["ready", "answered"]
    assert said["result"]["verdict"] == expected["verdict"]
    assert said["result"]["outcome"] == json.loads(json.dumps(expected["outcome"]))


def test_a_question_asked_before_a_load_that_fails_gets_its_reason(tab: Watched, site: Site) -> None:
    tab.page.context.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: route.abort())
    try:
        open_page(tab, site, "")
        order, said = tab.page.evaluate(ASK_AT_ONCE, "id: x\n")
    finally:
        tab.page.context.unroute("**/vendor/pyodide/pyodide.asm.wasm")
    assert "Pyodide's WebAssembly could not be loaded" in said["failed"]
    assert order == ["refused", f"not ready: {said['failed']}"]
    tab.errors[:] = [e for e in tab.errors if "Failed to load resource" not in e and "wasm" not in e.lower()]


#: Waits until the engine has kept the snapshot of its memory in the site's private file system: whether it came.
KEPT = """async () => {
  for (let tries = 0; tries < 480; tries++) {
    try {
      const folder = await navigator.storage.getDirectory();
      if ((await (await folder.getFileHandle('rulings-engine-snapshot')).getFile()).size > 0) return true;
    } catch {
      await new Promise(resolve => setTimeout(resolve, 250));
    }
  }
  return false;
}"""


#: After the first answer, every other call of the engine, in turn: ``[name, ...arguments]`` each, its answer or error.
CALL_EACH = """async (calls) => {
  const answers = [];
  for (const [name, ...args] of calls) {
    try { answers.push(await window.rkEngine.call(name, ...args)); } catch (error) { answers.push({failed: error.message}); }
  }
  return answers;
}"""


def test_a_later_visit_starts_from_the_snapshot_and_answers_the_same(tab: Watched, site: Site) -> None:
    path = next(p for p in suite.scenario_files([SCENARIOS]) if p.parent.name == "my-crypto-saga")
    text = path.read_text(encoding="utf-8")
    # The restored engine answers first, then unpacks its files: whatever comes next may need them.
    calls: list[list[Any]] = [["options", text], ["readings", text], ["as_dispute", text], ["without_last_action", text]]
    calls += [["start", game, question] for game in sorted(suite.games()) for question in (False, True)]
    calls += [["ask", broken, f"{case}.yaml"] for case, broken in sorted(broken_texts().items())]
    answers = []
    for _visit in range(2):
        open_page(tab, site, "")
        tab.page.set_default_timeout(120_000)
        assert tab.page.evaluate(LOAD) is None
        answers.append(tab.page.evaluate("async (text) => [window.rkEngine.timings, await window.rkEngine.ask(text)]", text))
        answers[-1].append(tab.page.evaluate(CALL_EACH, calls))
        assert tab.page.evaluate(KEPT)
    (first, said, then), (later, said_later, then_later) = answers
    assert not first["restored"] and later["restored"] and later["dropped"] is None
    assert said_later == said and said["result"]["verdict"] == "pass"
    assert [answer for answer in then if "failed" in answer] == []
    assert then_later == then
