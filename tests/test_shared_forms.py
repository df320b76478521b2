"""A form two people share is resolved passage by passage, never dropped: by who is named
before it, after it, or whose chapters these are."""

from __future__ import annotations

from extract.names import LexiconEntry, Roster


def _roster() -> Roster:
    # two people who share the courtesy name 子明 (invented names: the rule is the genre's)
    return Roster.build([
        LexiconEntry(id="zhao_a", name="赵甲", aliases=["子明"], first_chapter=1, last_chapter=90,
                     mentions=500),
        LexiconEntry(id="qian_b", name="钱乙", aliases=["子明"], first_chapter=40, last_chapter=42,
                     mentions=12),
        LexiconEntry(id="sun_c", name="孙丙", aliases=[], first_chapter=1, mentions=50),
    ])


def _people(roster: Roster, chapter: int, text: str) -> list[tuple[str, str]]:
    return [(m.form, m.person) for m in roster.matcher(chapter).find(text)]


def test_the_person_named_before_the_form_is_meant() -> None:
    roster = _roster()
    assert _people(roster, 41, "钱乙入帐，孙丙问之。子明曰：可也。") == [
        ("钱乙", "qian_b"), ("孙丙", "sun_c"), ("子明", "qian_b")]
    assert _people(roster, 41, "赵甲入帐，孙丙问之。子明曰：可也。") == [
        ("赵甲", "zhao_a"), ("孙丙", "sun_c"), ("子明", "zhao_a")]


def test_the_person_named_after_it_when_no_one_before() -> None:
    assert _people(_roster(), 41, "子明引兵至此，钱乙大喜。")[0] == ("子明", "qian_b")


def test_without_a_name_nearby_the_chapter_decides() -> None:
    roster = _roster()
    assert _people(roster, 10, "子明曰：可也。") == [("子明", "zhao_a")]  # 钱乙 is not yet there
    assert roster.shared_forms() == {"子明": ("qian_b", "zhao_a")}


def test_an_unshared_form_is_untouched() -> None:
    assert _people(_roster(), 41, "孙丙曰：可也。") == [("孙丙", "sun_c")]


def test_a_title_passed_on_names_each_holder_in_their_chapters() -> None:
    """北王 is 赵甲's in chapters 1–20 and 钱乙's in 21–40 (the lexicon's alias_chapters): no
    passage needed to tell them apart, and outside both stretches it names no one."""
    roster = Roster.build([
        LexiconEntry(id="zhao_a", name="赵甲", aliases=["北王"], alias_chapters={"北王": (1, 20)}),
        LexiconEntry(id="qian_b", name="钱乙", aliases=["北王"], alias_chapters={"北王": (21, 40)}),
    ])
    assert _people(roster, 5, "北王曰：可也。") == [("北王", "zhao_a")]
    assert _people(roster, 30, "钱乙入帐，赵甲随之。北王曰：可也。")[-1] == ("北王", "qian_b")
    assert _people(roster, 50, "北王曰：可也。") == []
