"""The BATTLE PHASE, EVENT Cards: "Only 1 EVENT card can be played once per turn (per player)."
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import Card, Player, State
from .common import BOOK, MP, PAY_EXTRA, card, vocabulary
from .resolving import _activate_standby, _check_prohibited, _negated_by_in_play, _open_to_cut_in, _pay_extra, _resolve_effect
from .battle_phase import _acted, _take_action
from .put_in_play import _on_open_page, _role


@vocabulary.action("play-event", "An Action: play 1 EVENT card from an open page (it stays in its page); pay its MP.",
                   params={"player": ref("player"), "card": ref("card-name"), "page": {"type": "integer"},
                           "protect": {**ref("card-name"), "description": "The MAMODO card that PROTECTS against its Damage."},
                           "target": {**ref("card-name"), "description": "The card its effect selects (\"select 1 MAMODO card\")."},
                           "pay_extra": PAY_EXTRA},
                   required=["player", "card"])
def play_event(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["card"]
    _take_action(context, state, player.name, "an EVENT card", action)
    page = _on_open_page(context, state, player, name, action.get("page"))
    kind = state.card(name)
    if kind.type != "EVENT":
        raise context.reject("wrong-card-type", f"{name} is a {kind.type} card", "zb.play.event-only-one", involves=[card(name)])
    context.note("zb.event.no-battle", f"{name} is played in Non-Battle: no Battle begins", involves=[card(name)])
    attacker = player.name == state.attacker
    icon = "attack" if attacker else "defend"
    if icon not in kind.icons:
        ruling = "zb.turns.attack-event" if attacker else "zb.turns.defend-event"
        context.note("zb.event.icon-a" if attacker else "zb.event.icon-d", f"{name} has icons {list(kind.icons)}",
                     involves=[card(name)])
        raise context.reject("event-icon", f"the {_role(state, player.name)} plays only EVENT cards with the "
                             f"{icon.title()} icon; {name} has {list(kind.icons) or 'none'}", ruling, involves=[card(name)])
    if page in player.events_shown:
        context.note("zb.event.same-copy", f"{player.name} may play {player.events_allowed} EVENT cards this turn, "
                     f"but the copy of {name} on page {page} only once", involves=[card(name)])
        raise context.reject("event-this-turn", f"the copy of {name} on page {page} has been played this turn", "zb.event.same-copy",
                             involves=[card(name)])
    _check_prohibited(context, state, player.name, name, next((e for e in kind.effects if e.passes_prohibitions), None),
                      frozenset({"event"}))
    if len(player.events_shown) >= player.events_allowed:
        context.note("zb.play.event-once", "Only 1 EVENT card per turn (per player)", involves=[card(name)])
        raise context.reject("event-this-turn", f"{player.name} has played an EVENT card this turn", "zb.event.one-per-turn",
                             involves=[card(name)])
    if player.mp < kind.mp:
        raise context.reject("not-enough-mp", f"{name} costs {kind.mp} MP; {player.name} has {player.mp}", "zb.play.event-pay",
                             involves=[card(name), MP])
    player.mp -= kind.mp
    _pay_extra(context, state, player, name, kind.effects, action)
    player.event_played = True
    player.events_shown.append(page)
    _note_event_played(context, state, player, kind, page, attacker)
    _open_to_cut_in(context, state, player.name, name, kind.effects, frozenset({"event"}), action)
    if not _negated_by_in_play(context, state, player.name, name, kind.effects, frozenset({"event"})):
        for effect in kind.effects:
            _resolve_effect(context, state, player.name, name, effect, action)
    _activate_standby(context, state, "opponent-event", by=player.name)
    _acted(context, state, player.name)


def _note_event_played(context: Context, state: State, player: Player, kind: Card, page: int, attacker: bool) -> None:
    name = kind.name
    context.note("zb.actions.event", f"{player.name} plays {name} from page {page}", involves=[card(name)])
    context.note("zb.table.event", f"The {_role(state, player.name)} plays 1 EVENT card", involves=[card(name)])
    icon_ruling, search = ("zb.event.icon-a", "zb.search.attack-icon") if attacker else ("zb.event.icon-d", "zb.search.defend-icon")
    context.note(search, f"{name} has the {'Attack' if attacker else 'Defend'} icon", involves=[card(name)])
    whose = "your" if attacker else "your opponent's"
    context.note(icon_ruling, f"{name} can be used during {whose} BATTLE PHASE", involves=[card(name)])
    context.note("zb.play.attacker-icon" if attacker else "zb.play.defender-icon",
                 f"{player.name}, the {_role(state, player.name)}, may play it", involves=[card(name)])
    context.note("zb.turns.attack-event" if attacker else "zb.turns.defend-event",
                 f"{player.name} plays its 1 \"{'Attack' if attacker else 'Defend'}\" EVENT card of the turn", involves=[card(name)])
    context.note("zb.play.event-only-one", "Only 1 EVENT card from the open pages", involves=[card(name)])
    context.note("zb.event.one-per-turn", f"{player.name}'s EVENT card of this turn", involves=[card(name)])
    context.note("zb.play.event-pay", f"{player.name} shows {name} and pays {kind.mp} MP: {player.mp} MP",
                 involves=[card(name), MP], mp=player.mp)
    context.note("zb.event.shown-stays", f"{name} is shown and stays in page {page}", involves=[card(name), BOOK])
    context.note("zb.types.leave-or-remain", f"{name}, an EVENT card, remains in the Spell Book when played", involves=[card(name), BOOK])
    context.note("zb.book.event-stays", f"{name} remains in its page", involves=[card(name), BOOK])
