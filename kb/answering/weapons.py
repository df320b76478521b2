"""What someone fights with (甲用什么兵器, 甲的武器是什么): their weapon states, in book order.

A weapon is a `possession` state: curated ones say so in their description (`WEAPON_WORDS`:
某人惯使的兵器是…); an older state that names only the thing counts when its value names an arm
(`ARM_CHARS`: 板斧, 禅杖 …) that its description says they wield. A bought treasure, a horse or a
letter is a possession too: none of them answers this question, so a person without a weapon
state is not answered from stray sentences that hold the word 兵器 (a battle line naming others'
arms).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from kb.knowledge.models import State

WEAPON_WORDS = ("兵器", "武器", "兵刃", "军器")
"""A reader's words for someone's arms; a question holding one asks for the weapon."""
ARM_CHARS = frozenset("刀枪鎗矛戟斧钺鞭锏棍棒杖锤槌叉剑弓箭弩镖钩镰槊链")
"""Characters that name an arm in a possession's value (an older state without the word 兵器)."""
WIELD_CHARS = frozenset("使擎挺持执抡掄舞拿提")
"""An older state's description must say the person wields it: a dead monk's 戒刀 handed on with
his beads is not the keeper's weapon."""


def asks_weapon(text: str) -> bool:
    """The (simplified) question asks what someone fights with."""
    return any(word in text for word in WEAPON_WORDS)


def weapon_states(states: Sequence[State]) -> list[State]:
    """The person's weapons in book order: possession states that say they are a weapon, or,
    when none says so, those whose value names an arm the description says they wield."""
    possessions = [s for s in states if s.kind == "possession"]
    said = [s for s in possessions if any(w in to_simplified(s.description) for w in WEAPON_WORDS)]
    named = [s for s in possessions if ARM_CHARS & set(to_simplified(s.value))
             and WIELD_CHARS & set(to_simplified(s.description))]
    return sorted(said or named, key=lambda s: (s.chapter, s.id))
