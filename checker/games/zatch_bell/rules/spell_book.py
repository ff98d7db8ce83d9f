"""Spell Book Construction: "A Spell Book must consist of exactly 32 cards before play begins", "The first page
must contain a regular MAMODO card, and the last page must contain a SPELL card"; the game set up from both books.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Book, Context

from ..state import (
    BOOK_PAGES, LAST_OPENING, PLAYERS, Card, InPlay, Initial, Mamodo, Player, State, build_players, card_book, initial_of, take_from_book,
)
from .common import (
    BOOK, INTERMEDIATE_FROM, MAX_COPIES, MAX_MAMODO_IN_BOOK, REGULAR_MAMODO, STONE_TABLET_REGULAR, SUPERIOR_FROM, TOURNAMENT,
    card, steps,
)


def setup(context: Context, raw: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    initial = initial_of(raw)
    known = card_book(book, cards)
    players = build_players(initial, known)
    first = initial.first_attacker
    state = State(players=players, cards=Book(known), first_attacker=first, attacker=first)
    start = initial.start
    if start == "preparation":
        context.walk(state, "preparation")
        return state
    context.run_step(state, "check-books")
    _place_mid_game(state, initial)
    state.turn = initial.turn
    state.attacker = initial.attacker or first
    context.note(None, f"The game starts at turn {state.turn}, {state.attacker} the Attacker, at the {start}")
    context.start_at(state, "start-effects" if start == "battle-phase" else "decide-turn-order")
    return state


def _place_mid_game(state: State, initial: Initial) -> None:
    """A game the scenario starts mid-way: each player's opening, MP, cards in play and Discard Pile."""
    for name in PLAYERS:
        side, player = initial.players[name], state.players[name]
        where = ("initial", "players", name)
        player.opening = _opening(side.page, where + ("page",))
        in_play = side.in_play if side.in_play is not None else [InPlay(card=player.pages[0] or "")] if player.pages else []
        for index, entry in enumerate(in_play):
            at = where + ("in_play", index)
            mamodo = Mamodo(card=entry.card, page=take_from_book(player, entry.card, entry.page, at), status=entry.status)
            for below in entry.under:
                mamodo.under.append((below, take_from_book(player, below, None, at + ("under",))))
            if entry.partner:
                mamodo.partner = entry.partner
                mamodo.partner_page = take_from_book(player, entry.partner, None, at + ("partner",))
            player.mamodo.append(mamodo)
        for index, mj12 in enumerate(side.mj12):
            player.mj12.append((mj12, take_from_book(player, mj12, None, where + ("mj12", index))))
        for index, gone in enumerate(side.discard):
            take_from_book(player, gone, None, where + ("discard", index))
            player.discard.append(gone)


def _opening(page: int, where: tuple[str | int, ...]) -> int:
    if page == 1:
        return 0
    if page == BOOK_PAGES:
        return LAST_OPENING
    if page % 2 or not 2 <= page <= 30:
        raise InputError(f"page {page} is not the first of the open pages", path=where,
                         expected="1, an even page 2 to 30 (open with the next page), or 32")
    return page // 2


@steps("check-books")
def check_books(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for name in PLAYERS:
        _check_book(context, state, state.players[name])


def _check_book(context: Context, state: State, player: Player) -> None:
    who = player.name
    context.note("zb.book.order", f"{who}'s Spell Book holds its cards in the order {who} chose, one card a page",
                 involves=[BOOK])
    context.note("zb.types.five", "Every card is a MAMODO, PARTNER, MJ12, SPELL or EVENT card", involves=[BOOK])
    if player.size != BOOK_PAGES:
        raise context.reject("book-size", f"{who}'s Spell Book holds {player.size} cards, not exactly {BOOK_PAGES}",
                             "zb.book.exactly-32", involves=[BOOK], cards=player.size)
    context.note("zb.book.exactly-32", f"{who}'s Spell Book holds exactly 32 cards", involves=[BOOK])
    cards = [state.card(name) for name in player.pages if name is not None]
    _check_first_page(context, who, cards[0])
    last = cards[-1]
    if last.type != "SPELL":
        raise context.reject("last-page-not-spell", f"page 32 of {who}'s book holds {last.name}, a {last.type} card",
                             "zb.book.last-page-spell", involves=[card(last.name), BOOK], page=32)
    context.note("zb.book.last-page-spell", f"Page 32 of {who}'s book holds a SPELL card", involves=[BOOK])
    _check_classes(context, who, cards)
    mamodo = sum(1 for c in cards if c.type == "MAMODO")
    if mamodo > MAX_MAMODO_IN_BOOK:
        raise context.reject("too-many-mamodo-cards", f"{who}'s book holds {mamodo} MAMODO cards, more than 8",
                             "zb.book.max-8-mamodo", involves=[BOOK], mamodo=mamodo)
    context.note("zb.book.max-8-mamodo", f"{who}'s book holds {mamodo} MAMODO card(s), 8 at the most", involves=[BOOK])
    _check_copies(context, who, cards)
    _check_tournament_ban(context, who, cards)


def _check_first_page(context: Context, who: str, first: Card) -> None:
    regular = first.type == "MAMODO" and (first.regular or context.read(REGULAR_MAMODO, "regular-class"))
    if regular and first.stone_tablet:
        regular = context.read(STONE_TABLET_REGULAR, "stone-tablet-is-regular")
        context.note(STONE_TABLET_REGULAR, f"{first.name} is a Stone Tablet MAMODO card: "
                     f"{'a' if regular else 'not a'} regular MAMODO card", involves=[card(first.name)])
    if first.type == "MAMODO" and not first.regular:
        context.note(REGULAR_MAMODO, f"{first.name} is put in play on top of another MAMODO card: "
                     f"{'a regular MAMODO card' if regular else 'not the regular (standard) form'}", involves=[card(first.name)])
    if not regular:
        raise context.reject("first-page-not-regular-mamodo", f"page 1 of {who}'s book holds {first.name}, not a regular MAMODO card",
                             "zb.book.first-page-mamodo", involves=[card(first.name), BOOK], page=1)
    context.note("zb.book.first-page-mamodo", f"Page 1 of {who}'s book holds {first.name}, a regular MAMODO card",
                 involves=[card(first.name), BOOK])


def _check_classes(context: Context, who: str, cards: list[Card]) -> None:
    limits = {"intermediate": (INTERMEDIATE_FROM, "zb.book.intermediate-page-12", "zb.search.intermediate"),
              "superior": (SUPERIOR_FROM, "zb.book.superior-page-22", "zb.search.superior")}
    early = [(page, c) for page, c in enumerate(cards, start=1)
             if c.card_class in limits and page < limits[c.card_class][0]]
    for class_, (first_page, ruling, search_term) in limits.items():
        placed = [page for page, c in enumerate(cards, start=1) if c.card_class == class_]
        if placed:
            context.note(search_term, f"\"{class_.title()}\" Class cards are restricted to page {first_page}+", involves=[BOOK])
        if placed and not early:
            context.note(ruling, f"{who}'s {class_.title()} Class cards are on pages {placed}, all {first_page} or further",
                         involves=[BOOK])
    if early:
        for page, c in early:
            context.note(limits[c.card_class or ""][1], f"{c.name} ({(c.card_class or '').title()} Class) is on page {page}",
                         involves=[card(c.name), BOOK], page=page)
        page, first = early[0]
        first_page, ruling, _ = limits[first.card_class or ""]
        listed = "; ".join(f"page {p}: {c.name} ({(c.card_class or '').title()} Class, page {limits[c.card_class or ''][0]}+)"
                           for p, c in early)
        raise context.reject(f"{first.card_class}-before-page-{first_page}", f"{who}'s book: {listed}", ruling,
                             involves=[card(c.name) for _, c in early] + [BOOK], page=page)


def _check_copies(context: Context, who: str, cards: list[Card]) -> None:
    numbers = [c.number for c in cards]
    repeated = Counter(numbers) if len(set(numbers)) < len(numbers) else {}
    for number, count in repeated.items():
        if count > MAX_COPIES:
            names = sorted({c.name for c in cards if c.number == number})
            raise context.reject("too-many-copies", f"{who}'s book holds {count} copies of card number {number} ({', '.join(names)})",
                                 "zb.book.max-4-copies", involves=[card(n) for n in names] + [BOOK], copies=count)
    printings = dict.fromkeys((c.name, c.number) for c in cards)  # each name with each number it has in the book
    shared: dict[str, list[str]] = {}
    if len({name for name, _ in printings}) < len(printings):
        for name, number in printings:
            shared.setdefault(name, []).append(number)
        shared = {name: sorted(numbers) for name, numbers in shared.items() if len(numbers) > 1}
    text = "; ".join(f"{name}: numbers {', '.join(n)}" for name, n in shared.items())
    context.note("zb.book.max-4-copies", f"{who}'s book holds at most 4 copies of each card number" +
                 (f" (copies are counted per number: {text})" if shared else ""), involves=[BOOK])


def _check_tournament_ban(context: Context, who: str, cards: list[Card]) -> None:
    banned = [c for c in cards if c.number.endswith("e")]
    if banned and context.read(TOURNAMENT, "tournament"):
        raise context.reject("banned-card", f"{banned[0].name} ({banned[0].number}) is banned in tournament settings",
                             TOURNAMENT, involves=[card(banned[0].name)])
