"""Which possession states are someone's weapon (kb.answering.weapons), on made-up records."""

from __future__ import annotations

from kb.answering.weapons import weapon_states
from kb.knowledge.language import language
from kb.knowledge.models import SourceRef, State


def _state(value: str, chapter: int, description: str = "", kind: str = "possession") -> State:
    return State(id=f"st_{chapter}_{value}", person="jia", kind=kind, value=value,
                 chapter=chapter, description=description,
                 sources=[SourceRef(quote="甲拿起兵器", chapter=chapter)])


def test_states_that_say_they_are_a_weapon_win_over_a_bought_blade() -> None:
    bought = _state("宝刀", 3, "甲买下一口宝刀。")
    spear = _state("丈八蛇矛", 9, "甲惯使的兵器是丈八蛇矛。")
    axes = _state("两把板斧", 5, "甲使的兵器是两把板斧。")
    assert weapon_states([bought, spear, axes]) == [axes, spear]  # book order


def test_without_such_a_description_a_value_naming_an_arm_counts() -> None:
    staff = _state("浑铁禅杖", 7, "甲演武所使。")
    horse = _state("乌骓马", 4, "甲的坐骑。")
    place = _state("刀山", 2, "", kind="place")
    relics = _state("头陀遗物（戒刀、数珠）", 5, "被害的头陀留下两把戒刀和数珠。")
    assert weapon_states([horse, staff, place, relics]) == [staff]
    assert weapon_states([horse]) == []


def test_the_asking_words() -> None:
    """甲用什么兵器 and 甲的武器是什么 ask for the weapon (the language's `weapon` words);
    甲用什么办法 does not."""
    words = language().words_of("weapon")
    assert any(w in "甲用什么兵器" for w in words) and any(w in "甲的武器是什么" for w in words)
    assert not any(w in "甲用什么办法" for w in words)
