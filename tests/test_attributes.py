"""One attribute of a person from their profile (kb.answering.attributes), on made-up text."""

from __future__ import annotations

import pytest

from kb.answering.attributes import telling_clauses
from kb.answering.details import asked_attribute

PROFILE = ("石碣天文天罡星第99位，上应天甲星，绰号“甲虎”；梁山泊排座次居第99位，职司步军头领。"
           "某州某县人，面黑身矮，善使双刀，人称甲虎，原是本县押司。")


@pytest.mark.parametrize(("question", "attribute"), [
    ("甲是哪里人", "home"), ("甲是什么出身", "trade"), ("甲有什么本事", "gifts"),
    ("甲长什么样", "looks"), ("甲为什么叫甲虎", "named"), ("甲杀了谁", None),
])
def test_the_asked_attribute(question: str, attribute: str | None) -> None:
    assert asked_attribute(question) == attribute


@pytest.mark.parametrize(("attribute", "clauses"), [
    ("home", ["某州某县人"]), ("trade", ["原是本县押司"]), ("gifts", ["善使双刀"]),
    ("looks", ["面黑身矮"]), ("named", ["善使双刀", "人称甲虎"]),
])
def test_the_profile_clauses_that_tell_it_never_the_roster(attribute: str,
                                                           clauses: list[str]) -> None:
    roster = ("上应", "排座次", "石碣", "职司", "绰号“")  # a book profile's roster_marks
    assert telling_clauses([PROFILE], attribute, roster) == clauses
