"""The END PHASE: "When both players are no longer in the BATTLE PHASE, the END PHASE begins": its effects,
Petrified MAMODO cards returned to Normal Status, a player with no MAMODO in play, "The Attacker always turns 1
page of their Spell Book and gets 2 MP to end their turn"; and Winning the Game.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import LAST_OPENING, Effect, Kept, Mamodo, Player, State
from .common import (
    ACTION, BOOK, CANNOT, END_PHASE_ORDER, INJURY, MAX_IN_PLAY, MP, MP_PER_PAGE, PETRIFIED, PETRIFIED_INJURY, PETRIFIED_NO_MAMODO,
    RECOVERY_MP, STANDBY, _turn_steps, card, steps, vocabulary,
)
from .resolving import (
    _activate_kept, _expire_standby, _expire_stay, _in_play_effects, _kept, _prohibition, _resolve_effect, _send_to_discard,
)
from .put_in_play import PUTTING_IN_PLAY
from .preparation import _pages
from .no_battle import _return_no_battle_spells
from .battle_outcome import _loses


@vocabulary.action("end-phase", "The END PHASE, with its choices: Petrified MAMODO cards to recover (2 MP each) or to discard, "
                   "the MAMODO card a player with none in play puts in play, the order of the END PHASE effects.",
                   params={"recover": {"type": "array", "items": ref("card-name")},
                           "discard_petrified": {"type": "array", "items": ref("card-name")},
                           "send_in": {"type": "object", "additionalProperties": ref("card-name"),
                                       "description": "Player -> the MAMODO card put in play by the no-MAMODO rule."},
                           "order": {"type": "array", "items": {"type": "string"},
                                     "description": "The Attacker's order of the END PHASE effects: card names, 'petrified-recovery'."}})
def end_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if not state.end_pending:
        raise context.reject("not-now", "the BATTLE PHASE has not ended", "zb.end.begins", involves=[ACTION])
    _check_petrified_choices(context, state, action)
    _run_end_phase(context, state, action)


def _check_petrified_choices(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """Petrified MAMODO cards are recovered or discarded by the Attacker, at the END PHASE of their own turn."""
    player = state.players[state.attacker]
    chosen = list(action.get("recover") or []) + list(action.get("discard_petrified") or [])
    for name in chosen:
        holder = player.find(name)
        if holder is None or holder.status != "petrified":
            raise context.reject("no-such-choice", f"{name} is not a Petrified MAMODO card of {player.name}, the Attacker: "
                                 "Petrified cards are recovered at the END PHASE of their owner's turn", "zb.petrified.recovery",
                                 involves=[card(name), PETRIFIED])
    cost = RECOVERY_MP * len(action.get("recover") or [])
    if cost > player.mp and not _end_effects_due(state):
        raise context.reject("not-enough-mp", f"recovering {len(action.get('recover') or [])} Petrified card(s) costs {cost} MP; "
                             f"{player.name} has {player.mp}", "zb.petrified.recovery", involves=[PETRIFIED, MP])


def _end_effects_due(state: State) -> bool:
    """Whether END PHASE effects resolve before the recovery: the MP it is paid with is then known only when it comes."""
    standby = any((kept.effect.until or "end-phase") == "end-phase" for kept in _kept(state, "standby"))
    return standby or any(e.tag == "in-play" and e.timing == "end-phase" for player in state.players.values()
                          for source in player.in_play_cards() for e in state.card(source).effects)


def _run_end_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.advance(state, "switch-roles", action)


@steps("end-effects")
def end_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("zb.end.begins", "Both players are no longer in the BATTLE PHASE: the END PHASE begins")
    context.note(_turn_steps(state), f"STEP 3, END PHASE, of {state.attacker}'s turn")
    _expire_standby(context, state)
    _expire_stay(context, state, "end-phase")
    timed: list[tuple[str, Callable[[], None]]] = [
        (source, _end_in_play(context, state, owner, source, effect, action))
        for owner, source, effect in _in_play_effects(context, state, "end-phase")]
    timed += [(kept.source, _end_standby(context, state, kept)) for kept in _kept(state, "standby")
              if (kept.effect.until or "end-phase") == "end-phase"]
    order = list(action.get("order") or [])
    context.note("zb.end.effects", f"END PHASE effects to resolve: {len(timed)}")
    duplicated = sorted({source for source, _ in timed if sum(1 for s, _ in timed if s == source) > 1})
    if duplicated:
        context.note("zb.glossary.duplicated", f"{', '.join(duplicated)}: the same effect is applied more than once simultaneously")
    if len(timed) > 1 or order:
        if context.read(END_PHASE_ORDER, "any-simultaneous") and order:
            timed.sort(key=lambda t: order.index(t[0]) if t[0] in order else len(order))
            context.note(END_PHASE_ORDER, f"The Attacker orders the END PHASE effects: {', '.join(t[0] for t in timed)}")
            context.note("zb.qa.q13", f"{state.attacker}, the Attacker for this turn, determines the order of the resolving effects")
            context.note("zb.glossary.effect-conflict", "The result depends on the order in which the Attacker resolves them")
        else:
            context.note(END_PHASE_ORDER, "The effects resolve in the order the END PHASE lists them; the Attacker orders "
                         f"only duplicated effects{' (' + ', '.join(duplicated) + ')' if duplicated else ''}")
    state.end_recovery_first = bool(order and order[0] == "petrified-recovery" and context.read(END_PHASE_ORDER, "any-simultaneous"))
    if state.end_recovery_first:
        _recover_petrified(context, state, action)
    for _, run in timed:
        run()


def _end_in_play(context: Context, state: State, owner: str, source: str, effect: Effect,
                 action: Mapping[str, Any]) -> Callable[[], None]:
    def run() -> None:
        context.note("zb.end.effects", f"{owner}'s {source}: [IN PLAY] effect of the END PHASE", involves=[card(source)])
        context.note("zb.end.list-in-play", f"{source}'s [IN PLAY] effect activates during the END PHASE", involves=[card(source)])
        _resolve_effect(context, state, owner, source, effect, action)
    return run


def _end_standby(context: Context, state: State, kept: Kept) -> Callable[[], None]:
    def run() -> None:
        context.note("zb.end.list-standby", f"{kept.source}'s [STANDBY] effect activates during the END PHASE",
                     involves=[card(kept.source), STANDBY])
        _activate_kept(context, state, kept, "end-phase")
    return run


@steps.condition("attacker-has-petrified")
def attacker_has_petrified(state: State) -> bool:
    return any(m.status == "petrified" for m in state.players[state.attacker].mamodo)


@steps("petrified-recovery")
def petrified_recovery(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if not state.end_recovery_first:
        _recover_petrified(context, state, action)


def _recovered_injury(context: Context, holder: Mamodo) -> None:
    """A card that was Injured when it became Petrified, turned to Normal Status: does its Injury remain?"""
    holder.petrified_injured = False
    if context.read(PETRIFIED_INJURY, "normal"):
        context.note(PETRIFIED_INJURY, f"{holder.card} was Injured when it became Petrified: in Normal Status now, its Injury is gone",
                     involves=[card(holder.card), INJURY])
        return
    holder.status = "injured"
    context.note(PETRIFIED_INJURY, f"{holder.card} was Injured when it became Petrified: turned face-up again, it is still Injured",
                 involves=[card(holder.card), INJURY])


def _recover_petrified(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = state.players[state.attacker]
    for name in action.get("recover") or []:
        holder = player.find(name)
        if holder is None or holder.status != "petrified":
            raise context.reject("no-such-choice", f"{name} is not a Petrified MAMODO card of {player.name}", "zb.petrified.recovery",
                                 involves=[card(name)])
        if player.mp < RECOVERY_MP:
            context.note("zb.petrified.recovery", f"{player.name} has {player.mp} MP: {name} cannot be recovered ({RECOVERY_MP} MP)",
                         involves=[card(name), PETRIFIED, MP])
            continue
        player.mp -= RECOVERY_MP
        holder.status = "normal"
        context.note("zb.end.list-petrified", f"The END PHASE returns {name} to Normal Status for its MP cost", involves=[card(name)])
        context.note("zb.petrified.recovery", f"{player.name} pays {RECOVERY_MP} MP: {name} returns to Normal Status ({player.mp} MP)",
                     involves=[card(name), PETRIFIED, MP], mp=player.mp)
        if holder.petrified_injured:
            _recovered_injury(context, holder)
    for name in action.get("discard_petrified") or []:
        holder = player.find(name)
        if holder is None or holder.status != "petrified":
            raise context.reject("no-such-choice", f"{name} is not a Petrified MAMODO card of {player.name}", "zb.petrified.recovery",
                                 involves=[card(name)])
        if len(player.mamodo) == 1:
            raise context.reject("must-keep-a-mamodo", f"{name} is {player.name}'s last MAMODO card", "zb.petrified.recovery",
                                 involves=[card(name)])
        _send_to_discard(context, state, player, name, "zb.petrified.recovery")
    if not action.get("recover") and not action.get("discard_petrified"):
        context.note("zb.petrified.recovery", f"{player.name} keeps its Petrified MAMODO card(s) Petrified", involves=[PETRIFIED])


@steps.condition("a-player-has-no-mamodo")
def a_player_has_no_mamodo(state: State) -> bool:
    return any(not _counted_in_play(p) for p in state.players.values())


def _counted_in_play(player: Player) -> list[Mamodo]:
    """In-play MAMODO cards: Petrified MAMODO cards do not count."""
    return [m for m in player.mamodo if m.status != "petrified"]


@steps("no-mamodo")
def no_mamodo(context: Context, state: State, action: Mapping[str, Any]) -> None:
    choices: Mapping[str, str] = action.get("send_in") or {}
    for name in (state.attacker, state.defender):
        player = state.players[name]
        if _counted_in_play(player):
            continue
        if player.mamodo:
            if context.read(PETRIFIED_NO_MAMODO, "on-the-mat"):
                context.note(PETRIFIED_NO_MAMODO, f"{name}'s Petrified MAMODO cards are still on the mat: the rule is not invoked",
                             involves=[PETRIFIED])
                continue
            context.note(PETRIFIED_NO_MAMODO, f"{name} has only Petrified MAMODO cards: no MAMODO card in play", involves=[PETRIFIED])
            context.note("zb.petrified.count", f"{name}'s Petrified MAMODO cards do not count as in-play MAMODO cards",
                         involves=[PETRIFIED])
        context.note("zb.end.list-no-mamodo", f"{name} has no MAMODO card in play: the END PHASE applies what to do then")
        _send_in_a_mamodo(context, state, player, choices.get(name))
        if state.loser:
            return


def _send_in_a_mamodo(context: Context, state: State, player: Player, chosen: str | None) -> None:
    context.note("zb.no-mamodo.regardless", "This method is performed regardless of card effects")
    while True:
        playable = [p for p in player.open if (c := player.card_on(p)) and state.card(c).type == "MAMODO"
                    and not state.card(c).placed_on and len(player.mamodo) < MAX_IN_PLAY]
        if playable:
            page = next((p for p in playable if player.card_on(p) == chosen), playable[0])
            name = player.card_on(page)
            assert name is not None
            prohibition = _prohibition(state, player.name, name, PUTTING_IN_PLAY)
            if prohibition is not None:
                context.note("zb.no-mamodo.regardless", f"{prohibition.source}'s \"Cannot\" effect does not stop it: {name} is put "
                             "in play regardless of card effects", involves=[card(name), card(prohibition.source), CANNOT])
            player.pages[page - 1] = None
            player.mamodo.append(Mamodo(card=name, page=page))
            state.sent_in.append(player.name)
            context.note("zb.no-mamodo.put-in-play", f"{player.name} has no MAMODO card in play: puts {name} in play from page {page}",
                         involves=[card(name)])
            return
        if player.opening >= LAST_OPENING:
            _loses(context, state, player.name, f"{player.name} has no applicable MAMODO card in the rest of the Spell Book")
            context.note("zb.no-mamodo.put-in-play", f"{player.name} loses the game: no MAMODO card left to put in play")
            return
        player.opening += 1
        context.note("zb.no-mamodo.put-in-play", f"No MAMODO card in the open pages: {player.name} turns a page ({_pages(player)})",
                     involves=[BOOK])


@steps("end-page-turning")
def end_page_turning(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if state.loser:
        return
    player = state.players[state.attacker]
    if player.opening >= LAST_OPENING:
        _loses(context, state, player.name, f"{player.name} is on the last page and cannot turn the page the END PHASE requires")
        return
    if state.attacker in state.sent_in:
        context.note("zb.no-mamodo.then-turn", f"{player.name} put a MAMODO card in play by the no-MAMODO rule: "
                     f"now turns 1 page for {MP_PER_PAGE} MP and ends the turn", involves=[BOOK])
    state.sent_in.clear()
    next_page = max(player.open) + 1
    player.opening += 1
    player.mp += MP_PER_PAGE
    context.note("zb.glossary.next-page", f"Page {next_page}, the page immediately after the open pages, is now open", involves=[BOOK])
    context.note("zb.end.turn-one-page", f"{player.name}, the Attacker, turns 1 page ({_pages(player)}) and gets {MP_PER_PAGE} MP: "
                 f"{player.mp} MP", involves=[BOOK, MP], mp=player.mp)
    context.note("zb.turns.end-must-turn", "The page turning of the END PHASE is not optional", involves=[BOOK])
    context.note("zb.turns.end-two-mp", f"{MP_PER_PAGE} MP from turning the page", involves=[MP])


@steps("switch-roles")
def switch_roles(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for name, spell_page in sorted(state.players[state.defender].spells_used):
        if not state.card(name).is_no_battle:
            context.note("zb.qa.q4", f"{state.defender} Defended with {name} (page {spell_page}): it can be used again during the "
                         f"BATTLE PHASE of {state.defender}'s next turn", involves=[card(name)])
    for player in state.players.values():
        if player.turn_power:
            context.note("zb.event.until-end-phase", f"{player.name}'s EVENT Power ends with the END PHASE")
        player.turn_power, player.battle_power, player.event_played = 0, 0, False
        player.used_effects.clear()
        player.negated_cards.clear()
        player.spells_used.clear()
        _return_no_battle_spells(context, player)
        player.events_shown.clear()
        player.events_allowed = 1
        player.kept = [k for k in player.kept if k.zone != "turn"]
        player.unnegatable.clear()
        for holder in player.mamodo:
            holder.effects_negated = False
    if state.loser:
        return
    state.attacker = state.defender
    state.turn += 1
    context.note("zb.turns.roles-switch", f"The roles switch: {state.attacker} is the Attacker of turn {state.turn}")
    context.note("zb.sequence.alternate-turns", "The players alternate turns")
    if state.attacker != state.first_attacker:
        context.note("zb.sequence.second-attacker", f"{state.attacker}, the 2nd attacker, takes the next turn")
    context.note("zb.sequence.repeat", "The turns repeat until the game is won")


@steps.condition("game-goes-on")
def game_goes_on(state: State) -> bool:
    return state.loser is None
