"""Sequence of Gameplay: the PREPARATION PHASE, "Put first mamodo in play / decide who is the first Attacker":
1. Send in the First Mamodo, 2. Turn 1 Page of your Spell Book, 3. Decide the Turn Order.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.trace import mechanic

from ..state import PLAYERS, Mamodo, Player, State, other
from .common import BOOK, MP, MP_PER_PAGE, card, steps
from .resolving import _in_play_effects, _resolve_effect


@steps("send-in-first-mamodo")
def send_in_first_mamodo(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("zb.sequence.preparation", "PREPARATION PHASE: put the first mamodo in play, decide the first Attacker")
    for name in PLAYERS:
        player = state.players[name]
        first = player.pages[0]
        assert first is not None
        player.pages[0] = None
        player.mamodo.append(Mamodo(card=first, page=1))
        context.note("zb.prep.send-in-first-mamodo", f"{name} puts {first} from page 1 in play", involves=[card(first)])
        context.note("zb.book.mamodo-partner-leave", f"{first} leaves page 1 of {name}'s book", involves=[card(first), BOOK])


@steps("turn-first-page")
def turn_first_page(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for name in PLAYERS:
        player = state.players[name]
        player.opening += 1
        player.mp += MP_PER_PAGE
        context.note("zb.prep.turn-one-page", f"{name} turns 1 page (open pages {_pages(player)}) and gets {MP_PER_PAGE} MP: {player.mp} MP",
                     involves=[BOOK, MP], mp=player.mp)


@steps("decide-turn-order")
def decide_turn_order(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("zb.prep.coin-toss", f"The coin toss: {state.first_attacker} goes first", involves=[mechanic("coin toss")])
    context.note("zb.turns.coin-toss-winner-attacks", f"{state.first_attacker} starts the first turn as the Attacker, "
                 f"{other(state.first_attacker)} as the Defender", involves=[mechanic("coin toss")])
    context.note("zb.sequence.first-attacker", f"{state.first_attacker}, the 1st Attacker, takes the first turn")


@steps("preparation-effects")
def preparation_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for owner, source, effect in _in_play_effects(context, state, "preparation"):
        context.note("zb.glossary.preparation-effects", f"{owner}'s {source}: an effect resolved during the PREPARATION PHASE",
                     involves=[card(source)])
        state.preparation_effects.append((owner, source))
        _resolve_effect(context, state, owner, source, effect, {})


def _pages(player: Player) -> str:
    return " and ".join(str(p) for p in player.open)
