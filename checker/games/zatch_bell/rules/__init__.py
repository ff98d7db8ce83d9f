"""Zatch Bell! The Card Battle, as its manual states it: the Spell Book, the turn and the Battle (part 1).

The game stands at one step of ``procedure.yaml``, which declares who may act there and what (its
priority rules and actions: the core refuses the rest and keeps who holds priority and who passed,
``state.priority``). ``setup`` checks both Spell Books and walks the PREPARATION PHASE.
``turn-pages`` is the Attacker's START PHASE; in the BATTLE PHASE the players perform Actions in turn
(``put-in-play``, ``apply-effect``, ``play-event``, ``battle-in``) or ``pass``; a "Battle In" the
Defender lets through begins the Battle: ``defend`` (or ``pass``), icon-marked effects until both
pass, Total Power compared, then ``resolve`` (the Defender's PROTECT, the Attacker's Injury targets)
and "Battle Out". When both players pass in Non-Battle the END PHASE follows (``end-phase`` gives
its choices; any later action or the end of the scenario runs it with none), then the roles switch.
What a pass means at each step is bound beside it (``@steps.passed``); cut-in effects answer out of
turn, on the core's response stack (``state.stack``).

One module for each section of the manual, imported here in the manual's order, which is the order
their actions, effect kinds and steps are registered in (the scenario schema and the docs list them
so): ``spell_book``, ``preparation``, ``start_phase``, ``battle_phase`` (the Action System and the
Alternating Rule), ``put_in_play``, ``apply_effect``, ``event``, ``no_battle``, the Battle in three
(``battle_in``: "Battle In!" and the Attack; ``battle_steps``: the Defense, the effects, Total
Power; ``battle_outcome``: Damage, Injury and "Battle Out"), ``effects`` (the effect kinds),
``end_phase``, ``stay_standby``, ``negating``, and ``finishing`` (what an action finishes first).
A section imports only earlier ones and the two modules every section shares: ``common`` (the
registries, the ambiguous rulings' switches, the manual's numbers) and ``resolving`` (Applying &
Resolving Effects, Cut-In effects, and the [STAY]/[STANDBY] and "Cannot" rules every phase applies).
"""

from __future__ import annotations

from ..state import observe
from . import common, resolving  # what the sections share
from . import spell_book, preparation, start_phase, battle_phase, put_in_play, apply_effect, event, no_battle  # the manual's order
from . import battle_in, battle_steps, battle_outcome, effects, end_phase, stay_standby, negating, finishing
from .common import steps, vocabulary
from .finishing import after_action, before_action, settle
from .spell_book import setup

__all__ = ["steps", "vocabulary", "setup", "observe", "before_action", "after_action", "settle"]
