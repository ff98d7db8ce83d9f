"""The built website, read as files: complete, linked, offline, escaped."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from checker.games import registry
from checker.site.model import page, slug
from tests.conftest import HOSTILE_TITLE, LONG_CARD, Site

MR = "monster-rancher-bc2"
ZB = "zatch-bell"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")
        for attribute in ("src", "srcset", "data"):
            if values.get(attribute):
                self.sources.append(values[attribute] or "")
        if tag == "link" and values.get("href") and values.get("rel") not in ("canonical",):
            self.sources.append(values["href"] or "")


def page_body(path: Path) -> str:
    """A generated page's own content, without the navigation and the table of contents around it."""
    text = path.read_text(encoding="utf-8")
    return text[text.index('<div class="rk-page">'):]


def html_pages(site: Site) -> list[Path]:
    return sorted(site.folder.rglob("*.html"))


def test_every_ruling_scenario_and_entity_has_a_page(site: Site, results) -> None:
    for game_id, game in registry().items():
        assert (site.folder / game_id / "index.html").exists(), game_id
        for ruling in game.catalogue.rulings:
            assert (site.folder / game_id / "rulings" / ruling.id / "index.html").exists(), ruling.id
    for result in results:
        assert result.scenario is not None
        assert (site.folder / result.scenario.game / "scenarios" / result.id / "index.html").exists(), result.id
    entities = list((site.folder / MR / "entities").glob("*/index.html"))
    assert len(entities) > 50
    for name in ("card-shotgun", "status-enchant", "env-nice-fight", "monster-mocchi", "mechanic-taunt"):
        assert (site.folder / MR / "entities" / name / "index.html").exists(), name


def test_every_internal_link_resolves(site: Site) -> None:
    broken = []
    for path in html_pages(site):
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        here = "/" + path.relative_to(site.folder).as_posix()
        for link in parser.hrefs:
            target = urlparse(urljoin(here, link))
            if target.scheme or target.netloc or link.startswith("#"):
                continue
            local = site.folder / target.path.lstrip("/")
            if not (local.is_file() or (local / "index.html").is_file()):
                broken.append(f"{here} -> {link}")
    assert not broken, broken[:20]


def test_nothing_is_loaded_from_another_host(site: Site) -> None:
    for path in [*html_pages(site), *site.folder.rglob("*.css")]:
        text = path.read_text(encoding="utf-8")
        parser = Links()
        if path.suffix == ".html":
            parser.feed(text)
        urls = parser.sources + re.findall(r"url\(\s*['\"]?(https?:[^'\")]+)", text) + re.findall(r"@import\s+['\"](https?:[^'\"]+)", text)
        external = [u for u in urls if urlparse(u).netloc and urlparse(u).hostname not in ("127.0.0.1", "localhost")]
        assert not external, (path, external)
    assert "fonts.googleapis.com" not in (site.folder / "index.html").read_text(encoding="utf-8")


def test_third_party_code_is_served_from_the_site_not_the_repository(site: Site) -> None:
    assert (site.folder / "assets" / "vendor" / "cytoscape.min.js").stat().st_size > 100_000
    root = Path(__file__).resolve().parent.parent
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    assert not [f for f in tracked if f.startswith("node_modules/") or f.endswith(".min.js")], "vendored code committed"


def test_pyodides_module_is_served_as_npm_ships_it_under_the_compile_hint(site: Site) -> None:
    """The browser keeps the code of every function of Pyodide's JavaScript module, not of its top level alone."""
    root = Path(__file__).resolve().parent.parent
    first, rest = (site.folder / "assets" / "vendor" / "pyodide" / "pyodide.asm.mjs").read_bytes().split(b"\n", 1)
    assert first == b"//# allFunctionsCalledOnLoad"
    assert rest == (root / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_bytes()
    assert (site.folder / "assets" / "vendor" / "pyodide" / "pyodide.mjs").read_bytes() == (
        root / "node_modules" / "pyodide" / "pyodide.mjs").read_bytes()


def test_failing_scenario_shows_as_failing_with_its_diff(hostile_site: Site) -> None:
    text = (hostile_site.folder / MR / "scenarios" / "counter-rounding-wrong" / "index.html").read_text(encoding="utf-8")
    assert 'rk-verdict rk-fail">FAIL' in text
    assert "players.B.monsters.Naga.lp" in text and "differs" in text
    game = (hostile_site.folder / MR / "index.html").read_text(encoding="utf-8")
    assert "FAIL" in game


def test_text_from_scenarios_is_escaped(hostile_site: Site) -> None:
    for path in html_pages(hostile_site):
        text = path.read_text(encoding="utf-8")
        assert "<script>window.__pwned" not in text, path
        assert "onerror=\"window" not in text, path
    page_text = (hostile_site.folder / MR / "scenarios" / "hostile-markup" / "index.html").read_text(encoding="utf-8")
    assert "&lt;/title&gt;&lt;script&gt;" in page_text
    assert HOSTILE_TITLE not in page_text


def test_a_card_with_a_very_long_name_is_shown_and_every_file_name_is_bounded(hostile_site: Site) -> None:
    """A scenario's made-up card of 289 characters: the site builds, the card is shown on its scenario's page, and no
    file or folder of the site has a name a file system refuses (255 bytes)."""
    text = (hostile_site.folder / MR / "scenarios" / "long-card-name" / "index.html").read_text(encoding="utf-8")
    assert LONG_CARD.strip() in text
    longest = max(len(path.name.encode("utf-8")) for path in hostile_site.folder.rglob("*"))
    assert longest <= 255


@pytest.mark.parametrize("part", ["../etc", "a/b", "..", "", "UPPER", "x y"])
def test_page_paths_cannot_leave_the_site(part: str) -> None:
    with pytest.raises(ValueError):
        page(MR, "scenarios", part)


def test_slugs_are_safe_for_any_name() -> None:
    for name in ["../../etc/passwd", "Can't Attack", "<script>", "", "Ω"]:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", slug(name)), name


def test_each_game_lists_what_a_scenario_can_say_from_its_vocabulary(site: Site) -> None:
    for game_id, game in registry().items():
        text = (site.folder / game_id / "vocabulary" / "index.html").read_text(encoding="utf-8")
        for entry in game.vocabulary.actions:
            assert f"<code>{entry.name}</code>" in text, (game_id, entry.name)
        for reason in game.vocabulary.reject_reasons:
            assert f"<code>{reason}</code>" in text, (game_id, reason)
        for family in game.vocabulary.effects.values():
            for entry in family:
                assert f"<code>{entry.name}</code>" in text, (game_id, entry.name)


def test_a_ruling_page_separates_the_trace_from_the_authors_claim(site: Site, results) -> None:
    from checker.run.citations import uncited

    result, ruling = next(
        (r, ruling) for r in results for ruling in uncited(r, registry()[r.scenario.game].catalogue)
    )
    game = result.scenario.game
    text = page_body(site.folder / game / "rulings" / ruling / "index.html")
    applied, declared = text.split("Declared by the author only")
    assert "Applied in the trace" in applied
    assert f"scenarios/{result.id}/" in declared and f"scenarios/{result.id}/" not in applied


# --- Honest proof, pairs and page structure ------------------------------------------------------


def scenario_body(site: Site, result) -> str:
    return page_body(site.folder / result.scenario.game / "scenarios" / result.id / "index.html")


def game_row(site: Site, game: str, scenario_id: str) -> str:
    """A scenario's row on its game page or, past the first rows, on the full list the game page links to."""
    folder = site.folder / game
    for path in [folder / "index.html", *sorted((folder / "lists").glob("scenarios*/index.html"))]:
        body = page_body(path)
        if f'scenarios/{scenario_id}/"' in body:
            return body[body.index(f'scenarios/{scenario_id}/"'):].split("</tr>")[0]
    raise AssertionError(f"{scenario_id} is in no list of {game}")


def test_a_pass_on_default_readings_says_so_beside_its_verdict_and_links_them(site: Site, results) -> None:
    resting = [r for r in results if r.verdict == "pass" and set(r.readings) - set(r.scenario.readings)]
    pinned = [r for r in results if r.verdict == "pass" and r.readings and set(r.readings) <= set(r.scenario.readings)]
    assert resting and pinned
    for result in resting:
        defaults = sorted(set(result.readings) - set(result.scenario.readings))
        body = scenario_body(site, result)
        verdict_line = body[body.index("rk-verdict"):].split("</p>")[0]
        count = f"{len(defaults)} ambiguous ruling{'s' if len(defaults) != 1 else ''}"
        assert f"depends on the default reading of {count}" in verdict_line, result.id
        for ruling in defaults:
            assert f'href="../../rulings/{ruling}/"' in verdict_line, (result.id, ruling)
        row = game_row(site, result.scenario.game, result.id)
        assert "depends on the default reading" in row, result.id
    for result in pinned:
        assert "depends on the default reading" not in scenario_body(site, result), result.id


def test_a_scenario_demonstrates_only_what_its_trace_cites(site: Site, results) -> None:
    from checker.run.citations import uncited

    result, ruling = next((r, ruling) for r in results for ruling in uncited(r, registry()[r.scenario.game].catalogue))
    body = scenario_body(site, result)
    demonstrates = body[body.index("Rulings the engine's trace cites"):].split("</p>")[0]
    declared = body[body.index("Declared by the author, not cited"):].split("</p>")[0]
    assert f"rulings/{ruling}/" not in demonstrates and f"rulings/{ruling}/" in declared
    for cited in result.cited:
        assert f"rulings/{cited}/" in demonstrates


def test_the_trace_is_grouped_under_what_caused_it(site: Site, results) -> None:
    result = next(r for r in results if r.id == "arid-land-and-silent-stance")
    headings = re.findall(r'<p class="rk-trace-heading">([^<]*)</p>', scenario_body(site, result))
    first = result.scenario.actions[0].data
    assert f"Action 1: {first['action']} — player {first['player']}" in headings
    assert headings[-1].startswith("When the scenario ends") and not any(h.startswith("When") for h in headings[:-1])
    if any(step.action is None and not step.settling for step in result.trace):
        assert headings[0].startswith("Setup")
    assert len(headings) == len({(step.action, step.settling) for step in result.trace})


def test_entities_are_classified_by_what_they_are(site: Site) -> None:
    games = {MR: ("env-arid-land", "card-arid-land"), "zatch-bell": ("card-brago", "mechanic-brago")}
    for game, (real, wrong) in games.items():
        assert (site.folder / game / "entities" / real / "index.html").exists(), real
        assert not (site.folder / game / "entities" / wrong).exists(), wrong
    assert not (site.folder / MR / "entities" / "card-draw").exists(), "the draw action is not a card"


def test_cards_a_scenario_invents_stay_on_its_page(site: Site) -> None:
    """A card the source never names ("Card AM", made up for one example) has no page, no place in the picker or
    the graph: it is shown, with its definition, on the scenario that makes it up."""
    from checker.commands.entities import is_the_games_own
    from checker.site.played import build_model
    from tests.conftest import SCENARIOS

    view = build_model(SCENARIOS).games[ZB]
    assert is_the_games_own(view.game, ("card", "Brago")) and is_the_games_own(view.game, ("mechanic", "Injury"))
    assert not is_the_games_own(view.game, ("card", "Card AM"))
    assert ("card", "Brago") in view.graph and ("card", "Card AM") not in view.graph
    entities = {p.name for p in (site.folder / ZB / "entities").iterdir()}
    assert "card-brago" in entities and not any(name.startswith("card-card-") for name in entities)
    assert "Card AM" not in (site.folder / ZB / "pairs.json").read_text(encoding="utf-8")
    inventing = next(r for r in view.results if ("card", "Card AM") in r.entities and "Card AM" in r.cards)
    body = scenario_page_body(site, ZB, inventing.id)
    made_up = body[body.index('id="cards-made-up-for-this-example"'):body.index('id="the-engines-work"')]
    assert "<dt>Card AM</dt>" in made_up and "Card AM" not in body[body.index('id="entities"'):].split("</p>")[0]
    index = json.loads((site.folder / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not any(doc["location"].startswith(f"{ZB}/entities/card-card-") for doc in index["docs"])


def scenario_page_body(site: Site, game: str, scenario_id: str) -> str:
    return page_body(site.folder / game / "scenarios" / scenario_id / "index.html")


def test_a_scenario_page_leads_with_the_question_and_the_answer_in_words(site: Site, results) -> None:
    """Situation, question and answer in sentences first, then why (trace steps with their rulings' words), and only
    then the engine's full work: the YAML, the trace, the rulings it cites."""
    body = scenario_page_body(site, MR, "counter-rounding")
    lead, rest = body.split('id="the-engines-work"')
    assert lead.index("The question.") < lead.index("The answer.") < lead.index("The situation.") < lead.index('id="why"')
    assert "Counter against 5 damage sends 2 to the attacker and keeps 3. The engine, playing it by the rules, finds the same" in lead
    why = lead[lead.index('id="why"'):]
    assert why.count('<blockquote class="rk-quote">') >= 1 and 'rulings/mr.rounding.golden-rule/">line' in why
    assert "<pre>" not in lead and "mr.rounding.counter" not in lead.split('id="why"')[0]
    assert "Rulings the engine's trace cites" in rest and "Scenario file" in rest and "rk-trace" in rest
    question = scenario_page_body(site, MR, "last-man-revived-question")
    lead = question.split('id="the-engines-work"')[0].split('class="rk-lead"')[1]
    assert "The question.</strong> Can a monster KO&#x27;d and revived" in lead and "Question:" not in lead
    answer = lead[lead.index("The answer.</strong>"):lead.index("The situation.")]
    assert answer.startswith("The answer.</strong> Yes: the rules accept the last action (Player A: attack") and "default reading" in answer


def test_an_answer_writes_its_facts_in_words_not_their_paths(site: Site) -> None:
    """The facts a passing scenario asserts, in the answer, by what they are: a name's fact with its side, not a path."""
    lead = scenario_page_body(site, MR, "counter-rounding").split('id="the-engines-work"')[0]
    answer = lead[lead.index("The answer."):lead.index("The situation.")]
    assert "Golem&#x27;s lp (A): 18" in answer and "Naga&#x27;s lp (B): 7" in answer
    assert "players A" not in answer and "players.A" not in answer


def test_a_question_whose_last_action_is_refused_answers_no(results) -> None:
    from dataclasses import replace

    from checker.commands.answer import verdict_of_question
    from checker.engine.errors import Rejection

    asked = next(r for r in results if r.id == "last-man-revived-question")
    last = len(asked.scenario.actions) - 1
    refused = replace(asked, rejections={last: Rejection("no-attacks-left", "Plant has no attack left.")})
    assert verdict_of_question(refused).startswith("No: the rules refuse the last action (Player A: attack")
    assert verdict_of_question(refused).endswith(": Plant has no attack left.")
    assert verdict_of_question(asked).startswith("Yes: the rules accept the last action")


def test_game_page_counts_pass_answered_default_readings_and_disputes_apart(site: Site, results) -> None:
    mr = [r for r in results if r.scenario.game == MR]
    answered = sum(r.verdict == "question" for r in mr)
    assert answered >= 1
    header = page_body(site.folder / MR / "index.html").split("</p>")[0]
    assert f"{sum(r.verdict == 'pass' for r in mr)} pass, {answered} question" in header
    assert f"{len(mr)} passing" not in header
    zb_header = page_body(site.folder / ZB / "index.html").split("</p>")[0]
    default = re.search(r'<a href="disputes/#zatch-bell-ambiguous">([0-9]+) of the passes rest on a default reading', zb_header)
    disputed = re.search(r'<a href="disputes/#zatch-bell-open">([0-9]+) disputed</a>', zb_header)
    assert default and int(default.group(1)) > 0 and disputed
    assert int(disputed.group(1)) == sum(r.scenario.status == "disputed" for r in results if r.scenario.game == ZB)


def test_an_open_dispute_shows_disputed_and_the_reading_it_is_shown_under(site: Site) -> None:
    body = scenario_page_body(site, ZB, "zb-attack-defend-icon-reading")
    top = body[:body.index('id="question-and-answer"')]
    assert "rk-disputed" in top and "rk-pass" not in top
    assert "Shown under the reading <b>attack-defend-icons</b> of" in top and "the default reading (<b>battle-icon</b>) gives:" in top


def test_disputes_say_each_reading_in_a_sentence_and_fold_the_facts_away(site: Site) -> None:
    body = page_body(site.folder / ZB / "disputes" / "index.html")
    said, folded = body.index('class="rk-readings-said"'), body.index('<details class="rk-facts">')
    assert said < folded and "<table" not in body[said:folded]
    assert "Read as <b>battle-icon</b> (the default reading):" in body
    assert all(body.rindex("<details", 0, m.start()) > body.rindex("</details>", 0, m.start())
               for m in re.finditer("<table", body) if "</details>" in body[:m.start()])


def test_a_table_of_contents_is_neither_a_section_nor_what_the_source_says_of_a_concept(site: Site) -> None:
    game = page_body(site.folder / ZB / "index.html")
    sections = re.findall(r'<li><a href="rulings/#[^"]+">([^<]+)</a>', game)
    assert sections and "CONTENTS" not in sections and len(sections) == len(set(sections))
    concept = page_body(site.folder / ZB / "entities" / "mechanic-battle" / "index.html")
    start = concept.index("What the source says of it")
    said = concept[start:concept.index("<h2", start)]
    assert "....." not in said
    from checker.engine.catalogue import Ruling

    assert Ruling("x", (), 1, "not-testable", "Introduction..... 2 Spell Book Construction..... 3").is_contents
    assert not Ruling("x", (), 1, "rule", "Wait... then draw 3 cards.").is_contents


def test_tables_are_drawn_where_they_are_not_left_blank_until_scrolled_to(site: Site) -> None:
    css = next(site.folder.rglob("rulings.css")).read_text(encoding="utf-8")
    assert "content-visibility" not in css


def test_titles_read_as_what_a_player_learns_not_where_the_source_says_it() -> None:
    from checker.commands.answer import player_title

    assert player_title("By line 878 the Attacker selects the cards") == "The Attacker selects the cards"
    assert player_title("Counter against 5 damage") == "Counter against 5 damage"


def test_no_page_shows_the_sources_markup_or_backticks_as_text(site: Site) -> None:
    for path in html_pages(site):
        body = page_body(path) if '<div class="rk-page">' in path.read_text(encoding="utf-8") else ""
        assert "&lt;b&gt;" not in body and "&lt;/li&gt;" not in body, path
        for step in re.findall(r'<ol class="rk-trace"[^>]*>(.*?)</ol>', body, re.S):
            assert "`" not in step, path
    index = (site.folder / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "&lt;b&gt;" not in index and "<b>" not in index


def test_every_connected_pair_has_a_page_listing_its_scenarios(site: Site) -> None:
    from checker.site.pairs import connected_pairs, meetings
    from checker.site.played import build_model
    from tests.conftest import SCENARIOS

    view = build_model(SCENARIOS).games[MR]
    pairs = connected_pairs(view)
    assert len(list((site.folder / MR / "pairs").iterdir())) == len(pairs)
    first, second = next((a, b) for a, b in pairs if {a[1], b[1]} == {"Arid Land", "Golem"})
    body = page_body(site.folder / view.pair_page(first, second).replace(".md", "/index.html"))
    for meeting in meetings(view, first, second):
        item = body[body.index(f"scenarios/{meeting.result.id}/"):].split("</li>")[0]
        assert "rk-answer" in item and all(f"rulings/{r}/" in item for r in meeting.rulings)


def test_entity_pages_give_the_entitys_text_and_its_open_questions(site: Site) -> None:
    body = page_body(site.folder / MR / "entities" / "env-arid-land" / "index.html")
    assert "What it is" in body and "<dt>lp loss each turn end</dt><dd>1</dd>" in body
    questions = body[body.index('id="open-questions"'):]
    assert questions.count("<details>") == 5  # written out; the rest open the game page's picker on the pair
    assert questions.count('href="../../#pair=env-arid-land--') > 10
    assert "title: What happens when Arid Land (ENV) meets" in questions
    assert "&quot;Arid Land&quot;: {&quot;kind&quot;: &quot;env&quot;" in questions  # its scenario definition, to copy
    mechanic = page_body(site.folder / MR / "entities" / "mechanic-taunt" / "index.html")
    assert "As the game's list of mechanics defines it:" in mechanic
    assert "<dt>section</dt><dd>General Mechanics &gt; Taunts</dd>" in mechanic


def test_headings_have_ids_and_pages_have_a_table_of_contents(site: Site) -> None:
    for path in [site.folder / MR / "index.html", site.folder / MR / "scenarios" / "counter-rounding" / "index.html",
                 site.folder / "coverage" / "index.html"]:
        body = page_body(path)
        headings = re.findall(r"<h[2-4]( id=\"[^\"]+\")?>", body)
        assert headings and all(headings), path
        ids = re.findall(r'<h[2-4] id="([^"]+)"', body)
        assert len(ids) == len(set(ids)), path
        text = path.read_text(encoding="utf-8")
        assert f'href="#{ids[0]}" class="md-skip"' in text, path
        assert f'class="md-nav__link" href="#{ids[0]}"' in text or f'href="#{ids[0]}" class="md-nav__link"' in text, path


def test_no_count_reads_as_a_plural_slip(site: Site) -> None:
    slip = re.compile(r"\b1 (interactions|scenarios|rulings|pairs|entities|ambiguous rulings|other entities)\b")
    found = [str(p) for p in html_pages(site) if slip.search(p.read_text(encoding="utf-8"))]
    assert not found, found[:5]


def test_titles_name_the_game_and_the_sitemap_lists_pages(site: Site) -> None:
    titles = {game: re.search(r"<title>([^<]*)", (site.folder / game / "vocabulary" / "index.html")
                              .read_text(encoding="utf-8")).group(1) for game in (MR, "yugioh-dm2")}
    assert titles[MR] != titles["yugioh-dm2"]
    assert registry()[MR].title in titles[MR]
    assert (site.folder / "sitemap.xml").read_text(encoding="utf-8").count("<loc>") > 1000


def test_disputes_show_values_as_yaml_with_a_summary(site: Site) -> None:
    body = page_body(site.folder / MR / "disputes" / "index.html")
    assert "The readings change" in body
    assert "{&#x27;" not in body and "[{&#x27;" not in body, "a Python repr instead of YAML"
    assert 'class="rk-yaml"' in body


def test_disputes_have_a_page_per_game_and_no_page_is_over_300_kb(site: Site) -> None:
    index = page_body(site.folder / "disputes" / "index.html")
    for game_id in registry():
        assert f'href="../{game_id}/disputes/"' in index, game_id
        assert (site.folder / game_id / "disputes" / "index.html").is_file(), game_id
    large = [(p.stat().st_size, str(p)) for p in html_pages(site) if p.stat().st_size > 300_000]
    assert not large, sorted(large)[-3:]


def test_search_indexes_titles_and_prose_not_traces_tables_or_yaml(site: Site, results) -> None:
    import json

    indexed = json.loads((site.folder / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    games = tuple(f"{game_id}/" for game_id in registry())
    texts = " ".join(doc["title"] + " " + doc["text"] for doc in indexed if doc["location"].startswith(games))
    result = next(r for r in results if r.id == "shotgun-critical-under-nice-fight")
    assert result.scenario.title in texts
    assert not [step.text for step in result.trace if len(step.text) > 40 and step.text in texts]
    assert "# yaml-language-server" not in texts
    quote = registry()[MR].catalogue["mr.attack.env-prohibition"].quote
    assert quote[:60] in texts


def test_counts_are_of_testable_rulings_and_the_rest_is_listed_apart(site: Site) -> None:
    game = registry()[ZB]
    untestable = game.catalogue.with_status("not-testable")
    testable = len(game.catalogue.rulings) - len(untestable)
    assert untestable and f"{testable} testable rulings" in page_body(site.folder / ZB / "index.html")
    listing = page_body(site.folder / ZB / "rulings" / "index.html")
    apart = listing.index('id="not-testable"')
    first = game.catalogue.rulings[0]
    assert first.status == "not-testable" and listing.index(f'href="{first.id}/"') > apart  # the title page comes last
    assert all(listing.index(f'href="{r.id}/"') > apart for r in untestable)
    coverage = page_body(site.folder / "coverage" / "index.html")  # the heaviest page: its table leaves them out too
    assert f"{testable} testable rulings" in coverage and f'href="../{ZB}/rulings/#not-testable"' in coverage
    assert not [r.id for r in untestable if f"/rulings/{r.id}/" in coverage]


def test_the_rulings_page_lists_every_ruling_under_the_sections_the_game_page_links(site: Site) -> None:
    for game_id, game in registry().items():
        listing = (site.folder / game_id / "rulings" / "index.html").read_text(encoding="utf-8")
        for ruling in game.catalogue.rulings:
            assert f'href="../rulings/{ruling.id}/"' in listing or f'href="{ruling.id}/"' in listing, ruling.id
        anchors = re.findall(r'href="rulings/#([^"]+)"', (site.folder / game_id / "index.html").read_text(encoding="utf-8"))
        assert anchors and len(anchors) == len(set(anchors)), game_id
        for anchor in anchors:
            assert f'<h2 id="{anchor}">' in listing, (game_id, anchor)


def test_a_glossary_term_is_marked_where_the_text_uses_it_as_the_term_once_a_block() -> None:
    import networkx as nx

    from checker.site.model import GameView
    from checker.site.pages.glossary import glossary, glossed, glossed_trace

    view = GameView(registry()[ZB], [], nx.Graph())
    assert {"Attack", "Player", "Battle"} <= set(glossary(view))  # spelt as the source's glossary spells them
    marked = re.findall(r"<abbr [^>]*>([^<]+)</abbr>",
                        glossed(view, "Player 1: the player and the attack. An Attack, then an Attack. The Player wins."))
    assert marked == ["Attack", "Player"]  # not in another case, not where any word starts a sentence, once a block
    block: set[str] = set()
    trace = glossed_trace(view, "An Attack on `the Battle` of the Player", block)
    assert "<code>the Battle</code>" in trace and re.findall(r">(\w+)</abbr>", trace) == ["Attack", "Player"]
    assert "<abbr" not in glossed(view, "Another Attack by the Player.", block)  # marked already in this block


def test_glossary_terms_are_marked_in_the_why_of_an_answer_and_never_twice_in_a_quote(site: Site) -> None:
    why = [page_body(p) for p in sorted((site.folder / ZB / "scenarios").glob("*/index.html"))]
    steps = [step for body in why for step in re.findall(r'<ol class="rk-why">(.*?)</ol>', body, re.S)]
    assert steps and sum("<abbr" in step for step in steps) > len(steps) / 2
    for body in why[:60] + [page_body(p) for p in sorted((site.folder / ZB / "rulings").glob("*/index.html"))[:200]]:
        for quote in re.findall(r'<blockquote class="rk-quote">(.*?)</blockquote>', body, re.S):
            terms = re.findall(r"<abbr [^>]*>([^<]+)</abbr>", quote)
            assert len(terms) == len(set(terms)), quote
        assert not re.search(r"<(h[1-6]|a|code)\b[^>]*>[^<]*<abbr", body)


def test_a_game_graph_that_leaves_nodes_out_can_expand_from_the_network_beside_its_page(site: Site) -> None:
    expandable = []
    for game_id in registry():
        network = json.loads((site.folder / game_id / "network.json").read_text(encoding="utf-8"))
        ids = {node["id"] for node in network["nodes"]}
        assert len(ids) == len(list((site.folder / game_id / "entities").iterdir())), game_id
        assert set(network["neighbours"]) == ids
        met = {frozenset((node, other)) for node, others in network["neighbours"].items() for other in others}
        assert met == {frozenset((edge["source"], edge["target"])) for edge in network["edges"]}, game_id
        for node in network["nodes"]:
            assert (site.folder / game_id / node["links"][0]["url"] / "index.html").is_file(), node["id"]
        page = (site.folder / game_id / "index.html").read_text(encoding="utf-8")
        graphs = re.findall(r'<script type="application/json" class="rk-graph-data">(.*?)</script>', page, re.S)
        drawn = json.loads(graphs[1])
        drawn_ids = {node["data"]["id"] for node in drawn["elements"]["nodes"]}
        assert drawn_ids <= ids and ("expand" in drawn) == (drawn_ids != ids), game_id
        if "expand" in drawn:
            expandable.append(game_id)
            assert drawn["expand"] == {"network": "network.json", "most": 40} and len(drawn_ids) < 40
    assert MR in expandable


# --- Lists that grow with the corpus ---------------------------------------------------------------


def test_a_game_page_shows_its_first_scenarios_and_links_the_full_list_of_every_one(site: Site, results) -> None:
    from checker.site.pages.lists import CAPPED

    game = page_body(site.folder / ZB / "index.html")
    rows = game[game.index('id="scenarios"'):].split("</table>")[0].count("<tr>") - 1  # the header row aside
    assert rows == CAPPED
    more = game[game.index('class="rk-more"'):].split("</p>")[0]
    mine = sorted(r.id for r in results if r.scenario.game == ZB)
    assert f"{CAPPED} of {len(mine)} shown" in more and 'href="lists/scenarios/"' in more
    listed = re.findall(r'href="\.\./\.\./scenarios/([^/"]+)/"', page_body(site.folder / ZB / "lists" / "scenarios" / "index.html"))
    assert listed == mine, "the full list has every scenario of the game, once, in order"


def test_every_scenario_a_ruling_page_leaves_out_is_on_its_full_list(site: Site) -> None:
    from checker.site.pages.lists import CAPPED

    capped = [p for p in (site.folder / ZB / "rulings").glob("*/index.html") if 'class="rk-more"' in page_body(p)]
    assert capped, "the real corpus has rulings applied in more scenarios than a page shows"
    for path in capped[:5]:
        body = page_body(path)
        applied = body[body.index('id="applied-in-the-trace"'):].split("</ul>")[0]
        assert applied.count("<li>") == CAPPED
        shown = re.findall(r'href="\.\./\.\./scenarios/([^/"]+)/"', applied)
        full = page_body(site.folder / ZB / "lists" / f"ruling-{path.parent.name}" / "index.html")
        listed = re.findall(r'<li>.*?href="\.\./\.\./scenarios/([^/"]+)/"', full)
        assert shown == listed[:CAPPED] and len(listed) > CAPPED and len(set(listed)) == len(listed)


def test_full_lists_are_left_out_of_search(site: Site) -> None:
    docs = json.loads((site.folder / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert not [doc["location"] for doc in docs if "/lists/" in doc["location"]]


def test_a_full_list_longer_than_a_page_is_split_into_pages_linked_to_one_another() -> None:
    from dataclasses import replace

    from checker.site.pages.lists import Listing, capped, list_pages
    from checker.site.played import PlayedCache, build_model
    from tests.conftest import SCENARIOS

    view = build_model(SCENARIOS / MR, PlayedCache(jobs=1)).games[MR]
    listing = Listing("every", "Every scenario", view.home(), view.results, lambda at, r: f"<li>{r.id}</li>", per_page=30)
    capped(view, view.home(), listing)
    pages = list_pages(view)
    count = -(-len(view.results) // 30)
    assert list(pages) == [f"{MR}/lists/every.md", *(f"{MR}/lists/every-{n}.md" for n in range(2, count + 1))]
    html = [page.unpacked().html for page in pages.values()]  # type: ignore[union-attr]
    assert [item for body in html for item in re.findall(r"<li>([^<]+)</li>", body)] == [r.id for r in view.results]
    assert f"page 2 of {count}" in html[1] and '<a href="../every/">1</a>' in html[1] and '<a href="../every-3/">3</a>' in html[1]
    assert not any(page.searched for page in pages.values())  # type: ignore[union-attr]
    view.memo.clear()
    assert capped(view, view.home(), replace(listing, items=view.results[:40])).count("<li>") == 40 and not list_pages(view)


def test_a_full_list_of_heavy_items_is_split_into_pages_light_enough() -> None:
    from checker.site.pages.lists import LIST_PAGE_BYTES, Listing, capped, list_pages
    from checker.site.played import PlayedCache, build_model
    from tests.conftest import SCENARIOS

    view = build_model(SCENARIOS / MR, PlayedCache(jobs=1)).games[MR]
    heavy = "x" * (LIST_PAGE_BYTES // 7)  # seven such items are over a page's share, six are not

    listing = Listing("heavy", "Heavy", view.home(), view.results, lambda at, r: f"<li>{r.id} {heavy}</li>")
    capped(view, view.home(), listing)
    html = [page.unpacked().html for page in list_pages(view).values()]  # type: ignore[union-attr]
    per_page = [len(re.findall(r"<li>", body)) for body in html]
    assert per_page[:-1] and set(per_page[:-1]) == {6} and sum(per_page) == len(view.results)
    assert [item for body in html for item in re.findall(r"<li>(\S+) x", body)] == [r.id for r in view.results]


def test_a_site_played_on_two_processes_is_the_site_played_on_one() -> None:
    from checker.run import batch
    from checker.site.pages.schedule import all_pages
    from checker.site.played import PlayedCache, build_model
    from tests.conftest import SCENARIOS

    assert len(list((SCENARIOS / MR).glob("*.yaml"))) >= batch.PARALLEL_FROM  # so two processes play them

    def digests(jobs: int) -> dict[str, str]:
        cache = PlayedCache(jobs=jobs)
        pages = all_pages(build_model(SCENARIOS / MR, cache), cache.own_page)
        return {source: page if isinstance(page, str) else page.digest for source, page in pages.items()}

    assert digests(2) == digests(1)


def test_a_ruling_page_is_headed_by_its_words_with_its_id_as_a_chip(site: Site) -> None:
    body = page_body(site.folder / ZB / "rulings" / "zb.battle.compare" / "index.html")
    heading = body[body.index("<h1"):body.index("</h1>")]
    assert not re.sub(r"<[^>]+>", "", heading.split(">", 1)[1]).startswith("zb.") and '<code class="rk-id-chip">zb.battle.compare</code>' in heading


def test_excerpts_end_between_words() -> None:
    from checker.site.pages.kit import excerpt

    cut = excerpt("Pay 2 MP to turn each page of the Spell Book during the START PHASE", 40)
    assert cut == "Pay 2 MP to turn each page of the Spell…" and len(cut) <= 40
    assert excerpt("Pay 2 MP to turn each page of the Spell Book during the START PHASE", 38) == "Pay 2 MP to turn each page of the…"
    assert excerpt("short", 40) == "short"


def test_contributor_material_is_gathered_apart_from_a_players_path(site: Site) -> None:
    home = page_body(site.folder / "index.html")
    assert home.index('id="for-contributors"') < home.index("<details><summary>") < home.index("checker check FILE")
    game = page_body(site.folder / ZB / "index.html")
    assert "vocabulary/" not in game.split("</p>")[0] and game.index('id="for-contributors"') < game.index('href="vocabulary/"')


def test_a_card_page_says_the_cards_own_type(site: Site) -> None:
    body = page_body(site.folder / ZB / "entities" / "card-brago" / "index.html")
    assert "A MAMODO card, appears in " in body and "MAMODO, PARTNER" not in body.split("</p>")[1]
