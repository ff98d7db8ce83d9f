"""What the sections of the rules share: the registries (the procedure's steps, conditions and roles, the
vocabulary and its reject reasons), the switches of the ambiguous rulings, the manual's numbers, the mechanics
the trace names, and the rules of a later section that an earlier one already applies, each under the banner
of its section: where the turn stands (the START PHASE, the BATTLE PHASE's first Action), the Defender's Action
before "Battle In", and a SPELL card played for its MAMODO at its MP cost.
"""

from __future__ import annotations


from checker.engine.game import Context
from checker.engine.procedure import StepHandlers
from checker.engine.trace import Entity, mechanic
from checker.engine.vocabulary import Vocabulary

from ..state import BOOK_PAGES, LAST_OPENING, Battle, Card, Kept, Mamodo, Player, State, base_name

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
    play_with_battle_in='An effect that plays a SPELL card to Attack is applied by declaring "Battle In" with that SPELL card.',
    defend_with_a_defense="An effect that Defends without a SPELL card is applied by declaring the Defense with it.",
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
PETRIFIED_INJURY = "zb.amb.petrified-injury"
PUT_IN_PLAY_PLAYED = "zb.amb.put-in-play-just-played"
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
RESOLVED_SHIELD = "zb.amb.resolved-shield-lasts"
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


def card(name: str) -> Entity:
    return ("card", name)


BOOK, MP, BATTLE, DAMAGE, INJURY = (mechanic(m) for m in ("Spell Book", "MP", "Battle", "Damage", "Injury"))
ACTION, PETRIFIED, PROTECT = mechanic("Action"), mechanic("Petrified"), mechanic("SACRIFICE / PROTECT")
CUT_IN, STAY, STANDBY, CANNOT = mechanic("Cut-In"), mechanic("[STAY]"), mechanic("[STANDBY]"), mechanic('"Cannot"')
COIN_TOSS = mechanic("coin toss")
COIN = {"enum": ["heads", "tails"], "description": "How the coin the SPELL card's effect flips lands (chance, written down)."}
COINS = {"type": "array", "items": COIN, "description": "How the coins an effect flips as it is declared land (chance, written down: "
         "heads is the side with a mamodo's face)."}
PAY_EXTRA = {"type": "boolean", "description": "Pay the optional cost printed on the card (\"you may pay X more MP to ...\", extra_mp)."}


# === The START PHASE ================================================================================


def _turn_steps(state: State) -> str:
    """The figure of the 1st Attacker's turn, or of the 2nd Attacker's: STEP 1 START PHASE, STEP 2 BATTLE PHASE, STEP 3 END PHASE."""
    return "zb.sequence.first-turn-steps" if state.attacker == state.first_attacker else "zb.sequence.second-turn-steps"


def _before_start_phase(context: Context, state: State) -> bool:
    """The game stands before the Attacker's START PHASE (the END PHASE's loop has brought it back there)."""
    return not context.reached(state, "start-page-turning") and state.loser is None


@steps.condition("game-won")
def game_won(state: State) -> bool:
    return state.loser is not None


@steps.role("attacker")
def attacker(state: State) -> str:
    return state.attacker


@steps.role("defender")
def defender(state: State) -> str:
    return state.defender


# === The BATTLE PHASE: the Action System and the Alternating Rule ================================


def _open_battle_phase(context: Context, state: State) -> None:
    context.note(_turn_steps(state), f"STEP 2, BATTLE PHASE, of {state.attacker}'s turn", involves=[ACTION])
    context.note("zb.turns.battle-actions", f"BATTLE PHASE: {state.attacker} (Attacker) and {state.defender} (Defender) "
                 "each take turns performing 1 Action", involves=[ACTION])
    context.note("zb.alternate.attacker-first", f"{state.attacker}, the Attacker, performs the first Action", involves=[ACTION])


# === Declaring "Battle In!" and the Battle =======================================================


def _defender_acts_before_battle_in(context: Context, state: State, player: str) -> None:
    state.answered_battle_in, state.pending_battle_in = state.pending_battle_in, None
    context.note("zb.battle-in.defender-action", f"{player}, the Defender, performs 1 Action before the \"Battle In\"",
                 involves=[BATTLE, ACTION])
    context.note("zb.battle-in.again", f"{state.attacker} may declare \"Battle In\" again or perform another Action",
                 involves=[BATTLE])


def _take_undefendable(attacker: Player) -> tuple[Kept, ...]:
    """The Attacker's "cannot be Defended" effects: they apply to this Battle, the next one after they were applied, and no later."""
    taken = tuple(kept for kept in attacker.kept if kept.effect.kind == "undefendable")
    attacker.kept = [kept for kept in attacker.kept if kept.effect.kind != "undefendable"]
    return taken


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


def _battle(state: State) -> Battle:
    assert state.battle is not None
    return state.battle
