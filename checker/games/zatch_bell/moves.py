"""What may be done next in Zatch Bell! The Card Battle: the actions the rules might allow, each with its choices.

The core keeps those the rules accept (:mod:`checker.engine.legal`); this module only says what there is to try,
drawn from where play stands, in the manual's terms:

- START PHASE: "The Attacker may turn a maximum of 3 pages per turn" (or none): ``turn-pages`` of 0 to 3 pages.
- THE ACTION SYSTEM, for either player, or a pass ("A player can choose to pass and not perform any Action"):
  1. "Putting a card in play from your currently open pages": each MAMODO, PARTNER or MJ12 card on an open page
     (a PARTNER card onto each in-play MAMODO card it may be attached to, a DUAL MAMODO card sending each in-play
     MAMODO card of its names);
  2. "Applying the effect of your in-play card": each effect of each in-play MAMODO, PARTNER and MJ12 card but
     the [IN PLAY] ones ("automatic and do not require an Action"), with what it selects ("select 1 of your
     opponent's in-play MAMODO cards": each in-play MAMODO card, PARTNER card, waiting [STAY] or [STANDBY] effect
     or MAMODO card of the open pages the effect may select; a cut-in effect, the card just played or applied),
     each MAMODO card that may PROTECT against each infliction of its Damage, each way its coins may land
     ("all coins are flipped at the time of declaration"), and with or without an optional extra cost it prints;
  3. "Playing an EVENT card in your currently open pages": each EVENT card on an open page, with the same choices;
  4. "Playing a No Battle SPELL card": each one on an open page, for each in-play MAMODO card;
  5. "Declaring 'Battle In!'": each SPELL card on an open page for each in-play MAMODO card (each way its coin may
     land, played by each in-play card whose effect plays a SPELL card), or the "&" effect of an in-play MAMODO card.
- The Battle: "the Defender declares 1 Defense using a SPELL card (or an in-play card effect ...)", as for an Attack;
  once Total Power is compared, ``resolve`` with the choices of step 5: the MAMODO card that PROTECTS the Spell
  Book from the Damage (or none; for Damage X times, the one for each infliction), the MAMODO cards "of your choice" that receive the Injury (a selection: the
  order they are named in changes nothing), and each one that SACRIFICES for another.
- The coins just flipped: "It can be used immediately after flipping all of the coins" (A14): ``redo-coins`` with
  each in-play card's effect that changes a coin toss, for each way the coins may land again.
- END PHASE: each Petrified MAMODO card of the Attacker returned to Normal Status, sent to the Discard Pile or left;
  the MAMODO card a player with none in play puts in play from the open pages; "When any effects are 'duplicated',
  the Attacker decides the order": each order of the END PHASE effects (and of the Petrified recovery).

A Battle whose Total Power is compared resolves, and an END PHASE whose choices are not given runs, when the next
action is another one: what may be done then is drawn from the state that leaves as well.

The choices the rules default (the open page that holds the card, the MAMODO card a PARTNER card is attached to,
the card a cut-in effect negates, the Injury's targets, ...) are written out by :func:`canonical`, from the state
the action is played at, so that a scenario's short form and the listed long form are known for the same move.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, Iterable, Iterator, Mapping

from checker.engine.errors import InputError, Rejection
from checker.engine.game import Context

from .state import LAST_OPENING, PLAYERS, Card, Effect, Mamodo, Player, State, open_pages, other

#: The most MAMODO cards on a side of play ("Up to 3 MAMODO cards can exist on any player's side of play").
MAX_IN_PLAY = 3
#: Effects that select a card; the ``target`` of the action names it.
SELECTING = {"injure", "petrify", "discard", "negate-effects", "put-in-play-petrified", "negate"}
#: Effects that are no Action: applied with ``redo-coins``, or by declaring "Battle In" or a Defense with them.
NOT_APPLIED = {"redo-coins", "attack-without-spell", "play-spell"}
COIN_SIDES = ("heads", "tails")
RECOVERY = "petrified-recovery"


# --- Where the next action is played ------------------------------------------------------------------


def _game() -> Any:
    from . import GAME  # the package imports this module before it makes its game

    return GAME


def _settled(state: State) -> State | None:
    """Where play stands once a Battle whose Total Power was compared has resolved, or an END PHASE waiting for its
    choices has run, with no choices: where any other action is played (under the default readings: the readings in
    force are not known here, so what the waiting state offers is tried as well). ``None`` when nothing waits."""
    if state.loser is not None or not (state.compared or state.end_pending):
        return None
    game = _game()
    try:
        return game.settle(state, Context(game))  # type: ignore[no-any-return]
    except (Rejection, InputError):
        return None


def _played_at(state: State, action: Mapping[str, Any]) -> State:
    """The state the action's own rules see: the one the waiting Battle or END PHASE leaves, unless the action gives
    their choices (``resolve``, ``end-phase``) or changes a coin toss (no Action)."""
    if action.get("action") in ("resolve", "end-phase", "redo-coins"):
        return state
    return _settled(state) or state


# --- Candidates -------------------------------------------------------------------------------------


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """Every action the rules might allow now (see the module's docstring); the core keeps those they accept."""
    settled = _settled(state)
    if settled is not None:
        yield from _candidates(settled, waiting=False)
    yield from _candidates(state)


def _candidates(state: State, *, waiting: bool = True) -> Iterator[dict[str, Any]]:
    for name in PLAYERS:
        yield {"action": "pass", "player": name}
    for name in PLAYERS:
        for pages in range(4):
            yield {"action": "turn-pages", "player": name, "pages": pages}
    for name in PLAYERS:
        yield from _from_open_pages(state, state.players[name])
        yield from _in_play_effects(state, state.players[name])
    if state.coin_toss is not None:
        yield from _coin_redos(state)
    if waiting and state.compared:
        yield from _resolutions(state)
    if waiting and state.end_pending:
        yield from _end_phases(state)


def _open_cards(state: State, player: Player) -> list[tuple[int, str]]:
    """The cards on the player's open pages (blank pages hold no card to play)."""
    found = []
    for page in player.open:
        name = player.card_on(page)
        if name is not None and not state.card(name).is_blank:
            found.append((page, name))
    return found


def _from_open_pages(state: State, player: Player) -> Iterator[dict[str, Any]]:
    who = player.name
    for page, name in _open_cards(state, player):
        kind = state.card(name)
        if kind.type in ("MAMODO", "PARTNER", "MJ12"):
            yield from _puts(state, player, kind, page)
        elif kind.type == "EVENT":
            for choice in _effect_choices(state, who, kind.effects, coins=False, damage_each=False):
                yield {"action": "play-event", "player": who, "card": name, "page": page, **choice}
        elif kind.type == "SPELL":
            for holder in player.mamodo:
                base = {"player": who, "mamodo": holder.card, "spell": name, "page": page}
                if kind.is_no_battle:
                    for choice in _effect_choices(state, who, kind.effects, coins=False, damage_each=False):
                        yield {"action": "play-no-battle", **base, **choice}
                    continue
                for coin in _coin_choices(kind.effects):
                    yield {"action": "battle-in", **base, **coin}
                    yield {"action": "defend", **base, **coin}
                    for source in _spell_players(state, player):
                        yield {"action": "battle-in", **base, **coin, "played_by": source}
    for holder in player.mamodo:
        effects = state.card(holder.card).effects
        if any(e.kind == "attack-without-spell" for e in effects) and state.battle is None:
            yield {"action": "battle-in", "player": who, "mamodo": holder.card, "effect_of": holder.card}
        defending = [e for e in effects if e.kind == "defend-without-spell"]
        if defending:
            for coin in _coin_choices(_chain(defending[:1])):
                yield {"action": "defend", "player": who, "mamodo": holder.card, "effect_of": holder.card, **coin}


def _puts(state: State, player: Player, kind: Card, page: int) -> Iterator[dict[str, Any]]:
    base = {"action": "put-in-play", "player": player.name, "card": kind.name, "page": page}
    if kind.type == "PARTNER":
        for holder in player.mamodo:
            yield {**base, "on": holder.card}
    elif kind.dual:
        for holder in player.mamodo:
            if set(state.card(holder.card).names) & set(kind.dual):
                yield {**base, "send": holder.card}
    else:
        yield base


def _spell_players(state: State, player: Player) -> list[str]:
    """The player's in-play cards with an effect that plays a SPELL card."""
    return [source for source in _in_play_sources(player) if any(e.kind == "play-spell" for e in state.card(source).effects)]


def _coin_choices(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """How the coin of an Attack or Defense may land, when one of its effects flips one."""
    if any(e.kind == "coin-power" for e in effects):
        return [{"coin": side} for side in COIN_SIDES]
    return [{}]


def _in_play_sources(player: Player) -> list[str]:
    """The in-play MAMODO, PARTNER and MJ12 cards, whose effects a player applies."""
    sources = []
    for holder in player.mamodo:
        sources.append(holder.card)
        if holder.partner:
            sources.append(holder.partner)
    return sources + [name for name, _ in player.mj12]


def _in_play_effects(state: State, player: Player) -> Iterator[dict[str, Any]]:
    for source in dict.fromkeys(_in_play_sources(player)):
        for index, effect in enumerate(state.card(source).effects):
            if effect.tag == "in-play" or effect.kind in NOT_APPLIED:
                continue
            if effect.kind == "defend-without-spell" and state.battle is None:
                continue  # it Defends: applied without a Battle, the rules crash (there is no Defense to set)
            for choice in _effect_choices(state, player.name, (effect,), coins=True, damage_each=True):
                yield {"action": "apply-effect", "player": player.name, "card": source, "effect": index, **choice}


def _chain(effects: Iterable[Effect]) -> list[Effect]:
    """The effects and what each goes on to do, in order."""
    found: list[Effect] = []
    for effect in effects:
        found.append(effect)
        found += _chain(effect.also)
    return found


def _effect_choices(state: State, owner: str, effects: tuple[Effect, ...], *, coins: bool,
                    damage_each: bool) -> list[dict[str, Any]]:
    """Each set of choices the effects take: what they select, who PROTECTS against their Damage, how their coins land."""
    chain = _chain(effects)
    targets: list[dict[str, Any]] = [{}]
    named = _selectable(state, owner, chain, cut_in=any(e.is_cut_in for e in effects))
    targets += [{"target": name} for name in named]
    protects: list[dict[str, Any]] = [{}]
    times = max((e.times for e in chain if e.kind == "damage"), default=0)
    if times:
        guards = [m.card for m in state.players[other(owner)].mamodo if m.status != "petrified"]
        if times == 1 or not damage_each:
            protects += [{"protect": guard} for guard in guards]
        else:
            for each in itertools.product([None, *guards], repeat=times):
                if any(each):
                    protects.append({"protect_each": list(each)})
    flips: list[dict[str, Any]] = [{}]
    flipped = max((e.coins for e in effects), default=0) if coins else 0
    if flipped:
        flips = [{"coins": list(sides)} for sides in itertools.product(COIN_SIDES, repeat=flipped)]
    extras: list[dict[str, Any]] = [{}, {"pay_extra": True}] if any(e.extra_mp for e in effects) else [{}]
    return [{**t, **p, **f, **x} for t in targets for p in protects for f in flips for x in extras]


def _selectable(state: State, owner: str, chain: list[Effect], *, cut_in: bool) -> list[str]:
    """The cards the effects may select: in-play MAMODO (and PARTNER) cards, MAMODO cards of the open pages, the
    opponent's waiting [STAY] and [STANDBY] effects, the card a cut-in effect negates."""
    kinds = {e.kind for e in chain}
    found: list[str] = []
    if kinds & {"injure", "petrify", "negate-effects", "discard"}:
        found += [m.card for name in (other(owner), owner) for m in state.players[name].mamodo]
    if "discard" in kinds:
        found += [m.partner for name in (other(owner), owner) for m in state.players[name].mamodo if m.partner]
    if "put-in-play-petrified" in kinds:
        player = state.players[owner]
        found += [name for _, name in _open_cards(state, player) if state.card(name).type == "MAMODO"]
    if "negate" in kinds and not cut_in:
        found += [k.source for k in state.players[other(owner)].kept if k.zone in ("stay", "standby")]
        found += [source for who, source in state.preparation_effects if who == other(owner)]
    if cut_in and state.stack.top is not None:
        found.append(state.stack.top.card)
    return list(dict.fromkeys(found))


def _coin_redos(state: State) -> Iterator[dict[str, Any]]:
    top = state.stack.top
    if top is None:
        return
    flipped = len(top.effect.action.get("coins") or []) or max((e.coins for e in top.effect.effects), default=0)
    if not flipped:
        return
    for name in PLAYERS:
        for source in dict.fromkeys(_in_play_sources(state.players[name])):
            for index, effect in enumerate(state.card(source).effects):
                if effect.kind == "redo-coins":
                    for sides in itertools.product(COIN_SIDES, repeat=flipped):
                        yield {"action": "redo-coins", "player": name, "card": source, "effect": index, "coins": list(sides)}


def _resolutions(state: State) -> Iterator[dict[str, Any]]:
    """Battle step 5: who PROTECTS against the Damage, which MAMODO cards receive the Injury, who SACRIFICES for them."""
    battle = state.battle
    assert battle is not None
    damaged = state.defender if battle.winner == "attacker" else state.attacker
    guards = [m.card for m in state.players[damaged].mamodo if m.status != "petrified"]
    protects: list[dict[str, Any]] = [{}]
    spell = state.card(battle.spell.card) if battle.spell is not None else None
    if _battle_damages(state):
        protects += [{"protect": guard} for guard in guards]
    if battle.winner == "attacker" and spell is not None and spell.damage and spell.times > 1:  # Damage X times
        protects += [{"protect_each": list(each)} for each in itertools.product([None, *guards], repeat=spell.times) if any(each)]
    injuries: list[dict[str, Any]] = [{}]
    if battle.winner == "attacker" and spell is not None and spell.injure and battle.attack_effect is None:
        targets = [m.card for m in state.players[state.defender].mamodo if m.status != "petrified"]
        for chosen in itertools.combinations(targets, min(spell.injure, len(targets))):
            injuries.append({"injure": list(chosen)})
            for sacrifice in _sacrifices(list(chosen), targets):
                injuries.append({"injure": list(chosen), "sacrifice": sacrifice})
    for protect in protects:
        for injury in injuries:
            yield {"action": "resolve", **protect, **injury}


def _battle_damages(state: State) -> bool:
    """Whether Damage may be inflicted as the Battle resolves (a MAMODO card may PROTECT against it)."""
    battle = state.battle
    assert battle is not None
    spells = [state.card(out.card) for out in (battle.spell, battle.defense) if out is not None]
    if any(s.damage for s in spells) or any(e.kind == "damage" for s in spells for e in _chain(s.effects)):
        return True
    return battle.attack_effect is not None and any(e.kind == "damage" for e in _chain((battle.attack_effect,)))


def _sacrifices(chosen: list[str], targets: list[str]) -> Iterator[dict[str, str]]:
    """Each way the other MAMODO cards may SACRIFICE for the chosen ones (at least one does)."""
    options = [[None, *[t for t in targets if t != target]] for target in chosen]
    for takers in itertools.product(*options):
        sacrifice = {target: taker for target, taker in zip(chosen, takers) if taker is not None}
        if sacrifice:
            yield sacrifice


def _end_phases(state: State) -> Iterator[dict[str, Any]]:
    """The END PHASE's choices: Petrified MAMODO cards recovered or discarded, the MAMODO card put in play by a player
    with none, the order of the effects."""
    attacker = state.players[state.attacker]
    petrified = [m.card for m in attacker.mamodo if m.status == "petrified"]
    fates: list[dict[str, Any]] = []
    for choice in itertools.product(("keep", "recover", "discard"), repeat=len(petrified)):
        fate: dict[str, Any] = {}
        recover = [name for name, c in zip(petrified, choice) if c == "recover"]
        discard = [name for name, c in zip(petrified, choice) if c == "discard"]
        if recover:
            fate["recover"] = recover
        if discard:
            fate["discard_petrified"] = discard
        fates.append(fate)
    sends: list[dict[str, Any]] = []
    choices = [[(name, card) for card in _sendable(state, state.players[name])] for name in PLAYERS]
    for chosen in itertools.product(*([None, *each] for each in choices)):
        sent = dict(pick for pick in chosen if pick is not None)
        sends.append({"send_in": sent} if sent else {})
    items = _end_sources(state) + ([RECOVERY] if petrified else [])
    orders: list[dict[str, Any]] = [{}]
    if len(items) > 1:
        orders += [{"order": list(order)} for order in itertools.permutations(dict.fromkeys(items))]
    for fate in fates:
        for send in sends:
            for order in orders:
                yield {"action": "end-phase", **fate, **send, **order}


def _sendable(state: State, player: Player) -> list[str]:
    """The MAMODO cards a player with none in play (Petrified ones aside) may put in play at the END PHASE: those of
    the first open pages, from these on, that hold one."""
    if any(m.status != "petrified" for m in player.mamodo):
        return []
    for opening in range(player.opening, LAST_OPENING + 1):
        found = _playable_at(state, player, opening)
        if found:
            return found
    return []


def _playable_at(state: State, player: Player, opening: int) -> list[str]:
    if len(player.mamodo) >= MAX_IN_PLAY:
        return []
    found = []
    for page in open_pages(opening):
        name = player.card_on(page)
        if name is not None and state.card(name).type == "MAMODO" and not state.card(name).placed_on:
            found.append(name)
    return found


def _end_sources(state: State) -> list[str]:
    """The cards whose effects resolve in the END PHASE, in the order they are listed: [IN PLAY] effects of the
    END PHASE (the Attacker's first), then [STANDBY] effects that activate then."""
    found: list[str] = []
    for name in (state.attacker, state.defender):
        player = state.players[name]
        sources = [c for m in player.mamodo if m.status != "petrified" for c in [m.card] + ([m.partner] if m.partner else [])]
        for source in sources + [c for c, _ in player.mj12]:
            found += [source for e in state.card(source).effects if e.tag == "in-play" and e.timing == "end-phase"]
    for name in (state.attacker, state.defender):
        found += [k.source for k in state.players[name].kept if k.zone == "standby" and (k.effect.until or "end-phase") == "end-phase"]
    return found


# --- The same move, written out ---------------------------------------------------------------------


def canonical(action: Mapping[str, Any], state: State | None = None) -> dict[str, Any]:
    """The action with the choices the rules default written out, from ``state``, where it is played (without it, only
    what needs no state): the open page that holds the card, the MAMODO card a PARTNER card is attached to, ... A choice
    the rules ignore at that state is left out, and lists whose order changes nothing are sorted."""
    written = {key: value for key, value in action.items() if value not in (None, [], {})}
    kind = written.get("action")
    if kind in ("apply-effect", "redo-coins"):
        written.setdefault("effect", 0)
    if kind == "resolve":
        written.pop("injure_by", None)  # accepted only when it names the player who selects: the default
    if kind == "end-phase":
        for key in ("recover", "discard_petrified"):
            if key in written:
                written[key] = sorted(written[key])
    if state is None:
        return written
    at = _played_at(state, written)
    normal = NORMAL.get(str(kind))
    if normal is not None:
        normal(at, written)
    return written


def _page(state: State, action: dict[str, Any], key: str) -> None:
    """The open page that holds the card: the first one, unless the action names one."""
    player = state.players.get(action.get("player", ""))
    if player is None or "page" in action or key not in action:
        return
    page = next((p for p in player.open if player.card_on(p) == action[key]), None)
    if page is not None:
        action["page"] = page


def _normal_put(state: State, action: dict[str, Any]) -> None:
    _page(state, action, "card")
    player = state.players.get(action.get("player", ""))
    name = str(action.get("card"))
    if player is None or name not in state.cards:
        return
    kind = state.card(name)
    if kind.type == "PARTNER":
        fitting = [m for m in player.mamodo if _partner_fits(state, kind, m) and action.get("on") in (None, m.card)]
        chosen = next((m for m in fitting if m.partner is None and m.status != "petrified"), fitting[0] if fitting else None)
        if chosen is not None:
            action["on"] = chosen.card
    else:
        action.pop("on", None)
    if kind.type == "MAMODO" and kind.dual:
        named = [m for m in player.mamodo if set(state.card(m.card).names) & set(kind.dual)]
        wanted = action.get("send")
        chosen = next((m for m in named if m.card == wanted), None) if wanted else (named[0] if named else None)
        if chosen is not None:
            action["send"] = chosen.card
    else:
        action.pop("send", None)


def _partner_fits(state: State, partner: Card, mamodo: Mamodo) -> bool:
    there = state.card(mamodo.card)
    wanted = partner.mamodo or ""
    return wanted in (there.name, *there.names) or (bool(there.partner_names) and partner.name in there.partner_names)


def _normal_event(state: State, action: dict[str, Any]) -> None:
    _page(state, action, "card")
    name = str(action.get("card"))
    if name in state.cards:
        _normal_choices(state, action, str(action.get("player")), state.card(name).effects)


def _normal_spell(state: State, action: dict[str, Any]) -> None:
    """A Battle In or a Defense: with an "&" effect (``effect_of``) it names no SPELL card; a coin only for a SPELL card
    whose effect flips one."""
    if "effect_of" in action:
        for key in ("spell", "page", "played_by"):
            action.pop(key, None)
        name = action["effect_of"]
        used = "defend-without-spell" if action["action"] == "defend" else None
        effects = state.card(name).effects if name in state.cards else ()
        flips = [e for e in effects if e.kind == used][:1]
        if not any(e.kind == "coin-power" for e in _chain(flips)):
            action.pop("coin", None)
        return
    _page(state, action, "spell")
    spell = str(action.get("spell"))
    if spell in state.cards and not any(e.kind == "coin-power" for e in state.card(spell).effects):
        action.pop("coin", None)


def _normal_no_battle(state: State, action: dict[str, Any]) -> None:
    _page(state, action, "spell")
    spell = str(action.get("spell"))
    if spell in state.cards:
        _normal_choices(state, action, str(action.get("player")), state.card(spell).effects)


def _normal_effect(state: State, action: dict[str, Any]) -> None:
    player = state.players.get(action.get("player", ""))
    name = str(action.get("card"))
    if player is None or name not in state.cards:
        return
    effects = state.card(name).effects
    index = action.get("effect", 0)
    if not isinstance(index, int) or not 0 <= index < len(effects):
        return
    effect = effects[index]
    _normal_choices(state, action, player.name, (effect,))
    if not any(e.coins for e in _chain((effect,))):
        action.pop("coins", None)


def _normal_choices(state: State, action: dict[str, Any], owner: str, effects: tuple[Effect, ...]) -> None:
    """What the effects select (their own target, or the card a cut-in effect negates, unless the action names one),
    and who PROTECTS against their Damage; left out when the effects select nothing or inflict no Damage."""
    chain = _chain(effects)
    cut_in = any(e.is_cut_in for e in effects)
    kinds = {e.kind for e in chain}
    if not action.get("pay_extra") or not any(e.extra_mp for e in effects):
        action.pop("pay_extra", None)
    selecting = [e for e in chain if e.kind in SELECTING and not e.is_cut_in]
    if not (selecting or cut_in):
        action.pop("target", None)
    elif "target" not in action:
        fixed = next((e.target for e in selecting if e.target), None)
        if cut_in and not selecting:
            if state.stack.top is not None:
                action["target"] = state.stack.top.card  # "the card or effect ... just played or applied"
        elif fixed is not None:
            action["target"] = fixed
        elif "negate" in kinds and not cut_in:
            first = _first_kept(state, owner, chain)
            if first is not None:
                action["target"] = first
    times = max((e.times for e in chain if e.kind == "damage"), default=0)
    if not times and "turn-pages" in kinds:
        return  # turning pages is no Damage: an effect that PROTECTS against it is refused, not ignored
    each, single = action.pop("protect_each", None), action.pop("protect", None)
    protectors = list(each or [single])
    if not times:
        return
    protectors = (protectors + [None] * times)[:times]
    while protectors and protectors[-1] is None:
        protectors.pop()
    if len(protectors) == 1:
        action["protect"] = protectors[0]
    elif protectors:
        action["protect_each"] = protectors


def _first_kept(state: State, owner: str, chain: list[Effect]) -> str | None:
    """The opponent's first waiting [STAY] or [STANDBY] effect a negating effect that names none negates."""
    zones = {z for e in chain if e.kind == "negate" for z in e.negates} & {"stay", "standby"}
    found = next((k for k in state.players[other(owner)].kept if k.zone in zones), None)
    return found.source if found is not None else None


def _normal_resolve(state: State, action: dict[str, Any]) -> None:
    """Step 5: the Injury's targets are the Defender's first MAMODO cards unless the action selects them; a SACRIFICE
    counts only for a selected card."""
    battle = state.battle
    if battle is None or battle.winner is None:
        return
    spell = state.card(battle.spell.card) if battle.spell is not None else None
    injures = battle.winner == "attacker" and spell is not None and spell.injure > 0 and battle.attack_effect is None
    if not injures:
        action.pop("injure", None)
        action.pop("sacrifice", None)
    else:
        assert spell is not None
        if "injure" not in action:
            defender = state.players[state.defender]
            protector = action.get("protect")
            standing = [m.card for m in defender.mamodo if m.status != "petrified"
                        and not (m.card == protector and m.status == "injured" and spell.damage)]
            if standing:
                action["injure"] = standing[: spell.injure]
        else:  # the cards selected, whatever the order they are named in
            order = [m.card for m in state.players[state.defender].mamodo]
            chosen = list(action["injure"])[: spell.injure]
            action["injure"] = sorted(chosen, key=lambda name: order.index(name) if name in order else len(order))
        selected = set(action.get("injure") or [])
        sacrifice = {k: v for k, v in (action.get("sacrifice") or {}).items() if k in selected}
        if sacrifice:
            action["sacrifice"] = sacrifice
        else:
            action.pop("sacrifice", None)
    if not _battle_damages(state):
        action.pop("protect", None)


def _normal_end_phase(state: State, action: dict[str, Any]) -> None:
    """The END PHASE's choices: the order of its effects written in full (left out when it is the order they are
    listed in), the MAMODO card sent in left out when it is the one the rules take."""
    petrified = any(m.status == "petrified" for m in state.players[state.attacker].mamodo)
    sources = _end_sources(state)
    order = list(action.get("order") or [])
    if order:
        ranked = sorted(dict.fromkeys(sources), key=lambda s: order.index(s) if s in order else len(order))
        first = petrified and order[0] == RECOVERY
        full = ([RECOVERY] if first else []) + ranked + ([RECOVERY] if petrified and not first else [])
        default = list(dict.fromkeys(sources)) + ([RECOVERY] if petrified else [])
        if full == default or len(full) < 2:
            action.pop("order", None)
        else:
            action["order"] = full
    sends = dict(action.get("send_in") or {})
    for name in list(sends):
        player = state.players.get(name)
        playable = _sendable(state, player) if player is not None else []
        if not playable or sends[name] not in playable or sends[name] == playable[0]:
            del sends[name]
    if sends:
        action["send_in"] = sends
    else:
        action.pop("send_in", None)


NORMAL = {
    "put-in-play": _normal_put,
    "play-event": _normal_event,
    "play-no-battle": _normal_no_battle,
    "battle-in": _normal_spell,
    "defend": _normal_spell,
    "apply-effect": _normal_effect,
    "resolve": _normal_resolve,
    "end-phase": _normal_end_phase,
}


# --- What random play never breaks ------------------------------------------------------------------


def places(state: State, name: str) -> Counter[str]:
    """Every card of a player's book, counted once wherever it is: on its page, in play (underneath a MAMODO card and
    attached to one included), in the Discard Pile, out for the Battle, or a No Battle SPELL card in the SPELL card zone."""
    player = state.players[name]
    found = Counter(c for c in player.pages if c is not None)
    found.update(player.in_play_cards())
    found.update(player.discard)
    found.update(spell for spell, _ in player.no_battle_out)
    if state.battle is not None:
        for side, out in ((state.attacker, state.battle.spell), (state.defender, state.battle.defense)):
            if side == name and out is not None:
                found[out.card] += 1
    return found


def invariants(first: State, state: State) -> Iterator[str]:
    """What the manual keeps true from one state to any later one: each card of a Spell Book is in exactly one place;
    MP is never negative; pages are not turned back without the use of card effects; up to 3 MAMODO cards and up to 3
    PARTNER cards on a side, no two MAMODO cards sharing a MAMODO name, no two PARTNER or MJ12 cards a name on a side
    of play; an EVENT card stays in its page unless an effect sends it to the Discard Pile; the turn never goes back,
    and a game won stays won."""
    for name in PLAYERS:
        before, now = first.players[name], state.players[name]
        if places(state, name) != places(first, name):
            lost = places(first, name) - places(state, name)
            gained = places(state, name) - places(first, name)
            yield f"a card of {name}'s book is in two places, or in none: {dict(lost)} gone, {dict(gained)} more"
        if now.mp < 0:
            yield f"{name}'s MP is {now.mp}"
        if now.opening < before.opening and not any(entry.endswith(": turn-back-pages") for entry in state.log):
            yield f"{name}'s pages were turned back ({before.open} -> {now.open}) without a card effect"
        if len(now.mamodo) > MAX_IN_PLAY:
            yield f"{name} has {len(now.mamodo)} MAMODO cards in play"
        partners = [m.partner for m in now.mamodo if m.partner]
        if len(partners) > MAX_IN_PLAY or len(set(partners)) < len(partners):
            yield f"{name}'s PARTNER cards: {partners}"
        names = [n for m in now.mamodo for n in state.card(m.card).names]
        if len(set(names)) < len(names):
            yield f"two of {name}'s MAMODO cards share a MAMODO name: {[m.card for m in now.mamodo]}"
        mj12 = [c for c, _ in now.mj12]
        if len(set(mj12)) < len(mj12):
            yield f"two of {name}'s MJ12 cards share a name: {mj12}"
        for index, card in enumerate(before.pages):
            if card is not None and state.card(card).type == "EVENT" and now.pages[index] != card \
                    and now.discard.count(card) <= before.discard.count(card):
                yield f"{name}'s EVENT card {card} left page {index + 1}"
    if state.turn < first.turn:
        yield f"the turn went back from {first.turn} to {state.turn}"
    if first.loser is not None and state.loser != first.loser:
        yield f"{first.loser} lost the game, and then {state.loser}"
