"""The top of a scenario's page, for a player: the situation, the question and the answer in words, then why,
the decisive steps of the engine's trace, each with the words of its ruling."""

from __future__ import annotations

from checker.commands.answer import action_sentence, decisive_steps, paragraphs, player_title, question
from checker.run.runner import RunResult
from checker.format.scenario import Scenario
from checker.site.model import GameView
from checker.site.pages.kit import a, esc, excerpt, plain, trace_text
from checker.site.pages.glossary import glossed, glossed_trace

QUOTE_LENGTH = 320  # of a ruling's words under a decisive step


def lead(view: GameView, here: str, result: RunResult) -> str:
    """Question and answer first (on a phone, the first screen holds them), then the situation, what is played and
    why, in sentences."""
    scenario = result.scenario
    assert isinstance(scenario, Scenario)
    parts = ['<section class="rk-lead"><h2 id="question-and-answer">Question and answer</h2>']
    parts.append(f'<p class="rk-ask"><strong>The question.</strong> {esc(question(scenario))}</p>')
    parts.append(_answer(view, here, result))
    situation = " ".join(filter(None, [glossed(view, scenario.notes) if scenario.notes else "",
                                        *(esc(x) for x in scenario.assumptions)]))
    parts.append(f"<p><strong>The situation.</strong> {situation}</p>" if situation else "")
    if scenario.actions:
        parts.append("<p><strong>What is played.</strong></p><ol class=\"rk-played\">"
                     + "".join(f"<li>{esc(action_sentence(action.data))}</li>" for action in scenario.actions) + "</ol>")
    steps = decisive_steps(result)
    if steps:
        parts.append("<h2>Why</h2><p>The steps of the engine's trace that decide it, each with the words of the ruling it applied.</p><ol class=\"rk-why\">")
        for step in steps:
            assert step.ruling is not None
            ruling = view.game.catalogue[step.ruling] if step.ruling in view.game.catalogue else None
            marked: set[str] = set()  # a term is marked once in a step and its ruling's words
            said = glossed_trace(view, step.text, marked)
            quote = (f'<blockquote class="rk-quote">{glossed(view, excerpt(plain(ruling.quote), QUOTE_LENGTH), marked)}'
                     f' <span class="rk-cite">({a(here, view.ruling_page(ruling.id), f"line {ruling.line}")})</span></blockquote>'
                     if ruling else "")
            parts.append(f"<li><p>{said}</p>{quote}</li>")
        parts.append("</ol>")
    parts.append("</section>")
    return "".join(parts)


_CLASSES = {"reply": "rk-reply", "mismatch": "rk-reply rk-mismatch", "default-reading": "rk-default-reading"}


def _answer(view: GameView, here: str, result: RunResult) -> str:
    """The answer's paragraphs (:func:`checker.commands.answer.paragraphs`), set as HTML with links to the rulings."""
    html = []
    for paragraph in paragraphs(result, text=esc, step=trace_text, ruling=lambda r: a(here, view.ruling_page(r), r)):
        lead = "<strong>The answer.</strong> " if paragraph.kind in ("reply", "mismatch") else ""
        kind = _CLASSES.get(paragraph.kind)
        html.append(f'<p class="{kind}">{lead}{paragraph.text}</p>' if kind else f"<p>{paragraph.text}</p>")
    return "".join(html)
