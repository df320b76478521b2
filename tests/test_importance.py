"""What marks an event as remembered: its chapter's title names it, or a profile does."""

from __future__ import annotations

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.importance import in_headline, name_keys, named_in_profile
from providers.memory import MemoryProvider


def test_a_headline_shares_an_act_with_the_chapter_title_not_a_name() -> None:
    names = name_keys(["甲某", "乙某", "丙行者"])
    assert in_headline("甲某血溅丁楼", "第九回　乙某血溅丁楼　丙行者夜走戊岭", names)
    assert not in_headline("丙行者杀道人", "第九回　乙某血溅丁楼　丙行者夜走戊岭", names)
    assert not in_headline("甲某乙某奏捷", "第九回　甲某乙某同心", names)  # names alone
    assert not in_headline("甲某到戊岭", "第九回　丙行者夜走戊岭", names)  # a place of three


def test_a_profile_names_a_deed_by_a_clause_of_the_title() -> None:
    assert named_in_profile("乙某下药，智取丙物", "乡里先生；智取丙物的主谋")
    assert not named_in_profile("乙某下药，智取丙物", "")
    assert not named_in_profile("甲乙", "甲乙丙")  # two characters name no deed


def test_the_book_s_chapter_titles_mark_its_famous_episodes(
        kb_curated_bundle: KnowledgeBundle) -> None:
    marked = {e.title for e in kb_curated_bundle.events if e.headline}
    assert {"武松血溅鸳鸯楼", "吴用下药，智取生辰纲", "梁山好汉劫法场"} <= marked
    assert "武行者杀王道人" not in marked  # shares only the name 武行者 with its chapter title
    assert 40 <= len(marked) <= 200


def test_a_journey_keeps_the_episode_its_chapter_is_named_for(
        kb_curated_bundle: KnowledgeBundle) -> None:
    provider = MemoryProvider()
    provider.load(kb_curated_bundle)
    titles = [e.title for s in provider.journey("wu_song").stages for e in s.events]
    assert "武松血溅鸳鸯楼" in titles
