"""Monster Rancher Battle Card Episode II, as the rules document states it.

Read beside ``monster-rancher-battle-card-2.md``: the sections below follow the
document's order (Damage Calculation: Attack Step, Defense Step; General
Mechanics: Rounding Golden Rule, Damage Reduction, Taunts, Redirections, Life
Points Loss, Status through KO, Hand/Deck/Discard; Clarification on Specific
Cards). Every trace line cites the ruling it applies.

An attack is walked through the procedure declared in ``procedure.yaml``: the
``attack`` action walks the Attack Step, each ``defend`` action runs the
repeating Defense Step step, and the rest of the Defense Step (damage is dealt)
is walked before the next other action, for good even if the rules refuse that
action (``before_action``), or at the end of the scenario (``settle``).
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.errors import InputError
from checker.game import Context
from checker.games.monster_rancher_bc2.state import (
    Attack,
    Breeder,
    Card,
    Effect,
    Hit,
    Monster,
    PendingAttack,
    Reduction,
    State,
    Status,
    StatusDef,
    books,
    build_state,
    halve,
    lookup,
    observe,
    opponent,
)
from checker.procedure import StepHandlers
from checker.trace import Entity, mechanic
from checker.vocabulary import Vocabulary, ref

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
__all__ = ["steps", "vocabulary", "setup", "observe", "before_action", "settle"]
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

# Parameters of effect kinds (what each kind reads of its effect).
TO = {"enum": ["self", "allies", "target", "own-monster", "breeder", "opponent-breeder"],
      "description": "Who the effect acts on (default: the monster using the card)."}
TURNS = {"type": "integer", "minimum": 1, "description": "Turn ends before the status expires (omit: until removed)."}
STATUS = {"type": "string", "description": "A status of the catalogue or of the scenario's 'cards:'."}
CARDS = {"type": "integer", "minimum": 0, "description": "How many cards."}
LP = {"type": "integer", "minimum": 0, "description": "Life Points."}


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


# === Damage Calculation ==========================================================================
# --- Commence your Attack Step. -------------------------------------------------------------


@vocabulary.action(
    "attack", "Use an attack move, combined with other cards (Attack Step).",
    params={
        "player": ref("player"),
        "monster": {"type": "string"},
        "card": {"type": "string"},
        "combo": ref("card-list"),
        "target": {"type": "string", "description": "Single-target moves: the monster declared now."},
        "split": {
            "type": "object",
            "description": "Distributable moves: damage per opposing monster, decided after the ENV check.",
            "additionalProperties": {"type": "integer", "minimum": 0},
        },
    },
    required=["player", "monster", "card"],
)
def attack_action(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    player = turn_player(context, state, action).player
    attacker = monster_of(state, player, action["monster"], ("monster",))
    card = card_of(state, action["card"], ("card",), "attack")
    combos = [card_of(state, name, ("combo", i), "combo") for i, name in enumerate(action.get("combo", []))]
    state.attack = Attack(player, attacker, card, combos)
    with context.involving(card_entity(card), *map(card_entity, combos), monster_entity(attacker)):
        context.walk(state, ATTACK_STEP, action)
    state.attack = None


def running(state: State) -> Attack:
    """The attack whose Attack Step is running."""
    assert state.attack is not None
    return state.attack


@steps("play-move")
def play_move(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    breeder = state.breeder(attack.player)
    if attack.attacker.ko:
        raise context.reject("monster-ko", f"{attack.attacker.name} is KO'd")
    require_in_hand(context, breeder, [attack.card.name, *(c.name for c in attack.combos)])
    for card in [attack.card, *attack.combos]:
        check_user(context, state, attack.player, attack.attacker, card)
    if attack.card.requires_status and not attack.attacker.status(attack.card.requires_status):
        raise context.reject(
            "missing-status", f"{attack.card.name} needs {attack.attacker.name} to have {attack.card.requires_status}"
        )
    for status in attack.attacker.statuses:
        if status.definition.cannot_attack:
            raise context.reject("cannot-attack", f"{attack.attacker.name} has {status.name} and cannot attack")
    if attack.attacker.has("exhausted") and not attack.attacker.has("unlimited_attacks"):
        raise context.reject("already-attacked", f"{attack.attacker.name} is Exhausted (already attacked)")
    context.note(None, f"{attack.player}'s {attack.attacker.name} uses {attack.names}")


@steps("declare-target")
def declare_target(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    card, foes = attack.card, state.breeder(opponent(attack.player))
    target = action.get("target")
    if card.spread == "single":
        if target is None:
            raise InputError(f"{card.name} damages one monster: declare its target now", expected="a 'target:' key")
        monster = monster_of(state, opponent(attack.player), target, ("target",))
        if monster.ko:
            raise context.reject("invalid-target", f"{monster.name} is KO'd and cannot be targeted")
        attack.affected = [monster]
        context.note(
            "mr.attack.declare-single", f"Single-target move: {monster.name} is declared as the target now",
            involves=[monster_entity(monster), mechanic("target declaration")],
        )
        return
    if target is not None:
        raise InputError(f"{card.name} is a {card.spread} move and declares no single target", path=("target",))
    if card.spread == "distributable":
        if "split" not in action:
            raise InputError(f"{card.name} is distributable: say how the damage is split", expected="a 'split:' key")
        context.note(
            "mr.attack.declare-distributable", "Distributable damage: targets are declared after the ENV check",
            involves=[mechanic("distributable damage")],
        )
        return
    candidates = [m for m in foes.monsters if not m.ko]
    if card.hits_own_side:
        candidates += [m for m in state.breeder(attack.player).monsters if not m.ko]
    attack.affected = [m for m in candidates if card.only is None or m.attribute == card.only]
    context.note(
        "mr.attack.aoe-no-declaration",
        "AoE move: no target is declared; it affects " + (", ".join(m.name for m in attack.affected) or "no monster"),
        involves=[mechanic("AoE"), *map(monster_entity, attack.affected)],
    )
    for monster in candidates:
        if monster not in attack.affected:
            context.note(
                "mr.defense.unaffected-cannot-defend",
                f"{monster.name} ({monster.attribute}) is not affected by a {card.only}-only AoE",
                involves=[monster_entity(monster), mechanic("attribute")],
            )


@steps("check-attribute-wording")
def check_attribute_wording(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    for monster in attack.affected:
        factor = attack.card.versus.get(monster.attribute)
        if factor == 0:
            context.note(
                "mr.attack.cant-damage-attribute",
                f"{attack.card.name} deals no damage to {monster.attribute} monsters: 0 damage to {monster.name}",
                attribute=monster.attribute, involves=[monster_entity(monster), mechanic("attribute")],
            )


def damaged_by(attack: Attack, split: Mapping[str, int] | None = None) -> list[Monster]:
    if split is not None:
        return [m for m in attack.affected if split.get(m.name, 0) > 0]
    return list(attack.affected)


def check_taunts(context: Context, state: State, attack: Attack, damaged: list[Monster]) -> None:
    """Taunts are checked in the Attack Step, on the monsters the move would damage."""
    defenders = state.breeder(opponent(attack.player)).monsters
    taunts = [status_entity(s.name) for m in defenders for s in m.statuses if s.definition.taunt]
    if attack.card.type == "SPE":
        if taunts:
            context.note(
                "mr.taunt.spe-unaffected", f"{attack.card.name} is an SPE move and does no damage: taunts do not apply",
                involves=[*taunts, mechanic("taunt"), mechanic("SPE")],
            )
        return
    if taunts:
        context.note(
            "mr.taunt.definition",
            f"{attack.card.name} is a damaging move: the taunts of {opponent(attack.player)}'s monsters decide "
            "which monsters it may damage",
            involves=[*taunts, mechanic("taunt")],
        )
    hit = {m.name for m in damaged if m.player != attack.player}
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt == "cannot-damage" and monster.name in hit:
                ruling = "mr.taunt.in-your-face" if status.name == "In Your Face" else "mr.taunt.enchant"
                _kept_while_user_ko(context, state, monster, status)
                _forbidden_and_required(context, monster)
                raise context.reject(
                    "taunt-forbids-target",
                    f"{monster.name} has {status.name}: the opponent cannot damage it",
                    ruling, monster=monster.name,
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")],
                )
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt != "must-damage":
                continue
            if monster.ko:
                context.note(
                    "mr.taunt.provoke-ko", f"{monster.name} has {status.name} but is KO'd: other monsters may be attacked",
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt"), mechanic("KO")],
                )
                continue
            if monster.name not in hit:
                _forbidden_and_required(context, monster)
                raise context.reject(
                    "taunt-requires-target",
                    f"{monster.name} has {status.name}: the move must also damage it",
                    "mr.taunt.provoke", monster=monster.name,
                    involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")],
                )
    for monster in defenders:
        for status in monster.statuses:
            if status.definition.taunt and not monster.ko:
                _kept_while_user_ko(context, state, monster, status)
                _taunt_satisfied(context, attack, monster, status, monster.name in hit)
    for monster in damaged:
        if monster.has("damage_immune"):
            context.note(
                "mr.card.doll-not-taunt", f"{monster.name} is under Doll, which is not a taunt: it may be attacked, for 0 damage",
                involves=[monster_entity(monster), status_entity("Doll"), mechanic("taunt")],
            )
    if taunts:
        context.note(
            "mr.attack.taunt-check", "Taunts checked in the Attack Step: the move is allowed",
            involves=[*taunts, mechanic("taunt")],
        )


def _forbidden_and_required(context: Context, monster: Monster) -> None:
    """A monster that must be damaged (Provoke, Nyah Nyah) and cannot be (In Your Face): no damaging move is allowed."""
    required = [s.name for s in monster.statuses if s.definition.taunt == "must-damage"]
    forbidden = [s.name for s in monster.statuses if s.definition.taunt == "cannot-damage"]
    if required and forbidden and not monster.ko:
        context.note(
            "mr.taunt.iyf-with-provoke",
            f"{monster.name} must be damaged ({', '.join(required)}) and cannot be damaged ({', '.join(forbidden)}): "
            f"no damaging move may be used against {monster.player}'s monsters",
            involves=[monster_entity(monster), *map(status_entity, required + forbidden), mechanic("taunt")],
        )


def _taunt_satisfied(context: Context, attack: Attack, monster: Monster, status: Status, damaged: bool) -> None:
    """The taunt a move obeys: it damages a monster that requires it, or spares one that forbids it."""
    several = attack.card.spread != "single"
    if status.definition.taunt == "must-damage":
        ruling = "mr.taunt.provoke-aoe-distributable" if several else "mr.taunt.provoke"
        text = f"{monster.name} has {status.name}: the move damages it, as it must"
    else:
        forbids = "mr.taunt.in-your-face" if status.name == "In Your Face" else "mr.taunt.enchant"
        ruling = "mr.taunt.enchant-aoe-distributable" if several else forbids
        text = f"{monster.name} has {status.name}: the move does not damage it"
    context.note(ruling, text, involves=[monster_entity(monster), status_entity(status.name), mechanic("taunt")])


@steps.condition("targets-known")
def targets_known(state: State) -> bool:
    """A distributable move's targets are known only when its damage is split (after the ENV check)."""
    return running(state).card.spread != "distributable"


@steps("check-taunts")
def check_taunts_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    check_taunts(context, state, attack, damaged_by(attack))


@steps("base-damage")
def base_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    attack.raw = attack.card.damage
    attack.expression = f"{attack.raw} ({attack.card.name})"
    context.note("mr.attack.final-base", f"Base damage = {attack.expression}", base=attack.raw)


def _bonus_statuses(attack: Attack) -> list[Status]:
    return [
        s for s in attack.attacker.statuses
        if (s.definition.attack_add or s.definition.attack_multiply != 1)
        and s.definition.attack_type in (None, attack.card.type)
    ]


@steps("additive-bonus")
def additive_bonus(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    attack.bonus_statuses = _bonus_statuses(attack)
    parts = [(c.add, c.name) for c in attack.combos if c.add] + [
        (s.definition.attack_add, s.name) for s in attack.bonus_statuses if s.definition.attack_add
    ]
    if not parts:
        return
    attack.raw += sum(amount for amount, _ in parts)
    attack.expression += "".join(f" + {amount} ({name})" for amount, name in parts)
    context.note(
        "mr.attack.final-additive", f"Additive bonus: {attack.expression} = {attack.raw}", damage=attack.raw,
        involves=[*(status_entity(s.name) for s in attack.bonus_statuses), mechanic("Final Damage")],
    )


@steps("multiplier-bonus")
def multiplier_bonus(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    parts = [(c.multiply, c.name) for c in attack.combos if c.multiply != 1] + [
        (s.definition.attack_multiply, s.name) for s in attack.bonus_statuses if s.definition.attack_multiply != 1
    ]
    if parts:
        for factor, _ in parts:
            attack.raw *= factor
        terms = "".join(f" × {factor} ({name})" for factor, name in parts)
        attack.expression = f"({attack.expression}){terms}" if " + " in attack.expression else attack.expression + terms
        context.note(
            "mr.attack.final-multiplier", f"Multiplier bonus: {attack.expression} = {attack.raw}", damage=attack.raw,
            involves=[*(status_entity(s.name) for s in attack.bonus_statuses), mechanic("Final Damage")],
        )
    for monster in attack.affected:
        versus = attack.card.versus.get(monster.attribute, 1)
        if versus not in (0, 1):
            context.note(
                "mr.attack.final-multiplier",
                f"× {versus} against {monster.attribute}: {monster.name} would take {attack.raw * versus}",
                involves=[monster_entity(monster), mechanic("attribute")],
                monster=monster.name,
            )


def amount_for(attack: Attack, monster: Monster) -> int:
    """Final Damage a monster would take: 0 if the move cannot damage it or it is under Doll."""
    factor = attack.card.versus.get(monster.attribute, 1)
    if factor == 0 or monster.has("damage_immune"):
        return 0
    return attack.raw * factor + attack.env_add


@steps("env-final-damage-modifier")
def env_final_damage_modifier(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    env = state.env_card()
    if env is not None and env.final_damage_add:
        attack.env_add = env.final_damage_add
        attack.expression += f" + {env.final_damage_add} ({env.name})"
        context.note(
            "mr.attack.env-final-modifier",
            f"ENV 'Final Damage' modifier: {attack.expression} = {attack.raw + env.final_damage_add}",
            involves=[card_entity(env), mechanic("Final Damage")],
        )
    if attack.card.spread == "distributable":
        attack.final_damage = attack.raw + attack.env_add
    else:
        for monster in attack.affected:
            if monster.has("damage_immune"):
                context.note(
                    "mr.card.doll-zero", f"{monster.name} is under Doll: it would take 0 damage",
                    involves=[monster_entity(monster), status_entity("Doll")],
                )
        attack.final_damage = max((amount_for(attack, m) for m in attack.affected), default=0)
        if attack.affected and all(m.has("damage_immune") for m in attack.affected):
            context.note(
                "mr.card.doll-final-damage", "The attack only affects monsters under Doll: its Final Damage is 0",
                involves=[status_entity("Doll"), mechanic("Final Damage")],
            )
    how = attack.expression if attack.final_damage == attack.raw + attack.env_add else "its highest against an affected monster"
    context.note(None, f"Final Damage = {how} = {attack.final_damage}", final_damage=attack.final_damage)


@steps("env-prohibition")
def env_prohibition(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    env = state.env_card()
    if env is None:
        return
    damage = attack.final_damage
    if env.forbid_at_most is not None:
        rule = f"{env.name} forbids Final Damage ≤ {env.forbid_at_most}"
        if damage <= env.forbid_at_most:
            raise context.reject(
                "env-forbids-final-damage", f"{rule}: {damage} cannot be used", "mr.attack.env-prohibition",
                final_damage=damage, involves=[card_entity(env), mechanic("Final Damage")],
            )
        context.note(
            "mr.attack.env-prohibition", f"{rule}: {damage} is allowed", final_damage=damage,
            involves=[card_entity(env), mechanic("Final Damage")],
        )
    if env.forbid_at_least is not None:
        rule = f"{env.name} forbids Final Damage ≥ {env.forbid_at_least}"
        if damage >= env.forbid_at_least:
            raise context.reject(
                "env-forbids-final-damage", f"{rule}: {damage} cannot be used", "mr.attack.env-prohibition",
                final_damage=damage, involves=[card_entity(env), mechanic("Final Damage")],
            )
        context.note(
            "mr.attack.env-prohibition", f"{rule}: {damage} is allowed", final_damage=damage,
            involves=[card_entity(env), mechanic("Final Damage")],
        )


def pay_guts(context: Context, breeder: Breeder, cards: list[Card], ruling: str | None = None) -> None:
    cost = sum(card.cost for card in cards)
    if cost > breeder.guts:
        raise context.reject(
            "not-enough-guts", f"{' + '.join(c.name for c in cards)} costs {cost} GUTS; {breeder.player} has {breeder.guts}",
            ruling, involves=[mechanic("GUTS")],
        )
    breeder.guts -= cost
    spend_cards(breeder, [card.name for card in cards])
    if cost:
        context.note(None, f"{breeder.player} pays {cost} GUTS: {breeder.guts + cost} - {cost} = {breeder.guts}", guts=breeder.guts)


@steps("pay-guts")
def pay_guts_step(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    pay_guts(context, state.breeder(attack.player), [attack.card, *attack.combos], "mr.attack.guts-paid-last")
    context.note("mr.attack.guts-paid-last", "GUTS are paid after every check has passed", involves=[mechanic("GUTS")])
    for status in attack.bonus_statuses:
        if status.definition.consumed:
            attack.attacker.statuses.remove(status)
    grant(attack.attacker, state.statuses["Exhausted"], 1, "attack")


@steps("spread-damage")
def spread_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    attack = running(state)
    hits: list[Hit] = []
    if attack.card.spread == "distributable":
        split = action["split"]
        foes = state.breeder(opponent(attack.player))
        attack.affected = [monster_of(state, foes.player, name, ("split", name)) for name in split]
        if sum(split.values()) != attack.final_damage:
            raise context.reject(
                "split-does-not-match", f"the split adds up to {sum(split.values())}, not the Final Damage {attack.final_damage}"
            )
        check_taunts(context, state, attack, damaged_by(attack, split))
        shares = ", ".join(f"{amount} to {name}" for name, amount in split.items())
        context.note(
            "mr.attack.distribute-after", f"Damage split after the ENV check: {shares}",
            involves=[mechanic("distributable damage"), *map(monster_entity, attack.affected)],
        )
        for monster in attack.affected:
            hits.append(_hit(monster, split[monster.name], attack.card, 0))
    else:
        for monster in attack.affected:
            hits.append(_hit(monster, attack.raw, attack.card, attack.env_add))
        if attack.card.spread == "aoe":
            context.note(
                "mr.attack.aoe-all-applicable", "AoE: every affected monster takes damage: " + _hits_text(hits),
                involves=[mechanic("AoE"), *map(monster_entity, attack.affected)],
            )
    affected = frozenset((m.player, m.name) for m in attack.affected)
    state.attacks.append(
        {"attacker": attack.attacker.name, "card": attack.card.name, "combo": [c.name for c in attack.combos],
         "final_damage": attack.final_damage,
         "dealt": {player: {m.name: 0 for m in b.monsters} for player, b in state.players.items()}}
    )
    state.pending = PendingAttack(
        player=attack.player, monster=attack.attacker.name, card=attack.card.name, move_type=attack.card.type,
        hits=hits, affected=affected, only=attack.card.only, not_reduced_by_blk=attack.card.not_reduced_by_blk,
        self_damage=attack.card.self_damage, on_damage=attack.card.on_damage, record=len(state.attacks) - 1,
    )


def _hit(monster: Monster, pre_attribute: int, card: Card, env_add: int) -> Hit:
    return Hit(
        player=monster.player, monster=monster.name, pre_attribute=pre_attribute, versus=dict(card.versus),
        attribute_checked=monster.attribute, env_add=env_add, original_target=(monster.player, monster.name),
        declared_factor=card.versus.get(monster.attribute, 1),
    )


def _hits_text(hits: list[Hit]) -> str:
    return ", ".join(f"{hit.monster} {hit.amount}" for hit in hits) or "none"


# --- Proceed to the opponent's Defense Step. ------------------------------------------------


@vocabulary.action(
    "defend", "Play a defense card in the Defense Step; each resolves on its own, in order.",
    params={
        "player": ref("player"),
        "monster": {"type": "string"},
        "card": {"type": "string"},
        "choose": {"type": "string", "description": "The ally a redirection or attribute change acts on."},
    },
    required=["player", "monster", "card"],
)
def defend(context: Context, state: State, action: Mapping[str, Any]) -> None:
    game_on(context, state)
    pending = state.pending
    attack_card = [("card", pending.card)] if pending else []
    with context.involving(*attack_card, ("card", action["card"])):
        context.run_step(state, "defense-card", action)


@steps("defense-card")
def defense_card(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    player = action["player"]
    if pending is None and state.attacks:
        raise context.reject(
            "defense-step-over", f"the Defense Step against {state.attacks[-1]['card']} is over: its damage has been dealt",
            involves=[mechanic("Defense Step")],
        )
    if pending is None:
        raise context.reject("no-attack-to-defend", "there is no attack in its Defense Step")
    if player == pending.player:
        raise context.reject(
            "own-attack", "you cannot defend against your own attack", "mr.attack.own-monsters-no-defense",
            involves=[mechanic("Defense Step")],
        )
    monster = monster_of(state, player, action["monster"], ("monster",))
    card = card_of(state, action["card"], ("card",), "defense")
    breeder = state.breeder(player)
    if monster.ko:
        raise context.reject("monster-ko", f"{monster.name} is KO'd")
    require_in_hand(context, breeder, [card.name])
    check_user(context, state, player, monster, card)
    if pending.only is not None and (player, monster.name) not in pending.affected:
        _unaffected_may_defend(context, monster, card, pending.only)
    pay_guts(context, breeder, [card])
    context.note(
        "mr.defense.order", f"{monster.name} plays {card.name}; it resolves now, on its own",
        involves=[monster_entity(monster), mechanic("Defense Step")],
    )
    own = _own_hits(pending, monster)
    if own and all(h.amount == 0 or monster.has("damage_immune") for h in own):
        context.note(
            "mr.defense.zero-defendable", f"{monster.name} defends against a move reduced to 0 damage",
            involves=[monster_entity(monster), mechanic("Defense Step")],
        )
    for effect in card.effects:
        vocabulary.effect_handler(DEFENSE, effect.kind)(context, state, pending, monster, effect, action)
    context.note(None, "Damage waiting: " + _hits_text(pending.hits))


def _unaffected_may_defend(context: Context, monster: Monster, card: Card, only: str) -> None:
    redirects = any(e.kind in ("take-for-ally", "take-for-allies") for e in card.effects)
    if redirects and context.read(UNAFFECTED_REDIRECTION, "redirection-allowed"):
        context.note(
            "mr.redirect.example-shield-fire-river",
            f"{monster.name} is not affected by the {only}-only AoE but may still take damage for its allies",
            involves=[monster_entity(monster), mechanic("redirection"), mechanic("AoE")],
        )
        return
    raise context.reject(
        "not-affected",
        f"{monster.name} ({monster.attribute}) is not affected by a {only}-only AoE and cannot respond with a Defense Card",
        "mr.defense.unaffected-cannot-defend",
        involves=[monster_entity(monster), mechanic("AoE"), mechanic("Defense Step")],
    )


def _chosen_ally(state: State, defender: Monster, action: Mapping[str, Any]) -> Monster:
    if "choose" not in action:
        raise InputError(f"{action['card']} needs an ally: name it with 'choose:'", expected="a 'choose:' key")
    ally = monster_of(state, defender.player, action["choose"], ("choose",))
    if ally is defender:
        raise InputError(f"{action['card']} needs another monster than its user", path=("choose",))
    return ally


def _move_hits(context: Context, pending: PendingAttack, source: Monster, target: Monster, card: str) -> None:
    for hit in [h for h in pending.hits if (h.player, h.monster) == (source.player, source.name)]:
        redirected = Hit(
            player=target.player, monster=target.name, pre_attribute=hit.amount, versus=hit.versus,
            attribute_checked=None, redirected_from=(source.player, source.name),
            original_target=hit.original_target, grit=False,
            declared_factor=hit.declared_factor, original_factor=hit.factor,
        )
        pending.hits[pending.hits.index(hit)] = redirected
        context.note(
            "mr.redirect.definition", f"{card} redirects: {target.name} takes the {hit.amount} damage meant for {source.name}",
            amount=hit.amount, involves=[monster_entity(source), monster_entity(target), mechanic("redirection")],
        )
        context.note(
            "mr.redirect.original-attribute", f"{target.name}'s attribute ({target.attribute}) is not checked",
            involves=[monster_entity(target), mechanic("redirection"), mechanic("attribute")],
        )
        if hit.declared_factor == 0 and hit.amount > 0:
            context.note(
                "mr.redirect.trivia-no-damage-made-damage",
                f"{pending.card} did no damage to {source.name} as declared; rechecked, it deals {hit.amount}, "
                f"which {target.name} now takes",
                amount=hit.amount, involves=[monster_entity(source), monster_entity(target), mechanic("redirection"),
                                             mechanic("attribute")],
            )
        for status in source.statuses:
            if status.definition.taunt == "must-damage":
                context.note(
                    "mr.taunt.attack-step-check",
                    f"{source.name} has {status.name} and no longer takes the damage: the taunt was checked in the "
                    "Attack Step, so the move stands",
                    involves=[monster_entity(source), status_entity(status.name), mechanic("taunt"), mechanic("redirection")],
                )
        if pending.not_reduced_by_blk:
            context.note(
                "mr.not-reduced.redirect", "Redirecting is not reducing: it works against 'not reduced by BLK'",
                involves=[mechanic("redirection"), mechanic("not reduced by BLK")],
            )


@vocabulary.effect("take-for-ally", "Its user takes the damage meant for the ally named by 'choose'.", family=DEFENSE)
def take_for_ally(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _move_hits(context, pending, _chosen_ally(state, user, action), user, action["card"])


@vocabulary.effect("take-for-allies", "Its user takes the damage meant for all its allies.", family=DEFENSE)
def take_for_allies(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    for ally in state.breeder(user.player).monsters:
        if ally is not user:
            _move_hits(context, pending, ally, user, action["card"])


@vocabulary.effect("pass-to-ally", "The damage meant for its user goes to the ally named by 'choose'.", family=DEFENSE)
def pass_to_ally(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    ally = _chosen_ally(state, user, action)
    _move_hits(context, pending, user, ally, action["card"])
    if any(s.definition.taunt == "cannot-damage" for s in ally.statuses):
        context.note(
            "mr.taunt.redirect-bypasses", f"Redirected damage bypasses taunts: {ally.name} takes it",
            involves=[monster_entity(ally), *(status_entity(s.name) for s in ally.statuses if s.definition.taunt),
                      mechanic("taunt"), mechanic("redirection")],
        )


def _own_hits(pending: PendingAttack, user: Monster) -> list[Hit]:
    return [h for h in pending.hits if (h.player, h.monster) == (user.player, user.name)]


def _reduce(context: Context, pending: PendingAttack, user: Monster, reduction: Reduction, card: str) -> None:
    if pending.not_reduced_by_blk:
        context.note(
            "mr.not-reduced.intro", f"{pending.card} is not reduced by BLK moves: {card} has no effect on it",
            involves=[mechanic("not reduced by BLK")],
        )
        return
    for hit in _own_hits(pending, user):
        before = hit.amount
        hit.reductions += (reduction,)
        if reduction.kind == "halve":
            context.note(
                "mr.rounding.golden-rule",
                f"{card} halves {before} damage to {hit.amount} (rounded in favour of the attacker)",
                before=before, after=hit.amount, involves=[mechanic("rounding")],
            )
        elif reduction.kind == "minus":
            context.note(
                None, f"{card} reduces the damage to {user.name} by {reduction.amount}: {before} → {hit.amount}",
                before=before, after=hit.amount, involves=[monster_entity(user), mechanic("damage reduction")],
            )
        else:
            context.note(None, f"{card} reduces the {pending.move_type} move to 0 against {user.name}")


@vocabulary.effect("halve-damage", "Halves the damage its user takes (rounded in favour of the attacker).", family=DEFENSE)
def halve_damage(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _reduce(context, pending, user, Reduction("halve"), action["card"])


@vocabulary.effect("reduce-damage", "Takes 'amount' off the damage its user takes, stopping at 0.", family=DEFENSE,
                   params={"amount": {"type": "integer", "minimum": 0, "description": "The damage taken off."}}, required=["amount"])
def reduce_damage(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    _reduce(context, pending, user, Reduction("minus", effect.amount), action["card"])


@vocabulary.effect("zero-move", "Reduces the move to 0 against its user (only moves of 'move_type', if given).", family=DEFENSE,
                   params={"move_type": {"enum": ["POW", "INT", "SPE"]}})
def zero_move(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    if effect.move_type and effect.move_type != pending.move_type:
        context.note(None, f"{action['card']} only reduces {effect.move_type} moves; {pending.card} is {pending.move_type}")
        return
    _reduce(context, pending, user, Reduction("zero"), action["card"])


def _attacker(state: State, pending: PendingAttack) -> Monster:
    return monster_of(state, pending.player, pending.monster, ())


@vocabulary.effect("reflect-half", "Half the damage meant for its user goes back to the attacker.", family=DEFENSE)
@vocabulary.effect("reflect-all", "All the damage meant for its user goes back to the attacker.", family=DEFENSE)
def reflect(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    attacker = _attacker(state, pending)
    for hit in _own_hits(pending, user):
        total = hit.amount
        back = halve(total, round_up=False) if effect.kind == "reflect-half" else total
        kept = total - back
        pending.hits[pending.hits.index(hit)] = Hit(
            player=user.player, monster=user.name, pre_attribute=kept, versus={}, attribute_checked=None,
            original_target=hit.original_target, redirected_from=hit.redirected_from,
        )
        pending.hits.append(
            Hit(player=attacker.player, monster=attacker.name, pre_attribute=back, versus={}, attribute_checked=None, reflected=True)
        )
        if effect.kind == "reflect-half":
            context.note(
                "mr.rounding.golden-rule",
                f"{action['card']} against {total} damage: {back} to {attacker.name}, {kept} to {user.name} "
                "(halves rounded in favour of the attacker)",
                reflected=back, kept=kept, involves=[mechanic("rounding"), mechanic("reflection")],
            )
        else:
            context.note(None, f"{action['card']} reflects {back} damage to {attacker.name}", reflected=back)
        if pending.not_reduced_by_blk:
            context.note(
                "mr.not-reduced.reflect", "Reflecting is not reducing: it works against 'not reduced by BLK'",
                involves=[mechanic("reflection"), mechanic("not reduced by BLK")],
            )


@vocabulary.effect("grit", "If the attack would KO its user, its life is set to 1 instead.", family=DEFENSE)
def grit(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    for hit in _own_hits(pending, user):
        hit.grit = True
    context.note(None, f"{action['card']}: if this attack would KO {user.name}, its life is set to 1 instead")
    if pending.not_reduced_by_blk:
        context.note(
            "mr.not-reduced.grit", "Setting life to 1 is not reducing: it works against 'not reduced by BLK'",
            involves=[mechanic("not reduced by BLK")],
        )


def change_attribute(context: Context, state: State, monster: Monster, attribute: str, source: str) -> bool:
    """Bad Weather and Warp stop every attribute change; returns whether the attribute changed."""
    env = state.env_card()
    if env is not None and env.freeze_attributes:
        context.note(
            "mr.card.bad-weather-warp", f"{env.name} is in play: {monster.name}'s attribute cannot change",
            involves=[card_entity(env), monster_entity(monster), mechanic("attribute")],
        )
        return False
    if monster.attribute == attribute:
        context.note(
            "mr.redirect.example-shield-blowhole", f"{monster.name} is already {attribute}: its attribute does not change",
            involves=[monster_entity(monster), mechanic("attribute")],
        )
        return False
    before = monster.attribute
    grant(monster, StatusDef(name=f"{attribute} ({source})", attribute=attribute), None, source)
    context.note(None, f"{source}: {monster.name} changes from {before} to {attribute}")
    return True


@vocabulary.effect("change-attribute", "The monster named by 'choose' (default its user) changes attribute; the attack is rechecked.", family=DEFENSE,
                   params={"attribute": ref("attribute")}, required=["attribute"])
def defense_change_attribute(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    target = monster_of(state, user.player, action.get("choose", user.name), ("choose",))
    if not change_attribute(context, state, target, effect.attribute or "", action["card"]):
        if any((h.player, h.monster) == (target.player, target.name) and h.redirected_from for h in pending.hits):
            context.note(
                "mr.redirect.new-attribute-on-change",
                f"{target.name}'s attribute did not change: the damage redirected to it is not rechecked",
                involves=[monster_entity(target), mechanic("attribute"), mechanic("redirection")],
            )
        return
    for hit in pending.hits:
        if (hit.player, hit.monster) == (target.player, target.name) and not hit.reflected:
            before = hit.amount
            hit.attribute_checked = target.attribute
            ruling = "mr.redirect.new-attribute-on-change" if hit.redirected_from else "mr.defense.attribute-recheck"
            context.note(
                ruling, f"Attribute changed while resolving defense: rechecked, {before} → {hit.amount} to {target.name}",
                involves=[monster_entity(target), mechanic("attribute")],
            )
            if hit.redirected_from and hit.original_factor > 1 and hit.factor > 1:
                context.note(
                    "mr.redirect.trivia-double-twice",
                    f"Doubled twice: × {hit.original_factor} against {hit.redirected_from[1]}, the original target, "
                    f"and × {hit.factor} against {target.name}, the new one: {hit.amount}",
                    amount=hit.amount, involves=[monster_entity(target), mechanic("redirection"), mechanic("attribute")],
                )


@vocabulary.effect("grant-status", "Its user gains a status.", family=DEFENSE,
                   params={"status": STATUS, "turns": TURNS}, required=["status"])
def defense_grant_status(context: Context, state: State, pending: PendingAttack, user: Monster, effect: Effect, action: Mapping[str, Any]) -> None:
    definition = state.statuses[effect.status or ""]
    grant(user, definition, effect.turns, action["card"])
    context.note(None, f"{action['card']}: {user.name} gains {definition.name}")


def close_defense_step(context: Context, state: State) -> None:
    """The Defense Step's remaining steps: the damage is dealt."""
    assert state.pending is not None
    with context.involving(("card", state.pending.card)):
        context.walk(state, DEFENSE_STEP)
    state.pending = None


@steps("deal-damage")
def deal_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    assert pending is not None
    record = state.attacks[pending.record]
    for hit in pending.hits:
        monster = monster_of(state, hit.player, hit.monster, ())
        amount = hit.amount
        if monster.has("damage_immune") and amount:
            context.note(
                "mr.card.doll-zero", f"{monster.name} is under Doll: {amount} damage becomes 0",
                involves=[monster_entity(monster), status_entity("Doll")],
            )
            amount = 0
        if hit.redirected_from and monster.has("damage_immune"):
            context.note(
                "mr.redirect.hide-doll", f"Redirected damage to {monster.name} under Doll is nullified",
                involves=[monster_entity(monster), status_entity("Doll"), mechanic("redirection")],
            )
        before = monster.lp
        monster.lp = max(0, monster.lp - amount)
        if hit.grit and monster.lp == 0 and amount:
            monster.lp = 1
            context.note("mr.not-reduced.grit", f"Grit: {monster.name}'s life is set to 1", involves=[monster_entity(monster)])
        record["dealt"][monster.player][monster.name] += amount
        context.note(None, f"{monster.name} takes {amount} damage: LP {before} → {monster.lp}" + (" (KO)" if monster.ko else ""),
                     monster=monster.name, damage=amount, lp=monster.lp)
        if amount > 0:
            for status in [s for s in monster.statuses if s.definition.ends_if_damaged]:
                monster.statuses.remove(status)
                context.note(None, f"{status.name} ends: {monster.name} was damaged")
            if not hit.reflected:
                _on_damage(context, state, pending, hit, monster)


def _on_damage(context: Context, state: State, pending: PendingAttack, hit: Hit, damaged: Monster) -> None:
    if not pending.on_damage:
        return
    target = damaged
    if hit.redirected_from is not None and hit.original_target is not None:
        if context.read(ON_DAMAGE_AFTER_REDIRECT, "original-target"):
            target = monster_of(state, *hit.original_target, ())
    for effect in pending.on_damage:
        vocabulary.effect_handler(ON_DAMAGE, effect.kind)(context, state, pending, target, effect)


@vocabulary.effect("guts-loss", "The damaged monster's Breeder loses 'amount' GUTS.", family=ON_DAMAGE,
                   params={"amount": {"type": "integer", "minimum": 0, "description": "GUTS lost."}}, required=["amount"])
def on_damage_guts_loss(context: Context, state: State, pending: PendingAttack, target: Monster, effect: Effect) -> None:
    breeder = state.breeder(target.player)
    lost = min(effect.amount, breeder.guts)
    breeder.guts -= lost
    context.note(
        "mr.redirect.on-damage-effects", f"On damage: {target.player} loses {lost} GUTS",
        involves=[mechanic("on-damage effect"), mechanic("GUTS")],
    )


@vocabulary.effect("grant-status", "The damaged monster gains a status.", family=ON_DAMAGE,
                   params={"status": STATUS, "turns": TURNS}, required=["status"])
def on_damage_grant_status(context: Context, state: State, pending: PendingAttack, target: Monster, effect: Effect) -> None:
    grant(target, state.statuses[effect.status or ""], effect.turns, pending.card)
    context.note(
        "mr.redirect.on-damage-effects", f"On damage: {target.name} gains {effect.status}",
        involves=[monster_entity(target), status_entity(effect.status or ""), mechanic("on-damage effect")],
    )


@steps.condition("move-hurts-its-user")
def move_hurts_its_user(state: State) -> bool:
    return state.pending is not None and state.pending.self_damage > 0


@steps("self-inflicted-damage")
def self_inflicted_damage(context: Context, state: State, action: Mapping[str, Any]) -> None:
    pending = state.pending
    assert pending is not None
    user = monster_of(state, pending.player, pending.monster, ())
    before = user.lp
    user.lp = max(0, user.lp - pending.self_damage)
    context.note(
        "mr.attack.self-inflicted",
        f"Self-inflicted damage after defense, not affected by modifiers: {user.name} takes {pending.self_damage}, "
        f"LP {before} → {user.lp}",
        damage=pending.self_damage, involves=[monster_entity(user), mechanic("self-inflicted damage")],
    )


# === General Mechanics ===========================================================================
# The Rounding Golden Rule is ``halve`` (state.py) with the favoured side chosen where a card halves.
# Damage Reduction, Taunts and Redirections are applied in the Attack and Defense Steps above.
# --- Life Points Loss / Reduction, Status, Hand/Deck/Discard: skills, ENV and turn actions. --


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
                   params={"status": STATUS, "to": TO, "turns": TURNS}, required=["status"])
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
                   params={"amount": LP, "to": TO}, required=["amount"])
def skill_lose_lp(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        lose_lp(context, target, effect.amount, state.cards[action["card"]])


@vocabulary.effect("halve-lp", "A monster's ('to') Life Points are halved (rounded in favour of the other Breeder).", family=SKILL,
                   params={"to": TO})
def skill_halve_lp(context: Context, state: State, player: str, user: Monster | None, effect: Effect, action: Mapping[str, Any], played: list[Card]) -> None:
    for target in _target(state, player, user, effect, action):
        assert isinstance(target, Monster)
        before = target.lp
        # The player who played the card halves; the rounding favours the other player.
        target.lp = halve(target.lp, round_up=target.player != player)
        context.note("mr.rounding.golden-rule", f"{action['card']} halves {target.name}'s LP: {before} → {target.lp}"
                     + (" (KO)" if target.ko else ""), before=before, after=target.lp,
                     involves=[monster_entity(target), mechanic("rounding")])


@vocabulary.effect("draw", "Its Breeder draws 'amount' cards.", family=SKILL, params={"amount": CARDS}, required=["amount"])
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
                   params={"amount": CARDS}, required=["amount"])
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
                   params={"amount": CARDS}, required=["amount"])
@vocabulary.effect("take-from-discard", "'amount' cards chosen from the discard pile go to the hand.", family=SKILL,
                   params={"amount": CARDS}, required=["amount"])
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
                   params={"amount": CARDS}, required=["amount"])
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
                   params={"amount": LP, "to": TO}, required=["amount"])
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
                   params={"attribute": ref("attribute"), "to": TO}, required=["attribute"])
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
