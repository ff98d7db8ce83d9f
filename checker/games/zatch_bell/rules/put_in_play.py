"""The BATTLE PHASE, 1. Putting a Card in Play From Your Spell Book: MAMODO cards (DUAL MAMODO and Stone Tablet
MAMODO cards among them), "PARTNER Cards Are Attached to Their In-Play MAMODO Cards", "MJ12 Cards Are Put In
Play Separately"; and what cannot be done: "A Spell Book cannot be altered in any way during a game".
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.stack import Link
from checker.engine.statecopy import Snapshot
from checker.engine.vocabulary import ref

from ..state import PLAYERS, Applied, Card, Mamodo, Player, State
from .common import BATTLE, BOOK, DUAL_LIMIT, DUAL_PETRIFIED, MAX_IN_PLAY, MJ12_NAME, PETRIFIED, QA_SEPARATE, card, vocabulary
from .resolving import _check_prohibited, _pay_and_apply, _resolve_effect
from .preparation import _pages
from .battle_phase import _acted, _take_action


@vocabulary.action("put-in-play", "An Action: put a MAMODO, PARTNER or MJ12 card in play from an open page.",
                   params={"player": ref("player"), "card": ref("card-name"),
                           "page": {"type": "integer", "description": "The open page (default: the open page holding the card)."},
                           "on": {**ref("card-name"), "description": "The in-play MAMODO card a PARTNER is attached to (default: its MAMODO)."},
                           "send": {**ref("card-name"), "description": "For a DUAL MAMODO card: the in-play MAMODO card of one of its "
                                    "names sent to the Discard Pile (default: the first found)."}},
                   required=["player", "card"])
def put_in_play(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name, player = action["card"], state.players[action["player"]]
    if state.battle is not None:
        raise context.reject("no-putting-in-play-in-battle", f"{name} cannot be put in play in the Battle",
                             "zb.battle.effects-window-no-putting", involves=[card(name), BATTLE])
    _take_action(context, state, player.name, "putting a card in play", action)
    page = _on_open_page(context, state, player, name, action.get("page"))
    kind = state.card(name)
    _check_prohibited(context, state, player.name, name, None, PUTTING_IN_PLAY)
    state.stack = state.stack.push(Link(player.name, name, Applied(effects=(), classes=PUTTING_IN_PLAY, action=dict(action),
                                                                   before=Snapshot(state))))
    context.note("zb.actions.put", f"{player.name} puts {name} in play from page {page} (1 card per Action)", involves=[card(name)])
    context.note("zb.put.one-per-action", "One card is put in play per Action; any number per turn", involves=[card(name)])
    context.note("zb.table.putting", f"The {_role(state, player.name)} may put a card in play in the BATTLE PHASE",
                 involves=[card(name)])
    context.note("zb.turns.put-in-play", f"{player.name} puts a card in play from the open pages", involves=[card(name)])
    if kind.type == "MAMODO" and kind.dual:
        _put_dual(context, state, player, kind, page, action.get("send"))
    elif kind.type == "MAMODO":
        _put_mamodo(context, state, player, kind, page)
    elif kind.type == "PARTNER":
        _put_partner(context, state, player, kind, page, action.get("on"))
    elif kind.type == "MJ12":
        _put_mj12(context, state, player, kind, page)
    else:
        raise context.reject("wrong-card-type", f"{name} is a {kind.type} card: it is not put in play",
                             "zb.book.mamodo-partner-leave", involves=[card(name)])
    _acted(context, state, player.name)


#: What a "Cannot" or a cut-in effect names to cover putting a card in play.
PUTTING_IN_PLAY = frozenset({"put-in-play"})


def _role(state: State, player: str) -> str:
    return "Attacker" if player == state.attacker else "Defender"


def _on_open_page(context: Context, state: State, player: Player, name: str, page: int | None) -> int:
    candidates = [page] if page is not None else list(player.open)
    for number in candidates:
        if number in player.open and player.card_on(number) == name:
            return number
    raise context.reject("not-on-open-page", f"{name} is not on {player.name}'s open pages {_pages(player)}",
                         "zb.precautions.newly-opened", involves=[card(name), BOOK])


def _put_mamodo(context: Context, state: State, player: Player, kind: Card, page: int) -> None:
    if kind.placed_on:
        _place_on_top(context, state, player, kind, page)
        return
    if _mamodo_count(context, state, player) >= MAX_IN_PLAY:
        counted = ", ".join(f"{m.card}{' (Petrified)' if m.status == 'petrified' else ''}" for m in player.mamodo)
        if any(m.status == "petrified" for m in player.mamodo):
            context.note("zb.petrified.count", "Petrified MAMODO cards still count toward the 3 MAMODO card limit",
                         involves=[PETRIFIED])
        context.note("zb.mamodo.max-3", "A maximum of 3 MAMODO cards in the MAMODO card area", involves=[card(kind.name)])
        raise context.reject("mamodo-limit", f"{player.name} already has 3 MAMODO cards in play: {counted}",
                             "zb.put.mamodo-max-3", involves=[card(kind.name)])
    _check_mamodo_name(context, player, state, kind, ignore=None)
    player.pages[page - 1] = None
    player.mamodo.append(Mamodo(card=kind.name, page=page))
    _note_stone_tablet(context, kind)
    context.note("zb.glossary.normal-status", f"{kind.name} is put in play in Normal Status: vertical and face-up",
                 involves=[card(kind.name)])
    context.note("zb.mamodo.max-3", f"{player.name} has {len(player.mamodo)} MAMODO card(s) in play, 3 at the most",
                 involves=[card(kind.name)])
    context.note("zb.put.mamodo-max-3", "Up to 3 MAMODO cards on a side of play", involves=[card(kind.name)])
    _left_its_page(context, state, player, kind, page)


def _mamodo_count(context: Context, state: State, player: Player) -> int:
    """The MAMODO cards on a side toward the limit of 3: a DUAL MAMODO card is 1 card, its 2 MAMODO both in play."""
    duals = [m.card for m in player.mamodo if state.card(m.card).dual]
    if not duals:
        return len(player.mamodo)
    twice = context.read(DUAL_LIMIT, "counts-twice")
    context.note(DUAL_LIMIT, f"{', '.join(duals)} count{'s' if len(duals) == 1 else ''} as {2 if twice else 1} MAMODO card(s) "
                 "toward the limit of 3", involves=[card(d) for d in duals])
    return len(player.mamodo) + (len(duals) if twice else 0)


def _check_mamodo_name(context: Context, player: Player, state: State, kind: Card, ignore: str | None) -> None:
    for m in player.mamodo:
        if m.card == ignore:
            continue
        there = state.card(m.card)
        if set(there.names) & set(kind.names):
            if there.dual or kind.dual:
                context.note("zb.dual-details.one-card", f"{(there if there.dual else kind).name} counts as "
                             f"{' and '.join((there if there.dual else kind).dual)} in play", involves=[card(there.name), card(kind.name)])
            elif there.name != kind.name:
                context.note("zb.mamodo.parentheses", f"{there.name} and {kind.name} share the MAMODO name {kind.mamodo_name} "
                             "(parentheses excluded): duplicates", involves=[card(there.name), card(kind.name)])
            context.note("zb.put.mamodo-one-name", "No two MAMODO cards share a MAMODO name on a side of play",
                         involves=[card(kind.name)])
            shared = " & ".join(n for n in kind.names if n in there.names)
            raise context.reject("same-mamodo-name", f"{player.name} already has a {shared} in play ({there.name})",
                                 "zb.mamodo.one-name", involves=[card(there.name), card(kind.name)])


def _note_stone_tablet(context: Context, kind: Card) -> None:
    if kind.stone_tablet:
        context.note("zb.stone.normal-status", f"{kind.name} is placed in face-up Normal Status, not Petrified", involves=[card(kind.name)])


def _put_dual(context: Context, state: State, player: Player, kind: Card, page: int, send: str | None) -> None:
    """A DUAL MAMODO card takes the place of 1 of its specified MAMODO cards, which goes to the Discard Pile."""
    named = [m for m in player.mamodo if set(state.card(m.card).names) & set(kind.dual)]
    counted = named
    if any(m.status == "petrified" for m in named):
        if context.read(DUAL_PETRIFIED, "petrified-only-as-cost"):
            counted = [m for m in named if m.status != "petrified"]
            context.note(DUAL_PETRIFIED, "A Petrified MAMODO card may be sent for the DUAL MAMODO card, but is not in play",
                         involves=[PETRIFIED, card(kind.name)])
        else:
            context.note(DUAL_PETRIFIED, "For a DUAL MAMODO card, a Petrified specified MAMODO card is in play",
                         involves=[PETRIFIED, card(kind.name)])
    present = {n for m in counted for n in state.card(m.card).names} & set(kind.dual)
    context.note("zb.dual.names", f"{kind.name} is a DUAL MAMODO card: {' & '.join(kind.dual)}", involves=[card(kind.name)])
    if present == set(kind.dual):
        context.note("zb.dual-details.not-both", f"{player.name} has both {' and '.join(kind.dual)} in play", involves=[card(kind.name)])
        raise context.reject("dual-both-in-play", f"{player.name} already has both {' and '.join(kind.dual)} in play",
                             "zb.dual.not-both", involves=[card(kind.name), *[card(m.card) for m in named]])
    chosen = next((m for m in named if m.card == send), None) if send else (named[0] if named else None)
    if chosen is None:
        raise context.reject("dual-needs-its-mamodo", f"{player.name} has no in-play {' or '.join(kind.dual)}"
                             + (f" named {send}" if send else "") + f" to send to the Discard Pile for {kind.name}",
                             "zb.dual.send-one", involves=[card(kind.name)])
    _check_mamodo_name(context, player, state, kind, ignore=chosen.card)
    if chosen.status == "petrified":
        context.note(DUAL_PETRIFIED, f"{chosen.card} is Petrified: it can still be sent to put {kind.name} in play",
                     involves=[card(chosen.card), PETRIFIED])
    player.pages[page - 1] = None
    dual = Mamodo(card=kind.name, page=page, partner=chosen.partner, partner_page=chosen.partner_page)
    player.mamodo[player.mamodo.index(chosen)] = dual
    player.discard += [chosen.card] + [c for c, _ in chosen.under]
    context.note("zb.dual.send-one", f"{player.name} sends {chosen.card} to the Discard Pile to put {kind.name} in play",
                 involves=[card(chosen.card), card(kind.name)])
    if chosen.partner:
        context.note("zb.dual-details.partner-moves", f"{chosen.partner}, attached to {chosen.card}, is now attached to {kind.name}",
                     involves=[card(chosen.partner), card(kind.name)])
    context.note("zb.dual-details.normal-status", f"{kind.name} is put in play in Normal Status ({chosen.card} was {chosen.status})",
                 involves=[card(kind.name)])
    context.note("zb.dual-details.one-card", f"{kind.name} is 1 card; {' and '.join(kind.dual)} are both considered in play",
                 involves=[card(kind.name)])
    _left_its_page(context, state, player, kind, page)


def _place_on_top(context: Context, state: State, player: Player, kind: Card, page: int) -> None:
    assert kind.placed_on is not None  # only a card put in play on top of another comes here
    below = next((m for m in player.mamodo if m.card == kind.placed_on), None)
    if below is None:
        raise context.reject("nothing-to-place-on", f"{kind.name} is put in play on top of an in-play {kind.placed_on}",
                             "zb.mamodo.placed-on-top", involves=[card(kind.name), card(kind.placed_on)])
    _check_mamodo_name(context, player, state, kind, ignore=below.card)
    player.pages[page - 1] = None
    below.under.insert(0, (below.card, below.page))
    below.card, below.page = kind.name, page
    context.note("zb.mamodo.placed-on-top", f"{kind.name} is put in play directly on top of {kind.placed_on}",
                 involves=[card(kind.name), card(kind.placed_on)])
    if below.partner:
        context.note("zb.mamodo.partner-moves-up", f"{below.partner}, attached to {kind.placed_on}, is now attached to {kind.name}",
                     involves=[card(below.partner), card(kind.name)])
    _effects_when_put_in_play(context, state, player.name, kind)


def _left_its_page(context: Context, state: State, player: Player, kind: Card, page: int) -> None:
    """A MAMODO or PARTNER card has left its page for play: the effects it applies as it is put in play follow."""
    context.note("zb.book.mamodo-partner-leave", f"{kind.name} leaves page {page} and is put in play", involves=[card(kind.name), BOOK])
    _effects_when_put_in_play(context, state, player.name, kind)


def _effects_when_put_in_play(context: Context, state: State, owner: str, kind: Card) -> None:
    _applied_on_entry(context, state, owner, kind)
    for effect in kind.effects:
        if effect.timing == "put-in-play":
            context.note("zb.table.note-1", f"{kind.name}'s effect must be applied as it is put in play", involves=[card(kind.name)])
            _resolve_effect(context, state, owner, kind.name, effect, {})


def _applied_on_entry(context: Context, state: State, owner: str, kind: Card) -> None:
    """A11 has a card's effects applied separately during later Actions; note ※1 (line 612) at once, as it is put in play."""
    effects = [e for e in kind.effects if e.tag in ("declare", "mp") and e.timing is None and not e.icons]
    if not effects:
        return
    if not context.read(QA_SEPARATE, "on-entry"):
        context.note(QA_SEPARATE, f"{kind.name} is put in play; its effect is applied separately, in a later Action",
                     involves=[card(kind.name)])
        return
    context.note(QA_SEPARATE, f"{kind.name}'s effect is applied as it is put in play", involves=[card(kind.name)])
    context.note("zb.table.note-1", f"{kind.name}'s effect must be applied as it is put in play", involves=[card(kind.name)])
    player = state.players[owner]
    for effect in effects:
        _pay_and_apply(context, state, player, kind.name, effect, {}, respondable=False)


def _put_partner(context: Context, state: State, player: Player, kind: Card, page: int, on: str | None) -> None:
    targets = [m for m in player.mamodo if _partner_fits(state, kind, m) and (on is None or m.card == on)]
    context.note("zb.partner.mamodo-name", f"{kind.name}'s MAMODO name: {kind.mamodo}", involves=[card(kind.name)])
    if not targets:
        raise context.reject("partner-needs-its-mamodo", f"{player.name} has no {kind.mamodo} in play for {kind.name}",
                             "zb.partner.attach", involves=[card(kind.name)])
    target = next((m for m in targets if m.partner is None and m.status != "petrified"), targets[0])
    if target.status == "petrified":
        raise context.reject("mamodo-petrified", f"{target.card} is Petrified: no PARTNER card can be attached to it",
                             "zb.petrified.no-partner", involves=[card(target.card), PETRIFIED])
    partners = [m.partner for m in player.mamodo if m.partner]
    if len(partners) >= MAX_IN_PLAY:
        raise context.reject("partner-limit", f"{player.name} already has 3 PARTNER cards in play", "zb.partner.max-3",
                             involves=[card(kind.name)])
    if kind.name in partners:
        context.note("zb.put.partner-one-name", "No two PARTNER cards share a PARTNER name on your side of play")
        raise context.reject("same-partner-name", f"{player.name} already has {kind.name} in play", "zb.partner.one-name",
                             involves=[card(kind.name)])
    if target.partner is not None:
        raise context.reject("mamodo-has-a-partner", f"{target.card} already has {target.partner} attached",
                             "zb.partner.one-per-mamodo", involves=[card(kind.name), card(target.partner)])
    player.pages[page - 1] = None
    target.partner, target.partner_page = kind.name, page
    context.note("zb.partner.attach", f"{kind.name} is attached to {player.name}'s in-play {target.card}",
                 involves=[card(kind.name), card(target.card)])
    if state.card(target.card).dual:
        context.note("zb.dual.one-partner", f"{kind.name} ({kind.mamodo}'s PARTNER) is the 1 PARTNER card of {target.card}",
                     involves=[card(kind.name), card(target.card)])
        context.note("zb.dual-details.one-partner", f"1 of either PARTNER card of {target.card} is attached", involves=[card(kind.name)])
    context.note("zb.put.partner-specified", f"{kind.name} is attached to its specified MAMODO card", involves=[card(kind.name)])
    if state.card(target.card).partner_names:
        context.note("zb.mamodo.partner-name", f"{target.card}'s PARTNER Name: {', '.join(state.card(target.card).partner_names)}",
                     involves=[card(target.card)])
    context.note("zb.partner.max-3", f"{player.name} has {len(partners) + 1} PARTNER card(s) in play, 3 at the most",
                 involves=[card(kind.name)])
    _left_its_page(context, state, player, kind, page)


def _partner_fits(state: State, partner: Card, mamodo: Mamodo) -> bool:
    there = state.card(mamodo.card)
    wanted = partner.mamodo or ""
    return wanted in (there.name, *there.names) or (bool(there.partner_names) and partner.name in there.partner_names)


def _put_mj12(context: Context, state: State, player: Player, kind: Card, page: int) -> None:
    sides = [player.name] if context.read(MJ12_NAME, "your-side") else list(PLAYERS)
    for side in sides:
        if any(name == kind.name for name, _ in state.players[side].mj12):
            context.note(MJ12_NAME, f"{kind.name} is already in play on {side}'s side", involves=[card(kind.name)])
            context.note("zb.put.mj12-one-name", "No two MJ12 cards share an MJ12 card name", involves=[card(kind.name)])
            raise context.reject("same-mj12-name", f"{kind.name} is already in play on {side}'s side", MJ12_NAME,
                                 involves=[card(kind.name)])
    player.pages[page - 1] = None
    player.mj12.append((kind.name, page))
    context.note("zb.mj12.out-of-play", f"{kind.name} is placed in {player.name}'s OUT OF PLAY area", involves=[card(kind.name)])
    context.note("zb.put.mj12-area", "MJ12 cards are put in play separately", involves=[card(kind.name)])
    context.note("zb.mj12.not-attached", f"{kind.name} is attached to no MAMODO card", involves=[card(kind.name)])
    context.note("zb.mj12.no-mamodo-needed", "No MAMODO or PARTNER card needs to be in play for it", involves=[card(kind.name)])
    context.note("zb.mj12.no-limit", f"{player.name} has {len(player.mj12)} MJ12 card(s) in play: no limit", involves=[card(kind.name)])
    context.note("zb.put.mj12-no-limit", "There is no limit to the number of MJ12 cards", involves=[card(kind.name)])
    if len(sides) == 1:
        context.note("zb.put.mj12-one-name", "No MJ12 card of that name on your side of play", involves=[card(kind.name)])


@vocabulary.action("send-to-discard", "Try to send one's own in-play card to the Discard Pile without a card effect.",
                   params={"player": ref("player"), "card": ref("card-name")}, required=["player", "card"])
def send_to_discard(context: Context, state: State, action: Mapping[str, Any]) -> None:
    raise context.reject("no-free-discard", f"{action['player']} cannot send {action['card']} to the Discard Pile freely: "
                         "only a card effect that says so sends it", "zb.qa.q8", involves=[card(action["card"])])


@vocabulary.action("alter-book", "Try to rearrange the pages of one's own Spell Book (swap two pages).",
                   params={"player": ref("player"), "swap": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
                   required=["player", "swap"])
def alter_book(context: Context, state: State, action: Mapping[str, Any]) -> None:
    first, second = action["swap"]
    raise context.reject("book-cannot-be-altered", f"{action['player']} cannot swap pages {first} and {second}: no card effect calls for it",
                         "zb.book.no-alteration", involves=[BOOK])
