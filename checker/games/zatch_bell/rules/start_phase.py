"""The START PHASE: "The Attacker can increase their MP by turning pages of their Spell Book"; then "In-play
cards with [IN PLAY] effects that activate during the START PHASE are resolved at this time", and [STANDBY] effects.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import LAST_OPENING, State
from .common import (
    BOOK, MAX_START_PAGES, MP, MP_PER_PAGE, STANDBY, TOURNAMENT, _before_start_phase, _open_battle_phase, _turn_steps, card, steps,
    vocabulary,
)
from .resolving import _activate_standby, _in_play_effects, _resolve_effect
from .preparation import _pages


@vocabulary.action("turn-pages", "The Attacker's START PHASE: turn 0 to 3 pages of the Spell Book, 2 MP each.",
                   params={"player": ref("player"), "pages": {"type": "integer", "description": "Pages turned (0 to 3)."}},
                   required=["player", "pages"])
def turn_pages(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if not _before_start_phase(context, state):
        if state.priority.step is not None or state.battle is not None:  # the BATTLE PHASE: Actions, or a Battle
            context.note("zb.qa.q1", f"{action['player']} cannot turn pages of its Spell Book during the BATTLE PHASE "
                         "unless by the effect of a card", involves=[BOOK])
        raise context.reject("not-the-start-phase", "pages are turned for MP only in the START PHASE",
                             "zb.table.no-page-turning", involves=[BOOK, MP])
    if action["player"] != state.attacker:
        raise context.reject("not-the-attacker", f"{action['player']} is the Defender; the Attacker turns pages",
                             "zb.start.turn-pages", involves=[BOOK])
    context.advance(state, "start-effects", action)  # then the BATTLE PHASE: the Attacker acts first (procedure.yaml)
    _open_battle_phase(context, state)


@steps("start-page-turning")
def start_page_turning(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = state.players[state.attacker]
    pages = int(action.get("pages", 0))
    if pages < 0:
        raise context.reject("cannot-turn-back", "pages may not be turned back without card effects", "zb.start.no-turning-back",
                             involves=[BOOK])
    if pages > MAX_START_PAGES:
        raise context.reject("too-many-pages", f"{pages} pages: the maximum is 3 per turn", "zb.start.max-three", involves=[BOOK])
    if player.opening + pages > LAST_OPENING:
        raise context.reject("no-page-left", f"{player.name} has {LAST_OPENING - player.opening} page(s) left to turn",
                             "zb.start.max-three", involves=[BOOK])
    context.note(_turn_steps(state), f"STEP 1, START PHASE, of {player.name}'s turn", involves=[BOOK])
    context.note("zb.turns.start-up-to-3", f"START PHASE of turn {state.turn}: {player.name}, the Attacker, turns {pages} page(s)",
                 involves=[BOOK])
    context.note("zb.start.turn-pages", f"{player.name} may increase MP by turning pages", involves=[BOOK, MP])
    if pages == 0:
        context.note("zb.start.may-turn-none", f"{player.name} turns no page and gets no MP", involves=[BOOK, MP])
        return
    player.opening += pages
    gained = pages * MP_PER_PAGE
    if state.turn == 1 and player.name == state.first_attacker and context.read(TOURNAMENT, "tournament"):
        context.note(TOURNAMENT, f"Tournament rule: the first Attacker gets no MP from the {pages} page(s) turned on the first turn",
                     involves=[MP])
        context.note("zb.qa.q15", f"{player.name}, the first Attacker, still turns the {pages} page(s)", involves=[BOOK, MP])
        gained = 0
    elif state.turn == 1 and player.name == state.first_attacker:
        context.reading(TOURNAMENT)
    player.mp += gained
    context.note("zb.start.max-three", f"{pages} page(s): 3 at the most", involves=[BOOK])
    context.note("zb.start.two-mp-each", f"{player.name} gets {gained} MP for {pages} page(s): open pages {_pages(player)}, {player.mp} MP",
                 involves=[BOOK, MP], mp=player.mp)
    context.note("zb.turns.start-two-mp", f"{MP_PER_PAGE} MP a page, {MP_PER_PAGE * MAX_START_PAGES} MP at the most: {gained} MP",
                 involves=[MP])
    context.note("zb.start.no-turning-back", "The pages are turned forward", involves=[BOOK])
    if player.opening == LAST_OPENING:
        context.note("zb.win.not-yet", f"{player.name} is on the last page: the game is not won yet", involves=[BOOK])


@steps("start-effects")
def start_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for kept in _activate_standby(context, state, "start-phase"):
        context.note("zb.start.standby", f"{kept.source}'s [STANDBY] effect activates in the START PHASE and resolves now",
                     involves=[card(kept.source), STANDBY])
        context.note("zb.start.after-page-turning", "The START PHASE effects resolve after the page turning")
    timed = _in_play_effects(context, state, "start-phase")
    if not timed:
        return
    context.note("zb.start.after-page-turning", "The START PHASE effects resolve after the page turning")
    for owner, source, effect in timed:
        context.note("zb.start.in-play-effects", f"{owner}'s {source} [IN PLAY] effect activates in the START PHASE",
                     involves=[card(source)])
        _resolve_effect(context, state, owner, source, effect, {})
