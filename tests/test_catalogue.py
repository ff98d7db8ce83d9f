"""The rulings catalogues and procedures are consistent with their sources and rules modules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checker.games import registry

GAMES = list(registry().values())


def normalise(text: str) -> str:
    """Document text without markup: underline tags, bold, list bullets; white space folded."""
    text = re.sub(r"</?u>", "", text).replace("**", "")
    lines = [re.sub(r"^\s*(?:[-•]\s+)", "", line) for line in text.splitlines()]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_quotes_are_verbatim_and_where_the_catalogue_says(game, sources: Path) -> None:
    path = sources / game.catalogue.document
    raw_lines = path.read_text(encoding="utf-8").splitlines()
    whole = normalise("\n".join(raw_lines))
    for ruling in game.catalogue.rulings:
        quote = " ".join(ruling.quote.split())
        assert quote in whole, f"{ruling.id}: quote not found verbatim in {path.name}"
        first = normalise(raw_lines[ruling.line - 1])
        window = normalise("\n".join(raw_lines[ruling.line - 1 : ruling.line + 30]))
        assert 0 <= window.find(quote) < len(first), f"{ruling.id}: quote does not start on line {ruling.line}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_rulings_are_in_document_order(game) -> None:
    lines = [ruling.line for ruling in game.catalogue.rulings]
    assert lines == sorted(lines)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_procedure_step_has_exactly_one_handler(game) -> None:
    """The walker checked the binding when the game was created; this states what it checked."""
    declared = {step.id for _, step in game.procedure.steps()}
    assert declared == game.walker.handlers.ids
    assert game.procedure.conditions == set(game.walker.handlers.predicates)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_procedure_cites_only_catalogued_rulings(game) -> None:
    for _, step in game.procedure.steps():
        for ruling in step.rulings:
            assert ruling in game.catalogue, (step.id, ruling)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_rules_module_cites_only_catalogued_rulings(game) -> None:
    """Every ruling id written in the rules source exists (the trace would fail on a typo, late)."""
    folder = Path(__import__(type(game).__module__, fromlist=["x"]).__file__).parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py")))
    prefix = game.catalogue.ids[0].split(".")[0]
    cited = set(re.findall(rf'"({prefix}\.[a-z0-9.-]+)"', source))
    assert cited, "the rules module cites no ruling"
    assert cited <= set(game.catalogue.ids), sorted(cited - set(game.catalogue.ids))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_ambiguous_rulings_are_switches_in_the_rules_module(game) -> None:
    folder = Path(__import__(type(game).__module__, fromlist=["x"]).__file__).parent
    source = rules_source(folder)
    for ruling in game.catalogue.with_status("ambiguous"):
        assert f'"{ruling.id}"' in source, f"{ruling.id} has no switch in the rules module"
        tested = [name for name in ruling.reading_names if f'"{name}"' in source]
        assert tested, f"{ruling.id}: the rules module never tests which reading is in force"


def rules_source(folder: Path) -> str:
    """A game's rules.py, or every module of its rules package (split by the sections of its document)."""
    single = folder / "rules.py"
    files = [single] if single.is_file() else sorted((folder / "rules").glob("*.py"))
    assert files, f"{folder} has no rules module"
    return "\n".join(path.read_text(encoding="utf-8") for path in files)
