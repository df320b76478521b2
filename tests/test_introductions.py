"""The introduction formulas give a person's other names with the sentence that ties them, and
the bearer is the person the passage means (invented names: the rules are the genre's)."""

from __future__ import annotations

from extract.introductions import Intro, IntroductionReader
from kb.knowledge.genre import genre

# A text opens with a paragraph break ("\n…"): a short literal holding 为 would otherwise be
# harvested as a question by tests/golden/answers.py.
PEOPLE = {"钱甲", "钱丙", "孙丁", "孙戊", "周庚", "司马辛"}


def _read(text: str, people: set[str] = PEOPLE) -> list[Intro]:
    reader = IntroductionReader(genre().people, people.__contains__)
    return reader.read(1, text)


def _aliases(text: str, people: set[str] = PEOPLE) -> set[tuple[str | None, str, str]]:
    return {(i.name, i.alias, i.kind) for i in _read(text, people) if i.kind != "name"}


def test_a_sobriquet_after_daohao_and_its_stem() -> None:
    text = "此人姓周，名庚，字子寿，乃南方人也。道号清溪先生。"
    assert ("周庚", "清溪先生", "styled") in _aliases(text)


def test_a_given_name_alone_before_zi() -> None:
    """司马辛为文学掾。辛字季达: the given name alone, the full name said just before."""
    text = "\n以钱甲为东曹掾，司马辛为文学掾。辛字季达，河北人也。"
    assert ("司马辛", "季达", "courtesy") in _aliases(text)


def test_an_unquoted_nickname_after_renchengwei() -> None:
    text = "\n此人勇力过人，乃孙丁也，人皆称为铁汉；不可轻敌。"
    assert ("孙丁", "铁汉", "nickname") in _aliases(text)


def test_a_name_taken_later() -> None:
    text = "\n钱丙曰：某本姓钱，为因逃难，更名单行。"
    assert ("钱丙", "单行", "new name") in _aliases(text)


def test_the_introduced_person_not_the_rescuer_named_between() -> None:
    """姓钱名甲…却是孙丁救了他，人都叫做「X」: 他 is not 孙丁, the passage is about 钱甲."""
    text = "孙丁认得这人，姓钱，名甲，流落在此。曾吃官司，却是孙丁救了他，人都叫做「夜飞」。"
    assert ("钱甲", "夜飞", "nickname") in _aliases(text)
    assert not any(name == "孙丁" for name, _, _ in _aliases(text))


def test_the_nearest_person_when_two_are_introduced_together() -> None:
    text = "这弟兄两个，姓孙，名戊，绰号『大浪』，兄弟孙丁，唤做『小浪』，是镇上一霸。"
    found = _aliases(text)
    assert ("孙戊", "大浪", "nickname") in found and ("孙丁", "小浪", "nickname") in found


def test_a_quoted_epithet_before_an_unknown_word_names_no_one() -> None:
    """唤做『X』某某: the epithet stands before a name we do not know; the person named earlier
    in the sentence is not its bearer."""
    text = "\n回至城外，被钱甲撞见，为头一个唤做『险神』郁某某，聚集众人。"
    assert not any(alias == "险神" for _, alias, _ in _aliases(text))


def test_a_place_named_by_jiaozuo_is_no_nickname() -> None:
    """唤做 without quotes names places and things (此间唤做桃花村): only 称为 forms are read plain."""
    text = "钱甲道：此间唤做青石村。"
    assert not _aliases(text)


def test_introduced_names_of_the_first_pass() -> None:
    reader = IntroductionReader(genre().people, {"孙丁", "钱某"}.__contains__)
    named = reader.introduced("姓孙，名丁，字子乙。又有「小浪」钱某，「小浪」钱某。")
    assert named["孙丁"] >= 2 and named["钱某"] == 2


def test_the_youngest_of_a_named_family() -> None:
    """甲氏，兄弟五人…幼者名乙，字丙: the family's surname + the given name."""
    reader = IntroductionReader(genre().people, {"孙丁", "钱乙"}.__contains__)
    found = {(i.name, i.alias) for i in reader.read(1, "荆南钱氏，兄弟五人并有才名：幼者名乙，字季常。")}
    assert ("钱乙", "季常") in found


def test_a_nickname_of_the_person_the_sentence_before_named() -> None:
    """…必孙丁也。此人勇力过人，人皆称为丙: 此人 is the one
    just named."""
    text = "\n今来救者，必孙丁也。此人勇力过人，人皆称为铁汉；不可轻敌。"
    assert ("孙丁", "铁汉", "nickname") in _aliases(text)


def test_a_new_name_may_be_a_full_name() -> None:
    text = "\n钱丙曰：某本颍川人，为因逃难，更名孙戊。"
    assert ("钱丙", "孙戊", "new name") in _aliases(text)


def test_a_childhood_name_after_a_birth() -> None:
    """甲生乙…故乳名丙: the child whose birth the passage told, named sentences before."""
    text = "建安某年春，钱甲生钱丙。是夜有白鹤飞来。临分娩时，异香满室，因而怀孕，故乳名阿福。"
    assert ("钱丙", "阿福", "childhood") in _aliases(text)


def test_the_full_formula_gives_its_courtesy_name_to_no_one_else() -> None:
    """姓钱名甲，字子乙: the style is 钱甲's; neither the formula's letters read as a name (钱名甲)
    nor someone whose name merely ends in 甲 (周甲, said before) gets it too."""
    text = "\n周甲方才坐定。众视之，乃北方人也，姓钱名甲，字子乙。"
    owners = {name for name, alias, _ in _aliases(text, {*PEOPLE, "周甲", "钱名甲"})
              if alias == "子乙"}
    assert owners == {"钱甲"}
