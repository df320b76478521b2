"""The book's names by their pinyin (kb.knowledge.pinyin_names), on small fixtures of both
books' naming patterns: 水浒's single surnames and nicknames (tests/fixtures/kb_kinds), 三国's
double surnames, courtesy names and ü (a few people written here), and two people of one pinyin."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import DEFAULT_CORPUS
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import load_bundle
from kb.knowledge.english_words import english
from kb.knowledge.models import Event, Participant, Person, SourceRef
from kb.knowledge.pinyin_names import PinyinIndex, display_name, english_name, folded_words

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kb_kinds"
READINGS = english().surname_readings


@pytest.fixture(scope="module")
def shuihu() -> PinyinIndex:
    bundle = load_bundle(FIXTURE, chunk_corpus(read_corpus(DEFAULT_CORPUS, set(range(7, 12))), 600))
    return PinyinIndex.build(bundle.people, bundle.events, READINGS)


def _person(pid: str, name: str, *aliases: str, origin: str = "curated") -> Person:
    return Person(id=pid, name=name, aliases=list(aliases), origin=origin)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def sanguo() -> PinyinIndex:
    """三国's patterns: double surnames (诸葛, 夏侯), courtesy names (孔明, 玄德), ü (吕)."""
    people = [_person("zhuge_liang", "诸葛亮", "孔明", "卧龙"), _person("liu_bei", "刘备", "玄德"),
              _person("xiahou_dun", "夏侯惇"), _person("lv_bu", "吕布", "奉先"),
              _person("zhang_fei", "张飞", "翼德")]
    return PinyinIndex.build(people, [], READINGS)


def _found(index: PinyinIndex, question: str) -> list[tuple[str, ...]]:
    words = folded_words(question)
    hits = index.find(words, [False] * len(words), [True] * len(words))
    return [tuple(pid for pid, _ in h.candidates) for h in hits]


@pytest.mark.parametrize("written", ["Gao Qiu", "GaoQiu", "gao qiu", "Gao-Qiu", "GAO QIU",
                                     "Gāo Qiú", "gaoqiu"])
def test_a_name_in_every_way_readers_write_it(shuihu: PinyinIndex, written: str) -> None:
    assert _found(shuihu, f"Why did {written} hate him?") == [("gao_qiu",)]


def test_the_longest_match_and_aliases(shuihu: PinyinIndex) -> None:
    assert _found(shuihu, "Lu Zhishen and Lin Chong") == [("lu_zhishen",), ("lin_chong",)]
    assert _found(shuihu, "Baozitou") == [("lin_chong",)]  # 豹子头, a nickname
    assert _found(shuihu, "Lu Da") == [("lu_zhishen",)]  # 鲁达, his lay name


def test_a_word_ends_where_a_syllable_ends(shuihu: PinyinIndex) -> None:
    assert _found(shuihu, "gaoq iu") == []


def test_words_of_the_english_file_alone_are_no_name() -> None:
    index = PinyinIndex.build([_person("a", "那么")], [], READINGS)  # "na me": the word name
    words = folded_words("What is his name")
    known = [english().lookup(w) is not None for w in words]
    assert index.find(words, known, [True] * len(words)) == []
    assert index.find(["name"], [False], [True])  # the same letters, not known, are a name


def test_double_surnames_courtesy_names_and_u_umlaut(sanguo: PinyinIndex) -> None:
    assert _found(sanguo, "Zhuge Liang") == [("zhuge_liang",)]
    assert _found(sanguo, "Kongming") == [("zhuge_liang",)]
    assert _found(sanguo, "Liu Xuande") == [("liu_bei",)]  # his courtesy name after the surname
    assert _found(sanguo, "Xuande") == [("liu_bei",)]
    assert _found(sanguo, "Xiahou Dun") == [("xiahou_dun",)]
    assert _found(sanguo, "Lü Bu") == [("lv_bu",)] == _found(sanguo, "Lv Bu") == _found(sanguo, "Lu Bu")


def test_two_people_of_one_pinyin_are_both_candidates_the_better_known_first() -> None:
    people = [_person("zhang_qing", "张清"), _person("zhang_qing2", "张青")]
    events = [Event(id="e1", title="x", chapter=1, order=1,
                    participants=[Participant(person="zhang_qing2")], summary="",
                    sources=[SourceRef(quote="xx", chapter=1)])]
    index = PinyinIndex.build(people, events, READINGS)
    assert _found(index, "Zhang Qing") == [("zhang_qing2", "zhang_qing")]


def test_a_surname_by_its_surname_reading() -> None:
    index = PinyinIndex.build([_person("xie_zhen", "解珍"), _person("yue_he", "乐和")], [], READINGS)
    assert _found(index, "Xie Zhen") == [("xie_zhen",)] == _found(index, "Jie Zhen")
    assert _found(index, "Yue He") == [("yue_he",)]


def test_places_by_the_prefixes_of_the_events_places() -> None:
    events = [Event(id="e1", title="x", chapter=1, order=1, place="梁山泊聚义厅", summary="",
                    sources=[SourceRef(quote="xx", chapter=1)])]
    index = PinyinIndex.build([], events, READINGS)
    words = folded_words("Who led Liangshan")
    hits = index.find(words, [False] * 3, [True] * 3)
    assert [(h.kind, h.candidates[0][1]) for h in hits] == [("place", "梁山")]
    assert index.find(words, [False] * 3, [False, False, False]) == []  # a place is capitalized


def test_display_names() -> None:
    assert display_name("高俅", READINGS) == "Gao Qiu"
    assert display_name("公孙胜", READINGS) == "Gongsun Sheng"
    assert display_name("吕方", READINGS) == "Lü Fang"
    assert display_name("解珍", READINGS) == "Xie Zhen"
    assert english_name("高俅") == "Gao Qiu (高俅)"
    assert english_name("ABC") == "ABC"
    assert english_name("高俅的儿子") == "高俅的儿子"  # a description, not a name: as the book writes it


SANGUO = DEFAULT_CORPUS.parent.parent / "sanguo" / "zh-hans"


@pytest.mark.skipif(not SANGUO.exists(), reason="the 三国 corpus is not beside this checkout")
def test_a_book_built_from_its_text_alone_is_read_by_pinyin() -> None:
    """三国's opening chapters, their people discovered from the text (no hand-written table):
    the names and courtesy names by pinyin, and an English question read with them."""
    from extract.discover import discover_lexicon
    from extract.text import ChapterTexts
    from kb.answering.english_items import read_items
    from kb.answering.english_order import chinese_question

    texts = ChapterTexts(chunk_corpus(read_corpus(SANGUO, set(range(1, 6))), 600))
    people = [_person(e.id, e.name, *e.aliases, origin="extracted")
              for e in discover_lexicon(texts).entries]
    index = PinyinIndex.build(people, [], READINGS)
    ids = {p.name: p.id for p in people}
    assert _found(index, "Liu Bei and Cao Cao")[0][0] == ids["刘备"]
    assert _found(index, "Xuande")[0][0] == ids["刘备"] == _found(index, "Liu Xuande")[0][0]
    assert _found(index, "Mengde")[0][0] == ids["曹操"]
    items = read_items("Who killed Dong Zhuo?", english(), index)
    assert chinese_question(items, english()) == "董卓被谁杀了"
