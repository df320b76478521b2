"""A title form after a surname (甲公) is tied to one person only with evidence: the title written
before their full name, or a clear majority of the passages around it. Two people of the surname
who are both near it share it (resolved passage by passage); they are never merged."""

from __future__ import annotations

from extract.title_forms import TitleCandidate, tie_title

# invented names: the rule is the genre's, no book's
FATHER = TitleCandidate("钱甲", ("钱甲", "子乙"))
SON = TitleCandidate("钱丙", ("钱丙",))


def test_a_clear_majority_ties_the_form() -> None:
    texts = {1: "钱甲引兵至城下。钱公曰：可也。" * 4 + "。" * 400 + "钱丙在后。"}
    tie = tie_title("钱公", "公", [FATHER, SON], texts)
    assert tie is not None and tie.people == ("钱甲",)
    assert "钱公" in texts[1][tie.start:tie.end + 2]


def test_two_people_near_it_share_it_and_are_not_merged() -> None:
    passage = "钱甲与钱丙同至。钱公曰：可也。" + "。" * 400
    tie = tie_title("钱公", "公", [FATHER, SON], {1: passage * 4})
    assert tie is not None and set(tie.people) == {"钱甲", "钱丙"}


def test_apposition_says_who_holds_the_title() -> None:
    text = ("都督钱丙引兵出。" + "。" * 300 + "钱甲大喜。钱都督曰：可。" * 3)
    tie = tie_title("钱都督", "都督", [FATHER, SON], {1: text})
    assert tie is not None and tie.people == ("钱丙",)


def test_too_little_evidence_ties_nothing() -> None:
    assert tie_title("钱公", "公", [FATHER, SON], {1: "钱公曰：可也。钱甲至。"}) is None


def test_an_apposition_far_from_the_forms_uses_says_nothing_of_it() -> None:
    """将军钱丙 said of the son twenty chapters after the father's 钱将军 was last used: the
    title was held then, the form meant the father."""
    texts = {1: "钱甲引兵至城下。钱将军曰：可也。" * 4, 21: "将军钱丙引兵出。" * 3}
    tie = tie_title("钱将军", "将军", [FATHER, SON], texts)
    assert tie is not None and tie.people == ("钱甲",)
    near = {1: "钱甲引兵至城下。钱将军曰：可也。" * 4, 3: "将军钱丙引兵出。" * 3}
    tie = tie_title("钱将军", "将军", [FATHER, SON], near)
    assert tie is not None and tie.people == ("钱丙",)


def test_a_string_around_the_form_is_no_candidate() -> None:
    """钱公大 (钱公大怒 read as a name) holds the form itself: it would be near every use."""
    texts = {1: "钱甲引兵至城下。钱公大怒曰：可也。" * 4 + "。" * 400 + "钱丙在后。"}
    fragment = TitleCandidate("钱公大", ("钱公大",))
    tie = tie_title("钱公", "公", [FATHER, SON, fragment], texts)
    assert tie is not None and tie.people == ("钱甲",)
