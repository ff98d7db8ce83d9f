"""General Mechanics: Life Points Loss / Reduction ("This is not considered damage"), Status That Persist Through
KO and Revival, and Hand/Deck/Discard Manipulation ("you generally need to have sufficient cards to play them"):
the skills, the ENV cards, drawing and the end of a turn.

The Rounding Golden Rule is ``halve`` (state.py) with the favoured side chosen where a card halves. Damage
Reduction, Taunts and Redirections are applied in the Attack and Defense Steps (``attack_step``, ``defense_step``).
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.described import takes
from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.monster_rancher_bc2.state import Breeder, Card, Effect, Monster, State, StatusDef, halve, opponent
from checker.engine.trace import mechanic
from checker.engine.vocabulary import ref

from .common import (
    HIDDEN_STATUS_ON_REVIVAL,
    LAST_TRUMP_RETURNED_CARD,
    SKILL,
    breeder_status_kept,
    card_entity,
    card_of,
    check_user,
    game_on,
    grant,
    monster_entity,
    monster_of,
    require_in_hand,
    status_entity,
    turn_player,
    vocabulary,
)
from .attack_step import pay_guts
from .defense_step import change_attribute, close_defense_step


def lose_lp(context: Context, monster: Monster, amount: int, card: Card) -> None:
    """Life Points loss is not damage: Doll does not stop it and 'ends if damaged' effects persist."""
    source, by = card.name, card_entity(card)
    before = monster.lp
    monster.lp = max(0, monster.lp - amount)
    context.note(
        "mr.lp-loss.not-damage", f"{source}: {monster.name} loses {amount} LP (not damage): {before} → {monster.lp}",
        lp=monster.lp, involves=[by, monster_entity(monster), mechanic("Life Points loss")],
    )
    if monster.has("damage_immune"):
        context.note(
            "mr.lp-loss.doll", f"Doll does not stop Life Points loss: {monster.name} still loses {amount}",
            involves=[by, status_entity("Doll"), mechanic("Life Points loss")],
        )
        context.note(
            "mr.card.doll-lp-loss", f"{monster.name}, under Doll, loses Life Points from {source}: not damage",
            involves=[by, monster_entity(monster), status_entity("Doll"), mechanic("Life Points loss")],
        )
    if monster.has("ends_if_damaged"):
        context.note(
            "mr.lp-loss.silent-stance", f"{monster.name}'s 'ends if damaged' status persists: this was not damage",
            involves=[by, *(status_entity(s.name) for s in monster.statuses if s.definition.ends_if_damaged),
                      mechanic("Life Points loss")],
        )


def draw(context: Context, state: State, player: str, amount: int, card: Card | None) -> None:
    """``card`` is the card whose effect draws; None for the Breeder's own draw."""
    source, by = (card.name, [card_entity(card)]) if card else ("draw", [])
    breeder = state.breeder(player)
    env = state.env_card()
    if env is not None and env.blocks_draw:
        context.note(None, f"{env.name} is in play: {player} cannot draw ({source})")
        return
    if amount > len(breeder.deck):
        state.loser = player
        context.note(
            "mr.cards.draw-insufficient-loses",
            f"{player} must draw {amount} with {len(breeder.deck)} in the deck: {player} loses at once",
            involves=[*by, mechanic("draw")],
        )
        return
    drawn, breeder.deck = breeder.deck[:amount], breeder.deck[amount:]
    breeder.hand += drawn
    context.note(None, f"{player} draws {', '.join(drawn)} ({source})", drawn=drawn)


@vocabulary.action(
    "skill", "Use a skill (no damage) or a Breeder card.",
    params={
        "player": ref("player"),
        "monster": {"type": "string", "description": "The monster using it (omit for Breeder cards)."},
        "card": {"type": "string"},
        "combo": ref("card-list"),
        "target": {"type": "string"},
        "choose_cards": {"$ref": "#/card-list", "description": "Cards chosen from the hand (to return, to discard)."},
        "shuffle": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "Result of a shuffle: the deck's new order as positions in the old deck plus the cards put in, "
                           "0 = old top card.",
        },
    },
    required=["player", "card"],
)
def use_skill(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    with context.involving(("card", action["card"]), *(("card", name) for name in action.get("combo", []))):
        _use_skill(context, state, action)


def _use_skill(context: Context, state: State, action: Mapping[str, Any]) -> None:
    breeder = turn_player(context, state, action)
    player = breeder.player
    card = card_of(state, action["card"], ("card",), "skill")
    combos = [card_of(state, name, ("combo", i)) for i, name in enumerate(action.get("combo", []))]
    user = monster_of(state, player, action["monster"], ("monster",)) if "monster" in action else None
    if user is not None and user.ko:
        raise context.reject("monster-ko", f"{user.name} is KO'd")
    require_in_hand(context, breeder, [card.name, *(c.name for c in combos)])
    for played in [card, *combos]:
        check_user(context, state, player, user, played)
    if card.type == "SPE":
        context.note(
            "mr.taunt.spe-unaffected", f"{card.name} is an SPE move and does no damage: taunts do not apply",
            involves=[mechanic("taunt"), mechanic("SPE")],
        )
    _check_requirements(context, breeder, card)
    pay_guts(context, breeder, [card, *combos])
    context.note(None, f"{player}{' ' + user.name if user else ''} uses {card.name}")
    for effect in card.effects:
        vocabulary.effect_handler(SKILL, effect.kind)(context, state, player, user, effect, action, [card, *combos])


def _check_requirements(context: Context, breeder: Breeder, card: Card) -> None:
    """Cards that move cards need enough of them; drawing is the exception (checked when drawing)."""
    others = len(breeder.hand) - 1  # the card itself leaves the hand
    needs = {
        "return-to-deck": ("cards in hand to return", others),
        "discard-from-hand": ("cards in hand to discard", others),
        "take-from-discard": ("cards in the discard pile", len(breeder.discard)),
    }
    for effect in card.effects:
        if effect.kind in needs:
            what, have = needs[effect.kind]
            if have < effect.amount:
                raise context.reject(
                    "insufficient-cards", f"{card.name} needs {effect.amount} {what}; {breeder.player} has {have}",
                    "mr.cards.sufficient", have=have, need=effect.amount, involves=[card_entity(card), mechanic("hand and deck")],
                )
            context.note(
                "mr.cards.sufficient", f"{card.name} needs {effect.amount} {what}: {have} available",
                involves=[card_entity(card), mechanic("hand and deck")],
            )


def _target(state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any]) -> list[Monster | Breeder]:
    if effect.to == "self":
        if user is None:
            raise InputError(f"{action['card']} acts on its user: name it with 'monster:'", expected="a 'monster:' key")
        return [user]
    if effect.to == "allies":
        return [m for m in state.breeder(player).monsters if m is not user]
    if effect.to == "breeder":
        return [state.breeder(player)]
    if effect.to == "opponent-breeder":
        return [state.breeder(opponent(player))]
    if "target" not in action:
        raise InputError(f"{action['card']} needs a target: name it with 'target:'", expected="a 'target:' key")
    side = player if effect.to == "own-monster" else opponent(player)
    return [monster_of(state, side, action["target"], ("target",))]


@vocabulary.effect("grant-status", "A monster or a Breeder ('to') gains a status.", family=SKILL,
                   params=takes(Effect, "status", "to", "turns"), required=["status"])
def skill_grant_status(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    definition = state.statuses[effect.status or ""]
    for target in _target(state, player, user, effect, action):
        grant(target, definition, effect.turns, action["card"])
        name = target.name if isinstance(target, Monster) else f"Breeder {target.player}"
        context.note(None, f"{name} gains {definition.name}" + (f" for {effect.turns} turn ends" if effect.turns else ""))
    if effect.to == "allies" and definition.taunt and user is not None and user.status(definition.name):
        _taunt_granted_twice(context, state, player, user, definition)


def _taunt_granted_twice(context: Context, state: State, player: str, user: Monster, definition: StatusDef) -> None:
    """Two In Your Face from different monsters: each user is among the other's allies, so each is covered."""
    covered = [m.name for m in state.breeder(player).monsters if m.status(definition.name)]
    context.note(
        "mr.taunt.two-in-your-face",
        f"{user.name} is already under another monster's {definition.name} and grants its own to its allies: "
        f"{', '.join(covered)} are under {definition.name}",
        involves=[monster_entity(user), status_entity(definition.name), mechanic("taunt")],
    )


@vocabulary.effect("lose-lp", "A monster ('to') loses 'amount' Life Points: not damage.", family=SKILL,
                   params=takes(Effect, "to", amount="Life Points."), required=["amount"])
def skill_lose_lp(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        lose_lp(context, target, effect.amount, state.cards[action["card"]])


@vocabulary.effect("halve-lp", "A monster's ('to') Life Points are halved (rounded in favour of the other Breeder).", family=SKILL,
                   params=takes(Effect, "to"))
def skill_halve_lp(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        before = target.lp
        # The player who played the card halves; the rounding favours the other player.
        target.lp = halve(target.lp, round_up=target.player != player)
        context.note("mr.rounding.golden-rule", f"{action['card']} halves {target.name}'s LP: {before} → {target.lp}"
                     + (" (KO)" if target.ko else ""), before=before, after=target.lp,
                     involves=[monster_entity(target), mechanic("rounding")])


@vocabulary.effect("draw", "Its Breeder draws 'amount' cards.", family=SKILL, params=takes(Effect, amount="How many cards."), required=["amount"])
def skill_draw(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    draw(context, state, player, effect.amount, state.cards[action["card"]])


def shuffle_in(context: Context, breeder: Breeder, cards: list[str], action: Mapping[str, Any]) -> None:
    """Put cards into the deck and shuffle; the scenario gives the shuffle's result (a chance event)."""
    pool = breeder.deck + cards
    order = action.get("shuffle")
    if order is None:
        raise InputError(
            f"{action['card']} shuffles the deck: give the result as 'shuffle:'",
            expected=f"a list ordering the deck's positions 0..{len(pool) - 1} (0 = the current top card)",
        )
    if sorted(order) != list(range(len(pool))):
        raise InputError(
            "'shuffle' is not an ordering of the deck's positions", path=("shuffle",),
            expected=f"each of 0..{len(pool) - 1} once (the deck plus the returned cards: {', '.join(pool)})",
        )
    breeder.deck = [pool[i] for i in order]
    context.note(None, f"{', '.join(cards)} shuffled into the deck: {', '.join(breeder.deck)}", deck=list(breeder.deck))


@vocabulary.effect("return-to-deck", "'amount' cards chosen from the hand are shuffled into the deck.", family=SKILL,
                   params=takes(Effect, amount="How many cards."), required=["amount"])
def skill_return_to_deck(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    breeder = state.breeder(player)
    chosen = list(action.get("choose_cards", []))
    if len(chosen) < effect.amount and len(breeder.hand) < effect.amount:
        returned = _combo_card_returned(context, breeder, played, effect.amount)
    else:
        if len(chosen) != effect.amount:
            raise InputError(f"{action['card']} returns {effect.amount} card(s): list them in 'choose_cards'",
                             path=("choose_cards",), expected=f"{effect.amount} card name(s) from the hand")
        require_in_hand(context, breeder, chosen)
        for name in chosen:
            breeder.hand.remove(name)
        returned = chosen
    shuffle_in(context, breeder, returned, action)


def _combo_card_returned(context: Context, breeder: Breeder, played: list[Card], amount: int) -> list[str]:
    """Last Trump with its combo partner as the last cards: the game still shuffles a card in."""
    context.note(
        "mr.cards.trivia-last-trump-joy", "The hand is empty, yet the combo is allowed (the game's inconsistent behavior)",
        involves=[*map(card_entity, played), mechanic("hand and deck")],
    )
    combo_card = context.read(LAST_TRUMP_RETURNED_CARD, "combo-card")
    card = played[1].name if combo_card and len(played) > 1 else played[0].name
    breeder.discard.remove(card)
    return [card][:amount]


@vocabulary.effect("discard-from-hand", "'amount' cards chosen from the hand are discarded.", family=SKILL,
                   params=takes(Effect, amount="How many cards."), required=["amount"])
@vocabulary.effect("take-from-discard", "'amount' cards chosen from the discard pile go to the hand.", family=SKILL,
                   params=takes(Effect, amount="How many cards."), required=["amount"])
def skill_move_chosen(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    """Discard chosen cards from the hand, or take chosen cards from the discard pile."""
    breeder = state.breeder(player)
    chosen = list(action.get("choose_cards", []))
    source, target = (breeder.hand, breeder.discard) if effect.kind == "discard-from-hand" else (breeder.discard, breeder.hand)
    where = "hand" if effect.kind == "discard-from-hand" else "discard pile"
    if len(chosen) != effect.amount or any(chosen.count(c) > source.count(c) for c in chosen):
        raise InputError(
            f"{action['card']} moves {effect.amount} card(s) from the {where}: list them in 'choose_cards'",
            path=("choose_cards",), expected=f"{effect.amount} card name(s) from: {', '.join(source) or 'nothing'}",
        )
    for name in chosen:
        source.remove(name)
        target.append(name)
    context.note(None, f"{action['card']}: {', '.join(chosen)} moved from the {where}")


@vocabulary.effect("deck-to-guts", "Up to 'amount' cards from the top of the deck become GUTS.", family=SKILL,
                   params=takes(Effect, amount="How many cards."), required=["amount"])
def skill_deck_to_guts(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    breeder = state.breeder(player)
    count = min(effect.amount, len(breeder.deck))
    breeder.deck = breeder.deck[count:]
    breeder.guts += count
    context.note(
        "mr.cards.trivia-wild-rush",
        f"{action['card']}: {count} card(s) from the deck become GUTS (asked {effect.amount}, deck had {count + len(breeder.deck)})",
        converted=count, guts=breeder.guts, involves=[mechanic("GUTS"), mechanic("hand and deck")],
    )


@vocabulary.effect("revive", "A KO'd monster ('to') is revived with 'amount' Life Points.", family=SKILL,
                   params=takes(Effect, "to", amount="Life Points."), required=["amount"])
def skill_revive(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        if not target.ko:
            raise context.reject("invalid-target", f"{target.name} is not KO'd")
        target.lp = effect.amount
        context.note(None, f"{target.name} is revived with {effect.amount} LP")
        kept = [s.name for s in target.statuses]
        if kept:
            context.note(
                "mr.status.persist-ko", f"{target.name} keeps its statuses through KO and revival: {', '.join(kept)}",
                involves=[monster_entity(target), *map(status_entity, kept), mechanic("KO")],
            )
        if (target.player, target.name) not in state.ko_before_turn:
            _revived_same_turn(context, target)
        hidden = [s for s in target.statuses if s.definition.hidden]
        if hidden and context.read(HIDDEN_STATUS_ON_REVIVAL, "lost"):
            for status in hidden:
                target.statuses.remove(status)
            context.note(None, f"{', '.join(s.name for s in hidden)} lost on revival (no visible status)")


def _revived_same_turn(context: Context, monster: Monster) -> None:
    """Revived on the turn it was KO'd: it keeps Can't Attack, Exhausted, its taunts and Doll."""
    kept = [
        s.name for s in monster.statuses
        if s.definition.cannot_attack or s.definition.exhausted or s.definition.taunt or s.definition.damage_immune
    ]
    if kept:
        context.note(
            "mr.status.trivia-revived-same-turn",
            f"{monster.name} is revived on the turn it was KO'd and keeps {', '.join(kept)}",
            involves=[monster_entity(monster), *map(status_entity, kept), mechanic("revival")],
        )


@vocabulary.effect("change-attribute", "A monster ('to') changes attribute.", family=SKILL,
                   params=takes(Effect, "attribute", "to"), required=["attribute"])
def skill_change_attribute(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        change_attribute(context, state, target, effect.attribute or "", action["card"])


@vocabulary.action("env", "Play an ENV card; it replaces the ENV in play.",
                   params={"player": ref("player"), "card": {"type": "string"}}, required=["player", "card"])
def play_env(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    with context.involving(("ENV", action["card"])):
        _play_env(context, state, action)


def _play_env(context: Context, state: State, action: Mapping[str, Any]) -> None:
    breeder = turn_player(context, state, action)
    player = breeder.player
    card = card_of(state, action["card"], ("card",), "env")
    require_in_hand(context, breeder, [card.name])
    pay_guts(context, breeder, [card])
    replaced = state.env
    state.env = card.name
    context.note(None, f"{player} plays ENV {card.name}" + (f", replacing {replaced}" if replaced else ""))
    if not card.final_damage_add and card.forbid_at_most is None and card.forbid_at_least is None and not (
        card.freeze_attributes or card.blocks_draw or card.lp_loss_each_turn_end
    ):
        context.note(
            "mr.card.cool-judge-no-persist", f"{card.name} has no persisting effect: it only replaces the ENV",
            involves=[card_entity(card), *([("ENV", replaced)] if replaced else [])],
        )
    for effect in card.effects:
        if effect.kind == "draw":
            if replaced and state.cards[replaced].blocks_draw:
                context.note(
                    "mr.card.cool-judge-pray", f"{card.name}'s 'when played' draw is not blocked by {replaced}",
                    involves=[card_entity(card), ("ENV", replaced), mechanic("draw")],
                )
            draw(context, state, player, effect.amount, card)


@vocabulary.action("draw", "Draw cards from the deck (drawing with too few cards loses at once).",
                   params={"player": ref("player"), "amount": {"type": "integer", "minimum": 1}}, required=["player"])
def draw_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    draw(context, state, action["player"], action.get("amount", 1), None)


@vocabulary.action("end-turn", "End the turn: end-of-turn effects, statuses count down, the other Breeder plays.",
                   params={"player": ref("player")}, required=["player"])
def end_turn(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    player = turn_player(context, state, action).player
    env = state.env_card()
    if env is not None and env.lp_loss_each_turn_end:
        for monster in state.monsters():
            if not monster.ko:
                lose_lp(context, monster, env.lp_loss_each_turn_end, env)
    for status in state.breeder(player).statuses:
        if status.definition.guts_each_turn_end:
            breeder_status_kept(context, state, state.breeder(player), status)
            state.breeder(player).guts += status.definition.guts_each_turn_end
            context.note(None, f"{status.name}: {player} gains {status.definition.guts_each_turn_end} GUTS")
    holders: list[Monster | Breeder] = [*state.monsters(), *state.players.values()]
    for holder in holders:
        for status in list(holder.statuses):
            if status.turns is None:
                continue
            status.turns -= 1
            if status.turns <= 0:
                holder.statuses.remove(status)
                context.note(None, f"{status.name} on {getattr(holder, 'name', 'Breeder ' + holder.player)} expires")
        if isinstance(holder, Monster) and holder.ko and holder.statuses:
            context.note(
                "mr.status.persist-ko", f"{holder.name} is KO'd and keeps {', '.join(s.name for s in holder.statuses)}",
                involves=[monster_entity(holder), *(status_entity(s.name) for s in holder.statuses), mechanic("KO")],
            )
    state.active = opponent(player)
    state.turn += 1
    state.mark_ko_before_turn()
    context.note(None, f"{player} ends the turn; turn {state.turn}: {state.active} to play")


def before_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    """An action other than ``defend`` means the attacker has moved on: the Defense Step ends, for good."""
    if action["action"] != "defend" and state.pending is not None:
        close_defense_step(context, state)


def settle(context: Context, state: State) -> None:
    """The end of the scenario ends an open Defense Step."""
    if state.pending is not None:
        close_defense_step(context, state)
