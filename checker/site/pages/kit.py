"""The HTML kit of the pages: escaping, relative links, headings, tables, code blocks and the small fragments
(verdicts, statuses, facts) that pages of several kinds show.
"""

from __future__ import annotations

import functools
import html
import re
from collections import Counter
from typing import Any, Iterable, Mapping

from checker.commands.report import LABELS
from checker.format.yamlwrite import yaml_text
from checker.run.runner import RunResult
from checker.site.model import GameView, slug
from checker.commands.summary import Shown

SCALARS: dict[Any, str] = {True: "true", False: "false", None: "null"}


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def url(source: str) -> str:
    """The directory URL of a page source: 'g/rulings/r.md' -> 'g/rulings/r/', 'index.md' -> ''."""
    stem = source[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return stem + "/"


@functools.lru_cache(maxsize=1 << 16)
def _folders(source: str) -> tuple[str, ...]:
    """The folders of a page's directory URL: 'g/rulings/r.md' -> ('g', 'rulings', 'r')."""
    return tuple(url(source).split("/")[:-1])


def href(here: str, there: str) -> str:
    """The relative link from one page to another (both directory URLs, so no file name is involved)."""
    start, target = _folders(here), _folders(there)
    common = 0
    for mine, theirs in zip(start, target):
        if mine != theirs:
            break
        common += 1
    relative = [".."] * (len(start) - common) + list(target[common:])
    return "/".join(relative) + "/" if relative else "./"


def a(here: str, there: str, text: Any, css: str = "", *, anchor: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    fragment = f"#{anchor}" if anchor else ""
    return f'<a href="{esc(href(here, there) + fragment)}"{klass}>{esc(text)}</a>'


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 interaction', '2 interactions'; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


HEADING = re.compile(r'<h([2-4])(?: id="([^"]+)")?>(.*?)</h\1>', re.S)
TAG = re.compile(r"<[^>]+>")


def with_heading_ids(html_text: str) -> str:
    """Every h2-h4 gets an id (its own if it has one), unique in the page, and a permalink; the plugin
    builds the table of contents from them."""
    taken: dict[str, int] = {}

    def identify(match: re.Match[str]) -> str:
        level, given, inner = match.group(1), match.group(2), match.group(3)
        base = given or slug(html.unescape(TAG.sub("", inner)))
        taken[base] = taken.get(base, 0) + 1
        anchor = base if taken[base] == 1 else f"{base}-{taken[base]}"
        return (f'<h{level} id="{anchor}">{inner}'
                f'<a class="headerlink" href="#{anchor}" title="Permanent link">&para;</a></h{level}>')

    return HEADING.sub(identify, html_text)


IDENTIFIED = re.compile(r'<h([2-4]) id="([^"]+)">(.*?)<a class="headerlink"', re.S)


#: Markdown's table-of-contents tokens, as MkDocs' ``get_toc`` takes them (nested dicts of ids, names, levels).
TocTokens = list[Any]


def toc_tokens(html_text: str) -> TocTokens:
    """The table of contents of a page written by :func:`markdown_page`, as Markdown's toc extension gives it."""
    tokens: list[dict[str, Any]] = []
    open_levels: list[dict[str, Any]] = []
    for level_text, anchor, inner in IDENTIFIED.findall(html_text):
        token = {"level": int(level_text), "id": anchor, "name": TAG.sub("", inner).strip(), "children": []}
        while open_levels and open_levels[-1]["level"] >= token["level"]:
            open_levels.pop()
        (open_levels[-1]["children"] if open_levels else tokens).append(token)
        open_levels.append(token)
    return tokens


def verdict(result: RunResult | Shown) -> str:
    return f'<span class="rk-verdict rk-{result.verdict}">{LABELS[result.verdict]}</span>'


def verdict_tally(results: Iterable[Shown]) -> str:
    """How many results have each verdict, as badges with counts: "PASS × 12 FAIL × 1"."""
    counts = Counter(result.verdict for result in results)
    return " ".join(f'<span class="rk-verdict rk-{v}">{LABELS[v]}</span> × {n}' for v, n in sorted(counts.items()))


def default_readings_note(view: GameView, here: str, result: Shown) -> str:
    """Beside a PASS or an ANSWER that rests on readings nobody chose: which ambiguous rulings, linked."""
    rulings = result.default_readings
    if result.verdict not in ("pass", "question") or not rulings:
        return ""
    links = ", ".join(a(here, view.ruling_page(r), r) for r in rulings)
    return (f' <span class="rk-default-reading">depends on the default reading of '
            f'{plural(len(rulings), "ambiguous ruling")}: {links}</span>')


def verdict_with_readings(view: GameView, here: str, result: Shown) -> str:
    return verdict(result) + default_readings_note(view, here, result)


def status_badge(status: str) -> str:
    return f'<span class="rk-status rk-status-{esc(status)}">{esc(status)}</span>'


def code_block(text: str, language: str = "yaml", *, copy: bool = False) -> str:
    copy_button = '<button type="button" class="rk-copy" title="Copy to clipboard">Copy</button>' if copy else ""
    return (
        f'<div class="rk-code" data-search-exclude>{copy_button}'
        f'<pre><code class="language-{language}">{esc(text)}</code></pre></div>'
    )


def table(head: list[str], rows: Iterable[list[str]]) -> str:
    """A table; cells are HTML already escaped by the caller. Search indexes the page's prose, not its tables."""
    start, end = table_ends(head)
    return start + "".join(table_row(row) for row in rows) + end


def table_ends(head: list[str]) -> tuple[str, str]:
    """What comes before a table's rows and after them."""
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    return f'<table class="rk-table" data-search-exclude><thead><tr>{header}</tr></thead><tbody>', "</tbody></table>"


def table_row(row: list[str]) -> str:
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"


#: The source's own inline markup (bold, list items), which the site shows as plain words.
SOURCE_MARKUP = re.compile(r"</?(?:b|i|em|strong|u|ul|ol|li|br|p|span)(?:\s[^>]*)?/?>", re.I)
CODE_SPAN = re.compile(r"`([^`]+)`")


def plain(text: str) -> str:
    """Words of the source without its inline markup: ``<b>DEFENSE</b>`` reads DEFENSE."""
    return SOURCE_MARKUP.sub("", text)


def trace_text(text: str) -> str:
    """A trace step's text as HTML: escaped, its `code` spans set as code, not shown with their backticks."""
    return CODE_SPAN.sub(r"<code>\1</code>", esc(text))


def excerpt(text: str, limit: int = 140) -> str:
    """The text, or its first words up to ``limit`` characters with "…": cut between words, not inside one."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ") if text[limit - 1] != " " else len(cut)
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def fact_cell(path: str) -> str:
    """A fact's dotted path, kept on one line."""
    return f'<code class="rk-fact">{esc(path)}</code>'


def yaml_cell(facts: Mapping[str, Any], key: str) -> str:
    """A fact's value as YAML (flow style), '—' when it is not there."""
    return value_cell(key in facts, facts.get(key))


def value_cell(there: bool, value: Any) -> str:
    if not there:
        return "—"
    if value is None or type(value) is bool:  # as YAML writes them, without its emitter
        return f'<code class="rk-yaml">{SCALARS[value]}</code>'
    if type(value) is int:
        return f'<code class="rk-yaml">{value}</code>'
    text = yaml_text(value, flow_leaves=True).strip()
    text = text[: -len("...")].rstrip() if text.endswith("\n...") else text
    return f'<code class="rk-yaml">{esc(text)}</code>'
