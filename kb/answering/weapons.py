"""What someone fights with (甲用什么兵器, 甲的武器是什么): their weapon states, in book order.

A weapon is a `possession` state: curated ones say so in their description (the language's `weapon` words:
某人惯使的兵器是…); an older state that names only the thing counts when its value names an arm
(the language's `arms`: 板斧, 禅杖 …) that its description says they wield. A bought treasure, a horse or a
letter is a possession too: none of them answers this question, so a person without a weapon
state is not answered from stray sentences that hold the word 兵器 (a battle line naming others'
arms).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from kb.knowledge.language import language
from kb.knowledge.models import State


def weapon_states(states: Sequence[State]) -> list[State]:
    """The person's weapons in book order: possession states that say they are a weapon, or,
    when none says so, those whose value names an arm the description says they wield."""
    lang = language()
    weapon, arms, wield = lang.words_of("weapon"), set(lang.chars.arms), set(lang.chars.wield)
    possessions = [s for s in states if s.kind == "possession"]
    said = [s for s in possessions if any(w in to_simplified(s.description) for w in weapon)]
    named = [s for s in possessions if arms & set(to_simplified(s.value))
             and wield & set(to_simplified(s.description))]
    return sorted(said or named, key=lambda s: (s.chapter, s.id))
