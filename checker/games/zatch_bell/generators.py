"""Random games of Zatch Bell! The Card Battle (Hypothesis strategies), for the property tests and the dispute finder.

What is drawn: which pages of each Spell Book hold which cards of a small pool (pages 2 and 3
hold SPELL cards of page 1's MAMODO, the other pages are blank), the coin toss, and the game turn
by turn: single Actions by either player (pages turned, cards put in play, EVENT cards, No Battle
SPELL cards, effects — cut-ins, [STAY] and [STANDBY] effects among them —, passes, END PHASE
choices), whole Battles of the Attacker (with or without a Defense, with or without a PROTECT),
and turn ends. Some Actions are refused, as a player's wrong move is; the
rest is a legal game. Everything shrinks towards a game of few turns and blank pages.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

PLAYERS = ("A", "B")
FIRST_MAMODO = {"A": "Zatch Bell", "B": "Brago"}
#: Pages 2 and 3, open after the PREPARATION PHASE, hold SPELL cards of page 1's MAMODO, so that Battles happen early.
FIRST_SPELLS = {"A": ("S-001 Zaker", "Ashi Zakeru"), "B": ("Reis", "Dioga Gravidon")}
CARDS: dict[str, dict[str, Any]] = {
    "Tio": {"type": "MAMODO", "number": "M-920", "power": 3000},
    "Kolulu": {"type": "MAMODO", "number": "M-930", "power": 1000,
               "effects": [{"kind": "gain-mp", "tag": "in-play", "timing": "end-phase", "amount": 1, "whose": "self"}]},
    "Megumi": {"type": "PARTNER", "number": "P-920", "mamodo": "Tio",
               "effects": [{"kind": "power", "tag": "mp", "mp": 1, "icons": ["battle"], "amount": 2000}]},
    "Kiyo Takamine": {"effects": [{"kind": "turn-pages", "tag": "declare", "amount": 1, "whose": "self"}]},
    "Gustav": {"type": "MJ12", "number": "MJ-905", "effects": [{"kind": "lose-mp", "tag": "discard", "amount": 2}]},
    "S-001 Zaker": {"power": 2000, "mp": 1, "damage": 1, "icons": ["attack", "defend"]},
    "Bao Zakeruga": {"mp": 4, "damage": 3},
    "Reis": {"type": "SPELL", "number": "S-940", "mamodo": "Brago", "power": 2000, "mp": 1, "damage": 2, "icons": ["attack", "defend"]},
    "Dioga Gravidon": {"mp": 4},
    "Ma Seshield": {"type": "SPELL", "number": "S-920", "mamodo": "Tio", "power": 4000, "mp": 2, "icons": ["defend"]},
    "Ashi Zakeru": {"type": "SPELL", "number": "S-003", "mamodo": "Zatch Bell", "power": 1000, "mp": 1, "damage": 1, "injure": 1,
                    "icons": ["attack"], "effects": [{"kind": "gain-mp", "timing": "on-damage", "amount": 1, "whose": "self"}]},
    "Happy Day": {"type": "EVENT", "number": "E-900", "mp": 1, "icons": ["attack", "defend"],
                  "effects": [{"kind": "gain-mp", "amount": 2, "whose": "self"}]},
    "Pep Talk": {"type": "EVENT", "number": "E-910", "mp": 1, "icons": ["defend"], "effects": [{"kind": "power", "amount": 1000}]},
    "Interceptor": {"type": "MJ12", "number": "MJ-990", "effects": [
        {"kind": "negate", "tag": "mp", "mp": 1, "icons": ["cut-in"], "negates": ["effect", "event", "no-battle", "cut-in", "stay"]}]},
    "Warden": {"type": "MJ12", "number": "MJ-991", "effects": [{"kind": "prohibit", "tag": "declare", "keep": "stay", "negates": ["event"]}]},
    "Schemer": {"type": "MJ12", "number": "MJ-992", "effects": [
        {"kind": "gain-mp", "tag": "declare", "whose": "self", "amount": 2, "keep": "standby", "until": "start-phase"}]},
    "Hush Zaker": {"type": "SPELL", "number": "S-991", "mamodo": "Zatch Bell", "mp": 1, "icons": ["attack", "no-battle"],
                   "effects": [{"kind": "lose-mp", "amount": 1}]},
    "Gravity Well": {"type": "SPELL", "number": "S-992", "mamodo": "Brago", "mp": 1, "icons": ["defend", "no-battle"],
                     "effects": [{"kind": "gain-mp", "whose": "self", "amount": 1}]},
}
POOL = ["Zatch Bell", "Brago", *CARDS]
MAMODO = ["Zatch Bell", "Brago", "Tio", "Kolulu"]
EVENTS = ["Happy Day", "Pep Talk"]
IN_PLAY = ["Tio", "Kolulu", "Megumi", "Kiyo Takamine", "Gustav", "Zatch Bell", "Brago", "Interceptor", "Warden", "Schemer"]
WITH_EFFECTS = ["Megumi", "Kiyo Takamine", "Gustav", "Interceptor", "Warden", "Schemer"]
NO_BATTLE = [("Zatch Bell", "Hush Zaker"), ("Brago", "Gravity Well")]

player = st.sampled_from(PLAYERS)
page = st.integers(4, 31)


def _valid(book: dict[int, str]) -> bool:
    named = list(book.values())
    return (all(named.count(card) <= 3 for card in set(named))
            and sum(1 for card in named if card in MAMODO) <= 7)


def book(name: str) -> st.SearchStrategy[dict[int, str]]:
    pages = st.dictionaries(page, st.sampled_from(POOL), max_size=14).filter(_valid)
    second, third = FIRST_SPELLS[name]
    return pages.map(lambda named: {1: FIRST_MAMODO[name], 2: second, 3: third, **named})


def _other(name: str) -> str:
    return "B" if name == "A" else "A"


def _battle(attacker: str, pairs: tuple[tuple[str, str], tuple[str, str]], defends: bool, protect: str | None) -> list[dict[str, Any]]:
    """A whole Battle as the players would play it: "Battle In", the Defender lets it through, Defends or not, both pass."""
    defender = _other(attacker)
    (mamodo, spell), (guard, shield) = pairs
    steps: list[dict[str, Any]] = [{"action": "battle-in", "player": attacker, "mamodo": mamodo, "spell": spell},
                                   {"action": "pass", "player": defender}]
    steps.append({"action": "defend", "player": defender, "mamodo": guard, "spell": shield} if defends
                 else {"action": "pass", "player": defender})
    steps += [{"action": "pass", "player": attacker}, {"action": "pass", "player": defender},
              {"action": "resolve", **({"protect": protect} if protect else {})}]
    return steps


single = st.one_of(
    st.builds(lambda p: {"action": "pass", "player": p}, player),
    st.builds(lambda p, n: {"action": "turn-pages", "player": p, "pages": n}, player, st.integers(0, 3)),
    st.builds(lambda p, c: {"action": "put-in-play", "player": p, "card": c}, player, st.sampled_from(IN_PLAY)),
    st.builds(lambda p, c: {"action": "play-event", "player": p, "card": c}, player, st.sampled_from(EVENTS)),
    st.builds(lambda p, c: {"action": "apply-effect", "player": p, "card": c}, player, st.sampled_from(WITH_EFFECTS)),
    st.builds(lambda p, pair: {"action": "play-no-battle", "player": p, "mamodo": pair[0], "spell": pair[1]},
              player, st.sampled_from(NO_BATTLE)),
    st.builds(lambda order: {"action": "end-phase", **({"order": order} if order else {})},
              st.lists(st.sampled_from(["Kolulu", "petrified-recovery"]), max_size=2, unique=True)),
)
#: The SPELL cards each player Attacks or Defends with, for page 1's MAMODO (and a few that will be refused).
PAIRS_OF = {"A": [("Zatch Bell", "S-001 Zaker"), ("Zatch Bell", "Ashi Zakeru"), ("Zatch Bell", "Bao Zakeruga"), ("Tio", "Ma Seshield")],
            "B": [("Brago", "Reis"), ("Brago", "Dioga Gravidon"), ("Kolulu", "Reis"), ("Tio", "Ma Seshield")]}


#: A game drawn mid-way starts in the BATTLE PHASE of turn 3 with these on pages 4-8 (open: 4 and 5), the MJ12 cards in play.
MID_GAME = {"A": {4: "Hush Zaker", 5: "Happy Day", 6: "Interceptor", 7: "Warden", 8: "Schemer"},
            "B": {4: "Gravity Well", 5: "Pep Talk", 6: "Interceptor", 7: "Warden", 8: "Schemer"}}


def _exchange(first: str, what: str, cut_ins: int) -> list[dict[str, Any]]:
    """An Action answered by cut-in effects, each player's in turn (most of them refused: the Interceptor is once per turn)."""
    played = {"apply-effect": {"action": "apply-effect", "player": first, "card": "Schemer"},
              "play-event": {"action": "play-event", "player": first, "card": "Happy Day" if first == "A" else "Pep Talk"},
              "play-no-battle": {"action": "play-no-battle", "player": first, "mamodo": NO_BATTLE[first == "B"][0],
                                 "spell": NO_BATTLE[first == "B"][1]}}[what]
    answers = [{"action": "apply-effect", "player": first if n % 2 else _other(first), "card": "Interceptor"} for n in range(cut_ins)]
    return [played, *answers]


@st.composite
def _mid_game(draw: st.DrawFn, name: str) -> dict[str, Any]:
    in_play = draw(st.lists(st.sampled_from(["Interceptor", "Warden", "Schemer"]), unique=True))
    named = draw(book(name))
    return {"book": {**named, **MID_GAME[name]}, "page": 4, "mp": draw(st.integers(0, 8)), "mj12": in_play}


@st.composite
def scenarios(draw: st.DrawFn, max_actions: int = 40) -> dict[str, Any]:
    """A game as the players would play it, turn by turn: single Actions, whole Battles of the Attacker, and turn ends;
    from the PREPARATION PHASE, or from a BATTLE PHASE with MJ12 cards in play (cut-ins, [STAY] and [STANDBY] effects)."""
    first = draw(player)
    if draw(st.booleans()):
        initial: dict[str, Any] = {"start": "battle-phase", "turn": 3, "first_attacker": first,
                                   "players": {name: draw(_mid_game(name)) for name in PLAYERS}}
        actions: list[dict[str, Any]] = []
    else:
        initial = {"first_attacker": first, "players": {"A": {"book": draw(book("A"))}, "B": {"book": draw(book("B"))}}}
        actions = [{"action": "turn-pages", "player": first, "pages": draw(st.integers(0, 1))}]
    attacker = first
    for _ in range(draw(st.integers(max_actions // 4, max_actions // 2))):
        kind = draw(st.sampled_from(["single", "battle", "turn", "exchange"]))
        defender = _other(attacker)
        if kind == "exchange":
            actions += _exchange(draw(player), draw(st.sampled_from(["apply-effect", "play-event", "play-no-battle"])),
                                 draw(st.integers(1, 3)))
        elif kind == "battle":
            pairs = (draw(st.sampled_from(PAIRS_OF[attacker])), draw(st.sampled_from(PAIRS_OF[defender])))
            actions += _battle(attacker, pairs, draw(st.booleans()), draw(st.sampled_from([None, *MAMODO])))
        elif kind == "turn":
            actions += [{"action": "pass", "player": attacker}, {"action": "pass", "player": defender}, {"action": "end-phase"},
                        {"action": "turn-pages", "player": defender, "pages": draw(st.integers(0, 3))}]
            attacker = defender
        else:
            actions.append(draw(single))
    return {"cards": CARDS, "initial": initial, "actions": actions}
