"""The asked slot stated from the chosen sentence (kb.answering.passage_lead), on sentences of
三国演义 as the book writes them: a who answer names the people the sentence names besides the
question's own (those it asks about, and those it only mentions: 丁原 of 杀了丁原投奔了谁)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kb.answering.passage_lead import slot_of
from kb.answering.passage_reading import Reading
from kb.answering.people_index import PeopleIndex
from kb.knowledge.language import frames
from kb.knowledge.models import Person

PEOPLE = PeopleIndex.build([Person(id="lv_bu", name="吕布", aliases=["奉先"]),
                            Person(id="ding_yuan", name="丁原"),
                            Person(id="dong_zhuo", name="董卓", aliases=["董公"])])
SAID = "布沈吟良久曰：“吾欲杀丁原，引军归董卓，何如？”"  # 第3回


def _ctx(asks: str, plan_people: list[str], named: list[str], chapter: int = 3,
         passive: bool = False) -> Any:
    plan = SimpleNamespace(asks=asks, person_ids=plan_people,
                           named=[(p, PEOPLE.people[p].name) for p in named],
                           detail=SimpleNamespace(passive=passive))
    return SimpleNamespace(plan=plan, people=PEOPLE,
                           name=lambda pid: PEOPLE.people[pid].name,
                           say=lambda key, **f: frames("zh").phrase(key, **f),
                           block_of=lambda _: SimpleNamespace(chapter=chapter, text=SAID))


def _reading(sentence: str) -> Reading:
    return Reading(1.0, sentence, "ch003_chunk_008", "")


def test_who_names_the_one_the_question_does_not() -> None:
    ctx = _ctx("who", ["lv_bu"], ["lv_bu", "ding_yuan"])
    assert slot_of(ctx, _reading(SAID)) == "董卓"


def test_who_states_nothing_when_the_sentence_names_no_one_else() -> None:
    ctx = _ctx("who", ["lv_bu"], ["lv_bu", "ding_yuan", "dong_zhuo"])
    assert slot_of(ctx, _reading(SAID)) is None


def test_a_chapter_question_states_the_chapter_of_the_block() -> None:
    assert slot_of(_ctx("chapter", ["lv_bu"], ["lv_bu"], 104), _reading(SAID)) == "第104回"


def test_other_asks_state_nothing() -> None:
    assert slot_of(_ctx("why", ["lv_bu"], ["lv_bu"]), _reading(SAID)) is None


def test_who_did_it_to_them_names_only_those_before_the_act() -> None:
    """丁原被谁杀了: of the sentence's people, the one before 杀, not 董卓 after it."""
    ctx = _ctx("who", ["ding_yuan"], ["ding_yuan"], passive=True)
    assert slot_of(ctx, _reading("吕布拔剑杀了丁原，提头去见董卓。")) == "吕布"
