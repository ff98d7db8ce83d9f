"""Monster Rancher Battle Card Episode II, as the rules document states it.

Read beside ``monster-rancher-battle-card-2.md``: the modules of this package follow the
document's order (Damage Calculation: Attack Step, Defense Step; General
Mechanics: Rounding Golden Rule, Damage Reduction, Taunts, Redirections, Life
Points Loss, Status through KO, Hand/Deck/Discard; Clarification on Specific
Cards). Every trace line cites the ruling it applies.

An attack is walked through the procedure declared in ``procedure.yaml``: the
``attack`` action walks the Attack Step, each ``defend`` action runs the
repeating Defense Step step, and the rest of the Defense Step (damage is dealt)
is walked before the next other action, for good even if the rules refuse that
action (``before_action``), or at the end of the scenario (``settle``).

One module for each section of the document: ``attack_step`` ("Commence your Attack
Step.") and ``defense_step`` ("Proceed to the opponent's Defense Step."), of Damage
Calculation, and ``general_mechanics``. Each imports only earlier ones and ``common``,
what they all share (the registries, the ambiguous rulings' switches, looking up what
an action names). They are imported here in the document's order, the order their
actions, effect kinds and steps are registered in (the scenario schema and the docs
list them so).
"""

from __future__ import annotations

from checker.games.monster_rancher_bc2.state import observe

from . import common, attack_step, defense_step, general_mechanics  # the document's order
from .common import setup, steps, vocabulary
from .general_mechanics import before_action, settle

__all__ = ["steps", "vocabulary", "setup", "observe", "before_action", "settle"]
