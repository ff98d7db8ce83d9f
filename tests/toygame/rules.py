"""Spark Duel, as ``rules.md`` states it, section by section.

The duel stands at one step of ``procedure.yaml``, which declares the actions each step
allows and, at the responses, the priority rule: what else is taken there is refused by the
core. The ``spark`` action runs the attacker's or the defender's step; after the defender's
Spark the duel stands at the response window, where ``respond`` puts a Shield or a Break on
the response stack; when both players ``pass`` (the core keeps who has passed since the last
response), play moves on: the stack resolves and the round is compared, and the procedure's
loop brings the duel back to the next round.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.procedure import StepHandlers
from checker.engine.stack import Link, ResponseStack
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary, ref

from .state import PLAYERS, State, build_state, observe, other, spark_value

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    hand_too_large="A hand holds at most 3 cards.",
    not_your_spark="It is the other player's Spark to play.",
    not_a_spark="Only a Spark may be played as a round's Spark.",
    not_in_hand="The card is not in the player's hand.",
    not_a_response="Only a Shield or a Break may respond.",
    wrong_responder="The defender responds with a Shield, the attacker with a Break.",
    no_responses_now="Responses are played only after the defender's Spark.",
    duel_over="A player has no life left: the duel is over.",
)
EQUAL_SPARKS = "toy.amb.equal-sparks"
HAND_LIMIT = 3
__all__ = ["steps", "vocabulary", "setup", "observe"]


def card(name: str) -> Entity:
    return ("card", name)


# === 1. Preparation ==============================================================================


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    state = build_state(initial)
    context.walk(state, "preparation")
    return state


@steps("check-hands")
def check_hands(context: Context, state: State, action: Mapping[str, Any]) -> None:
    for name in PLAYERS:
        player = state.players[name]
        if len(player.hand) > HAND_LIMIT:
            raise context.reject("hand-too-large", f"{name} holds {len(player.hand)} cards; a hand holds at most {HAND_LIMIT}",
                                 "toy.prep.hand-limit", involves=[mechanic("hand")], cards=len(player.hand))
        context.note("toy.prep.life", f"{name} starts with {player.life} life and {len(player.hand)} cards",
                     involves=[mechanic("hand")], life=player.life)
    context.note("toy.prep.cards", "Every card is a Spark 1 to 9, a Shield or a Break", involves=[mechanic("hand")])


# === 2. A round ==================================================================================


@vocabulary.action("spark", "Play a Spark face up: the attacker first, then the defender.",
                   params={"player": ref("player"), "card": ref("card-name")}, required=["player", "card"])
def spark(context: Context, state: State, action: Mapping[str, Any]) -> None:
    if not state.sparks:  # a round's first Spark is the attacker's
        context.advance(state, "attacker-spark", action)
        return
    context.advance(state, "defender-spark", action)
    context.advance(state, "responses")


def _play_spark(context: Context, state: State, action: Mapping[str, Any], player: str) -> None:
    name, played = action["player"], action["card"]
    if name != player:
        raise context.reject("not-your-spark", f"{player} plays the next Spark", "toy.round.sparks")
    if spark_value(played) is None:
        raise context.reject("not-a-spark", f"{played} is not a Spark", "toy.prep.cards", involves=[card(played)])
    _take(context, state, name, played)
    state.sparks[name] = int(played)
    role = "attacker" if name == state.attacker else "defender"
    context.note("toy.round.sparks", f"The {role} {name} plays Spark {played}", involves=[card(played)], spark=int(played))


@steps("attacker-spark")
def attacker_spark(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _play_spark(context, state, action, state.attacker)


@steps("defender-spark")
def defender_spark(context: Context, state: State, action: Mapping[str, Any]) -> None:
    _play_spark(context, state, action, state.defender)


@steps("responses")
def open_responses(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("toy.round.responses", "The players may respond: the defender with a Shield, the attacker with a Break",
                 involves=[mechanic("response")])


@vocabulary.action("respond", "Play a Shield (the defender) or a Break (the attacker) on the response stack.",
                   params={"player": ref("player"), "card": ref("card-name")}, required=["player", "card"])
def respond(context: Context, state: State, action: Mapping[str, Any]) -> None:
    name, played = action["player"], action["card"]
    context.check_window(state, [played.lower()], name=played, involves=[card(played)])
    if (played == "Shield") != (name == state.defender):
        raise context.reject("wrong-responder", f"{name} cannot respond with a {played}", "toy.round.responses",
                             involves=[card(played)])
    context.take_turn(state, name)  # a new response: the passes before it no longer count
    _take(context, state, name, played)
    state.responses = state.responses.push(Link(name, played, played.lower()))
    context.note("toy.round.responses", f"{name} responds with a {played} (response {len(state.responses)})",
                 involves=[card(played), mechanic("response")])


@vocabulary.action("pass", "Pass: when both players pass in turn, the responses resolve and the round is compared.",
                   params={"player": ref("player")}, required=["player"])
def pass_(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.pass_turn(state, action["player"])  # both passed since the last response: play moves on to the round's end


@steps.condition("responses-played")
def responses_played(state: State) -> bool:
    return bool(state.responses)


@steps("resolve-responses")
def resolve_responses(context: Context, state: State, action: Mapping[str, Any]) -> None:
    context.note("toy.round.resolve", "Both players passed: the responses resolve, the last played first",
                 involves=[mechanic("response")])

    def resolve(number: int, link: Link[str], below: ResponseStack[str]) -> ResponseStack[str]:
        handler = vocabulary.effect_handler("effect", link.effect)
        return handler(context, state, number, below)

    state.responses = state.responses.resolve(context, resolve)


@vocabulary.effect("shield", "The defender's loss this round is halved, rounding down.")
def shield(context: Context, state: State, number: int, below: ResponseStack[str]) -> ResponseStack[str]:
    state.shielded = True
    context.note("toy.compare.shield", "The Shield resolves: the defender's loss this round is halved",
                 involves=[card("Shield")])
    return below


@vocabulary.effect("break", "Negates the Shield below it.")
def break_(context: Context, state: State, number: int, below: ResponseStack[str]) -> ResponseStack[str]:
    if below.top is None or below.top.effect != "shield":
        context.note("toy.round.break-negates", "The Break has no Shield below it to negate", involves=[card("Break")])
        return below
    context.note("toy.round.break-negates", f"The Break negates the Shield below it (response {len(below)})",
                 involves=[card("Break"), card("Shield")])
    return below.negate(len(below))


# === 3. Comparing ================================================================================


@steps("compare")
def compare(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack, defence = state.sparks[state.attacker], state.sparks[state.defender]
    sparks = [mechanic("Spark")]
    if attack == defence:
        if context.read(EQUAL_SPARKS, "draw"):
            context.note(EQUAL_SPARKS, f"Equal Sparks ({attack}): the round is a draw", involves=sparks)
            return
        for name in PLAYERS:
            _lose(context, state, name, 1, EQUAL_SPARKS, f"Equal Sparks ({attack}): {name} loses 1 life")
        return
    winner, loser = (state.attacker, state.defender) if attack > defence else (state.defender, state.attacker)
    loss = abs(attack - defence)
    text = f"Spark {max(attack, defence)} beats {min(attack, defence)}: {loser} loses {loss} life"
    if state.shielded and loser == state.defender:
        context.note("toy.compare.shield", f"Shielded: the loss {loss} is halved, rounding down, to {loss // 2}",
                     involves=[card("Shield")], loss=loss, halved=loss // 2)
        loss //= 2
    _lose(context, state, loser, loss, "toy.compare.higher-wins", text)


def _lose(context: Context, state: State, name: str, amount: int, ruling: str, text: str) -> None:
    player = state.players[name]
    before, player.life = player.life, max(0, player.life - amount)
    context.note(ruling, f"{text}: life {before} → {player.life}", involves=[mechanic("life")], life=player.life)


# === 4. End of the round =========================================================================


@steps("end-of-round")
def end_of_round(context: Context, state: State, action: Mapping[str, Any]) -> None:
    out = [name for name in PLAYERS if state.players[name].life == 0]
    if out:
        state.loser = out[0]
        context.note("toy.end.lose", f"{out[0]} has no life left and loses the duel", involves=[mechanic("life")])
        return
    state.attacker = other(state.attacker)
    state.sparks, state.shielded = {}, False
    context.note("toy.end.exchange", f"Roles exchange: {state.attacker} attacks in the next round",
                 involves=[mechanic("round")])


@steps.condition("both-have-life")
def both_have_life(state: State) -> bool:
    return state.loser is None


@steps.condition("a-player-has-no-life")
def duel_over(state: State) -> bool:
    return state.loser is not None


def _take(context: Context, state: State, name: str, played: str) -> None:
    hand = state.players[name].hand
    if played not in hand:
        raise context.reject("not-in-hand", f"{played} is not in {name}'s hand", involves=[card(played)], hand=list(hand))
    hand.remove(played)
