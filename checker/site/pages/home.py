"""The site's home page."""

from __future__ import annotations

from checker.site.model import SiteModel
from checker.site.pages.kit import a, code_block, plural
from checker.site.pages.written import WrittenPage, markdown_page


def home(model: SiteModel) -> WrittenPage:
    here = "index.md"
    games = [
        f"<li>{a(here, view.home(), view.game.title)} — {plural(view.counts()['testable'], 'testable ruling')}, "
        f"{plural(view.counts()['scenarios'], 'scenario')}</li>"
        for view in model.games.values()
    ]
    example = (
        f"id: my-question\ngame: {' | '.join(model.games)}\ntitle: What happens when ...?\n"
        "rulings: [...]     # the rulings it is about\ninitial: {...}     # the state, in the game's words\n"
        "actions:\n  - {action: ...}\n"
        "expect: {...}      # leave out every expect: to ask a question instead"
    )
    body = [
        f"<h1>{HEADING}</h1>",
        "<p>Each game's rulings, turned into scenarios that a rules engine plays. "
        "Every ruling quotes its source document; every scenario shows the engine's verdict and "
        "the step-by-step trace of how it got there, each step citing the ruling it applied.</p>",
        "<h2>Games</h2>",
        f"<ul>{''.join(games)}</ul>",
        f"<p>{a(here, 'coverage.md', 'Coverage')} lists rulings against scenarios and the interactions "
        f"no scenario tests yet; {a(here, 'disputes.md', 'Disputes')} shows ambiguous rulings and "
        "disputed scenarios with their competing outcomes side by side. Each game page answers "
        "<i>what happens when X meets Y</i>: pick two entities.</p>",
        "<p>Search results carry their game and the kind of page as tags: add a game's name or a kind "
        "(<i>entity</i>, <i>ruling</i>, <i>scenario</i>, <i>pair</i>) to the words you search for to narrow them.</p>",
        "<h2>Reading a scenario</h2>",
        "<p>A scenario page shows the initial state, the actions in order, the expected facts next "
        "to the facts the engine computed (only the listed facts are checked), and the trace. "
        "<b>PASS</b> means the engine, following the rules, reaches every expected fact; "
        "<b>FAIL</b> shows which fact differs; <b>ANSWER</b> is a question the engine answered.</p>",
        '<h2 id="for-contributors">For contributors</h2>',
        "<details><summary>Asking a question or submitting a disputed scenario, as a file</summary>",
        "<p>Write one YAML file under <code>scenarios/&lt;game&gt;/</code> "
        f"({a(here, 'scenario-format.md', 'the scenario format')}); your editor autocompletes it "
        "from <code>schema/scenario.schema.json</code>:</p>",
        code_block(example),
        "<p>Then run <code>checker check FILE</code> for the verdict, <code>checker explain FILE</code> "
        "for the full trace, and <code>checker readings FILE</code> to see whether the outcome depends "
        "on how an ambiguous ruling is read. Mark a scenario <code>status: disputed</code> to put it "
        "on the disputes page.</p></details>",
    ]
    return markdown_page(HEADING, body)


HEADING = "Rulings for card and battle games"  # the home page's heading and the first words of its tab's title
