"""The BATTLE PHASE, No Battle SPELL Cards: "A Battle does not begin when a No Battle SPELL card is played. Its
effect will be applied, like an EVENT card."
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.engine.game import Context
from checker.engine.vocabulary import ref

from ..state import Player, State
from .common import (
    BATTLE, BOOK, MP, NO_BATTLE_NEGATION, NO_BATTLE_RETURN, SPELL_ONCE_PER_TURN, _check_spell_mamodo,
    PAY_EXTRA, _spell_cost, card, vocabulary,
)
from .resolving import _check_prohibited, _open_to_cut_in, _pay_extra, _resolve_effect
from .battle_phase import _acted, _take_action
from .put_in_play import _on_open_page, _role


@vocabulary.action("play-no-battle", "An Action: play a No Battle SPELL card from an open page for an in-play MAMODO card; its "
                   "effects are applied like an EVENT card's and no Battle begins.",
                   params={"player": ref("player"), "mamodo": ref("card-name"), "spell": ref("card-name"), "page": {"type": "integer"},
                           "target": {**ref("card-name"), "description": "The MAMODO card its effect selects."},
                           "protect": {**ref("card-name"), "description": "The MAMODO card that PROTECTS against its Damage."},
                           "pay_extra": PAY_EXTRA},
                   required=["player", "mamodo", "spell"])
def play_no_battle(context: Context, state: State, action: Mapping[str, Any]) -> None:
    player, name = state.players[action["player"]], action["spell"]
    if state.battle is not None:
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
        context.note("zb.play.no-battle-no-battle", f"{name} is played like an EVENT card: its MP cost is paid as it is played",
                     involves=[card(name), MP])
        raise context.reject("not-enough-mp", f"{name} costs {cost} MP; {player.name} has {player.mp} MP", "zb.play.event-pay",
                             involves=[card(name), MP])
    player.mp -= cost
    _pay_extra(context, state, player, name, kind.effects, action)
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
