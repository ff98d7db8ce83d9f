"""What the sections of the rules share: the registries (the procedure's steps, the vocabulary and its reject
reasons), the effect families, the switches of the ambiguous rulings, the parameters of effect kinds, and how an
action's names are looked up: a monster, a card in the hand, the monster a card is for, the Breeder whose turn it
is; the battle set up.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.errors import InputError
from checker.engine.game import Context
from checker.games.monster_rancher_bc2.state import Breeder, Card, Monster, State, Status, StatusDef, books, build_state, lookup
from checker.engine.procedure import StepHandlers
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary

steps: StepHandlers[State] = StepHandlers()
vocabulary = Vocabulary()
vocabulary.reasons(
    game_over="A Breeder has lost: the battle is over.",
    not_your_turn="It is the other Breeder's turn.",
    monster_ko="The monster is KO'd.",
    card_not_in_hand="The card is not in the Breeder's hand.",
    wrong_user="The card is another monster's card, or a monster's card played with no monster named.",
    ensnare="Ensnare: a monster may not use an SPE card.",
    missing_status="The move needs its user to have a status it does not have.",
    cannot_attack="A status stops the monster from attacking.",
    already_attacked="The monster is Exhausted: it has already attacked.",
    invalid_target="The monster cannot be chosen: KO'd as a target, or not KO'd for a revival.",
    taunt_forbids_target="A taunt (Enchant, In Your Face) forbids damaging that monster.",
    taunt_requires_target="A taunt (Provoke) requires the move to damage that monster too.",
    env_forbids_final_damage="The ENV card in play forbids this Final Damage.",
    not_enough_guts="The Breeder has too few GUTS to pay the cost.",
    split_does_not_match="A distributable move's split does not add up to its Final Damage.",
    no_attack_to_defend="There is no attack in its Defense Step.",
    defense_step_over="The attack's Defense Step is over: its damage has been dealt.",
    own_attack="A Breeder cannot defend against its own attack.",
    not_affected="A monster the attack does not affect cannot respond with a Defense Card.",
    insufficient_cards="Too few cards in the hand or the discard pile for the card's effect.",
)
ATTACK_STEP = "attack-step"
DEFENSE_STEP = "defense-step"
SKILL = "skill-effect"
DEFENSE = "defense-effect"
ON_DAMAGE = "on-damage-effect"

# Ambiguous rulings: each is a named switch; the readings are in rulings.yaml.
UNAFFECTED_REDIRECTION = "mr.amb.unaffected-monster-redirects"
ON_DAMAGE_AFTER_REDIRECT = "mr.amb.on-damage-effects-after-redirect"
HIDDEN_STATUS_ON_REVIVAL = "mr.amb.hidden-status-on-revival"
LAST_TRUMP_RETURNED_CARD = "mr.amb.last-trump-returned-card"


# --- Looking things up in an action -----------------------------------------------------------


def monster_of(state: State, player: str, name: str, path: tuple[str | int, ...]) -> Monster:
    breeder = state.breeder(player)
    monster = breeder.monster(name)
    if monster is None:
        names = [m.name for m in breeder.monsters]
        raise InputError(
            f"side {player} has no monster named {name!r}",
            path=path,
            expected=f"a monster of side {player}: " + ", ".join(names),
        )
    return monster


def card_of(state: State, name: str, path: tuple[str | int, ...], kind: str | None = None) -> Card:
    card: Card = lookup(state.cards, name, "card", path)
    if kind is not None and card.kind != kind:
        raise InputError(
            f"{name!r} is a {card.kind} card, not usable with this action",
            path=path,
            expected=f"a {kind} card",
        )
    return card


def require_in_hand(context: Context, breeder: Breeder, names: list[str]) -> None:
    hand = list(breeder.hand)
    for name in names:
        if name not in hand:
            raise context.reject("card-not-in-hand", f"{name} is not in {breeder.player}'s hand", hand=breeder.hand)
        hand.remove(name)


def spend_cards(breeder: Breeder, names: list[str]) -> None:
    for name in names:
        breeder.hand.remove(name)
        breeder.discard.append(name)


def check_user(context: Context, state: State, player: str, monster: Monster | None, card: Card) -> None:
    """The card's user must match, and Ensnare forbids SPE cards used by a monster."""
    if card.user == "breeder":
        pass
    elif monster is None:
        raise context.reject("wrong-user", f"{card.name} is used by a monster: name the monster using it")
    elif card.user not in ("any", monster.species):
        raise context.reject("wrong-user", f"{card.name} is {card.user}'s card; {monster.name} cannot use it")
    ensnared = any(s.definition.monster_spe_forbidden for s in state.breeder(player).statuses)
    if ensnared and card.type == "SPE":
        if card.user == "breeder":
            context.note(
                "mr.card.ensnare-breeder", f"Ensnare allows {card.name}: a Breeder SPE card",
                involves=[card_entity(card), mechanic("Ensnare"), mechanic("SPE")],
            )
        else:
            raise context.reject(
                "ensnare",
                f"Ensnare: {card.name} is an SPE card used by a monster, which is not allowed",
                "mr.card.ensnare-monster-spe",
                involves=[card_entity(card), mechanic("Ensnare"), mechanic("SPE")],
            )


def turn_player(context: Context, state: State, action: Mapping[str, Any]) -> Breeder:
    """The Breeder acting, who must be the one whose turn it is."""
    if action["player"] != state.active:
        raise context.reject("not-your-turn", f"it is {state.active}'s turn")
    return state.breeder(action["player"])


def card_entity(card: Card) -> Entity:
    return ("ENV" if card.kind == "env" else "card", card.name)


def monster_entity(monster: Monster) -> Entity:
    return ("monster", monster.species)


def status_entity(name: str) -> Entity:
    return ("status", name)


def grant(target: Monster | Breeder, definition: StatusDef, turns: int | None, source: str) -> None:
    target.statuses = [s for s in target.statuses if s.name != definition.name]
    target.statuses.append(Status(definition, turns, source))


def setup(context: Context, initial: Mapping[str, Any], cards: Mapping[str, Any], book: Mapping[str, Any]) -> State:
    """The battle as the scenario sets it, with the catalogue's cards and statuses and the scenario's own."""
    card_book, status_book = books(book, cards)
    return build_state(initial, card_book, status_book)


def game_on(context: Context, state: State) -> None:
    if state.loser is not None:
        raise context.reject("game-over", f"{state.loser} has already lost")


def users_of(state: State, player: str, status: str, to: tuple[str, ...]) -> list[Monster]:
    """The monsters of ``player`` whose own cards grant ``status`` to ``to`` (allies, the Breeder)."""
    species = {
        card.user for card in (state.cards[name] for name in state.cards) for effect in card.effects
        if effect.kind == "grant-status" and effect.status == status and effect.to in to
    }
    return [m for m in state.breeder(player).monsters if m.species in species]


def _kept_while_user_ko(context: Context, state: State, holder: Monster, status: Status) -> None:
    """A status granted not on its user (Zilla's In Your Face) keeps working while the user remains KO'd."""
    users = [m for m in users_of(state, holder.player, status.name, ("allies", "own-monster")) if m is not holder]
    if not users or not all(m.ko for m in users):
        return
    names = ", ".join(m.name for m in users)
    involves = [monster_entity(holder), *map(monster_entity, users), status_entity(status.name), mechanic("KO")]
    context.note(
        "mr.status.not-on-user",
        f"{status.name} is {holder.name}'s status, not its user's: it keeps its effect while {names} remains KO'd",
        involves=involves,
    )
    if status.definition.taunt == "cannot-damage":
        context.note(
            "mr.taunt.in-your-face-after-ko",
            f"{names} is KO'd, yet {holder.name} is still under {status.name}: the opponent still cannot damage it",
            involves=[*involves, mechanic("taunt")],
        )


def breeder_status_kept(context: Context, state: State, breeder: Breeder, status: Status) -> None:
    """A status affecting the Breeder (Durahan's Meditate) keeps working while its user remains KO'd."""
    users = users_of(state, breeder.player, status.name, ("breeder",))
    if users and all(m.ko for m in users):
        context.note(
            "mr.status.affecting-breeder",
            f"{status.name} affects Breeder {breeder.player}: it keeps working while "
            f"{', '.join(m.name for m in users)} remains KO'd",
            involves=[*map(monster_entity, users), status_entity(status.name), mechanic("KO"), mechanic("Breeder")],
        )
