"""Discovering people and aliases from a book's text alone, on real chapters of both corpora:
the names, the aliases with the passage that gives them, and what is written to disk."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from core.settings import DEFAULT_CORPUS
from core.text import normalize
from extract.discover import Discovery, discover_lexicon, read_discovery, write_discovery
from extract.text import ChapterTexts
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus

SANGUO = DEFAULT_CORPUS.parent.parent / "sanguo" / "zh-hans"


@lru_cache(maxsize=4)
def texts_of(corpus: Path, first: int, last: int) -> ChapterTexts:
    return ChapterTexts(chunk_corpus(read_corpus(corpus, set(range(first, last + 1))), 600))


@lru_cache(maxsize=4)
def discovered(corpus: Path, first: int, last: int) -> Discovery:
    return discover_lexicon(texts_of(corpus, first, last))


def _by_name(discovery: Discovery) -> dict[str, list[str]]:
    return {e.name: e.aliases for e in discovery.entries}


def test_people_and_courtesy_names_of_the_opening_chapters() -> None:
    found = _by_name(discovered(SANGUO, 1, 5))
    for name in ("刘备", "关羽", "张飞", "曹操", "董卓"):
        assert name in found, name
    assert "玄德" in found["刘备"] and "刘玄德" in found["刘备"]
    assert "孟德" in found["曹操"]
    assert "玄德" not in found and "刘玄德" not in found  # an alias is not a person of its own


def test_each_alias_cites_the_verbatim_passage_that_gives_it() -> None:
    discovery = discovered(SANGUO, 1, 5)
    texts = texts_of(SANGUO, 1, 5)
    ids = {e.name: e.id for e in discovery.entries}
    evidence = {(e.alias, e.person): e for e in discovery.evidence}
    courtesy = evidence[("玄德", ids["刘备"])]
    assert courtesy.chapter == 1 and "字玄德" in courtesy.quote and "刘" in courtesy.quote
    for e in discovery.evidence:
        assert e.quote in texts.original(e.chapter), e
        assert normalize(e.alias) in normalize(e.quote) or e.rule.startswith("surname+"), e


def test_ids_are_pinyin_and_unique() -> None:
    discovery = discovered(SANGUO, 1, 5)
    ids = [e.id for e in discovery.entries]
    assert len(ids) == len(set(ids))
    assert {e.name: e.id for e in discovery.entries}["刘备"] == "liu_bei"


def test_the_other_script_is_read_alike() -> None:
    """水浒 is in traditional script: names are found in simplified form, quotes stay as written."""
    discovery = discovered(DEFAULT_CORPUS, 1, 3)
    names = _by_name(discovery)
    assert "史进" in names and "王进" in names
    texts = texts_of(DEFAULT_CORPUS, 1, 3)
    assert all(e.quote in texts.original(e.chapter) for e in discovery.evidence)


def test_written_and_read_back(tmp_path: Path) -> None:
    discovery = discovered(SANGUO, 1, 5)
    write_discovery(discovery, tmp_path / "discovered")
    assert read_discovery(tmp_path / "discovered") == discovery


def test_a_title_used_alone_is_its_holders_in_their_chapters() -> None:
    """温侯 stands for the one person who holds it (温侯吕布 / the text's own statements), only in
    the chapters where he does; the lexicon carries the span for the matcher."""
    discovery = discovered(SANGUO, 1, 20)
    entry = next(e for e in discovery.entries if e.name == "吕布")
    assert "温侯" in entry.aliases
    first, last = entry.alias_chapters["温侯"]
    assert 1 <= first <= last <= 20
    assert any(e.alias == "温侯" and e.rule == "title held" for e in discovery.evidence)


def test_a_person_the_text_names_only_by_a_title() -> None:
    """刘太公 (surname + 太公) speaks and is no one's alias: a person of their own."""
    names = _by_name(discovered(DEFAULT_CORPUS, 1, 10))
    assert "刘太公" in names


def test_a_nickname_goes_to_the_introduced_person_not_the_rescuer() -> None:
    """姓时名迁…却是杨雄救了他，人都叫做「鼓上蚤」: the nickname is not 杨雄's, and 杨雄 and 时迁 stay
    two people."""
    names = _by_name(discovered(DEFAULT_CORPUS, 44, 50))
    assert "时迁" in names and "杨雄" in names
    assert "鼓上蚤" not in names["杨雄"]


def test_a_fragment_of_another_name_is_no_person() -> None:
    """刺史甲乙，字丙: the courtesy name is 甲乙's, and 史甲乙 is no person of its own."""
    names = _by_name(discovered(SANGUO, 1, 10))
    assert "刘表" in names and not any(n.endswith("刘表") and n != "刘表" for n in names)


def test_a_held_title_comes_after_the_persons_own_forms() -> None:
    """Search adds a person's first aliases to a query: a title held in some chapters only (温侯)
    must not come before the forms that are theirs everywhere."""
    entry = next(e for e in discovered(SANGUO, 1, 20).entries if e.name == "吕布")
    spans = [a in entry.alias_chapters for a in entry.aliases]
    assert spans == sorted(spans)


def test_a_person_who_never_speaks_but_is_listed_with_people_is_found() -> None:
    """李傕、郭汜、张济、樊稠: 张济 never speaks in these chapters, the list of people proves him."""
    names = _by_name(discovered(SANGUO, 1, 20))
    assert "张济" in names


def test_a_name_without_a_listed_surname_that_speaks_is_a_person() -> None:
    """貂蝉 (貂 is no surname of the list) speaks at the head of clauses: a person; the phrases
    that also stand before 曰 (又问, 大喝, 甲笑) are none."""
    names = _by_name(discovered(SANGUO, 1, 20))
    assert "貂蝉" in names
    assert not {"操笑", "大喝", "其略", "忽报"} & set(names)


def test_a_given_name_used_alone_is_the_full_names_alias() -> None:
    """智深道: the two-character given name of 鲁智深 is his alias, not a second person."""
    names = _by_name(discovered(DEFAULT_CORPUS, 1, 10))
    assert "鲁智深" in names and "智深" in names["鲁智深"]
    assert "智深" not in names


def test_a_monk_named_by_a_religious_name_and_a_title_is_a_person() -> None:
    """智真长老 (a religious name + 长老, no surname): a person, 智真 alone his alias."""
    names = _by_name(discovered(DEFAULT_CORPUS, 1, 10))
    assert "智真长老" in names and "智真" in names["智真长老"]


def test_a_full_name_with_a_title_after_it_is_that_person() -> None:
    """朵思大王 is 朵思 called by a title; 林冲娘子 is 林冲's wife, no form of his."""
    assert "朵思大王" in _by_name(discovered(SANGUO, 88, 90)).get("朵思", [])
    assert "林冲娘子" not in _by_name(discovered(DEFAULT_CORPUS, 7, 8)).get("林冲", [])


def test_a_woman_named_by_surname_and_shi_after_a_word_of_marriage() -> None:
    """甄氏 (纳甄氏, 熙之妻甄氏) is a woman of her own; 袁氏 (袁氏之故吏) is a house."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert "甄氏" in names
    assert "袁氏" not in names


def test_a_name_no_listed_surname_starts_written_beside_a_leaders_title() -> None:
    """兀突骨 (国主兀突骨) and 阿会喃 (阿会喃元帅) are people; 三洞 (三洞元帅: the third cave's)
    is none; 孙綝, written 孙𬘭 once simplified, is counted at all."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert "兀突骨" in names and "阿会喃" in names
    assert "三洞" not in names
    assert any(normalize(n) == normalize("孙綝") for n in names)


def test_a_woman_named_by_surname_and_title_who_speaks() -> None:
    """曹后 (曹后大怒曰) and 崔夫人 (崔夫人问曰) are women of their own, seldom named."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert "曹后" in names and "崔夫人" in names


def test_a_mother_named_by_surname_and_the_elder_lady_title() -> None:
    """吴太夫人 (策母吴太夫人): surname + 太夫人 (genre titles), not a person 吴太 with 夫人."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert "吴太夫人" in names
    assert "吴太" not in names


def test_two_titles_of_one_rank_close_together_are_one_woman() -> None:
    """何后 … 何太后, 伏后 … 伏皇后 in one passage: one woman, the longer title her name; 董妃 (a
    consort of chapter 24) stays apart from 董太后 (chapters 2–3): another rank, and they never meet."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert "何后" in names["何太后"] and "何后" not in names
    assert "伏后" in names["伏皇后"] and "董后" in names["董太后"]
    assert "董妃" not in names["董太后"]


def test_officials_named_after_their_titles_and_a_ruler_after_his_mark() -> None:
    """太守刘焉, 中郎蔡邕 never speak enough; 吴主孙亮 is written after 主 in most of its uses."""
    names = _by_name(discovered(SANGUO, 1, 120))
    assert {"刘焉", "蔡邕", "孙亮"} <= set(names)
