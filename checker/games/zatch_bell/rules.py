"""Zatch Bell! The Card Battle, as its manual states it: the Spell Book, the turn and the Battle (part 1).

The game stands at one step of ``procedure.yaml``. ``setup`` checks both Spell Books and walks the
PREPARATION PHASE. ``turn-pages`` is the Attacker's START PHASE; in the BATTLE PHASE the players
perform Actions in turn (``put-in-play``, ``apply-effect``, ``play-event``, ``battle-in``) or ``pass``;
a "Battle In" the Defender lets through begins the Battle: ``defend`` (or ``pass``), icon-marked
effects until both pass, Total Power compared, then ``resolve`` (the Defender's PROTECT, the
Attacker's Injury targets) and "Battle Out". When both players pass in Non-Battle the END PHASE
follows (``end-phase`` gives its choices; any later action or the end of the scenario runs it with
none), then the roles switch.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Callable, Mapping

from checker.errors import InputError
from checker.game import Book, Context
from checker.procedure import StepHandlers
from checker.stack import Link, ResponseStack
from checker.statecopy import Snapshot
from checker.trace import Entity, mechanic
from checker.vocabulary import Vocabulary, ref

from .state import (
    BOOK_PAGES, LAST_OPENING, PLAYERS, Applied, Battle, Card, Effect, Kept, Mamodo, Player, SpellOut, State, base_name,
    build_players, card_book, observe, other, take_from_book,
)

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    book_size="A Spell Book must consist of exactly 32 cards before play begins.",
    first_page_not_regular_mamodo="The first page must contain a regular MAMODO card.",
    last_page_not_spell="The last page must contain a SPELL card.",
    intermediate_before_page_12='"Intermediate" Class cards can only be placed in page 12 or further.',
    superior_before_page_22='"Superior" Class cards can only be placed in page 22 or further.',
    too_many_mamodo_cards="Up to 8 MAMODO cards total may be included in a Spell Book.",
    too_many_copies="Up to 4 copies of a card with the same card number can be included in a Spell Book.",
    banned_card='Under the tournament rule, cards with an "e" at the end of their card number are banned.',
    no_free_discard="In-play cards are sent to the Discard Pile only by a card effect that says so.",
    book_cannot_be_altered="A Spell Book cannot be altered during a game, unless called for by card effects.",
    game_over="The game has been won.",
    not_the_start_phase="Pages are turned for MP only in the Attacker's START PHASE.",
    not_the_attacker="Only the Attacker may do this.",
    not_the_defender="Only the Defender may do this.",
    too_many_pages="The Attacker may turn a maximum of 3 pages in the START PHASE.",
    cannot_turn_back="Pages may not be turned back without the use of card effects.",
    no_page_left="The book has no page left to turn.",
    not_your_action="It is the other player's Action.",
    not_in_non_battle="This is done only when a Battle is not in progress.",
    not_on_open_page="The card is not on an open page of the player's Spell Book.",
    wrong_card_type="That card type cannot be used this way.",
    mamodo_limit="Up to 3 MAMODO cards can exist on a player's side of play.",
    same_mamodo_name="No two MAMODO cards can share the same MAMODO name on a side of play.",
    nothing_to_place_on="The card must be placed on top of a MAMODO card that is not in play.",
    partner_needs_its_mamodo="A PARTNER card is attached only to its in-play MAMODO card.",
    partner_limit="Up to 3 PARTNER cards on a side of play.",
    same_partner_name="No two PARTNER cards can share the same PARTNER name.",
    mamodo_has_a_partner="Only 1 PARTNER card can be attached to each MAMODO card.",
    same_mj12_name="No two MJ12 cards can share the same MJ12 card name.",
    not_in_play="The card is not in play on the player's side.",
    no_such_effect="The card has no such effect.",
    effect_used_this_turn="These effects can be applied only once per turn (per player).",
    effect_used_this_game="This effect can be used only once by each player per game.",
    in_play_effects_apply_themselves="[IN PLAY] effects are automatic and do not require an Action.",
    wrong_battle_phase="The effect specifies the BATTLE PHASE of the other player.",
    not_enough_mp="The MP cost cannot be paid.",
    event_this_turn="Only 1 EVENT card can be played per turn (per player).",
    event_icon="An EVENT card is played by the Attacker with an Attack icon, by the Defender with a Defend icon.",
    no_attack_icon='"Battle In" can only be declared with a card or effect that has an Attack icon.',
    attack_with_battle_in='An "&" effect that Attacks is applied by declaring "Battle In" with it.',
    no_defend_icon="A Defense is declared with a SPELL card that has a Defend icon.",
    spell_for_another_mamodo="A SPELL card is played only for the MAMODO named on it.",
    mamodo_petrified="Petrified MAMODO cards cannot do this.",
    attack_negated_before="A new Attack or Defense cannot be declared with the card that initiated a negated one.",
    not_now="The game does not stand where this can be done.",
    defense_declared="Only 1 Defense is declared per Battle.",
    defense_step_over="The Defense is declared in Battle step 2, before effects are applied.",
    not_a_battle_effect="Only effects with the icon of the Battle's effect step can be applied in it.",
    no_putting_in_play_in_battle="Putting cards in play cannot be done during the Battle's effect step without card effects.",
    cannot_protect="That MAMODO card cannot SACRIFICE or PROTECT here.",
    cannot_target_petrified="Petrified MAMODO cards cannot be a target of card effects that do not specify them.",
    last_page_spell_stays="The SPELL card in the last page cannot be removed from the page by card effects.",
    must_keep_a_mamodo="At least 1 MAMODO card must remain in play.",
    no_such_choice="The choice names no card it could apply to.",
    not_your_choice="The other player makes this choice.",
    spell_used_this_turn="Once used, the SPELL card cannot be played again during the same turn.",
    effects_negated="The card's effects have been negated by a card effect.",
    nothing_to_negate="A cut-in effect negates only a card or effect the opponent just played or applied.",
    cannot_negate_that="The cut-in effect does not specify that type of card or effect.",
    cannot_be_negated="The card or effect cannot be negated.",
    prohibited='A "Cannot" effect prohibits this.',
    not_a_no_battle_spell="Only SPELL cards with the \"No Battle\" icon are played without a Battle.",
    dual_needs_its_mamodo="A DUAL MAMODO card is put in play by sending 1 of its specified in-play MAMODO cards to the Discard Pile.",
    dual_both_in_play="A DUAL MAMODO card cannot be put in play while both of its specified MAMODO cards are in play.",
    cannot_be_defended="The Attack cannot be Defended.",
    no_battle_icon="A No Battle SPELL card is played by the Attacker with an Attack icon, by the Defender with a Defend icon.",
    coin_redo_not_an_action="An effect that changes a coin toss is applied right after the coins are flipped, without an Action; "
    "it is no cut-in effect.",
    wrong_role="The effect is applied only when its player is the Attacker (or the Defender) it names.",
    coin_redo_not_transferable="The right to use the effect cannot be transferred to the other player.",
)

REGULAR_MAMODO = "zb.amb.regular-mamodo"
TOURNAMENT = "zb.amb.tournament"
MJ12_NAME = "zb.amb.mj12-name"
PRIORITY_AFTER_BATTLE_EFFECT = "zb.amb.priority-after-battle-effect"
BATTLE_EFFECTS_ICON = "zb.amb.battle-effects-icon"
BATTLE_EFFECTS_STEP = "zb.amb.battle-effects-step"
SACRIFICE_PROTECT = "zb.amb.sacrifice-protect"
SPELL_ONCE_PER_TURN = "zb.amb.spell-once-per-turn"
PETRIFIED_NO_MAMODO = "zb.amb.petrified-no-mamodo"
END_PHASE_ORDER = "zb.amb.end-phase-order"
INJURY_CHOOSER = "zb.amb.injury-chooser"
KEPT_NEGATION = {"stay": ("zb.amb.kept-negation", "targeting-effects"), "standby": ("zb.amb.standby-negation", "negatable-while-waiting")}
CANNOT_IN_PLAY = "zb.amb.cannot-in-play"
STONE_TABLET_REGULAR = "zb.amb.stone-tablet-regular"
DUAL_PETRIFIED = "zb.amb.dual-petrified"
DUAL_LIMIT = "zb.amb.dual-limit"
STONE_TABLET_PETRIFIED = "zb.amb.stone-tablet-petrified-placement"
QA_SEPARATE = "zb.qa.q11"
AND_RESOLUTION = "zb.amb.and-effect-resolution"
CANNOT_BE_NEGATED_SCOPE = "zb.amb.cannot-be-negated-scope"
EVEN_PROHIBITED_SCOPE = "zb.amb.even-prohibited-scope"
NO_BATTLE_NEGATION = "zb.amb.no-battle-negation"
NO_BATTLE_RETURN = "zb.amb.no-battle-return"
KEPT_CARD_LEAVES = "zb.amb.stay-card-leaves"
NEGATE_DEFINITION = "zb.amb.negate-definition"
CANNOT_BE_NEGATED_IN_PLAY = "zb.amb.cannot-be-negated-in-play"
BATTLE_STEP_5 = "zb.amb.battle-step-5"
GLOSSARY_RESOLVING = "zb.amb.glossary-resolving-effects"
GLOSSARY_COMPARE = "zb.amb.glossary-compare-step"
KEPT_CUT_IN_SCOPE = "zb.amb.kept-cut-in-scope"
WHEN_INFLICT_PROTECTED = "zb.amb.when-inflict-protected"
GLOSSARY_ATTACKER = "zb.amb.glossary-attacker"
GLOSSARY_MP = "zb.amb.glossary-mp"
GLOSSARY_BATTLE_EFFECT = "zb.amb.glossary-battle-effect"
MP_PER_PAGE = 2
MAX_START_PAGES = 3
MAX_IN_PLAY = 3
MAX_MAMODO_IN_BOOK = 8
MAX_COPIES = 4
INTERMEDIATE_FROM, SUPERIOR_FROM = 12, 22
RECOVERY_MP = 2
EITHER_PHASE = {"MAMODO": "zb.mamodo.effects-either-phase", "PARTNER": "zb.partner.either-phase", "MJ12": "zb.mj12.either-phase"}
ONCE_PER_TURN_TAGS = {"declare": "zb.tag.declare-once", "mp": "zb.tag.mp-once", "discard": "zb.tag.discard-once"}
__all__ = ["steps", "vocabulary", "setup", "observe", "before_action", "settle"]


def card(name: str) -> Entity:
    return ("card", name)


BOOK, MP, BATTLE, DAMAGE, INJURY = (mechanic(m) for m in ("Spell Book", "MP", "Battle", "Damage", "Injury"))
ACTION, PETRIFIED, PROTECT = mechanic("Action"), mechanic("Petrified"), mechanic("SACRIFICE / PROTECT")
CUT_IN, STAY, STANDBY, CANNOT = mechanic("Cut-In"), mechanic("[STAY]"), mechanic("[STANDBY]"), mechanic('"Cannot"')
COIN_TOSS = mechanic("coin toss")
COIN = {"enum": ["heads", "tails"], "description": "How the coin the SPELL card's effect flips lands (chance, written down)."}
COINS = {"type": "array", "items": COIN, "description": "How the coins an effect flips as it is declared land (chance, written down: "
         "heads is the side with a mamodo's face)."}


# === Spell Book Construction =====================================================================


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    known = card_book(book, cards)
    players = build_players(initial, known)
    first = initial.get("first_attacker", "A")
    state = State(players=players, cards=Book(known), first_attacker=first, attacker=first)
    start = initial.get("start", "preparation")
    if start == "preparation":
        context.walk(state, "preparation")
        return state
    context.run_step(state, "check-books")
    _place_mid_game(state, initial)
    state.turn = initial.get("turn", 1)
    state.attacker = initial.get("attacker", first)
    context.note(None, f"The game starts at turn {state.turn}, {state.attacker} the Attacker, at the {start}")
    if start == "battle-phase":
        state.step = "start-effects"
        state.priority = state.attacker
    else:
        state.step = "decide-turn-order"
    return state


def _place_mid_game(state: State, initial: Mapping[str, Any]) -> None:
    """A game the scenario starts mid-way: each player's opening, MP, cards in play and Discard Pile."""
    for name in PLAYERS:
        raw, player = initial["players"][name], state.players[name]
        where = ("initial", "players", name)
        player.opening = _opening(raw.get("page", 2), where + ("page",))
        for index, entry in enumerate(raw.get("in_play", [{"card": player.pages[0]}] if player.pages else [])):
            at = where + ("in_play", index)
            mamodo = Mamodo(card=entry["card"], page=take_from_book(player, entry["card"], entry.get("page"), at),
                            status=entry.get("status", "normal"))
            for below in entry.get("under", []):
                mamodo.under.append((below, take_from_book(player, below, None, at + ("under",))))
            if entry.get("partner"):
                mamodo.partner = entry["partner"]
                mamodo.partner_page = take_from_book(player, entry["partner"], None, at + ("partner",))
            player.mamodo.append(mamodo)
        for index, mj12 in enumerate(raw.get("mj12", [])):
            player.mj12.append((mj12, take_from_book(player, mj12, None, where + ("mj12", index))))
        for index, gone in enumerate(raw.get("discard", [])):
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


# === Sequence of Gameplay: the PREPARATION PHASE =================================================


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
        context.note("zb.prep.turn-one-page", f"{name} turns 1 page (open pages {_pages(player)}) and gets 2 MP: {player.mp} MP",
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


# === The START PHASE ================================================================================


@vocabulary.action("turn-pages", "The Attacker's START PHASE: turn 0 to 3 pages of the Spell Book, 2 MP each.",
                   params={"player": ref("player"), "pages": {"type": "integer", "description": "Pages turned (0 to 3)."}},
                   required=["player", "pages"])
def turn_pages(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _refuse_when_over(context, state)
    if not _before_start_phase(state):
        if state.step in ("start-effects", "non-battle", "battle-in", "battle-out") or state.battle is not None:
            context.note("zb.qa.q1", f"{action['player']} cannot turn pages of its Spell Book during the BATTLE PHASE "
                         "unless by the effect of a card", involves=[BOOK])
        raise context.reject("not-the-start-phase", "pages are turned for MP only in the START PHASE",
                             "zb.table.no-page-turning", involves=[BOOK, MP])
    if action["player"] != state.attacker:
        raise context.reject("not-the-attacker", f"{action['player']} is the Defender; the Attacker turns pages",
                             "zb.start.turn-pages", involves=[BOOK])
    context.advance(state, "start-effects", action)
    _open_battle_phase(context, state)


def _turn_steps(state: State) -> str:
    """The figure of the 1st Attacker's turn, or of the 2nd Attacker's: STEP 1 START PHASE, STEP 2 BATTLE PHASE, STEP 3 END PHASE."""
    return "zb.sequence.first-turn-steps" if state.attacker == state.first_attacker else "zb.sequence.second-turn-steps"


def _before_start_phase(state: State) -> bool:
    return state.step in ("decide-turn-order", "switch-roles") and state.loser is None


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
    context.note("zb.turns.start-two-mp", f"2 MP a page, 6 MP at the most: {gained} MP", involves=[MP])
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


def _in_play_effects(context: Context, state: State, timing: str) -> list[tuple[str, str, Effect]]:
    """[IN PLAY] effects with this timing of the cards in play, the Attacker's first; Petrified MAMODO cards' never."""
    found: list[tuple[str, str, Effect]] = []
    for name in (state.attacker, state.defender):
        player = state.players[name]
        sources = [c for m in player.mamodo if m.status != "petrified" for c in [m.card] + ([m.partner] if m.partner else [])]
        for source in sources + [c for c, _ in player.mj12]:
            timed = [e for e in state.card(source).effects if e.tag == "in-play" and e.timing == timing]
            if timed and _in_play_active(context, state, name, source):
                found += [(name, source, e) for e in timed]
    return found


# === The BATTLE PHASE: the Action System and the Alternating Rule ================================


def _open_battle_phase(context: Context, state: State) -> None:
    state.priority, state.passes = state.attacker, 0
    context.note(_turn_steps(state), f"STEP 2, BATTLE PHASE, of {state.attacker}'s turn", involves=[ACTION])
    context.note("zb.turns.battle-actions", f"BATTLE PHASE: {state.attacker} (Attacker) and {state.defender} (Defender) "
                 "each take turns performing 1 Action", involves=[ACTION])
    context.note("zb.alternate.attacker-first", f"{state.attacker}, the Attacker, performs the first Action", involves=[ACTION])


def _refuse_when_over(context: Context, state: State) -> None:
    if state.loser is not None:
        raise context.reject("game-over", f"{other(state.loser)} has won the game", "zb.sequence.runs-out-loses")


def _in_non_battle(state: State) -> bool:
    return state.battle is None and state.step in ("start-effects", "non-battle", "battle-in", "battle-out") and not state.end_pending


def _take_action(context: Context, state: State, player: str, what: str, action: Mapping[str, Any]) -> None:
    """An Action by ``player`` in Non-Battle: it must be theirs to perform."""
    _refuse_when_over(context, state)
    _refuse_in_start_phase(context, state, what)
    if not _in_non_battle(state) and state.pending_battle_in is None:
        raise context.reject("not-in-non-battle", f"{what}: a Battle is in progress", "zb.event.no-battle"
                             if what == "an EVENT card" else "zb.battle.effects-window-no-putting", involves=[BATTLE])
    if state.priority != player:
        raise context.reject("not-your-action", f"{state.priority} performs the next Action, not {player}",
                             "zb.turns.battle-actions", involves=[ACTION])
    if state.pending_battle_in is not None:
        _defender_acts_before_battle_in(context, state, player)
    context.run_step(state, "non-battle", action)


def _refuse_in_start_phase(context: Context, state: State, what: str) -> None:
    if _before_start_phase(state):
        raise context.reject("not-now", f"{what}: the START PHASE comes first (the Attacker turns 0 to 3 pages)",
                             "zb.start.not-activated", involves=[ACTION])


@steps("non-battle")
def non_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("zb.actions.definition", f"{action.get('player')} performs an Action ({action['action']})", involves=[ACTION])
    context.note("zb.glossary.action", f"An Action, performed during the BATTLE PHASE: {action['action']}", involves=[ACTION])


def _acted(context: Context, state: State, player: str) -> None:
    """After an Action, the other player may perform one (in a Battle, see the effects window)."""
    state.passes = 0
    state.priority = other(player)
    context.note("zb.alternate.other-may-act", f"{other(player)} may now perform an Action", involves=[ACTION])


@vocabulary.action("pass", "Pass: perform no Action (the Defender's pass also lets a \"Battle In\" through or waives the Defense).",
                   params={"player": ref("player")}, required=["player"])
def pass_(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = action["player"]
    _refuse_when_over(context, state)
    _refuse_in_start_phase(context, state, "a pass")
    if state.pending_battle_in is not None:
        _confirm_battle_in(context, state, player, action)
    elif state.step == "attack":
        _waive_defense(context, state, player, action)
    elif state.step in ("defend", "apply-effects"):
        _pass_effects(context, state, player, action)
    elif _in_non_battle(state):
        _pass_non_battle(context, state, player, action)
    else:
        raise context.reject("not-now", f"nothing to pass at {state.step}", involves=[ACTION])


def _pass_non_battle(context: Context, state: State, player: str, action: Mapping[str, Any]) -> None:
    if state.priority != player:
        raise context.reject("not-your-action", f"{state.priority} performs the next Action, not {player}",
                             "zb.turns.battle-actions", involves=[ACTION])
    state.passes += 1
    if state.passes == 1:
        state.priority = other(player)
        context.note("zb.alternate.pass", f"{player} passes and performs no Action", involves=[ACTION])
        context.note("zb.alternate.act-after-pass", f"{other(player)} may still perform an Action; {player} may act again after it",
                     involves=[ACTION])
        return
    context.note("zb.alternate.both-pass-ends", "Both players decide to perform no more Actions: the BATTLE PHASE ends",
                 involves=[ACTION])
    state.priority = None
    state.end_pending = True


# === Putting cards in play ======================================================================


@vocabulary.action("put-in-play", "An Action: put a MAMODO, PARTNER or MJ12 card in play from an open page.",
                   params={"player": ref("player"), "card": ref("card-name"),
                           "page": {"type": "integer", "description": "The open page (default: the open page holding the card)."},
                           "on": {**ref("card-name"), "description": "The in-play MAMODO card a PARTNER is attached to (default: its MAMODO)."},
                           "send": {**ref("card-name"), "description": "For a DUAL MAMODO card: the in-play MAMODO card of one of its "
                                    "names sent to the Discard Pile (default: the first found)."}},
                   required=["player", "card"])
def put_in_play(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name, player = action["card"], state.players[action["player"]]
    if state.step == "apply-effects" or state.step == "attack":
        raise context.reject("no-putting-in-play-in-battle", f"{name} cannot be put in play in the Battle",
                             "zb.battle.effects-window-no-putting", involves=[card(name), BATTLE])
    _take_action(context, state, player.name, "putting a card in play", action)
    page = _on_open_page(context, state, player, name, action.get("page"))
    kind = state.card(name)
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


# === Applying the effects of in-play cards ======================================================


@vocabulary.action("apply-effect", "An Action: apply an effect of an in-play MAMODO, PARTNER or MJ12 card.",
                   params={"player": ref("player"), "card": ref("card-name"),
                           "effect": {"type": "integer", "minimum": 0, "description": "Which of the card's effects (default 0, the first)."},
                           "target": {**ref("card-name"), "description": "The MAMODO card the effect selects (a negating effect: the "
                                      "card whose effect it negates)."},
                           "protect": {**ref("card-name"), "description": "The MAMODO card that PROTECTS against the effect's Damage."},
                           "protect_each": {"type": "array", "items": {"oneOf": [ref("card-name"), {"type": "null"}]},
                                            "description": "Damage X times: the MAMODO card that PROTECTS against each infliction "
                                            "(null: none)."},
                           "coins": COINS},
                   required=["player", "card"])
def apply_effect(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["card"]
    effect = _chosen_effect(context, state, player, name, action.get("effect", 0))
    if effect.kind == "redo-coins":
        context.note("zb.qa.q14", f"{name}'s effect changes a coin toss: it is no cut-in effect and is applied right after coins "
                     "are flipped (redo-coins)", involves=[card(name), COIN_TOSS])
        raise context.reject("coin-redo-not-an-action", f"{name}'s effect re-does a coin toss: it negates nothing and is applied "
                             "without an Action", "zb.qa.q14", involves=[card(name), COIN_TOSS])
    if effect.kind == "attack-without-spell":
        raise context.reject("attack-with-battle-in", f"{name}'s \"&\" effect Attacks without a SPELL card: it is applied by "
                             f"declaring \"Battle In\" with it (battle-in, effect_of: {name})", "zb.battle-in.icon", involves=[card(name)])
    in_battle = state.step in ("attack", "defend", "apply-effects")
    _check_role(context, state, player, name, effect)
    if effect.is_cut_in:
        _check_cut_in(context, state, player, name, effect, action.get("target"))
    elif effect.kind == "negate":
        _check_kept_target(context, state, player, name, effect, action)
    if in_battle:
        _apply_in_battle(context, state, player, name, effect, action)
    else:
        if effect.is_battle_effect:
            raise context.reject("not-in-non-battle", f"{name}'s effect has the Battle icon: it is applied in a Battle",
                                 _icon_area(state, name), involves=[card(name)])
        if not effect.is_cut_in:
            _take_action(context, state, player.name, "an effect", action)
        else:
            _refuse_in_start_phase(context, state, "a cut-in effect")
            context.run_step(state, "non-battle", action)
        _check_phase_owner(context, state, player, name, effect)
        _pay_and_apply(context, state, player, name, effect, action)
        _acted(context, state, player.name)


def _chosen_effect(context: Context, state: State, player: Player, name: str, index: int) -> Effect:
    _refuse_when_over(context, state)
    holder = _holder(player, name)
    if holder is None and name in player.discarded_by_effect and any(e.tag == "discard" for e in state.card(name).effects):
        context.note("zb.interruption.no-discard-response", f"{player.name} cannot interrupt the effect that sends {name} to the "
                     "Discard Pile by applying its own effect", involves=[card(name)])
        raise context.reject("not-in-play", f"{name} is being sent to the Discard Pile by a card effect: its [SEND THIS CARD TO "
                             "THE DISCARD PILE] effect cannot be applied at that time", "zb.tag.discard-by-effect", involves=[card(name)])
    if holder is None:
        raise context.reject("not-in-play", f"{name} is not in play on {player.name}'s side", "zb.effects.apply", involves=[card(name)])
    effects = state.card(name).effects
    if index >= len(effects):
        raise context.reject("no-such-effect", f"{name} has {len(effects)} effect(s)", involves=[card(name)])
    effect = effects[index]
    if holder.effects_negated and holder.card == name:
        raise context.reject("effects-negated", f"{name}'s effects are negated this turn", involves=[card(name)])
    if effect.tag == "in-play":
        raise context.reject("in-play-effects-apply-themselves", f"{name}'s [IN PLAY] effect needs no Action",
                             "zb.tag.in-play-no-action", involves=[card(name)])
    if holder.status == "petrified":
        ruling = "zb.petrified.no-effects" if holder.card == name else "zb.petrified.no-partner"
        raise context.reject("mamodo-petrified", f"{holder.card} is Petrified: {name}'s effects cannot be applied", ruling,
                             involves=[card(name), PETRIFIED])
    if holder.status == "injured":
        context.note("zb.injured.can-act", f"{holder.card} is Injured and can still apply its effects", involves=[card(holder.card)])
        context.note("zb.qa.q7", f"{holder.card}, Injured, still applies its effects", involves=[card(holder.card)])
    return effect


def _check_role(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    """ "When you are the Attacker (Defender)": the player whose turn it is is the Attacker, the other the Defender; the glossary's
    "currently Attacking in the Battle" may limit the roles to a Battle (the switch)."""
    if effect.only_as is None:
        return
    role: str | None = "attacker" if player.name == state.attacker else "defender"
    if context.read(GLOSSARY_ATTACKER, "turn-roles"):
        context.note(GLOSSARY_ATTACKER, f"{player.name} is the {role} for the whole turn, in a Battle or not", involves=[card(name)])
    elif state.battle is None:
        role = None
        context.note(GLOSSARY_ATTACKER, f"No Battle is taking place: {player.name} is neither Attacking nor Defending in a Battle",
                     involves=[card(name)])
    if role != effect.only_as:
        raise context.reject("wrong-role", f"{name}'s effect is applied when its player is the {effect.only_as}; {player.name} is "
                             f"{'the ' + role if role else 'neither'}", GLOSSARY_ATTACKER, involves=[card(name)])


def _holder(player: Player, name: str) -> Mamodo | None:
    """The in-play MAMODO card that is, or carries, the card ``name`` (an MJ12 card: a stand-in in Normal Status)."""
    for m in player.mamodo:
        if name in (m.card, m.partner):
            return m
    if any(c == name for c, _ in player.mj12):
        return Mamodo(card=name, page=0)
    return None


def _check_phase_owner(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    kind = state.card(name)
    if effect.phase is not None:
        owner = player.name if effect.phase == "own" else other(player.name)
        context.note("zb.table.note-2", f"{name}'s effect specifies the BATTLE PHASE of {owner}", involves=[card(name)])
        if owner != state.attacker:
            raise context.reject("wrong-battle-phase", f"{name}'s effect is for {owner}'s BATTLE PHASE; this is {state.attacker}'s",
                                 "zb.table.note-2", involves=[card(name)])
    context.note(EITHER_PHASE[kind.type], f"{player.name} applies {name}'s effect in {state.attacker}'s BATTLE PHASE", involves=[card(name)])
    context.note("zb.turns.apply-effects", f"{player.name} applies the effect of an in-play card", involves=[card(name)])
    context.note("zb.table.applying", f"The {_role(state, player.name)} may apply in-play cards' effects", involves=[card(name)])


def _pay_and_apply(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any],
                   *, respondable: bool = True) -> None:
    """Pay an applied effect's cost, then resolve it: at once, open to a cut-in effect as the next Action if ``respondable``."""
    if effect.coins:
        _flip_effect_coins(context, state, player.name, name, effect, action)
    _pay(context, state, player, name, effect)
    if effect.is_cut_in:
        _cut_in(context, state, player.name, name, effect, action)
        return
    if respondable:
        _open_to_cut_in(context, state, player.name, name, (effect,), _classes(effect), action)
    _resolve_effect(context, state, player.name, name, effect, action)


def _pay(context: Context, state: State, player: Player, name: str, effect: Effect) -> None:
    key = f"{name}#{state.card(name).effects.index(effect)}"
    if effect.once_per_game and key in player.used_this_game:
        raise context.reject("effect-used-this-game", f"{player.name} has applied {name}'s effect this game", "zb.glossary.once-per-game",
                             involves=[card(name)])
    if key in player.used_effects:
        ruling = ONCE_PER_TURN_TAGS[effect.tag]
        if effect.tag == "discard":
            context.note("zb.tag.discard-copy", f"Another copy of {name} cannot apply the effect again this turn", involves=[card(name)])
        raise context.reject("effect-used-this-turn", f"{player.name} has applied {name}'s effect this turn", ruling,
                             involves=[card(name)])
    _check_prohibited(context, state, player.name, name, effect, _classes(effect))
    context.note("zb.actions.apply", f"{player.name} applies {name}'s effect", involves=[card(name)])
    context.note("zb.effects.apply", f"{name} is in play on {player.name}'s side", involves=[card(name)])
    if effect.tag == "mp":
        if player.mp < effect.mp:
            raise context.reject("not-enough-mp", f"{name}'s [{effect.mp} MP] effect: {player.name} has {player.mp} MP",
                                 "zb.tag.mp-pay", involves=[card(name), MP])
        player.mp -= effect.mp
        context.note("zb.tag.mp-pay", f"{player.name} declares {name}'s effect and pays {effect.mp} MP: {player.mp} MP",
                     involves=[card(name), MP], mp=player.mp)
    elif effect.tag == "declare":
        context.note("zb.tag.declare-no-mp", f"{player.name} declares {name}'s effect: no MP is paid", involves=[card(name)])
    elif effect.tag == "discard":
        _send_to_discard(context, state, player, name, "zb.tag.discard-then")
        context.note("zb.qa.q8", f"{name}'s effect says to send it to the Discard Pile: {player.name} may do so", involves=[card(name)])
    player.used_effects.add(key)
    if effect.once_per_game:
        player.used_this_game.add(key)
        context.note("zb.glossary.once-per-game", f"{name}'s effect: once per game for {player.name}", involves=[card(name)])
    context.note(ONCE_PER_TURN_TAGS[effect.tag], f"{name}'s effect: once per turn for {player.name}", involves=[card(name)])
    if state.card(name).type == "MAMODO":
        context.note("zb.mamodo.effects-while-in-play", f"{name}'s effect is valid while it is in play", involves=[card(name)])


def _apply_in_battle(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if state.step == "attack":
        if effect.is_battle_effect and _battle_effect_any_time(context, name):
            _apply_before_defense(context, state, player, name, effect, action)
            return
        if not context.read(BATTLE_EFFECTS_STEP, "part-of-defend"):
            raise context.reject("not-now", f"{state.defender} declares or waives the Defense first (Battle step 2)",
                                 BATTLE_EFFECTS_STEP, involves=[BATTLE])
        context.note(BATTLE_EFFECTS_STEP, "The effects are applied within the Defend step: the Defense may still follow",
                     involves=[BATTLE])
        context.advance(state, "apply-effects", {})
    if state.priority != player.name and not effect.is_cut_in:
        raise context.reject("not-your-action", f"{state.priority} applies an effect or passes first",
                             "zb.battle.effects-window-order", involves=[ACTION])
    classes = ["battle-icon"] if _allowed_in_battle(context, effect) else ["no-icon"]
    context.note("zb.interruption.battle-step-5", f"During the Battle only effects with the icon are valid: {name}'s effect "
                 + ("is one" if classes == ["battle-icon"] else "is not"), involves=[card(name), BATTLE])
    context.check_window(state, classes, name=f"{name}'s effect", involves=[card(name)])
    context.note("zb.precautions.only-icons-in-battle", f"{name}'s effect has the icon a Battle allows", involves=[card(name)])
    context.note("zb.figure.effects-icon", f"{name}'s effect is marked with the icon of this step", involves=[card(name)])
    context.note(EITHER_PHASE[state.card(name).type], f"{player.name} applies {name}'s effect in {state.attacker}'s BATTLE PHASE",
                 involves=[card(name)])
    context.note("zb.battle.effects-window-both", f"{player.name} applies {name}'s effect in the Battle", involves=[card(name)])
    context.note(_icon_area(state, name), f"{name}'s effect icons ({', '.join(effect.icons)}) give its timing", involves=[card(name)])
    if effect.is_battle_effect:
        context.note("zb.battle-effects.icon", f"{name}'s Battle effect is applied during the Battle", involves=[card(name)])
        context.note("zb.battle-effects.icon-caption", f"{name}'s effect is marked with the Battle icon: a \"Battle\" effect",
                     involves=[card(name)])
        context.note("zb.battle-effects.resolve-at-once", f"{name}'s Battle effect resolves immediately after it is applied",
                     involves=[card(name)])
    _pay_and_apply(context, state, player, name, effect, action)
    state.passes = 0
    if context.read(PRIORITY_AFTER_BATTLE_EFFECT, "attacker-next"):
        state.priority = state.attacker
        context.note(PRIORITY_AFTER_BATTLE_EFFECT, f"An effect was applied during the Battle: {state.attacker}, the Attacker, acts next",
                     involves=[ACTION])
    else:
        state.priority = other(player.name)
        context.note(PRIORITY_AFTER_BATTLE_EFFECT, f"{other(player.name)} may act next, as after any Action", involves=[ACTION])


def _battle_effect_any_time(context: Context, name: str) -> bool:
    """The glossary's Battle effect, "used during Battle" (between Battle In and Battle Out): also before the Defense?"""
    if context.read(GLOSSARY_BATTLE_EFFECT, "whole-battle"):
        context.note(GLOSSARY_BATTLE_EFFECT, f"{name}'s Battle effect can be used at any time during the Battle, before the Defense too",
                     involves=[card(name), BATTLE])
        return True
    context.note(GLOSSARY_BATTLE_EFFECT, f"{name}'s Battle effect is applied in the Battle's effects step only, not before the Defense",
                 involves=[card(name), BATTLE])
    return False


def _apply_before_defense(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """A Battle effect applied between the Attack and the Defense: the Defender then still declares or waives the Defense."""
    if state.priority != player.name and not effect.is_cut_in:
        raise context.reject("not-your-action", f"{state.priority} declares or waives the Defense first", "zb.battle.defend-optional",
                             involves=[ACTION])
    context.note("zb.battle-effects.icon", f"{name}'s Battle effect is applied during the Battle", involves=[card(name)])
    _pay_and_apply(context, state, player, name, effect, action)
    state.priority = state.defender
    context.note("zb.battle.defend-optional", f"{state.defender} may still Defend, or pass", involves=[BATTLE])


def _icon_area(state: State, name: str) -> str:
    """The card face's Icon Area: the same sentence on MAMODO and PARTNER cards."""
    return "zb.partner.icon-area" if state.card(name).type == "PARTNER" else "zb.mamodo.icon-area"


def _allowed_in_battle(context: Context, effect: Effect) -> bool:
    if context.read(BATTLE_EFFECTS_ICON, "battle-icon"):
        return "battle" in effect.icons
    return bool({"attack", "defend"} & set(effect.icons))


# === EVENT cards ===============================================================================


@vocabulary.action("play-event", "An Action: play 1 EVENT card from an open page (it stays in its page); pay its MP.",
                   params={"player": ref("player"), "card": ref("card-name"), "page": {"type": "integer"}},
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


# === No Battle SPELL cards ======================================================================


@vocabulary.action("play-no-battle", "An Action: play a No Battle SPELL card from an open page for an in-play MAMODO card; its "
                   "effects are applied like an EVENT card's and no Battle begins.",
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "target": {**ref("card-name"), "description": "The MAMODO card its effect selects."},
                           "protect": {**ref("card-name"), "description": "The MAMODO card that PROTECTS against its Damage."}},
                   required=["player", "mamodo", "spell"])
def play_no_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["spell"]
    if state.battle is not None:
        _refuse_when_over(context, state)
        raise context.reject("not-in-non-battle", f"{name}: a Battle is in progress", "zb.no-battle.non-battle-only", involves=[card(name)])
    _take_action(context, state, player.name, "a No Battle SPELL card", action)
    kind = state.card(name)
    if not kind.is_no_battle:
        raise context.reject("not-a-no-battle-spell", f"{name} has no \"No Battle\" icon", "zb.no-battle.icon", involves=[card(name)])
    attacker = player.name == state.attacker
    icon = "attack" if attacker else "defend"
    if icon not in kind.icons:
        raise context.reject("no-battle-icon", f"the {_role(state, player.name)} plays No Battle SPELL cards with the {icon.title()} "
                             f"icon; {name} has {list(kind.icons)}", "zb.no-battle.whose-phase", involves=[card(name)])
    _check_prohibited(context, state, player.name, name, next((e for e in kind.effects if e.passes_prohibitions), None),
                      frozenset({"no-battle"}))
    holder = player.find(action["mamodo"])
    if holder is None:
        raise context.reject("not-in-play", f"{action['mamodo']} is not in play on {player.name}'s side", "zb.spell.own-mamodo",
                             involves=[card(action["mamodo"])])
    page = _on_open_page(context, state, player, name, action.get("page"))
    _check_spell_mamodo(context, state, player, kind, holder)
    if (name, page) in player.spells_used:
        raise context.reject("spell-used-this-turn", f"{name} on page {page} has been played this turn", SPELL_ONCE_PER_TURN,
                             involves=[card(name)])
    cost = _spell_cost(context, state, player, kind, page)
    if player.mp < cost:
        raise context.reject("not-enough-mp", f"{name} costs {cost} MP; {player.name} has {player.mp} MP", "zb.no-battle.icon",
                             involves=[card(name), MP])
    player.mp -= cost
    player.spells_used.add((name, page))
    context.note("zb.actions.no-battle", f"{player.name} plays the No Battle SPELL card {name} from page {page} for {holder.card}, "
                 f"paying {cost} MP: {player.mp} MP", involves=[card(name), card(holder.card), MP], mp=player.mp)
    context.note("zb.no-battle.icon", f"{name} has the \"No Battle\" icon: a No Battle SPELL card", involves=[card(name)])
    context.note("zb.no-battle.icon-caption", f"{name}'s effects, marked with the \"No Battle\" icon, are \"No Battle\" effects",
                 involves=[card(name)])
    context.note("zb.no-battle.spell-icon", f"{name}, a SPELL card with the \"No Battle\" icon, is a No Battle SPELL card",
                 involves=[card(name)])
    context.note("zb.spell.no-battle-icon", f"{name}'s \"No Battle\" icon: used while no Battle is in progress, it begins no Battle",
                 involves=[card(name), BATTLE])
    context.note("zb.glossary.no-battle-spell", f"{name} is played during Non-Battle and does not cause a Battle to begin",
                 involves=[card(name)])
    context.note("zb.no-battle.whose-phase", f"{name} has the {icon.title()} icon: the {_role(state, player.name)} may play it",
                 involves=[card(name)])
    context.note("zb.no-battle.non-battle-only", f"{name} is played in Non-Battle", involves=[card(name)])
    context.note("zb.no-battle.no-battle-in", "\"Battle In\" is not declared: no Battle begins", involves=[card(name), BATTLE])
    context.note("zb.play.no-battle-no-battle", f"No Battle begins; {name}'s effect is applied like an EVENT card's", involves=[card(name)])
    classes = {"no-battle"}
    if not context.read(NO_BATTLE_NEGATION, "no-battle-specific"):
        classes |= {"effect", "spell"}
    _open_to_cut_in(context, state, player.name, name, kind.effects, frozenset(classes), action)
    for effect in kind.effects:
        _resolve_effect(context, state, player.name, name, effect, action)
    _place_no_battle_spell(context, player, name, page)
    context.note(SPELL_ONCE_PER_TURN, f"{name} cannot be played again during this turn", involves=[card(name)])
    _acted(context, state, player.name)


def _place_no_battle_spell(context: Context, player: Player, name: str, page: int) -> None:
    """Line 715 returns the SPELL card to its page "When the Battle that involves the SPELL card is over": it involves none."""
    if context.read(NO_BATTLE_RETURN, "returns-after-effect"):
        context.note(NO_BATTLE_RETURN, f"No Battle involves {name}: it returns to page {page} once its effect is applied",
                     involves=[card(name), BOOK])
        context.note("zb.play.no-battle-zone", f"{name} returns to page {page}", involves=[card(name), BOOK])
        return
    player.pages[page - 1] = None
    player.no_battle_out.append((name, page))
    context.note(NO_BATTLE_RETURN, f"{name} stays in the SPELL card zone, off page {page}, until the next Battle of the turn is over",
                 involves=[card(name), BOOK])
    context.note("zb.play.no-battle-zone", f"{name} is pulled out of page {page} and placed in the SPELL card zone",
                 involves=[card(name), BOOK])


def _return_no_battle_spells(context: Context, player: Player) -> None:
    for name, page in player.no_battle_out:
        player.pages[page - 1] = name
        context.note(NO_BATTLE_RETURN, f"{name} returns to page {page}", involves=[card(name), BOOK])
    player.no_battle_out.clear()


# === Declaring "Battle In!" and the Battle =======================================================


@vocabulary.action("battle-in", 'An Action of the Attacker: declare "Battle In!" with a SPELL card for an in-play MAMODO card.',
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "coin": COIN, "played_by": {**ref("card-name"), "description": "The in-play card whose effect "
                                                       "(play-spell) plays the SPELL card."},
                           "effect_of": {**ref("card-name"), "description": "Instead of spell: the in-play MAMODO card whose \"&\" "
                                         "effect Attacks without a SPELL card."}},
                   required=["player", "mamodo"])
def battle_in(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name = action["player"]
    if name != state.attacker:
        _refuse_when_over(context, state)
        context.note("zb.table.battle-in", "The Defender cannot declare \"Battle In!\"", involves=[BATTLE])
        raise context.reject("not-the-attacker", f"{name} is the Defender", "zb.actions.battle-in", involves=[BATTLE])
    if state.pending_battle_in is not None and state.priority == name:
        state.pending_battle_in = None
    if state.battle is not None:
        context.note("zb.precautions.two-spells", "The Power of two SPELL cards is not applied simultaneously: "
                     "one Attack per Battle", involves=[BATTLE, card(action["spell"])])
    _take_action(context, state, name, "a Battle In", action)
    player = state.players[name]
    if "effect_of" in action:
        _battle_in_by_effect(context, state, player, action)
        return
    if "spell" not in action:
        raise context.reject("no-such-choice", "\"Battle In\" names its SPELL card (spell) or its \"&\" effect (effect_of)",
                             "zb.battle-in.icon", involves=[BATTLE])
    spell = _spell_for(context, state, player, action, "attack")
    if player.spells_used:
        context.note("zb.precautions.two-spells", f"{name} Attacks with its SPELL cards one at a time", involves=[card(spell.card)])
        context.note("zb.precautions.either-first", f"The previous Battle is over (\"Battle Out\"): {spell.card} starts a new Battle",
                     involves=[card(spell.card), BATTLE])
        context.note("zb.qa.q2", f"{name} may \"Battle In\" more than once during the same BATTLE PHASE", involves=[BATTLE])
    state.answered_battle_in = None
    state.pending_battle_in = {"mamodo": action["mamodo"], "spell": spell.card, "page": spell.page, "coin": action.get("coin"),
                               "by_effect": spell.by_effect}
    context.run_step(state, "battle-in", action)
    state.priority = state.defender


def _battle_in_by_effect(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    """An Attack without a SPELL card: the "&" effect of the in-play MAMODO card gives its Total Power."""
    name = action["effect_of"]
    index = _effect_without_spell(context, state, player, action, "attack")
    holder = player.find(name)
    assert holder is not None
    effect = state.card(name).effects[index]
    if name in player.negated_cards:
        raise context.reject("attack-negated-before", f"the Attack {name}'s \"&\" effect initiated was negated",
                             "zb.negate.no-redeclare", involves=[card(name)])
    if "attack" not in effect.icons:
        raise context.reject("no-attack-icon", f"{name}'s effect has no Attack icon", "zb.battle-in.icon", involves=[card(name)])
    if holder.status == "petrified":
        raise context.reject("mamodo-petrified", f"{name} is Petrified", "zb.petrified.no-effects", involves=[card(name), PETRIFIED])
    _check_prohibited(context, state, player.name, name, effect, _classes(effect))
    context.note("zb.battle-in.icon", f"{name}'s \"&\" effect has the Attack icon: \"Battle In\" may be declared with it",
                 involves=[card(name)])
    state.answered_battle_in = None
    state.pending_battle_in = {"mamodo": name, "spell": None, "page": None, "coin": action.get("coin"), "by_effect": False,
                               "effect": index}
    context.run_step(state, "battle-in", action)
    state.priority = state.defender


@steps("battle-in")
def declare_battle_in(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending_battle_in or {}
    context.note("zb.actions.battle-in", f"{state.attacker} declares \"Battle In\" (Attacker only)", involves=[BATTLE])
    context.note("zb.table.battle-in", "The Attacker may declare \"Battle In!\"", involves=[BATTLE])
    context.note("zb.battle-in.declare", f"{state.attacker} asks {state.defender} whether to proceed to \"Battle In\"",
                 involves=[BATTLE, card(pending.get("spell") or pending.get("mamodo") or "Battle In")])
    context.note("zb.battle-in.ask-defender", f"{state.defender} may let the \"Battle In\" through or perform 1 Action",
                 involves=[BATTLE])
    context.note("zb.glossary.battle-in", "\"Battle In\" is declared as an Attack is performed", involves=[BATTLE])
    context.note("zb.glossary.battle-in-confirm", f"{state.attacker} confirms with {state.defender} when it is okay to declare "
                 "\"Battle In\"", involves=[BATTLE])


def _defender_acts_before_battle_in(context: Context, state: State, player: str) -> None:
    state.answered_battle_in, state.pending_battle_in = state.pending_battle_in, None
    context.note("zb.battle-in.defender-action", f"{player}, the Defender, performs 1 Action before the \"Battle In\"",
                 involves=[BATTLE, ACTION])
    context.note("zb.battle-in.again", f"{state.attacker} may declare \"Battle In\" again or perform another Action",
                 involves=[BATTLE])


def _confirm_battle_in(context: Context, state: State, player: str, action: Mapping[str, Any]) -> None:
    if player != state.defender:
        raise context.reject("not-your-action", f"{state.defender} answers the \"Battle In\"", "zb.battle-in.ask-defender",
                             involves=[BATTLE])
    pending = state.pending_battle_in
    assert pending is not None
    state.pending_battle_in = None
    revealed = pending["spell"] or pending["mamodo"]
    shown = pending["spell"] or f"{revealed}'s \"&\" effect"
    context.note("zb.battle-in.confirm", f"{state.defender} performs no Action: {state.attacker} confirms \"Battle In\" "
                 f"and reveals {shown}", involves=[BATTLE, card(revealed)])
    attacker = state.players[state.attacker]
    if pending["spell"] is None:
        effect = state.card(pending["mamodo"]).effects[pending["effect"]]
        state.battle = Battle(attacker=state.attacker, mamodo=pending["mamodo"], spell=None, coin=pending.get("coin"),
                              attack_set_total=effect.amount, attack_effect=effect, undefendable=_take_undefendable(attacker))
        context.advance(state, "attack", action)
        return
    spell = SpellOut(card=pending["spell"], page=pending["page"], mamodo=pending["mamodo"], by_effect=pending["by_effect"])
    state.battle = Battle(attacker=state.attacker, mamodo=pending["mamodo"], spell=spell, coin=pending.get("coin"),
                          undefendable=_take_undefendable(attacker))
    attacker.pages[spell.page - 1] = None
    attacker.spells_used.add((spell.card, spell.page))
    context.advance(state, "attack", action)


def _take_undefendable(attacker: Player) -> tuple[Kept, ...]:
    """The Attacker's "cannot be Defended" effects: they apply to this Battle, the next one after they were applied, and no later."""
    taken = tuple(kept for kept in attacker.kept if kept.effect.kind == "undefendable")
    attacker.kept = [kept for kept in attacker.kept if kept.effect.kind != "undefendable"]
    return taken


def _spell_for(context: Context, state: State, player: Player, action: Mapping[str, Any], use: str) -> SpellOut:
    """The SPELL card a player Attacks or Defends with: on an open page, for the named MAMODO, with the icon, payable."""
    mamodo_name, name = action["mamodo"], action["spell"]
    holder = player.find(mamodo_name)
    if holder is None:
        raise context.reject("not-in-play", f"{mamodo_name} is not in play on {player.name}'s side", "zb.spell.own-mamodo",
                             involves=[card(mamodo_name)])
    page = _on_open_page(context, state, player, name, action.get("page"))
    kind = state.card(name)
    if kind.type != "SPELL":
        raise context.reject("wrong-card-type", f"{name} is a {kind.type} card, not a SPELL card", "zb.spell.initiate",
                             involves=[card(name)])
    if name in player.negated_cards:
        raise context.reject("attack-negated-before", f"the {use} {name} initiated was negated", "zb.negate.no-redeclare",
                             involves=[card(name)])
    _check_icon(context, state, kind, use)
    _check_spell_mamodo(context, state, player, kind, holder)
    if (name, page) in player.spells_used:
        if context.read(SPELL_ONCE_PER_TURN, "every-spell"):
            raise context.reject("spell-used-this-turn", f"{name} on page {page} has been played this turn", SPELL_ONCE_PER_TURN,
                                 involves=[card(name)])
        context.note(SPELL_ONCE_PER_TURN, f"{name} was played this turn; only No Battle SPELL cards wait for the next turn",
                     involves=[card(name)])
    by_effect = _played_by_effect(context, state, player, action.get("played_by"))
    cost = _spell_cost(context, state, player, kind, page, by_effect)
    if player.mp < cost:
        ruling = "zb.battle-in.cannot-pay" if use == "attack" else "zb.battle.defend-pay"
        raise context.reject("not-enough-mp", f"{name} costs {cost} MP; {player.name} has {player.mp} MP", ruling,
                             involves=[card(name), MP])
    return SpellOut(card=name, page=page, mamodo=mamodo_name, by_effect=by_effect)


def _played_by_effect(context: Context, state: State, player: Player, source: str | None) -> bool:
    if source is None:
        return False
    if _holder(player, source) is None or not any(e.kind == "play-spell" for e in state.card(source).effects):
        raise context.reject("no-such-effect", f"{source} has no in-play effect that plays a SPELL card", involves=[card(source)])
    return True


def _check_icon(context: Context, state: State, kind: Card, use: str) -> None:
    if kind.is_no_battle:
        raise context.reject("not-in-non-battle", f"{kind.name} is a No Battle SPELL card: it is played only in Non-Battle, not to "
                             f"{use.title()}", "zb.no-battle.non-battle-only", involves=[card(kind.name), BATTLE])
    if use == "attack":
        context.note("zb.search.attack-icon", f"{kind.name} icons: {list(kind.icons)} (the \"Attack\" icon is [A])",
                     involves=[card(kind.name)])
        if "attack" not in kind.icons:
            raise context.reject("no-attack-icon", f"{kind.name} has no Attack icon", "zb.battle-in.icon", involves=[card(kind.name)])
        context.note("zb.battle-in.icon", f"{kind.name} has the Attack icon: \"Battle In\" may be declared with it",
                     involves=[card(kind.name)])
        context.note("zb.spell.attack-icon", f"{kind.name} can be used for Attacking", involves=[card(kind.name)])
        context.note("zb.figure.attack-icon", f"The Attack can be declared: {kind.name} has the Attack icon", involves=[card(kind.name)])
        context.note("zb.figure.attack-with-icon", f"{kind.name} has the Attack icon", involves=[card(kind.name)])
        context.note("zb.table.spells", "The Attacker plays a SPELL card with the Attack icon", involves=[card(kind.name)])
    else:
        context.note("zb.search.defend-icon", f"{kind.name} icons: {list(kind.icons)} (the \"Defend\" icon is [D])",
                     involves=[card(kind.name)])
        if "defend" not in kind.icons:
            raise context.reject("no-defend-icon", f"{kind.name} has no Defend icon", "zb.spell.defend-icon", involves=[card(kind.name)])
        context.note("zb.spell.defend-icon", f"{kind.name} can be used for Defending", involves=[card(kind.name)])
        context.note("zb.figure.defense-icon", f"The Defense can be declared: {kind.name} has the Defend icon", involves=[card(kind.name)])
        context.note("zb.figure.defend-with-icon", f"{kind.name} has the Defend icon", involves=[card(kind.name)])
        context.note("zb.table.spells", "The Defender plays a SPELL card with the Defend icon", involves=[card(kind.name)])


def _check_spell_mamodo(context: Context, state: State, player: Player, kind: Card, holder: Mamodo) -> None:
    mamodo = state.card(holder.card)
    if holder.status == "petrified":
        raise context.reject("mamodo-petrified", f"{holder.card} is Petrified: no SPELL card can be played for it",
                             "zb.petrified.no-spell", involves=[card(holder.card), card(kind.name), PETRIFIED])
    named = kind.mamodo or ""
    if mamodo.dual and named in mamodo.dual:
        ruling = "zb.dual.spells-both"
        context.note("zb.dual-details.spells-both", f"{kind.name} is {named}'s SPELL card: it can be played for {mamodo.name}",
                     involves=[card(kind.name), card(mamodo.name)])
    elif named == mamodo.name:
        ruling = "zb.spell.own-mamodo"
    elif "(" not in named and named == mamodo.mamodo_name:
        ruling = "zb.spell.own-mamodo"
        context.note("zb.spell.example-gofure", f"{kind.name} names {named}: it can be used for {mamodo.name}",
                     involves=[card(kind.name), card(mamodo.name)])
    elif named in mamodo.same_as:
        ruling = "zb.spell.same-as"
        _card_rule_stands(context, holder, f"{mamodo.name} is the same as {named}")
    elif named in mamodo.spells_of or (kind.attribute is not None and kind.attribute in mamodo.spell_attributes):
        ruling = "zb.spell.other-mamodo"
        _card_rule_stands(context, holder, f"{mamodo.name} may play {named}'s SPELL cards")
    else:
        if "(" in named and base_name(named) == mamodo.mamodo_name:
            context.note("zb.spell.example-gofure", f"{kind.name} names {named} only, not other forms of {base_name(named)}",
                         involves=[card(kind.name), card(mamodo.name)])
        raise context.reject("spell-for-another-mamodo", f"{kind.name} is played only for {named}, not {mamodo.name}",
                             "zb.spell.own-mamodo", involves=[card(kind.name), card(mamodo.name)])
    context.note(ruling, f"{kind.name} ({named}'s SPELL card) is played for {mamodo.name}", involves=[card(kind.name), card(mamodo.name)])
    if holder.partner is None:
        context.note("zb.qa.q5", f"{holder.card} has no PARTNER card attached: {player.name} is considered its partner",
                     involves=[card(holder.card), card(kind.name)])
    if holder.status == "injured":
        context.note("zb.injured.can-act", f"{holder.card} is Injured: SPELL cards can still be played for it",
                     involves=[card(holder.card)])
        context.note("zb.qa.q7", f"{holder.card}, Injured, still plays SPELL cards", involves=[card(holder.card)])


def _card_rule_stands(context: Context, holder: Mamodo, rule: str) -> None:
    if holder.effects_negated:
        context.note("zb.mamodo.card-rules-box", f"{holder.card}'s effects are negated, not its card rule: {rule}",
                     involves=[card(holder.card)])
        context.note("zb.mamodo.card-rules-text", f"Effects cannot affect {holder.card}'s card rules", involves=[card(holder.card)])
        context.note("zb.glossary.card-rule", f"{holder.card}'s card rule is not negated or affected by the effect", involves=[card(holder.card)])


def _spell_cost(context: Context, state: State, player: Player, kind: Card, page: int, by_effect: bool = False) -> int:
    if page == BOOK_PAGES and player.opening == LAST_OPENING and by_effect:
        context.note("zb.last-page.effect-pays", f"A card effect plays {kind.name} from the last page: its usual MP cost ({kind.mp}) "
                     "is paid", involves=[card(kind.name), MP, mechanic("Last Page Bonus")])
        return kind.mp
    if page == BOOK_PAGES and player.opening == LAST_OPENING:
        context.note("zb.last-page.zero-mp", f"{player.name} is on the last page: {kind.name}'s MP cost ({kind.mp}) is 0",
                     involves=[card(kind.name), MP, mechanic("Last Page Bonus")])
        return 0
    return kind.mp


@steps("attack")
def attack(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    attacker = state.players[state.attacker]
    if battle.attack_effect is not None:
        _attack_by_effect(context, state, battle)
        return
    assert battle.spell is not None
    kind = state.card(battle.spell.card)
    cost = _spell_cost(context, state, attacker, kind, battle.spell.page, battle.spell.by_effect)
    context.note("zb.battle.begins", f"\"Battle In\": the Battle begins; {state.attacker} is the Attacker, {state.defender} the Defender",
                 involves=[BATTLE])
    context.note("zb.table.note-3", f"The Battle begins with {state.attacker}'s Attack with {kind.name}", involves=[BATTLE])
    context.note("zb.turns.battle-begins", f"{state.attacker} declared \"Battle In\" and played {kind.name}", involves=[BATTLE])
    context.note("zb.battle.attack-declare", f"{state.attacker} declares 1 Attack: {battle.mamodo} with {kind.name} "
                 f"from page {battle.spell.page}", involves=[card(battle.mamodo), card(kind.name)])
    context.note("zb.glossary.attack", f"An Attack declared with {kind.name}, a SPELL card with the Attack icon", involves=[card(kind.name)])
    attacker.mp -= cost
    context.note("zb.battle.attack-pay", f"{state.attacker} pays {cost} MP: {attacker.mp} MP", involves=[card(kind.name), MP],
                 mp=attacker.mp)
    context.note("zb.figure.attack-mp-cost", f"{kind.name}'s MP cost is what {state.attacker} Attacked with", involves=[card(kind.name)])
    context.note("zb.figure.attack-reduce-mp", f"{state.attacker}'s MP is reduced by {kind.name}'s MP cost", involves=[card(kind.name)])
    context.note("zb.spell.initiate", f"{kind.name} initiates the Attack", involves=[card(kind.name)])
    context.note("zb.spell.zone", f"{kind.name} is placed below {battle.mamodo} on the SPELL card zone", involves=[card(kind.name)])
    _flip_coins(context, state, state.attacker, kind, battle.coin)
    context.note("zb.battle.attack-not-resolved", "The Attack has not fully resolved yet", involves=[BATTLE])
    context.note("zb.battle.attack-applies-effects", f"{state.attacker} applies the effects of its Attack", involves=[card(kind.name)])
    state.priority = state.defender
    context.note("zb.battle.defend-optional", f"{state.defender} may Defend, or pass", involves=[BATTLE])


def _attack_by_effect(context: Context, state: State, battle: Battle) -> None:
    attacker = state.players[state.attacker]
    assert battle.attack_effect is not None
    context.note("zb.battle.begins", f"\"Battle In\": the Battle begins; {state.attacker} is the Attacker, {state.defender} the Defender",
                 involves=[BATTLE])
    context.note("zb.battle.attack-declare", f"{state.attacker} declares 1 Attack: {battle.mamodo} with its \"&\" effect, without a "
                 "SPELL card", involves=[card(battle.mamodo)])
    _pay(context, state, attacker, battle.mamodo, battle.attack_effect)
    context.note("zb.and.no-cut-in", f"{battle.mamodo}'s \"&\" effect: no cut-in effect can negate it as it is applied",
                 involves=[card(battle.mamodo), CUT_IN])
    if context.read(AND_RESOLUTION, "resolve-on-declaration"):
        context.note(AND_RESOLUTION, f"{battle.mamodo}'s \"&\" effect resolves as it is declared, but for the Attack's Damage",
                     involves=[card(battle.mamodo)])
        for effect in battle.attack_effect.also:
            if effect.kind != "damage":
                _resolve_effect(context, state, state.attacker, battle.mamodo, effect, {})
    else:
        context.note(AND_RESOLUTION, f"{battle.mamodo}'s \"&\" effect is not resolved yet: it resolves if {battle.mamodo} wins",
                     involves=[card(battle.mamodo)])
    state.priority = state.defender
    context.note("zb.battle.defend-optional", f"{state.defender} may Defend, or pass", involves=[BATTLE])


def _battle(state: State) -> Battle:
    assert state.battle is not None
    return state.battle


def _battle_to_negate(context: Context, state: State, source: str, what: str) -> Battle:
    """The Battle whose Attack or Defense an effect negates; without a Battle there is nothing to negate."""
    if state.battle is None:
        raise context.reject("nothing-to-negate", f"no Battle is in progress: there is no {what} for {source}'s effect to negate",
                             None, involves=[card(source), BATTLE])
    return state.battle


@vocabulary.action("defend", "Battle step 2: the Defender declares 1 Defense with a SPELL card for an in-play MAMODO card, "
                   "or with the effect of an in-play MAMODO card that Defends without a SPELL card.",
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "coin": COIN, "effect_of": {**ref("card-name"), "description": "The in-play MAMODO card whose effect "
                                                       "Defends without a SPELL card (instead of spell)."}},
                   required=["player", "mamodo"])
def defend(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _refuse_when_over(context, state)
    name = action["player"]
    if state.battle is None:
        context.note("zb.table.note-4", "The Defender cannot play a SPELL card until the Battle begins", involves=[BATTLE])
        raise context.reject("not-now", "no Battle has begun", "zb.table.note-4", involves=[BATTLE])
    if name != state.defender:
        raise context.reject("not-the-defender", f"{name} is the Attacker; one Attack per Battle", "zb.battle.attack-declare",
                             involves=[BATTLE])
    battle = state.battle
    if battle.defense is not None or battle.defense_set_total is not None:
        raise context.reject("defense-declared", f"{name} has declared a Defense", "zb.battle.defend-declare", involves=[BATTLE])
    if state.step != "attack" and not (context.read(BATTLE_EFFECTS_STEP, "part-of-defend") and not battle.defense_waived):
        raise context.reject("defense-step-over", "the Defense is declared in step 2, before effects are applied",
                             BATTLE_EFFECTS_STEP, involves=[BATTLE])
    _check_undefendable(context, state)
    if "effect_of" in action:
        _defend_by_effect(context, state, state.players[name], action)
    else:
        _defend_with_spell(context, state, state.players[name], action)
    if state.step == "attack":
        context.advance(state, "apply-effects", action)
    else:
        context.run_step(state, "defend", action)
        context.note(BATTLE_EFFECTS_STEP, "The Defense is declared within the Defend step, after the effects", involves=[BATTLE])
        state.priority, state.passes = state.attacker, 0


def _check_undefendable(context: Context, state: State) -> None:
    """A PARTNER card effect that names a MAMODO affects only the SPELL cards played for that MAMODO (DUAL MAMODO included)."""
    battle = _battle(state)
    if battle.spell is None:
        return
    played_for = state.card(battle.spell.card).mamodo
    for kept in battle.undefendable:
        if state.card(battle.mamodo).dual:
            context.note("zb.dual-details.partner-one-name", f"{kept.source}'s effect names {kept.effect.target}; "
                         f"{battle.spell.card} is played for {played_for}", involves=[card(kept.source), card(battle.mamodo)])
            context.note("zb.dual-details.example", f"{kept.source}'s effect applies to {kept.effect.target}'s SPELL cards only, "
                         f"not to the other MAMODO of {battle.mamodo}", involves=[card(kept.source), card(battle.mamodo)])
        if kept.effect.target == played_for:
            raise context.reject("cannot-be-defended", f"{kept.source}'s effect: {battle.spell.card}, played for {played_for}, "
                                 "cannot be Defended", "zb.dual-details.example" if state.card(battle.mamodo).dual else None,
                                 involves=[card(kept.source), card(battle.spell.card)])


def _defend_with_spell(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    if "spell" not in action:
        raise context.reject("no-such-choice", "a Defense names its SPELL card (spell) or its effect (effect_of)", "zb.battle.defend-declare",
                             involves=[BATTLE])
    spell = _spell_for(context, state, player, action, "defend")
    battle = _battle(state)
    battle.defense, battle.defender_mamodo = spell, spell.mamodo
    player.pages[spell.page - 1] = None
    player.spells_used.add((spell.card, spell.page))


def _effect_without_spell(context: Context, state: State, player: Player, action: Mapping[str, Any], use: str) -> int:
    """Which effect of the in-play MAMODO card ``effect_of`` Attacks or Defends (``use``) without a SPELL card."""
    name = action["effect_of"]
    if player.find(name) is None or name != action["mamodo"]:
        raise context.reject("not-in-play", f"{name} is not the in-play MAMODO card that {use.title()}s", "zb.battle.power-set-by-effect",
                             involves=[card(name)])
    found = [i for i, e in enumerate(state.card(name).effects) if e.kind == f"{use}-without-spell"]
    if not found:
        raise context.reject("no-such-effect", f"{name} has no effect that {use.title()}s without a SPELL card", involves=[card(name)])
    return found[0]


def _defend_by_effect(context: Context, state: State, player: Player, action: Mapping[str, Any]) -> None:
    """A MAMODO card's effect that Defends without a SPELL card: it resolves as it is declared and sets the Total Power."""
    name = action["effect_of"]
    effect = state.card(name).effects[_effect_without_spell(context, state, player, action, "defend")]
    context.note("zb.and.no-cut-in", f"{name}'s effect Defends without a SPELL card: no cut-in effect can negate it as it is applied",
                 involves=[card(name), CUT_IN])
    _pay_and_apply(context, state, player, name, effect, action, respondable=False)


def _waive_defense(context: Context, state: State, player: str, action: Mapping[str, Any]) -> None:
    if player != state.defender:
        raise context.reject("not-your-action", f"{state.defender} declares or waives the Defense", "zb.battle.defend-optional",
                             involves=[BATTLE])
    _battle(state).defense_waived = True
    context.advance(state, "apply-effects", action)


@steps("defend")
def defend_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    defender = state.players[state.defender]
    if battle.defense_set_total is not None:
        context.note("zb.battle.defend-declare", f"{state.defender} declares 1 Defense: {battle.defender_mamodo} Defends with its effect",
                     involves=[card(battle.defender_mamodo or "")])
        return
    if battle.defense is None:
        context.note("zb.battle.defend-optional", f"{state.defender} does not Defend", involves=[BATTLE])
        return
    kind = state.card(battle.defense.card)
    cost = _spell_cost(context, state, defender, kind, battle.defense.page)
    context.note("zb.battle.defend-declare", f"{state.defender} declares 1 Defense: {battle.defender_mamodo} with {kind.name} "
                 f"from page {battle.defense.page}", involves=[card(kind.name), card(battle.defender_mamodo or "")])
    context.note("zb.glossary.defense", f"A Defense declared with {kind.name}, a SPELL card with the Defend icon", involves=[card(kind.name)])
    for ruling in ("zb.glossary.defender", "zb.glossary.defender-repeat"):
        context.note(ruling, f"{state.defender}, whose turn is not active, Defends in the Battle", involves=[BATTLE])
    defender.mp -= cost
    context.note("zb.battle.defend-pay", f"{state.defender} pays {cost} MP: {defender.mp} MP", involves=[card(kind.name), MP],
                 mp=defender.mp)
    context.note("zb.figure.defense-mp-cost", f"{kind.name}'s MP cost is what {state.defender} Defended with", involves=[card(kind.name)])
    context.note("zb.figure.defense-reduce-mp", f"{state.defender}'s MP is reduced by {kind.name}'s MP cost", involves=[card(kind.name)])
    context.note("zb.battle.defense-not-resolved", "The Defense has not fully resolved yet", involves=[BATTLE])
    context.note("zb.spell.initiate", f"{kind.name} initiates the Defense", involves=[card(kind.name)])
    _flip_coins(context, state, state.defender, kind, action.get("coin"))


def _flip_coins(context: Context, state: State, owner: str, spell: Card, coin: str | None) -> None:
    """Effects that flip coins flip them when the Attack or Defense is declared."""
    for effect in spell.effects:
        if effect.kind == "coin-power":
            context.note("zb.battle.coins-at-declaration", f"{spell.name}'s coin is flipped as it is declared: {coin}",
                         involves=[card(spell.name), mechanic("coin toss")])
            _resolve_effect(context, state, owner, spell.name, effect, {"coin": coin})


@steps("apply-effects")
def apply_effects(context: Context, state: State, action: Mapping[str, Any]) -> None:
    state.priority, state.passes = state.attacker, 0
    context.reading(BATTLE_EFFECTS_STEP)
    context.note("zb.battle.effects-not-resolved", "The Attack and the Defense have not fully resolved yet", involves=[BATTLE])
    context.note("zb.battle.effects-window-order", f"Effects: {state.attacker}, the Attacker, applies an effect or passes first",
                 involves=[BATTLE])


def _pass_effects(context: Context, state: State, player: str, action: Mapping[str, Any]) -> None:
    if state.priority != player:
        raise context.reject("not-your-action", f"{state.priority} applies an effect or passes first", "zb.battle.effects-window-order",
                             involves=[ACTION])
    state.passes += 1
    state.priority = other(player)
    context.note("zb.battle.effects-window-order", f"{player} passes", involves=[BATTLE])
    if state.passes == 2:
        context.note("zb.battle.effects-window-end", "Both players apply no more effects: compare Total Power", involves=[BATTLE])
        context.advance(state, "compare-total-power", action)


@steps("compare-total-power")
def compare_total_power(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    if battle.attack_set_total is not None:
        attack = _set_total(context, state, state.attacker, battle.mamodo, battle.attack_set_total)
    else:
        attack = _total(context, state, state.attacker, battle.mamodo, battle.spell, battle.attack_negated)
    if battle.defense_set_total is not None and not battle.defense_negated:
        defense = _set_total(context, state, state.defender, battle.defender_mamodo or "", battle.defense_set_total)
    elif battle.defense is None or battle.defense_negated:
        defense = 0
        why = "the Defense was negated" if battle.defense_negated else f"{state.defender} is not Defending"
        context.note("zb.battle.undefended-zero", f"{why}: the Defender's Total Power is 0", involves=[BATTLE], power=0)
    else:
        defense = _total(context, state, state.defender, battle.defender_mamodo or "", battle.defense, False)
    battle.totals = {state.attacker: attack, state.defender: defense}
    fighting = [card(battle.mamodo)] + [card(out.card) for out in (battle.spell, battle.defense) if out is not None]
    fighting += [card(battle.defender_mamodo)] if battle.defender_mamodo else []
    context.note("zb.battle.compare-who-wins", "Determine whether the Attacker or Defender wins the Battle", involves=[BATTLE])
    context.note("zb.battle.compare-outcome", "Determine the Battle's outcome", involves=[BATTLE])
    context.note("zb.battle.compare", f"Total Power: {state.attacker} {attack}, {state.defender} {defense}",
                 involves=[*fighting, BATTLE], attacker=attack, defender=defense)
    if battle.attack_negated:
        battle.winner = "defender"
        context.note("zb.battle.negated-fails", "The Attack was negated: it fails", involves=[BATTLE])
    elif attack > defense:
        battle.winner = "attacker"
        context.note("zb.battle.attacker-higher", f"{attack} > {defense}: the Attack is successful", involves=[BATTLE])
    else:
        battle.winner = "defender"
        context.note("zb.battle.defender-higher-or-equal", f"{defense} ≥ {attack}: the Attack is negated, no Damage", involves=[BATTLE])
    state.priority = None


def _total(context: Context, state: State, owner: str, mamodo: str, spell: SpellOut | None, negated: bool) -> int:
    """MAMODO Power + SPELL Power, with the Power effects have added (a MAMODO gone from play adds none)."""
    player, battle = state.players[owner], _battle(state)
    holder = player.find(mamodo)
    base = state.card(mamodo).power if holder is not None else 0
    in_play = _in_play_power(context, state, player, holder)
    spell_power = state.card(spell.card).power if spell is not None else 0
    boost = battle.power[owner] + player.turn_power + player.battle_power
    total = base + in_play + spell_power + boost
    ruling = "zb.battle.attacker-total" if owner == state.attacker else "zb.battle.defender-total"
    context.note("zb.mamodo.power", f"{mamodo}'s Power: {base}", involves=[card(mamodo)], power=base)
    if player.turn_power:
        context.note("zb.event.until-end-phase", f"{owner}'s EVENT card adds {player.turn_power} Power until the END PHASE",
                     involves=[BATTLE])
    if player.battle_power:
        context.note("zb.glossary.during-battle", f"During the Battle {owner}'s MAMODO cards get {player.battle_power:+d} Power",
                     involves=[BATTLE], power=player.battle_power)
    if spell is not None:
        context.note("zb.figure.attack-add-power" if owner == state.attacker else "zb.figure.defense-add-power",
                     f"{spell.card}'s Power {spell_power} is added to {owner}'s total", involves=[card(spell.card)])
    context.note(ruling, f"{owner}'s Total Power: {mamodo} {base} + {spell.card if spell else 'no SPELL'} {spell_power}"
                 + (f" + effects {boost + in_play}" if boost or in_play else "") + f" = {total}",
                 involves=[card(mamodo)] + ([card(spell.card)] if spell else []), power=total)
    context.note("zb.glossary.total-power", f"{owner}'s Total Power: the MAMODO's Power, the SPELL card's and the active boosts",
                 involves=[card(mamodo)], power=total)
    return total


def _set_total(context: Context, state: State, owner: str, mamodo: str, total: int) -> int:
    """An Attack or Defense made with an effect instead of a SPELL card: the effect's Total Power, without the MAMODO's Power."""
    added = _battle(state).power[owner]
    context.note("zb.battle.power-set-by-effect", f"{mamodo}'s effect sets the Total Power {total}; {mamodo}'s regular Power "
                 f"({state.card(mamodo).power}) is not applied" + (f"; effects add {added}" if added else ""),
                 involves=[card(mamodo), BATTLE], power=total + added)
    context.note("zb.glossary.total-power-effect", f"Attacking or Defending without a SPELL card: the Total Power {total} is "
                 "specified in the effect", involves=[card(mamodo)], power=total)
    if added:
        context.note("zb.and.power-at-compare", f"The Power increase of {mamodo}'s effect ({added:+d}) is resolved when comparing "
                     "Total Power", involves=[card(mamodo), BATTLE], power=total + added)
    return total + added


def _in_play_power(context: Context, state: State, player: Player, holder: Mamodo | None) -> int:
    if holder is None or holder.status == "petrified":
        return 0
    added = 0
    sources = [holder.card] + ([holder.partner] if holder.partner else []) + [c for c, _ in player.mj12]
    for source in sources:
        powers = [e for e in state.card(source).effects if e.tag == "in-play" and e.kind == "power" and e.timing is None]
        if powers and not _in_play_active(context, state, player.name, source):
            continue
        for effect in powers:
            added += effect.amount
            context.note("zb.tag.in-play-always", f"{source}'s [IN PLAY] effect: +{effect.amount} Power while it is in play",
                         involves=[card(source), card(holder.card)])
            _note_in_play_active(context, source)
            context.note("zb.precautions.in-play-active", "[IN PLAY] effects remain active during the Battle", involves=[BATTLE])
            context.note("zb.in-play.active-in-battle", f"{source}'s [IN PLAY] effect is active during the Battle, with no icon needed",
                         involves=[card(source), BATTLE])
    for kept in player.kept:
        if kept.zone == "stay" and kept.effect.kind == "power":
            added += kept.effect.amount
            context.note("zb.stay.duration", f"{kept.source}'s [STAY] effect: +{kept.effect.amount} Power while it is active",
                         involves=[card(kept.source), STAY])
    return added


def _note_in_play_active(context: Context, source: str) -> None:
    context.note("zb.in-play.no-declaration", f"{source}'s [IN PLAY] effect applies without being declared", involves=[card(source)])
    context.note("zb.in-play.always-active", f"{source} is in play: its [IN PLAY] effect is active", involves=[card(source)])
    context.note("zb.tag.in-play-no-action", f"{source}'s [IN PLAY] effect is automatic: no Action applies it", involves=[card(source)])


@vocabulary.action("resolve", "Battle step 5, with the players' choices: the MAMODO card that PROTECTS the Spell Book from the "
                   "Damage, the Attacker's Injury targets, and SACRIFICES (injured MAMODO card -> the one that takes its Injury).",
                   params={"protect": {**ref("card-name"), "description": "The damaged player's MAMODO card that PROTECTS the book."},
                           "injure": {"type": "array", "items": ref("card-name"),
                                      "description": "The MAMODO card selected for each infliction of the Attack's Injury."},
                           "injure_by": {**ref("player"), "description": "Who selected them (default: the player the reading of "
                                         "zb.amb.injury-chooser names: the Attacker, or the player receiving the Injury)."},
                           "sacrifice": {"type": "object", "additionalProperties": ref("card-name"),
                                         "description": "Injured MAMODO card -> the MAMODO card that SACRIFICES for it."}})
def resolve(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _refuse_when_over(context, state)
    if state.step != "compare-total-power":
        raise context.reject("not-now", "Total Power has not been compared", "zb.battle.compare", involves=[BATTLE])
    context.advance(state, "battle-out", action)


@steps.condition("battle-under-way")
def battle_under_way(state: State) -> bool:
    return state.battle is not None


@steps.condition("attacker-won")
def attacker_won(state: State) -> bool:
    return state.battle is not None and state.battle.winner == "attacker"


@steps.condition("defender-won")
def defender_won(state: State) -> bool:
    return state.battle is not None and state.battle.winner == "defender"


@steps("attacker-wins")
def attacker_wins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    if battle.attack_effect is not None:
        on_declaration = context.read(AND_RESOLUTION, "resolve-on-declaration")
        context.note(AND_RESOLUTION, f"{battle.mamodo} wins the Battle: its \"&\" effect's "
                     + ("Damage is inflicted" if on_declaration else "effects resolve"), involves=[card(battle.mamodo), BATTLE])
        if not on_declaration:
            context.note("zb.and.extra-effects-step-5", f"{battle.mamodo}'s \"&\" effect's additional effects resolve",
                         involves=[card(battle.mamodo)])
        for effect in battle.attack_effect.also:
            if not on_declaration or effect.kind == "damage":
                _resolve_effect(context, state, state.attacker, battle.mamodo, effect, action)
        return
    assert battle.spell is not None
    spell = state.card(battle.spell.card)
    context.note("zb.battle.attacker-higher", f"{state.attacker} wins the Battle: {spell.name}'s effects are resolved", involves=[BATTLE])
    context.note("zb.battle.attacker-wins-effects", f"{state.attacker}, the Attacker, wins: {spell.name}'s effects are resolved",
                 involves=[card(spell.name)])
    context.note("zb.spell.damage", f"{spell.name}'s Damage: {spell.damage}", involves=[card(spell.name)], damage=spell.damage)
    if _damage_negated(context, state, state.defender, spell.name):
        return
    if spell.damage:
        _damage_book(context, state, state.defender, spell.damage, action.get("protect"), "zb.battle.win-damage")
    else:
        context.note("zb.battle.win-damage", f"{spell.name} inflicts no Damage", involves=[DAMAGE])
    if state.loser:
        return
    context.note("zb.battle.win-injury", f"{spell.name} inflicts Injury to {spell.injure} MAMODO card(s)", involves=[INJURY])
    if spell.injure:
        if action.get("protect") or action.get("sacrifice"):
            context.note("zb.damage.owner-decides", f"{state.defender} receives several inflictions and decides where each goes",
                         involves=[DAMAGE, INJURY])
        _injure_selected(context, state, spell, action)
    on_damage = [e for e in spell.effects if e.timing == "on-damage"]
    context.note("zb.battle.win-effects-on-damage", f"Effects on Damage or Injury: {len(on_damage)}", involves=[card(spell.name)])
    for effect in on_damage:
        _resolve_effect(context, state, state.attacker, spell.name, effect, action)
    others = [e for e in spell.effects if e.timing in ("other", "regardless")]
    context.note("zb.battle.win-other-effects", f"Other effects: {len(others)}", involves=[card(spell.name)])
    for effect in others:
        _resolve_effect(context, state, state.attacker, spell.name, effect, action)


def _damage_negated(context: Context, state: State, victim: str, spell: str) -> bool:
    """A "Negate Damage" effect applied in this Battle: the SPELL card inflicts no Damage or Injury on that player."""
    if victim not in _battle(state).damage_negated:
        return False
    context.note("zb.glossary.negate-damage", f"Damage is negated: {spell} inflicts no Damage or Injury on {victim}",
                 involves=[card(spell), DAMAGE, INJURY])
    return True


def _injury_chooser(context: Context, state: State, action: Mapping[str, Any]) -> str:
    """Line 878 gives the Attacker the choice of the injured MAMODO cards, line 895 the player receiving the Injuries."""
    chooser = state.attacker if context.read(INJURY_CHOOSER, "attacker-selects") else state.defender
    claimed = action.get("injure_by", chooser)
    if claimed != chooser:
        raise context.reject("not-your-choice", f"{chooser}, not {claimed}, selects the MAMODO cards that receive the Injury",
                             INJURY_CHOOSER, involves=[INJURY])
    if chooser == state.defender:
        context.note("zb.damage.owner-decides", f"{state.defender} receives the Injuries and decides where each goes",
                     involves=[INJURY])
    return chooser


def _injure_selected(context: Context, state: State, spell: Card, action: Mapping[str, Any]) -> None:
    defender = state.players[state.defender]
    chooser = _injury_chooser(context, state, action)
    chosen = list(action.get("injure") or [m.card for m in defender.mamodo if m.status != "petrified"][: spell.injure])
    sacrifices: Mapping[str, str] = action.get("sacrifice") or {}
    for target in chosen[: spell.injure]:
        holder = defender.find(target)
        if holder is None:
            raise context.reject("no-such-choice", f"{target} is not in play on {state.defender}'s side", "zb.injured.only-mamodo",
                                 involves=[card(target)])
        if holder.status == "petrified":
            raise context.reject("cannot-target-petrified", f"{target} is Petrified", "zb.petrified.no-target",
                                 involves=[card(target), PETRIFIED])
        context.note("zb.injured.only-mamodo", f"{chooser} selects {target}, an in-play MAMODO card", involves=[card(target)])
        taker = sacrifices.get(target)
        if taker is not None:
            holder = _sacrifice(context, state, defender, target, taker)
        _injure(context, state, defender, holder, "zb.battle.win-injury")


def _sacrifice(context: Context, state: State, player: Player, target: str, taker: str) -> Mamodo:
    if not context.read(SACRIFICE_PROTECT, "sacrifice-against-injury"):
        raise context.reject("cannot-protect", f"{taker} cannot SACRIFICE against an Injury: only against an infliction of Damage",
                             SACRIFICE_PROTECT, involves=[card(taker), PROTECT])
    holder = player.find(taker)
    if holder is None or holder.status == "petrified" or taker == target:
        raise context.reject("cannot-protect", f"{taker} cannot SACRIFICE for {target}", "zb.petrified.no-protect"
                             if holder is not None and holder.status == "petrified" else "zb.protect.book-and-sacrifice",
                             involves=[card(taker), PROTECT])
    context.note(SACRIFICE_PROTECT, f"{taker} SACRIFICES to protect {target} from the Injury", involves=[card(taker), card(target), PROTECT])
    context.note("zb.protect.book-and-sacrifice", f"{taker} takes the Injury meant for {target}", involves=[card(taker), PROTECT])
    return holder


def _damage_book(context: Context, state: State, victim: str, amount: int, protector: str | None, ruling: str) -> None:
    """An infliction of Damage: the victim turns ``amount`` pages (no MP), unless a MAMODO card PROTECTS the book."""
    player = state.players[victim]
    if protector is not None:
        holder = player.find(protector)
        if holder is None:
            raise context.reject("no-such-choice", f"{protector} is not in play on {victim}'s side", "zb.protect.book-and-sacrifice",
                                 involves=[card(protector), PROTECT])
        if holder.status == "petrified":
            raise context.reject("cannot-protect", f"{protector} is Petrified", "zb.petrified.no-protect",
                                 involves=[card(protector), PETRIFIED, PROTECT])
        context.note("zb.battle.protect-instead", f"{victim} uses {protector} to PROTECT the Spell Book from the Damage instead",
                     involves=[card(protector), PROTECT, DAMAGE])
        context.note("zb.protect.book-and-sacrifice", f"{protector} PROTECTS {victim}'s Spell Book from {amount} Damage",
                     involves=[card(protector), PROTECT])
        context.note("zb.protect.only-damage", "PROTECTING is against an infliction of Damage", involves=[PROTECT, DAMAGE])
        context.note("zb.protect.as-often", f"{protector} may PROTECT as often as {victim} desires", involves=[PROTECT])
        if holder.status == "injured":
            context.note("zb.injured.can-act", f"{protector} is Injured and can still PROTECT", involves=[card(protector)])
        context.note("zb.damage.protect-injured", f"{protector} PROTECTS the Spell Book: it becomes Injured", involves=[card(protector)])
        context.note("zb.damage.once-per-infliction", f"{amount} Damage: {protector} is Injured only once", involves=[card(protector)],
                     damage=amount)
        context.note("zb.qa.q6", f"{protector} receives one Injury for this infliction of {amount} Damage, regardless of the amount",
                     involves=[card(protector), INJURY], damage=amount)
        context.note("zb.glossary.damage-book", f"{protector} PROTECTS the Spell Book: no Damage is inflicted on {victim}'s Spell Book",
                     involves=[card(protector), DAMAGE, BOOK])
        _injure(context, state, player, holder, None, protecting=True)
        return
    context.note(ruling, f"{amount} Damage: {victim} turns {amount} page(s), no MP gained", involves=[DAMAGE, BOOK], damage=amount)
    context.note("zb.glossary.damage-book", f"No MAMODO card PROTECTS: the Damage is inflicted on {victim}'s Spell Book, its pages "
                 "must be turned", involves=[DAMAGE, BOOK], damage=amount)
    _turn_pages(context, state, victim, amount, "damage")
    _on_inflict(context, state, other(victim), "Damage to the Spell Book")
    if state.loser is None:
        context.note("zb.precautions.newly-opened", f"{victim} may play the cards in the newly open pages {_pages(player)}",
                     involves=[BOOK])


def _injure(context: Context, state: State, player: Player, holder: Mamodo, ruling: str | None, *, protecting: bool = False) -> None:
    if _shielded(context, state, player, holder):
        return
    _injure_status(context, state, player, holder, ruling)
    _on_inflict(context, state, other(player.name), f"Injury to {holder.card}", protecting=protecting)


def _on_inflict(context: Context, state: State, inflicter: str, what: str, *, protecting: bool = False) -> None:
    """[IN PLAY] "When you inflict Damage or Injury" effects of the inflicting player resolve at each infliction."""
    timed = [(owner, source, e) for owner, source, e in _in_play_effects(context, state, "on-inflict") if owner == inflicter]
    for owner, source, effect in timed:
        if protecting and not context.read(WHEN_INFLICT_PROTECTED, "protect-is-injury"):
            context.note(WHEN_INFLICT_PROTECTED, f"The PROTECTED Damage is not inflicted and the {what} is the cost of PROTECTING: "
                         f"{source}'s effect does not activate", involves=[card(source), INJURY])
            continue
        if protecting:
            context.note(WHEN_INFLICT_PROTECTED, f"The PROTECTING MAMODO card's {what} is an Injury {owner} inflicted",
                         involves=[card(source), INJURY])
        context.note("zb.glossary.when-inflict", f"{owner} inflicts {what}: {source}'s effect activates", involves=[card(source)])
        context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves as often as its condition comes",
                     involves=[card(source)])
        _resolve_effect(context, state, owner, source, effect, {})


def _injure_status(context: Context, state: State, player: Player, holder: Mamodo, ruling: str | None) -> None:
    if holder.status == "injured":
        context.note("zb.damage.second-discards", f"{holder.card} is already Injured: it is sent to the Discard Pile",
                     involves=[card(holder.card), INJURY])
        context.note("zb.injured.second", f"{holder.card} and its attached cards go to the Discard Pile", involves=[card(holder.card)])
        _send_to_discard(context, state, player, holder.card, None)
        return
    holder.status = "injured"
    context.note("zb.glossary.injured-status", f"{holder.card} has received Damage or Injury one time: Injured Status, turned sideways",
                 involves=[card(holder.card), INJURY])
    if ruling:
        context.note(ruling, f"{holder.card} becomes Injured", involves=[card(holder.card), INJURY])
    else:
        context.note(None, f"{holder.card} becomes Injured", involves=[card(holder.card), INJURY])


def _shielded(context: Context, state: State, player: Player, holder: Mamodo) -> bool:
    """An [IN PLAY] "does not receive Damage or Injury" effect of the MAMODO card (or its PARTNER) resolves at each infliction."""
    for source in [holder.card] + ([holder.partner] if holder.partner else []):
        if any(e.tag == "in-play" and e.kind == "no-injury" for e in state.card(source).effects) \
                and _in_play_active(context, state, player.name, source):
            _note_in_play_active(context, source)
            context.note("zb.in-play.timing", f"{source}'s [IN PLAY] effect resolves as its condition is fulfilled: "
                         f"{holder.card} receives no Injury", involves=[card(source), card(holder.card), INJURY])
            context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves as many times as its condition comes",
                         involves=[card(source)])
            return True
    return False


def _send_to_discard(context: Context, state: State, player: Player, name: str, ruling: str | None) -> None:
    before = set(player.in_play_cards())
    _move_to_discard(context, state, player, name, ruling)
    _kept_of_cards_gone(context, state, player, before - set(player.in_play_cards()))


def _kept_of_cards_gone(context: Context, state: State, player: Player, gone: set[str]) -> None:
    """The [STAY] and [STANDBY] effects of cards that left play or were Petrified: kept by their copies, or ended with them."""
    kept = [k for k in player.kept if k.zone in ("stay", "standby") and k.source in gone]
    if not kept:
        return
    if context.read(KEPT_CARD_LEAVES, "effect-outlives-card"):
        for k in kept:
            context.note(KEPT_CARD_LEAVES, f"{k.source}'s [{k.zone.upper()}] effect stays in its zone: its copy tracks it",
                         involves=[card(k.source), STAY if k.zone == "stay" else STANDBY])
        return
    for k in kept:
        player.kept.remove(k)
        context.note(KEPT_CARD_LEAVES, f"{k.source} is gone: its [{k.zone.upper()}] effect ends, its copy is deleted",
                     involves=[card(k.source), STAY if k.zone == "stay" else STANDBY])


def _move_to_discard(context: Context, state: State, player: Player, name: str, ruling: str | None) -> None:
    context.note("zb.glossary.discard-face-up", f"{name} goes to {player.name}'s Discard Pile face-up, as every card there",
                 involves=[card(name)])
    holder = player.find(name)
    if holder is not None:
        player.mamodo.remove(holder)
        gone = [holder.card] + [c for c, _ in holder.under]
        player.discard += gone
        if holder.under:
            context.note("zb.mamodo.underneath-discarded", f"{', '.join(c for c, _ in holder.under)} underneath {name} "
                         "are discarded along with it", involves=[card(name)])
        if holder.partner:
            player.discard.append(holder.partner)
            context.note("zb.partner.discarded-with", f"{holder.partner} is sent to the Discard Pile with {name}",
                         involves=[card(holder.partner), card(name)])
        if holder.status == "petrified":
            context.note("zb.petrified.can-discard", f"{name} is Petrified and can still be sent to the Discard Pile",
                         involves=[card(name), PETRIFIED])
        context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
        return
    for mamodo in player.mamodo:
        if mamodo.partner == name:
            mamodo.partner = None
            player.discard.append(name)
            context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
            return
    for index, (mj12, _) in enumerate(player.mj12):
        if mj12 == name:
            del player.mj12[index]
            player.discard.append(name)
            context.note(ruling, f"{name} is sent to {player.name}'s Discard Pile", involves=[card(name)])
            return


def _turn_pages(context: Context, state: State, who: str, pages: int, why: str) -> None:
    """Turn pages forward, without MP; a player who cannot turn a page required of them loses."""
    player = state.players[who]
    for _ in range(pages):
        if player.opening >= LAST_OPENING:
            _loses(context, state, who, f"{who} is on the last page and cannot turn the page the {why} requires")
            return
        player.opening += 1
    context.note(None, f"{who}'s open pages: {_pages(player)}", involves=[BOOK])
    if player.opening == LAST_OPENING:
        context.note("zb.win.not-yet", f"{who} turns to the last page: the game is not won yet", involves=[BOOK])


def _loses(context: Context, state: State, who: str, why: str) -> None:
    state.loser = who
    context.note("zb.sequence.win", why, involves=[BOOK])
    context.note("zb.win.last-page", f"{other(who)} wins the game", involves=[BOOK])
    context.note("zb.sequence.runs-out-loses", f"{who} runs out of pages to turn and loses the game", involves=[BOOK])
    context.note("zb.turns.win", f"{who} cannot turn pages: {other(who)} wins", involves=[BOOK])


@steps("defender-wins")
def defender_wins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    context.note("zb.battle.lose-negated", f"{state.defender} wins the Battle: the Attack is negated, no Damage", involves=[BATTLE])
    defense = state.card(battle.defense.card) if battle.defense is not None and not battle.defense_negated else None
    countering = defense is not None and defense.counter and defense.damage > 0
    if defense is not None and countering and not _damage_negated(context, state, state.attacker, defense.name):
        context.note("zb.battle.lose-counter", f"{defense.name}'s [COUNTER]: its Damage is applied", involves=[card(defense.name)])
        context.note("zb.glossary.counter", f"{state.defender}, the Defender, wins against the Attacker: {defense.name}'s [COUNTER] "
                     "inflicts Damage", involves=[card(defense.name), DAMAGE])
        _damage_book(context, state, state.attacker, defense.damage, action.get("protect"), "zb.battle.lose-counter")
    elif defense is not None and not countering:
        context.note("zb.battle.lose-counter", f"{defense.name} has no [COUNTER]: its effects and Damage are not applied",
                     involves=[card(defense.name)])
    spells = ([(state.attacker, battle.spell)] if not battle.attack_negated else []) + \
        ([(state.defender, battle.defense)] if defense is not None else [])
    for owner, out in spells:
        if out is None:
            continue
        for effect in state.card(out.card).effects:
            if effect.timing == "regardless":
                context.note("zb.battle.lose-regardless", f"{out.card}'s effect applies regardless of Power", involves=[card(out.card)])
                _resolve_effect(context, state, owner, out.card, effect, action)


@steps("battle-out")
def battle_out(context: Context, state: State, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    context.note("zb.precautions.battle-out", "Damage and effects are resolved: \"Battle Out\", Non-Battle once again", involves=[BATTLE])
    context.note("zb.glossary.battle-out", "\"Battle Out\": the effects applied during the Battle are resolved; the game returns to "
                 "Non-Battle", involves=[BATTLE])
    for owner, out in ((state.attacker, battle.spell), (state.defender, battle.defense)):
        if out is None:
            continue
        state.players[owner].pages[out.page - 1] = out.card
        context.note("zb.book.spell-returns", f"{out.card} returns to page {out.page} of {owner}'s book", involves=[card(out.card), BOOK])
        context.note("zb.spell.zone", f"The Battle is over: {out.card} returns to its page", involves=[card(out.card)])
    state.last_battle = {
        "mamodo": battle.mamodo, "spell": battle.spell.card if battle.spell else None,
        "defender_mamodo": battle.defender_mamodo, "defense": battle.defense.card if battle.defense else None,
        "totals": dict(battle.totals), "winner": battle.winner,
    }
    state.battle = None
    for player in state.players.values():
        _return_no_battle_spells(context, player)
    _activate_standby(context, state, "battle-out")
    _expire_stay(context, state, "battle-out")
    if state.loser is None:
        state.priority, state.passes = state.attacker, 0
        context.note("zb.alternate.attacker-first-after-battle", f"Back in Non-Battle: {state.attacker}, the Attacker, acts first",
                     involves=[ACTION])


# === Effects ===================================================================================

EffectHandler = Callable[[Context, State, str, str, Effect, Mapping[str, Any]], None]


def _resolve_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if effect.keep is None and effect.if_mp_at_least and state.players[_whom(effect, owner)].mp < effect.if_mp_at_least:
        who = _whom(effect, owner)
        context.note(None, f"{source}: {who} has {state.players[who].mp} MP, fewer than {effect.if_mp_at_least}: nothing happens",
                     involves=[card(source), MP])
        return
    if effect.keep is not None:
        _keep(context, state, owner, source, effect)
        return
    if effect.select_all:
        selected = _selected_all(state, owner, effect)
        context.note("zb.glossary.select-all-type", f"{source}'s effect selects all {effect.of_type or 'MAMODO'} cards of "
                     f"{other(owner)}: {', '.join(selected) or 'none'}", involves=[card(source)])
        for name in selected:
            _resolve_effect(context, state, owner, source, replace(effect, select_all=False), {**action, "target": name})
        return
    if effect.coins:
        heads = _heads(context, source, effect, action)
        context.note("zb.glossary.coin", f"{source}: {heads} heads (the side with a mamodo's face): the effect acts {heads} time(s)",
                     involves=[card(source), COIN_TOSS], heads=heads)
        for _ in range(heads):
            _resolve_effect(context, state, owner, source, replace(effect, coins=0), action)
        return
    handler: EffectHandler = vocabulary.effect_handler("effect", effect.kind)
    with context.involving(card(source)):
        handler(context, state, owner, source, effect, action)
    state.log.append(f"{source}: {effect.kind}")
    for then in effect.also:
        _resolve_effect(context, state, owner, source, then, action)


def _whom(effect: Effect, owner: str) -> str:
    return owner if effect.whose == "self" else other(owner)


def _affected(context: Context, source: str, effect: Effect, owner: str) -> str:
    """"You" in an effect's text is its player, the owner of the card; "your opponent" the other player."""
    context.note("zb.glossary.player", f"{source}'s player is its owner, {owner}", involves=[card(source)])
    if effect.whose != "self":
        context.note("zb.glossary.opponent", f"{source}'s opponent is the other player, {other(owner)}", involves=[card(source)])
    return _whom(effect, owner)


EFFECT_COMMON = {
    "tag": {"enum": ["declare", "mp", "discard", "in-play"], "description": "[DECLARE TO USE], [X MP], [SEND THIS CARD TO THE "
            "DISCARD PILE] or [IN PLAY] (default declare)."},
    "mp": {"type": "integer", "minimum": 0, "description": "The X of an [X MP] effect."},
    "icons": {"type": "array", "items": {"enum": ["battle", "attack", "defend", "cut-in"]}, "description": "The effect's icons."},
    "timing": {"enum": ["preparation", "during-battle", "start-phase", "end-phase", "put-in-play", "on-inflict", "on-damage", "other", "regardless"],
               "description": "When an [IN PLAY] effect activates (PREPARATION PHASE, START PHASE, END PHASE, as put in play, when its player inflicts "
               "Damage or Injury); on an EVENT card's Power: during-battle; on a SPELL card: on Damage or Injury, other effects, or regardless of Power."},
    "whose": {"enum": ["self", "opponent"], "description": "Whose book or MP (default opponent)."},
    "also": {"type": "array", "items": {"$ref": "#/effect"}, "description": "Effects the same effect goes on to apply, in order."},
    "phase": {"enum": ["own", "opponent"], "description": "The effect is applied only in its owner's (own) or the opponent's BATTLE PHASE."},
    "keep": {"enum": ["stay", "standby"], "description": "[STAY]: active until 'until'; [STANDBY]: waits for 'until', then activates."},
    "until": {"enum": ["end-phase", "start-phase", "own-start-phase", "own-next-end-phase", "battle-out", "opponent-event"],
              "description": "When a [STAY] effect expires or a [STANDBY] effect activates (default end-phase: the END PHASE of this "
              "turn; start-phase: the next START PHASE; own-start-phase: the START PHASE of its owner's next turn; own-next-end-phase: "
              "the END PHASE of its owner's next turn; opponent-event: when the opponent next plays an EVENT card this turn, a [STANDBY] effect that expires unmet at the END PHASE)."},
    "negates": {"type": "array", "items": {"enum": ["effect", "battle", "cut-in", "event", "no-battle", "spell", "stay", "standby", "in-play",
                                                    "preparation"]},
                "description": "What a negate, prohibit or make-unnegatable effect applies to."},
    "cannot_be_negated": {"type": "boolean", "description": "\"Cannot be negated\"."},
    "even_when_prohibited": {"type": "boolean", "description": "\"... even when prohibited to do so\"."},
    "regardless_of_card_effects": {"type": "boolean", "description": "\"... regardless of card effects\": the same as "
                                   "even_when_prohibited."},
    "times": {"type": "integer", "minimum": 1, "description": "Damage X times: each infliction is PROTECTED against separately."},
    "stone_tablet": {"type": "boolean", "description": "The effect selects only Stone Tablet MAMODO cards."},
    "if_mp_at_least": {"type": "integer", "minimum": 0, "description": "The effect does something only if the player it affects "
                       "has at least this many MP."},
    "once_per_game": {"type": "boolean", "description": "\"This effect can be applied only once per game (per player)\"."},
    "of_type": {"enum": ["MAMODO", "PARTNER", "MJ12"], "description": "A prohibit effect: only the effects of cards of this type; an "
                "effect that selects: \"Select 1 *type* card\" (without it, \"Select 1 card\": any type)."},
    "coins": {"type": "integer", "minimum": 1, "description": "\"Flip X coins\": flipped as the effect is declared (apply-effect coins), "
              "it acts once for each heads."},
    "min_power": {"type": "integer", "minimum": 0, "description": "The effect selects only a MAMODO card with at least this much Power."},
    "only_as": {"enum": ["attacker", "defender"], "description": "\"When you are the Attacker (Defender)\": the effect is applied only "
                "in that role."},
    "select_all": {"type": "boolean", "description": "\"Select all *type* cards\": every such card of the opponent's side."},
}


def _effect_params(**own: Any) -> dict[str, Any]:
    return {**EFFECT_COMMON, **own}


AMOUNT = {"type": "integer", "minimum": 0}


# --- Coins (Q14) --------------------------------------------------------------------------------


def _heads(context: Context, source: str, effect: Effect, action: Mapping[str, Any]) -> int:
    coins = list(action.get("coins") or [])
    if len(coins) != effect.coins:
        raise context.reject("no-such-choice", f"{source}'s effect flips {effect.coins} coin(s): the scenario writes how each lands "
                             f"(coins: {effect.coins} of heads or tails), not {coins}", "zb.battle.coins-at-declaration",
                             involves=[card(source), COIN_TOSS])
    return coins.count("heads")


def _flip_effect_coins(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """An effect that flips coins flips all of them as it is declared; a coin re-do effect may follow at once."""
    coins = ", ".join(action.get("coins") or [])
    _heads(context, source, effect, action)
    context.note("zb.battle.coins-at-declaration", f"{source}'s {effect.coins} coin(s) are flipped as it is declared: {coins}",
                 involves=[card(source), COIN_TOSS])
    state.coin_toss, state.coin_redo = (owner, source), None


@vocabulary.effect("redo-coins", "Re-do the coin toss of the effect whose coins were just flipped (the action redo-coins, "
                   "without an Action).", params=_effect_params())
def redo_coins_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note("zb.qa.q14", f"{source}'s effect changes the outcome of a coin toss", involves=[card(source), COIN_TOSS])


@vocabulary.action("redo-coins", "Right after the coins of an effect are flipped, without an Action: a player applies the effect of "
                   "their own in-play card that re-does the coin toss; the effect resolves again with the new result.",
                   params={"player": ref("player"), "card": ref("card-name"), "effect": {"type": "integer", "minimum": 0},
                           "coins": COINS},
                   required=["player", "card", "coins"])
def redo_coins(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["card"]
    owner = other(player.name)
    _refuse_when_over(context, state)
    if _holder(player, name) is None and _holder(state.players[owner], name) is not None:
        context.note("zb.qa.q14", f"The right to use {name}'s effect is {owner}'s: it cannot be transferred to {player.name}",
                     involves=[card(name), COIN_TOSS])
        raise context.reject("coin-redo-not-transferable", f"{name} is {owner}'s card: only {owner} may apply its effect", "zb.qa.q14",
                             involves=[card(name), COIN_TOSS])
    effect = _chosen_effect(context, state, player, name, action.get("effect", 0))
    if effect.kind != "redo-coins":
        raise context.reject("no-such-effect", f"{name}'s effect does not change a coin toss", involves=[card(name)])
    top = state.stack.top
    if state.coin_toss is None or top is None or top.card != state.coin_toss[1] or top.effect.before is None:
        raise context.reject("not-now", "no coins were just flipped: a coin re-do effect is used immediately after the coins of an "
                             "effect are flipped", "zb.qa.q14", involves=[card(name), COIN_TOSS])
    context.note("zb.qa.q14", f"{player.name} applies {name}'s effect right after {top.card}'s coins are flipped, without an Action",
                 involves=[card(name), card(top.card), COIN_TOSS])
    restored = top.effect.before.restore()
    _pay(context, restored, restored.players[player.name], name, effect)
    redone = replace(top.effect, action={**top.effect.action, "coins": list(action["coins"])}, before=Snapshot(restored))
    restored.stack = ResponseStack(state.stack.links[:-1]).push(replace(top, effect=redone))
    for kept in ("priority", "passes", "step", "previous_action", "current_action", "coin_toss"):
        setattr(restored, kept, getattr(state, kept))
    restored.coin_redo = name
    vars(state).update(vars(restored))
    state.log.append(f"{name}: redo-coins")
    for then in top.effect.effects:
        _resolve_effect(context, state, top.player, top.card, then, redone.action)


@vocabulary.effect("power", "Adds 'amount' Power: in a Battle to its side's Total Power, from an EVENT card until the END PHASE, "
                   "as an [IN PLAY] effect to its MAMODO card while it is in play.", params=_effect_params(amount=AMOUNT))
def power(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if state.card(source).type == "EVENT" and effect.timing == "during-battle":
        state.players[owner].battle_power += effect.amount
        context.note("zb.glossary.during-battle", f"{source}: +{effect.amount} Power for {owner}'s MAMODO cards during the Battle "
                     "(between \"Battle In\" and \"Battle Out\"), not the whole BATTLE PHASE", amount=effect.amount)
    elif state.card(source).type == "EVENT":
        state.players[owner].turn_power += effect.amount
        context.note("zb.event.until-end-phase", f"{source}: +{effect.amount} Power for {owner} until the END PHASE",
                     amount=effect.amount)
    elif state.battle is not None:
        if effect.is_battle_effect and not _battle_effects_before_compare(context, source, effect.amount):
            return
        state.battle.power[owner] += effect.amount
        context.note("zb.battle.effects-window-both", f"{source}: +{effect.amount} Power to {owner}'s Total Power", amount=effect.amount)


STEP_5_WORDS = {BATTLE_STEP_5: "Battle effects can be applied during Battle Step 5",
                GLOSSARY_RESOLVING: "Resolving effects (Battle Step 5) is the timing for Battle effects",
                GLOSSARY_COMPARE: "Compare Total Power is in Battle Step 5"}


def _battle_effects_before_compare(context: Context, source: str, amount: int) -> bool:
    """Line 1109 and the glossary's Resolving effects (1204) and Compare Total Power (1205) all place Battle effects or the comparison
    in "Battle Step 5": one question, whether a Battle effect's Power counts in the comparison. Any of them read as after-compare
    puts Battle effects after it."""
    before = True
    for ruling, words in STEP_5_WORDS.items():
        if context.read(ruling, "apply-window"):
            context.note(ruling, f"{words}: {source}'s Battle effect is applied in the effects step before Compare Total Power",
                         involves=[card(source), BATTLE])
            continue
        before = False
        context.note(ruling, f"{words}: {source}'s Battle effect comes after Compare Total Power: its {amount:+d} Power cannot "
                     "change the winner", involves=[card(source), BATTLE], amount=amount)
    return before


@vocabulary.effect("coin-power", "Flip a coin: if heads, 'amount' Power is added to the Total Power of the Attack or Defense.",
                   params=_effect_params(amount=AMOUNT))
def coin_power(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    coin = action.get("coin")
    if coin is None:
        raise context.reject("no-such-choice", f"{source} flips a coin: the scenario writes how it lands (coin: heads or tails)",
                             "zb.battle.coins-at-declaration", involves=[card(source)])
    if coin == "heads":
        _battle(state).power[owner] += effect.amount
        context.note(None, f"Heads: {source} gets +{effect.amount} Power", amount=effect.amount)


@vocabulary.effect("gain-mp", "Its owner (whose: self) or the opponent gets 'amount' MP.", params=_effect_params(amount=AMOUNT))
def gain_mp(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _change_mp(context, state, source, effect, _affected(context, source, effect, owner), effect.amount)


@vocabulary.effect("lose-mp", "Reduces the MP of the opponent (or of its owner) by 'amount', to 0 at the least.",
                   params=_effect_params(amount=AMOUNT))
def lose_mp(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _change_mp(context, state, source, effect, _affected(context, source, effect, owner), -effect.amount)
    _not_a_negation(context, state, "the reduction of MP")


def _change_mp(context: Context, state: State, source: str, effect: Effect, who: str, change: int) -> None:
    player = state.players[who]
    player.mp = max(0, player.mp + change)
    context.note(None, f"{source}: {who}'s MP {change:+d}: {player.mp} MP", involves=[MP])
    _cite_in_play(context, state, source, effect)


@vocabulary.effect("turn-pages", "The opponent (or its owner) turns 'amount' pages forward: not Damage, no MP.",
                   params=_effect_params(amount=AMOUNT))
def turn_pages_effect(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    who = _whom(effect, owner)
    context.note("zb.precautions.newly-opened", f"{source}: {who} turns {effect.amount} page(s) by a card effect; "
                 "the cards in the newly open pages may be played", involves=[BOOK])
    if who == owner:
        context.note("zb.qa.q1", f"{who} turns pages of its own Spell Book by the effect of a card", involves=[card(source), BOOK])
    else:
        context.note("zb.qa.q3", f"{who}'s opponent turned {who}'s pages: {who} may use the cards in the newly open pages",
                     involves=[card(source), BOOK])
    if action.get("protect"):
        context.note("zb.glossary.turn-pages", f"{source}: turning pages is an effect instead of Damage: it cannot be prevented by "
                     "SACRIFICING / PROTECTING", involves=[card(source), PROTECT])
        context.note("zb.qa.q9", "Effects that turn pages are not Damage and cannot be PROTECTED against", involves=[PROTECT, BOOK])
        raise context.reject("cannot-protect", "turning pages by an effect is not Damage", "zb.protect.only-damage",
                             involves=[PROTECT, BOOK])
    _turn_pages(context, state, who, effect.amount, "effect")
    if _in_start_or_end_phase(state) and state.loser is None:
        _mp_for_effect_pages(context, state, who, source, effect.amount)
    _not_a_negation(context, state, "turning pages of a Spell Book")
    _cite_in_play(context, state, source, effect)


def _in_start_or_end_phase(state: State) -> bool:
    """No one performs Actions and no Battle resolves: the START PHASE or the END PHASE."""
    return state.priority is None and state.battle is None and not state.end_pending


def _mp_for_effect_pages(context: Context, state: State, who: str, source: str, pages: int) -> None:
    """The glossary's MP "gained by turning pages of your Spell Book during the START PHASE and END PHASE": pages an effect turns?"""
    if context.read(GLOSSARY_MP, "own-turning-only"):
        context.note(GLOSSARY_MP, f"{source} turned {pages} page(s) of {who}'s book during the START or END PHASE: only the phase's own "
                     "page turning gives MP", involves=[card(source), MP])
        return
    player = state.players[who]
    player.mp += pages * MP_PER_PAGE
    context.note(GLOSSARY_MP, f"{who} turned {pages} page(s) during the START or END PHASE: 2 MP each, {player.mp} MP",
                 involves=[card(source), MP], mp=player.mp)


@vocabulary.effect("cannot-be-selected", "[IN PLAY] This card cannot be selected as a target of an effect.", params=_effect_params())
def cannot_be_selected(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note("zb.glossary.cannot-be-selected", f"{source} cannot be selected as a target of an effect", involves=[card(source)])


@vocabulary.effect("turn-back-pages", "Its owner (whose: self) or the opponent turns 'amount' pages backward (not before page 1).",
                   params=_effect_params(amount=AMOUNT))
def turn_back_pages(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    player = state.players[_whom(effect, owner)]
    player.opening = max(0, player.opening - effect.amount)
    context.note("zb.glossary.previous-pages", f"{player.name} opens previous pages, before the open pages: {_pages(player)}",
                 involves=[card(source), BOOK])
    context.note("zb.glossary.turn-back", f"{source}: {player.name} turns {effect.amount} page(s) backward: open pages {_pages(player)}",
                 involves=[card(source), BOOK])


@vocabulary.effect("damage", "Inflicts 'amount' Damage on the opponent's Spell Book, 'times' times (a MAMODO card may PROTECT "
                   "against each infliction: protect, or protect_each).", params=_effect_params(amount=AMOUNT))
def damage(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    protectors = list(action.get("protect_each") or [action.get("protect")])
    ruling = "zb.battle.win-damage" if state.battle is not None else "zb.protect.only-damage"
    for infliction in range(effect.times):
        if effect.times > 1:
            context.note("zb.glossary.damage-times", f"{source}: infliction {infliction + 1} of {effect.times}, PROTECTED against "
                         "separately", involves=[card(source), DAMAGE])
        protector = protectors[infliction] if infliction < len(protectors) else None
        if protector is not None:
            context.note("zb.qa.q10", f"{source}'s effect inflicts Damage: {protector} may PROTECT against it",
                         involves=[card(source), card(protector), PROTECT])
        _damage_book(context, state, other(owner), effect.amount, protector, ruling)
        if state.loser:
            return


@vocabulary.effect("injure", "Inflicts Injury to the selected MAMODO card ('target' of the action or the effect).",
                   params=_effect_params(target=ref("card-name")))
def injure(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    _injure(context, state, victim, holder, "zb.injured.only-mamodo")


@vocabulary.effect("petrify", "The selected MAMODO card becomes Petrified.", params=_effect_params(target=ref("card-name")))
def petrify(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    holder.status = "petrified"
    context.note("zb.glossary.petrified", f"{holder.card} becomes Petrified: turned into a stone tablet, flipped face-down vertically",
                 involves=[card(holder.card), PETRIFIED])
    _kept_of_cards_gone(context, state, victim, {holder.card} | ({holder.partner} if holder.partner else set()))


@vocabulary.effect("discard", "Sends the selected MAMODO card (and its attached cards), or the selected PARTNER card, to the "
                   "Discard Pile.",
                   params=_effect_params(target=ref("card-name")))
def discard(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _check_selected_type(context, state, source, effect, action.get("target") or effect.target)
    partner = _selected_partner(state, owner, action.get("target") or effect.target)
    if partner is not None:
        victim, name = partner
        _send_to_discard(context, state, victim, name, None)
        victim.discarded_by_effect.add(name)
        return
    victim, holder = _target(context, state, owner, effect, action, petrified_ok=True)
    _send_to_discard(context, state, victim, holder.card, None)
    victim.discarded_by_effect.add(holder.card)
    if state.battle is not None and holder.card in (state.battle.mamodo, state.battle.defender_mamodo):
        _not_a_negation(context, state, "sending a MAMODO card involved in the Battle to the Discard Pile")


def _check_selected_type(context: Context, state: State, source: str, effect: Effect, name: str | None) -> None:
    """ "Select 1 *type* card" selects a card of that type; "Select 1 card" one of any type."""
    kind = state.card(name).type if name in state.cards else None
    if effect.of_type is None:
        context.note("zb.glossary.select-one-card", f"{source}'s effect selects 1 card of any type: {name} ({kind})",
                     involves=[card(source)])
        return
    if kind != effect.of_type:
        raise context.reject("no-such-choice", f"{source}'s effect selects 1 {effect.of_type} card; {name} is a {kind} card",
                             "zb.glossary.select-one-type", involves=[card(source)])
    context.note("zb.glossary.select-one-type", f"{source}'s effect selects 1 {effect.of_type} card: {name}", involves=[card(source)])


def _selected_all(state: State, owner: str, effect: Effect) -> list[str]:
    """ "Select all *type* cards": every such card on the opponent's side (Petrified MAMODO cards are no targets)."""
    victim = state.players[other(owner)]
    kind = effect.of_type or "MAMODO"
    if kind == "MAMODO":
        return [m.card for m in victim.mamodo if m.status != "petrified"]
    if kind == "PARTNER":
        return [m.partner for m in victim.mamodo if m.partner]
    return [c for c, _ in victim.mj12]


def _selected_partner(state: State, owner: str, name: str | None) -> tuple[Player, str] | None:
    """The opponent's (or its owner's) in-play PARTNER card ``name``, when the effect selects a PARTNER card."""
    for who in (other(owner), owner):
        if name and any(m.partner == name for m in state.players[who].mamodo):
            return state.players[who], name
    return None


@vocabulary.effect("discard-page", "Sends the card on the opponent's open page (its highest) to the Discard Pile.",
                   params=_effect_params())
def discard_page(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim = state.players[_whom(effect, owner)]
    page = max(victim.open)
    name = victim.card_on(page)
    if name is None:
        return
    if page == BOOK_PAGES and state.card(name).type == "SPELL":
        raise context.reject("last-page-spell-stays", f"{name} is the SPELL card in {victim.name}'s last page",
                             "zb.last-page.cannot-remove", involves=[card(name), mechanic("Last Page Bonus")])
    victim.pages[page - 1] = None
    victim.discard.append(name)
    context.note(None, f"{name} leaves page {page} for {victim.name}'s Discard Pile", involves=[card(name), BOOK])


@vocabulary.effect("no-injury", "[IN PLAY]: its MAMODO card does not receive Damage or Injury (each infliction that would injure "
                   "it, PROTECTING included).", params=_effect_params())
def no_injury(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note(None, f"{source}'s MAMODO card does not receive Damage or Injury", involves=[card(source)])


@vocabulary.effect("extra-event", "Its owner may play 'amount' more EVENT cards this turn.", params=_effect_params(amount=AMOUNT))
def extra_event(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].events_allowed += effect.amount
    context.note(None, f"{source}: {owner} may play {effect.amount} more EVENT card(s) this turn", involves=[card(source)])


@vocabulary.effect("negate-effects", "The selected MAMODO card's effects are negated during this turn (not its card rules).",
                   params=_effect_params(target=ref("card-name")))
def negate_effects(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim, holder = _target(context, state, owner, effect, action)
    holder.effects_negated = True
    context.note(None, f"{source} negates {holder.card}'s effects during this turn", involves=[card(holder.card)])


@vocabulary.effect("defend-without-spell", "Its MAMODO card Defends without a SPELL card; 'amount' is the Defense's Total Power.",
                   params=_effect_params(amount=AMOUNT))
def defend_without_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    battle = _battle(state)
    battle.defender_mamodo, battle.defense_set_total = source, effect.amount
    context.note("zb.battle.select-resolves-on-declaration", f"{source} Defends without a SPELL card: the effect resolves as it "
                 f"is declared (Total Power {effect.amount})", involves=[card(source)])


@vocabulary.effect("attack-without-spell", "An \"&\" effect: its MAMODO card Attacks without a SPELL card (battle-in with "
                   "effect_of); 'amount' is the Attack's Total Power; 'also' resolves if it wins.", params=_effect_params(amount=AMOUNT))
def attack_without_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note(None, f"{source}'s \"&\" effect Attacks with a \"Battle In\" (effect_of: {source})", involves=[card(source)])


@vocabulary.effect("undefendable", "The SPELL card its owner's 'target' MAMODO Attacks with in the next Battle during this turn "
                   "cannot be Defended.", params=_effect_params(target=ref("card-name")))
def undefendable(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
    context.note(None, f"{source}: the SPELL card {effect.target} Attacks with in the next Battle cannot be Defended",
                 involves=[card(source)])


@vocabulary.effect("put-in-play-petrified", "Puts the MAMODO card 'target' from its owner's open pages in play in Petrified Status.",
                   params=_effect_params(target=ref("card-name")))
def put_in_play_petrified(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    player = state.players[owner]
    name = action.get("target") or effect.target
    if not name:
        raise context.reject("no-such-choice", f"{source}'s effect puts a MAMODO card of the open pages in play: the action "
                             "names it (target)", None, involves=[card(source)])
    page = _on_open_page(context, state, player, name, None)
    kind = state.card(name)
    if kind.type != "MAMODO" or _mamodo_count(context, state, player) >= MAX_IN_PLAY:
        raise context.reject("no-such-choice", f"{name} cannot be put in play", "zb.put.mamodo-max-3", involves=[card(name)])
    _check_mamodo_name(context, player, state, kind, ignore=None)
    if kind.stone_tablet and context.read(STONE_TABLET_PETRIFIED, "cannot-be-chosen"):
        raise context.reject("no-such-choice", f"{name} is a Stone Tablet MAMODO card: it cannot be put in play Petrified, so "
                             f"{source}'s effect cannot choose it", STONE_TABLET_PETRIFIED, involves=[card(name), card(source)])
    if kind.stone_tablet:
        context.note(STONE_TABLET_PETRIFIED, f"{name} is a Stone Tablet MAMODO card: {source}'s effect puts it in play in Normal "
                     "Status", involves=[card(name), card(source)])
    player.pages[page - 1] = None
    status = "normal" if kind.stone_tablet else "petrified"
    player.mamodo.append(Mamodo(card=name, page=page, status=status))
    if kind.stone_tablet:
        _note_stone_tablet(context, kind)
    else:
        context.note(None, f"{source} puts {name} in play in Petrified Status", involves=[card(name), PETRIFIED])


@vocabulary.effect("play-spell", "Plays a SPELL card of its owner's open pages (named as played_by on the battle-in).",
                   params=_effect_params())
def play_spell(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    context.note(None, f"{source}'s effect plays a SPELL card: declare it with battle-in, played_by: {source}", involves=[card(source)])


@vocabulary.effect("negate-damage", "\"Negate Damage\": the SPELL cards of this Battle inflict no Damage or Injury on its owner.",
                   params=_effect_params())
def negate_damage(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    _battle(state).damage_negated.add(owner)
    context.note("zb.glossary.negate-damage", f"{source}: no Damage or Injury will be inflicted on {owner} in this Battle",
                 involves=[card(source), DAMAGE, INJURY])
    _not_a_negation(context, state, "negating Damage")


@vocabulary.effect("negate-attack", "Negates the Attack of the Battle (the Attack fails).", params=_effect_params())
def negate_attack(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    if state.battle is None and state.answered_battle_in is not None:
        _negate_battle_in(context, state, source, state.answered_battle_in)
        return
    battle = _battle_to_negate(context, state, source, "Attack")
    if not effect.is_cut_in:
        _check_negation_timing(context, state, source, (state.attacker, battle.spell.card if battle.spell else battle.mamodo))
    battle.attack_negated = True
    if battle.attack_effect is not None:
        state.players[state.attacker].negated_cards.add(battle.mamodo)
        context.note("zb.and.negated-step-5", f"{source} negates {battle.mamodo}'s Attack made by its \"&\" effect",
                     involves=[card(source), card(battle.mamodo), BATTLE])
    _negated(context, state, state.attacker, battle.spell, f"{source} negates the Attack")


@vocabulary.effect("negate-defense", "Negates the Defense of the Battle (the Defender's Total Power is 0).", params=_effect_params())
def negate_defense(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    battle = _battle_to_negate(context, state, source, "Defense")
    battle.defense_negated = True
    _negated(context, state, state.defender, battle.defense, f"{source} negates the Defense")


def _check_negation_timing(context: Context, state: State, source: str, declared: tuple[str, str]) -> None:
    """An effect that negates an Attack and is no cut-in effect: may it negate one not declared in the previous Action?"""
    if state.previous_action == declared:
        return
    if not context.read(NEGATE_DEFINITION, "named-negation-any-time"):
        raise context.reject("nothing-to-negate", f"{source}'s effect is no cut-in effect: it negates only an Attack declared in "
                             "the previous Action", NEGATE_DEFINITION, involves=[card(source), BATTLE])
    context.note(NEGATE_DEFINITION, f"{source}'s effect negates the Attack in the Battle's effects step, though it is no cut-in "
                 "effect against the previous Action", involves=[card(source), BATTLE])


def _negate_battle_in(context: Context, state: State, source: str, answered: Mapping[str, Any]) -> None:
    """The Defender's Action negates the card that initiated the "Battle In": no Battle, and that card Attacks no more this turn."""
    initiator = answered["spell"] or answered["mamodo"]  # a SPELL card, or the MAMODO card whose "&" effect Attacks
    state.answered_battle_in = None
    state.players[state.attacker].negated_cards.add(initiator)
    context.note("zb.battle-in.initiator-negated", f"{source} negates {initiator}, the initiator of the \"Battle In\": "
                 f"{state.attacker} need not declare \"Battle In\" again and may continue the turn without a Battle",
                 involves=[BATTLE, card(initiator)])


def _negated(context: Context, state: State, player: str, spell: SpellOut | None, what: str) -> None:
    """A negated Attack or Defense: its effects are negated, and its SPELL card declares no new one this turn."""
    if spell is not None:
        state.players[player].negated_cards.add(spell.card)
    context.note("zb.negate.declared", f"{what}: its effects are negated too", involves=[BATTLE])


def _target(context: Context, state: State, owner: str, effect: Effect, action: Mapping[str, Any],
            petrified_ok: bool = False) -> tuple[Player, Mamodo]:
    name = action.get("target") or effect.target
    for who in (other(owner), owner):
        holder = state.players[who].find(name or "")
        if holder is not None and effect.stone_tablet:
            if not state.card(holder.card).stone_tablet:
                raise context.reject("no-such-choice", f"{holder.card} is no Stone Tablet MAMODO card", "zb.stone.selected-by-effects",
                                     involves=[card(holder.card)])
            context.note("zb.stone.selected-by-effects", f"The effect specifies Stone Tablet MAMODO cards: {holder.card} is one",
                         involves=[card(holder.card)])
        if holder is not None and any(e.kind == "cannot-be-selected" for e in state.card(holder.card).effects):
            raise context.reject("no-such-choice", f"{holder.card} cannot be selected as a target of an effect",
                                 "zb.glossary.cannot-be-selected", involves=[card(holder.card)])
        if holder is not None and effect.min_power:
            _check_min_power(context, state, state.players[who], holder, effect)
        if holder is not None:
            if holder.status == "petrified" and not petrified_ok:
                raise context.reject("cannot-target-petrified", f"{name} is Petrified", "zb.petrified.no-target",
                                     involves=[card(holder.card), PETRIFIED])
            context.note("zb.battle.select-resolves-on-declaration", f"The effect selects {name}: it resolves as it is declared",
                         involves=[card(holder.card)])
            context.note("zb.glossary.select-your", f"The effect's user selects its target: {name}", involves=[card(holder.card)])
            return state.players[who], holder
    raise context.reject("no-such-choice", f"{name!r} is no in-play MAMODO card", "zb.injured.only-mamodo")


def _check_min_power(context: Context, state: State, player: Player, holder: Mamodo, effect: Effect) -> None:
    """An effect that selects a MAMODO card with at least some Power: its Power now, "during the Battle" boosts only in a Battle."""
    power = state.card(holder.card).power + _in_play_power(context, state, player, holder) + player.turn_power
    if state.battle is not None:
        power += player.battle_power
    elif player.battle_power:
        context.note("zb.glossary.non-battle", f"Non-Battle: no Battle is taking place, so {player.name}'s {player.battle_power:+d} "
                     f"Power \"during the Battle\" does not count: {holder.card} has {power} Power", involves=[card(holder.card)],
                     power=power)
    if power < effect.min_power:
        raise context.reject("no-such-choice", f"{holder.card} has {power} Power, less than {effect.min_power}: the effect cannot "
                             "select it", "zb.glossary.non-battle" if player.battle_power and state.battle is None else None,
                             involves=[card(holder.card)], power=power)


def _not_a_negation(context: Context, state: State, what: str) -> None:
    if state.battle is not None:
        context.note("zb.negate.only-specified", f"{what} does not negate the Attack or the Defense", involves=[BATTLE])


def _cite_in_play(context: Context, state: State, source: str, effect: Effect) -> None:
    if effect.tag == "in-play" and effect.timing in ("start-phase", "end-phase"):
        context.note("zb.tag.in-play-repeat", f"{source}'s [IN PLAY] effect resolves at its timing, as often as it comes")


# === The END PHASE ============================================================================


@vocabulary.action("end-phase", "The END PHASE, with its choices: Petrified MAMODO cards to recover (2 MP each) or to discard, "
                   "the MAMODO card a player with none in play puts in play, the order of the END PHASE effects.",
                   params={"recover": {"type": "array", "items": ref("card-name")},
                           "discard_petrified": {"type": "array", "items": ref("card-name")},
                           "send_in": {"type": "object", "additionalProperties": ref("card-name"),
                                       "description": "Player -> the MAMODO card put in play by the no-MAMODO rule."},
                           "order": {"type": "array", "items": {"type": "string"},
                                     "description": "The Attacker's order of the END PHASE effects: card names, 'petrified-recovery'."}})
def end_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _refuse_when_over(context, state)
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
    if cost > player.mp:
        raise context.reject("not-enough-mp", f"recovering {len(action.get('recover') or [])} Petrified card(s) costs {cost} MP; "
                             f"{player.name} has {player.mp}", "zb.petrified.recovery", involves=[PETRIFIED, MP])


def _run_end_phase(context: Context, state: State, action: Mapping[str, Any]) -> None:
    state.end_pending = False
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


def _recover_petrified(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player = state.players[state.attacker]
    for name in action.get("recover") or []:
        holder = player.find(name)
        if holder is None or holder.status != "petrified":
            raise context.reject("no-such-choice", f"{name} is not a Petrified MAMODO card of {player.name}", "zb.petrified.recovery",
                                 involves=[card(name)])
        if player.mp < RECOVERY_MP:
            context.note("zb.petrified.recovery", f"{player.name} has {player.mp} MP: {name} cannot be recovered (2 MP)",
                         involves=[card(name), PETRIFIED, MP])
            continue
        player.mp -= RECOVERY_MP
        holder.status = "normal"
        context.note("zb.end.list-petrified", f"The END PHASE returns {name} to Normal Status for its MP cost", involves=[card(name)])
        context.note("zb.petrified.recovery", f"{player.name} pays 2 MP: {name} returns to Normal Status ({player.mp} MP)",
                     involves=[card(name), PETRIFIED, MP], mp=player.mp)
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
                     "now turns 1 page for 2 MP and ends the turn", involves=[BOOK])
    state.sent_in.clear()
    next_page = max(player.open) + 1
    player.opening += 1
    player.mp += MP_PER_PAGE
    context.note("zb.glossary.next-page", f"Page {next_page}, the page immediately after the open pages, is now open", involves=[BOOK])
    context.note("zb.end.turn-one-page", f"{player.name}, the Attacker, turns 1 page ({_pages(player)}) and gets 2 MP: {player.mp} MP",
                 involves=[BOOK, MP], mp=player.mp)
    context.note("zb.turns.end-must-turn", "The page turning of the END PHASE is not optional", involves=[BOOK])
    context.note("zb.turns.end-two-mp", "2 MP from turning the page", involves=[MP])


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
    state.priority = None
    context.note("zb.turns.roles-switch", f"The roles switch: {state.attacker} is the Attacker of turn {state.turn}")
    context.note("zb.sequence.alternate-turns", "The players alternate turns")
    if state.attacker != state.first_attacker:
        context.note("zb.sequence.second-attacker", f"{state.attacker}, the 2nd attacker, takes the next turn")
    context.note("zb.sequence.repeat", "The turns repeat until the game is won")


@steps.condition("game-goes-on")
def game_goes_on(state: State) -> bool:
    return state.loser is None


# === [STAY] and [STANDBY] =======================================================================


def _keep(context: Context, state: State, owner: str, source: str, effect: Effect) -> None:
    """A resolved [STAY] or [STANDBY] effect: its copy goes to the zone, where it stays active or waits."""
    zone = effect.keep or "stay"
    until = effect.until or "end-phase"
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone=zone, turn=state.turn))
    state.log.append(f"{source}: {effect.kind} [{zone.upper()}]")
    if zone == "stay":
        context.note("zb.glossary.stay", f"{source}'s [STAY] effect remains active until a specified time", involves=[card(source), STAY])
        context.note("zb.stay.duration", f"{source}'s [STAY] effect ({effect.kind}) remains active until the {_timing(until)}",
                     involves=[card(source), STAY])
        if effect.kind == "prohibit":
            _note_prohibition(context, state, owner, source, effect)
    else:
        context.note("zb.glossary.standby", f"{source}'s [STANDBY] effect activates when its timing or criteria are fulfilled",
                     involves=[card(source), STANDBY])
        context.note("zb.standby.waits", f"{source}'s [STANDBY] effect ({effect.kind}) waits for the {_timing(until)}",
                     involves=[card(source), STANDBY])


def _timing(until: str) -> str:
    return {"end-phase": "END PHASE", "start-phase": "next START PHASE", "own-start-phase": "START PHASE of its owner's next turn",
            "battle-out": '"Battle Out"', "own-next-end-phase": "END PHASE of its owner's next turn", "opponent-event": "opponent's next EVENT card this turn"}.get(until, until)


def _kept(state: State, zone: str | None = None) -> list[Kept]:
    return [k for name in (state.attacker, state.defender) for k in state.players[name].kept if zone is None or k.zone == zone]


def _stay_due(state: State, kept: Kept, until: str) -> bool:
    """Whether a [STAY] effect expires at ``until`` now: the END PHASE of its owner's next turn comes in a later turn."""
    if kept.effect.until == "own-next-end-phase":
        return until == "end-phase" and kept.owner == state.attacker and state.turn > kept.turn
    return (kept.effect.until or "end-phase") == until


def _expire_stay(context: Context, state: State, until: str) -> None:
    for kept in _kept(state, "stay"):
        if _stay_due(state, kept, until):
            state.players[kept.owner].kept.remove(kept)
            context.note("zb.stay.duration", f"{kept.source}'s [STAY] effect expires at the {_timing(until)}",
                         involves=[card(kept.source), STAY])


def _standby_due(state: State, kept: Kept, timing: str, by: str | None) -> bool:
    until = kept.effect.until or "end-phase"
    if until == "own-start-phase":
        return timing == "start-phase" and kept.owner == state.attacker
    if until == "opponent-event":
        return timing == until and by == other(kept.owner)
    return until == timing


def _activate_standby(context: Context, state: State, timing: str, by: str | None = None) -> list[Kept]:
    """[STANDBY] effects waiting for ``timing`` activate and resolve, the Attacker's first; no cut-in can negate them."""
    due = [kept for kept in _kept(state, "standby") if _standby_due(state, kept, timing, by)]
    for kept in due:
        _activate_kept(context, state, kept, timing)
    return due


def _activate_kept(context: Context, state: State, kept: Kept, timing: str) -> None:
    """One waiting [STANDBY] effect activates: its copy leaves the zone and it resolves."""
    state.players[kept.owner].kept.remove(kept)
    context.note("zb.standby.waits", f"The {_timing(timing)}: {kept.source}'s [STANDBY] effect activates",
                 involves=[card(kept.source), STANDBY])
    context.note("zb.standby.activation-not-negated", f"{kept.source}'s [STANDBY] effect activates: no cut-in effect can negate it",
                 involves=[card(kept.source), STANDBY, CUT_IN])
    context.note("zb.cut-in.not-in-play-standby", "An activated [STANDBY] effect cannot be negated by cut-in effects",
                 involves=[STANDBY, CUT_IN])
    prohibition = _prohibition(state, kept.owner, kept.source, _classes(kept.effect))
    if prohibition is not None:
        context.note("zb.glossary.effect-already-applied", f"{kept.source}'s [STANDBY] effect was already applied, waiting to be "
                     f"activated: {prohibition.source}'s later \"Cannot\" does not stop it", involves=[card(kept.source), STANDBY, CANNOT])
        context.note("zb.glossary.cannot", f"{prohibition.source}'s \"Cannot\" effect was applied in advance of new effects only",
                     involves=[card(prohibition.source), CANNOT])
    _resolve_effect(context, state, kept.owner, kept.source, replace(kept.effect, keep=None), {})


def _expire_standby(context: Context, state: State) -> None:
    """At the END PHASE a [STANDBY] effect whose condition was for this turn and never came expires without activating."""
    for kept in _kept(state, "standby"):
        if kept.effect.until == "opponent-event":
            state.players[kept.owner].kept.remove(kept)
            context.note("zb.standby.waits", f"The END PHASE: {kept.source}'s [STANDBY] effect expires; its condition never came",
                         involves=[card(kept.source), STANDBY])


def _check_kept_target(context: Context, state: State, player: Player, name: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """A negating effect that is no cut-in negates an active [STAY] or [STANDBY] effect it targets, and nothing else."""
    zones = [z for z in ("stay", "standby") if z in effect.negates]
    wanted = action.get("target") or effect.target
    if "preparation" in effect.negates:
        _check_preparation_target(context, state, player, name, wanted)
    if not zones:
        raise context.reject("nothing-to-negate", f"{name}'s effect is no cut-in effect: it negates only what it targets "
                             "([STAY] or [STANDBY] effects)", "zb.negating.already-active", involves=[card(name)])
    found = [k for k in state.players[other(player.name)].kept if k.zone in zones and wanted in (None, k.source)]
    if not found:
        raise context.reject("nothing-to-negate", f"{other(player.name)} has no active {' or '.join(z.upper() for z in zones)} "
                             "effect" + (f" of {wanted}" if wanted else ""), "zb.negating.already-active", involves=[card(name)])
    kept = found[0]
    _note_targets_kept(context, kept.zone, name, kept.source)
    if kept.zone == "standby":
        context.note("zb.glossary.effect-already-applied", f"{kept.source}'s [STANDBY] effect is an effect already applied: it has "
                     "not resolved yet and waits to be activated", involves=[card(kept.source), STANDBY])
    ambiguity, negatable = KEPT_NEGATION[kept.zone]
    if not context.read(ambiguity, negatable):
        raise context.reject("cannot-be-negated", f"{kept.source}'s [{kept.zone.upper()}] effect has resolved: it cannot be negated",
                             ambiguity, involves=[card(kept.source)])
    context.note(ambiguity, f"{kept.source}'s [{kept.zone.upper()}] effect has resolved, but {name}'s effect targets "
                 f"[{kept.zone.upper()}] effects", involves=[card(kept.source)])
    if _unnegatable(state, kept.owner, kept.effect, frozenset({kept.zone})):
        if context.read(CANNOT_BE_NEGATED_SCOPE, "nothing-negates") or effect.is_battle_effect:
            raise context.reject("cannot-be-negated", f"{kept.source}'s effect cannot be negated", CANNOT_BE_NEGATED_SCOPE,
                                 involves=[card(kept.source)])
        context.note(CANNOT_BE_NEGATED_SCOPE, f"{name}'s effect is neither a Battle effect nor a cut-in effect: it may negate "
                     f"{kept.source}'s", involves=[card(kept.source)])


def _check_preparation_target(context: Context, state: State, player: Player, name: str, wanted: str | None) -> None:
    """An effect resolved during the PREPARATION PHASE cannot be negated after the START PHASE of the first turn."""
    found = [source for owner, source in state.preparation_effects if owner == other(player.name) and wanted in (None, source)]
    if not found:
        raise context.reject("nothing-to-negate", f"{other(player.name)} has no effect resolved during the PREPARATION PHASE"
                             + (f" of {wanted}" if wanted else ""), "zb.glossary.preparation-effects", involves=[card(name)])
    first_start_phase_over = state.turn > 1 or not _before_start_phase(state)
    if first_start_phase_over:
        raise context.reject("cannot-be-negated", f"{found[0]}'s effect was resolved during the PREPARATION PHASE: after the START "
                             "PHASE of the first turn it cannot be negated", "zb.glossary.preparation-effects",
                             involves=[card(name), card(found[0])])


@vocabulary.effect("negate", "Negates what 'negates' lists: as a cut-in effect (icons: [cut-in]) the card or effect the opponent "
                   "just played or applied; otherwise the opponent's active [STAY] or [STANDBY] effect it targets.",
                   params=_effect_params(target=ref("card-name")))
def negate(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    victim = state.players[other(owner)]
    wanted = action.get("target") or effect.target
    for kept in victim.kept:
        if kept.zone in effect.negates and wanted in (None, kept.source):
            victim.kept.remove(kept)
            context.note("zb.stay.only-targeting" if kept.zone == "stay" else "zb.standby.only-targeting",
                         f"{source} negates {kept.source}'s [{kept.zone.upper()}] effect", involves=[card(kept.source)])
            return


# === Applying & Resolving Effects; Cut-In effects ==================================================


def _classes(effect: Effect) -> frozenset[str]:
    """What an applied effect is, for the cut-in effects that may negate it and the "Cannot" effects that may prohibit it."""
    classes = {"effect"}
    if effect.is_battle_effect:
        classes.add("battle")
    if effect.is_cut_in:
        classes.add("cut-in")
    if effect.keep:
        classes.add(effect.keep)
    return frozenset(classes)


def _open_to_cut_in(context: Context, state: State, owner: str, source: str, effects: tuple[Effect, ...], classes: frozenset[str],
                    action: Mapping[str, Any]) -> None:
    """What is about to resolve goes on the stack with the state it resolves from, for a cut-in effect to return to."""
    unnegatable = any(_unnegatable(state, owner, e, classes) for e in effects)
    applied = Applied(effects=effects, classes=classes, action=dict(action), cannot_be_negated=unnegatable, before=Snapshot(state))
    state.stack = state.stack.push(Link(owner, source, applied))
    context.note("zb.majority.resolve-right-away", f"{source}: resolved right away", involves=[card(source)])
    context.note("zb.majority.cut-in-after", f"{other(owner)} may negate it with a cut-in effect as the next Action",
                 involves=[card(source), CUT_IN])
    if state.battle is not None:
        context.note("zb.majority.battle-step-5", f"During the Battle, {source}'s effect resolves in Battle Step 5", involves=[BATTLE])


def _cut_in(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    """The cut-in effect resolves: what it negates is treated as before it could resolve; the costs paid for it stay paid."""
    target = state.stack.top
    assert target is not None and target.effect.before is not None
    paid = Snapshot(state)
    restored = target.effect.before.restore()
    with context.quietly():
        _pay(context, restored, restored.players[owner], source, effect)
    applied = Applied(effects=(effect,), classes=_classes(effect), action=dict(action),
                      cannot_be_negated=_unnegatable(state, owner, effect, _classes(effect)), before=paid)
    restored.stack = restored.stack.push(replace(target, negated=True)).push(Link(owner, source, applied))
    vars(state).update(vars(restored))
    context.note("zb.cut-in.negated-before", f"{source} negates {target.card}: it is treated as before it could resolve",
                 involves=[card(source), card(target.card), CUT_IN])
    context.note("zb.cut-in.costs-kept", f"{target.player}'s costs for {target.card} are not restored; it is still considered used",
                 involves=[card(target.card), MP])
    context.note("zb.cut-in.still-used", f"{target.card} is still considered to be used, though negated", involves=[card(target.card)])
    context.note("zb.glossary.negate-costs", f"Negating {target.card}: its costs are not restored and it counts as used",
                 involves=[card(target.card), MP])
    context.note("zb.negating.cancels", f"{source} cancels out what {target.player} just applied", involves=[card(target.card)])
    if target.effect.classes & {"spell", "no-battle"}:
        context.note("zb.negating.cancels-attack-spell", f"{source} cancels out {target.card}, a SPELL card just played",
                     involves=[card(target.card)])
    state.log.append(f"{source}: negate {target.card}")
    for then in effect.also:
        _resolve_effect(context, state, owner, source, then, action)


def _close_cut_in(context: Context, state: State) -> None:
    """An Action that is no cut-in effect: what was just applied, and not negated, stands resolved."""
    standing = [link.card for link in state.stack.links if not link.negated]
    state.stack = ResponseStack()
    if standing:
        context.note("zb.majority.cut-in-after", f"No cut-in effect followed: {', '.join(standing)} stand(s) resolved",
                     involves=[CUT_IN])


def _unnegatable(state: State, owner: str, effect: Effect, classes: frozenset[str]) -> bool:
    return effect.cannot_be_negated or bool(classes & state.players[owner].unnegatable)


def _check_cut_in(context: Context, state: State, player: Player, name: str, effect: Effect, wanted_card: str | None) -> None:
    """A cut-in effect negates the card or effect the opponent just played or applied, of a type it specifies."""
    top = state.stack.top
    context.note("zb.cut-in.icon", f"{name}'s effect has the Cut-In icon: a cut-in effect", involves=[card(name), CUT_IN])
    context.note("zb.cut-in.icon-caption", f"{name}'s effect is marked with the Cut-In icon: a \"Cut-In\" effect", involves=[card(name)])
    context.note("zb.glossary.cut-in", f"{name}'s cut-in effect negates a card or effect {other(player.name)} just played or applied",
                 involves=[card(name), CUT_IN])
    context.note("zb.glossary.just-played", "\"Just played/applied\": the card or effect of the previous Action"
                 + (f" ({top.card}, {top.player}'s)" if top is not None else ": none is waiting"), involves=[CUT_IN])
    if wanted_card is not None and wanted_card == state.coin_redo:
        context.note("zb.qa.q14", f"{wanted_card}'s effect changed the outcome of a coin toss: cut-in effects cannot negate it",
                     involves=[card(name), card(wanted_card), COIN_TOSS])
        raise context.reject("cannot-be-negated", f"{wanted_card}'s coin re-do cannot be negated by {name}'s cut-in effect", "zb.qa.q14",
                             involves=[card(name), card(wanted_card), CUT_IN])
    if top is None or top.player == player.name:
        _note_in_play_not_cut_in(context, state, other(player.name))
        last = "nothing was just played or applied" if top is None else f"the last Action was {player.name}'s own"
        context.note("zb.negating.already-active", "Negating applies only to what is already active: nothing is negated in advance",
                     involves=[card(name), CUT_IN])
        raise context.reject("nothing-to-negate", f"{name}'s cut-in effect: {last}", "zb.cut-in.respond", involves=[card(name), CUT_IN])
    if wanted_card is not None and wanted_card != top.card:
        raise context.reject("nothing-to-negate", f"{wanted_card} is not what {top.player} just played or applied ({top.card} is)",
                             "zb.glossary.just-played", involves=[card(name), card(wanted_card), CUT_IN])
    context.note("zb.cut-in.respond", f"{player.name} answers {top.player}'s Action ({top.card}) with {name}'s cut-in effect",
                 involves=[card(name), card(top.card), CUT_IN])
    applied = top.effect
    wanted = set(effect.negates)
    if not wanted & applied.classes:
        if effect.also:
            context.note("zb.qa.q12", f"{name}'s effect cannot be applied only for its other part: nothing it negates is there",
                         involves=[card(name), card(top.card)])
        raise context.reject("cannot-negate-that", f"{name}'s cut-in effect negates {', '.join(sorted(wanted)) or 'nothing'}; "
                             f"{top.card} is {', '.join(sorted(applied.classes))}",
                             NO_BATTLE_NEGATION if "no-battle" in applied.classes else "zb.cut-in.specified",
                             involves=[card(name), card(top.card), CUT_IN])
    context.note("zb.cut-in.specified", f"{name}'s cut-in effect negates {', '.join(sorted(wanted & applied.classes))}: "
                 f"{top.card} is one", involves=[card(name), card(top.card)])
    for zone in ("stay", "standby"):
        if zone in applied.classes:
            _check_kept_cut_in(context, zone, name, top.card, zone in wanted)
    if any(e.passes_prohibitions for e in applied.effects):
        context.note("zb.even-prohibited.negatable", f"{top.card} can be applied even when prohibited, but a cut-in effect can "
                     "negate it", involves=[card(name), card(top.card)])
    if "battle" in applied.classes:
        if not effect.is_battle_effect:
            raise context.reject("cannot-negate-that", f"{top.card}'s effect is a Battle effect: only a cut-in effect that is also a "
                                 "Battle effect negates it", "zb.battle-effects.cut-in", involves=[card(name), card(top.card)])
        context.note("zb.battle-effects.cut-in", f"{name}'s cut-in effect is also a Battle effect", involves=[card(name)])
    if "cut-in" in applied.classes:
        context.note("zb.cut-in.chain", f"{name}'s cut-in effect negates {top.card}'s cut-in effect", involves=[card(name), CUT_IN])
    if applied.cannot_be_negated:
        raise context.reject("cannot-be-negated", f"{top.card}'s effect cannot be negated", "zb.cannot-be-negated.by-effects",
                             involves=[card(top.card), card(name)])


def _note_targets_kept(context: Context, zone: str, name: str, target: str) -> None:
    label = f"[{zone.upper()}]"
    context.note(f"zb.{zone}.only-targeting", f"{name}'s effect targets {label} effects: it may negate {target}'s",
                 involves=[card(name), card(target), STAY if zone == "stay" else STANDBY])
    context.note(f"zb.glossary.{zone}-negation", f"{name}'s effect specifies the ability to negate {label} effects",
                 involves=[card(name), card(target)])


def _note_in_play_not_cut_in(context: Context, state: State, opponent: str) -> None:
    for source in state.players[opponent].in_play_cards():
        if any(e.tag == "in-play" for e in state.card(source).effects):
            context.note("zb.in-play.no-cut-in", f"{source}'s [IN PLAY] effect is not applied: a cut-in effect cannot negate it",
                         involves=[card(source), CUT_IN])
            context.note("zb.cut-in.not-in-play-standby", "[IN PLAY] effects cannot be negated by cut-in effects",
                         involves=[card(source), CUT_IN])


def _check_kept_cut_in(context: Context, zone: str, name: str, target: str, targets_zone: bool) -> None:
    """Right after a [STAY] or [STANDBY] effect is applied a cut-in effect may negate it; one that names no such effects may not."""
    label = f"[{zone.upper()}]"
    context.note(f"zb.{zone}.cannot-negate-resolved", f"{target}'s {label} effect was just applied: a cut-in effect may negate it",
                 involves=[card(name), card(target), STAY if zone == "stay" else STANDBY])
    if targets_zone:
        _note_targets_kept(context, zone, name, target)
        return
    if context.read(KEPT_CUT_IN_SCOPE, "targeting-only"):
        raise context.reject("cannot-negate-that", f"{name}'s cut-in effect does not target {label} effects: it cannot negate "
                             f"{target}'s", KEPT_CUT_IN_SCOPE, involves=[card(name), card(target)])
    context.note(KEPT_CUT_IN_SCOPE, f"{name}'s cut-in effect covers {target}'s {label} effect just applied, naming no {label} effects",
                 involves=[card(name), card(target)])


# === "Negating" & "Prohibiting" =====================================================================


@vocabulary.effect("prohibit", '"Cannot": until the END PHASE (or as a [STAY] effect), the opponent (or its owner) cannot apply what '
                   "'negates' lists (effect, event, no-battle, stay, standby, in-play), or only the effects of 'target'.",
                   params=_effect_params(target=ref("card-name")))
def prohibit(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].kept.append(Kept(owner=owner, source=source, effect=effect, zone="turn"))
    _note_prohibition(context, state, owner, source, effect)


def _note_prohibition(context: Context, state: State, owner: str, source: str, effect: Effect) -> None:
    victim = _whom(effect, owner)
    what = ", ".join(effect.negates) + (f" of {effect.target}" if effect.target else "")
    context.note("zb.cannot.in-advance", f"{source}: {victim} cannot apply {what} from now on; what is already active stays",
                 involves=[card(source), CANNOT])
    context.note("zb.glossary.cannot", f"{source}'s \"Cannot\" effect is applied in advance; it negates nothing already resolved",
                 involves=[card(source), CANNOT])


@vocabulary.effect("make-unnegatable", "Its owner's effects of the kinds 'negates' lists (stay, standby, effect) cannot be negated "
                   "this turn.", params=_effect_params())
def make_unnegatable(context: Context, state: State, owner: str, source: str, effect: Effect, action: Mapping[str, Any]) -> None:
    state.players[owner].unnegatable |= set(effect.negates)
    context.note("zb.cannot-be-negated.by-effects", f"{source}: {owner}'s {', '.join(effect.negates)} effects cannot be negated this turn",
                 involves=[card(source)])


def _prohibition(state: State, player: str, source: str, classes: frozenset[str]) -> Kept | None:
    """The "Cannot" effect that prohibits ``player`` from applying ``source``'s card or effect of these classes, if any (a kept
    one, or an [IN PLAY] one of the other player's in-play cards)."""
    prohibitor = state.players[other(player)]
    in_play = [Kept(owner=prohibitor.name, source=name, effect=e, zone="in-play") for name in prohibitor.in_play_cards()
               for e in state.card(name).effects if e.tag == "in-play" and e.kind == "prohibit"]
    for kept in _kept(state) + in_play:
        effect = kept.effect
        if effect.kind != "prohibit" or kept.zone == "standby" or _whom(effect, kept.owner) != player:
            continue
        if set(effect.negates) & classes and effect.target in (None, source) and effect.of_type in (None, state.card(source).type):
            return kept
    return None


def _check_prohibited(context: Context, state: State, player: str, source: str, effect: Effect | None, classes: frozenset[str]) -> None:
    kept = _prohibition(state, player, source, classes)
    if kept is None:
        return
    if effect is not None and effect.passes_prohibitions:
        if effect.regardless_of_card_effects:
            context.note("zb.even-prohibited.regardless", f"{source}'s effect applies \"regardless of card effects\": the same as "
                         "\"... even when prohibited to do so\"", involves=[card(source)])
        if kept.zone == "stay" or context.read(EVEN_PROHIBITED_SCOPE, "any-prohibition"):
            context.note(EVEN_PROHIBITED_SCOPE if kept.zone != "stay" else "zb.glossary.even-prohibited",
                         f"{source}'s effect can be applied even when prohibited ({kept.source})",
                         involves=[card(source), card(kept.source), CANNOT])
            return
        context.note(EVEN_PROHIBITED_SCOPE, f"{kept.source}'s prohibition is no [STAY] effect: {source}'s effect does not pass it",
                     involves=[card(source), card(kept.source)])
    if "stay" in classes and "stay" in state.players[player].unnegatable:
        context.note("zb.cannot-be-negated.stay-prohibited", f"{player}'s [STAY] effects cannot be negated, but that does not let "
                     f"{source}'s [STAY] effect be applied", involves=[card(source), STAY])
    context.note("zb.cannot.prevents", f"{kept.source}'s \"Cannot\" effect prevents {source}'s from being applied",
                 involves=[card(source), card(kept.source), CANNOT])
    raise context.reject("prohibited", f"{kept.source}'s effect: {player} cannot apply {source}'s "
                         f"{'/'.join(sorted(classes))}", "zb.cannot.prevents", involves=[card(source), card(kept.source), CANNOT])


def _negated_by_in_play(context: Context, state: State, player: str, name: str, effects: tuple[Effect, ...],
                        classes: frozenset[str]) -> bool:
    """An opponent's [IN PLAY] effect that negates such a card as it is played (one that "cannot be negated": the switches)."""
    opponent = state.players[other(player)]
    for source in opponent.in_play_cards():
        if not any(e.tag == "in-play" and e.kind == "negate" and set(e.negates) & classes for e in state.card(source).effects):
            continue
        if not _in_play_active(context, state, opponent.name, source):
            continue
        _note_in_play_active(context, source)
        if any(_unnegatable(state, player, e, classes) for e in effects) and not _in_play_negates_unnegatable(context, source, name):
            return False
        context.note("zb.in-play.timing", f"{source}'s [IN PLAY] effect resolves as {name} is played: {name} is negated; its cost "
                     "stays paid", involves=[card(source), card(name)])
        state.log.append(f"{source}: negate {name}")
        return True
    return False


def _in_play_negates_unnegatable(context: Context, source: str, name: str) -> bool:
    if context.read(CANNOT_BE_NEGATED_IN_PLAY, "prevails-over-in-play"):
        context.note(CANNOT_BE_NEGATED_IN_PLAY, f"{name} cannot be negated: it prevails over {source}'s [IN PLAY] effect",
                     involves=[card(source), card(name)])
        return False
    context.note(CANNOT_BE_NEGATED_IN_PLAY, "\"Capable of negating [IN PLAY] effects\" adds nothing under \"Cannot be negated\"",
                 involves=[card(source), card(name)])
    if context.read(CANNOT_BE_NEGATED_SCOPE, "nothing-negates"):
        context.note(CANNOT_BE_NEGATED_SCOPE, f"{name} cannot be negated: {source}'s [IN PLAY] effect does not negate it",
                     involves=[card(source), card(name)])
        context.note("zb.cannot-be-negated.by-effects", f"{name} cannot be negated by a cut-in effect or other effects",
                     involves=[card(name)])
        return False
    context.note(CANNOT_BE_NEGATED_SCOPE, f"{source}'s [IN PLAY] effect is neither a Battle effect nor a cut-in effect: it negates "
                 f"{name}", involves=[card(source), card(name)])
    return True


def _in_play_active(context: Context, state: State, owner: str, source: str) -> bool:
    """[IN PLAY] effects stay active when applying effects is prohibited; a "Cannot" that names [IN PLAY] effects may stop them."""
    named = _prohibition(state, owner, source, frozenset({"in-play"}))
    general = _prohibition(state, owner, source, frozenset({"effect"}))
    if named is None and general is None:
        return True
    stops = (named is not None and context.read(CANNOT_IN_PLAY, "named-only")) or context.read(CANNOT_IN_PLAY, "cannot-negates-in-play")
    kept = named or general
    assert kept is not None
    if stops:
        context.note(CANNOT_IN_PLAY, f"{kept.source}'s \"Cannot\" effect negates {source}'s [IN PLAY] effect",
                     involves=[card(source), card(kept.source), CANNOT])
        return False
    context.note(CANNOT_IN_PLAY, f"{source}'s [IN PLAY] effect stays active under {kept.source}'s \"Cannot\" effect",
                 involves=[card(source), card(kept.source)])
    context.note("zb.in-play.even-prohibited", f"{source}'s [IN PLAY] effect is active even when it is prohibited",
                 involves=[card(source), CANNOT])
    return True


# === What an action finishes first, and the end of a scenario =====================================


def before_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """A Battle waiting for its resolution resolves, and an END PHASE waiting for its choices runs, with no choices."""
    if action["action"] == "redo-coins":
        return
    if not _is_cut_in(state, action):
        state.coin_toss, state.coin_redo = None, None
    name = action.get("card") or action.get("spell") or action.get("effect_of")
    current = (action["player"], name) if action.get("player") and name else None
    state.previous_action, state.current_action = state.current_action, current
    if not _is_cut_in(state, action):
        if state.loser is None:
            _note_no_interruption(context, state, action)
        if state.stack:
            _close_cut_in(context, state)
    if state.loser is not None:
        return
    if state.step == "compare-total-power" and action["action"] != "resolve":
        context.advance(state, "battle-out", {})
    if state.end_pending and action["action"] != "end-phase":
        _run_end_phase(context, state, {})


INTERRUPTIONS = {"lose-mp": "zb.interruption.no-mp-reduction", "turn-pages": "zb.interruption.no-page-turning"}


def _note_no_interruption(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """The opponent's Action right after a card played or an effect applied, no cut-in effect, comes after it has resolved."""
    previous = state.previous_action
    if previous is None or action["action"] == "pass" or action.get("player") in (None, previous[0]):
        return
    before = previous[1]
    context.note("zb.interruption.prohibit-or-cut-in", f"{before} has resolved: interfering with it needed a prohibition or a "
                 "cut-in effect", involves=[card(before), CUT_IN])
    effects = state.card(action["card"]).effects if action["action"] == "apply-effect" and action["card"] in state.cards else ()
    index = action.get("effect", 0)
    ruling = INTERRUPTIONS.get(effects[index].kind) if index < len(effects) else None
    if ruling is not None:
        context.note("zb.interruption.terminated", "The \"effect interruption\" rule was terminated", involves=[card(before)])
        context.note(ruling, f"{action['card']}'s effect cannot interrupt {before}: it comes after {before} has resolved",
                     involves=[card(action["card"]), card(before)])


def _is_cut_in(state: State, action: Mapping[str, Any]) -> bool:
    if action["action"] != "apply-effect" or action["card"] not in state.cards:
        return False
    effects = state.card(action["card"]).effects
    index = action.get("effect", 0)
    return index < len(effects) and effects[index].is_cut_in


def settle(context: Context, state: State) -> None:
    before_action(context, state, {"action": "settle"})
