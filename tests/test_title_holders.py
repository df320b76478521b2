"""A title used alone is the alias of the one person who holds it, in the chapters where they
hold it: said by apposition, by their surname form, or by a conferral; a title that passes on has
a holder per stretch, and a rank many hold at once is no one's (invented names: the rules are the
genre's)."""

from __future__ import annotations

from extract.title_holders import TitleWords, title_holders

# A text opens with a paragraph break ("\n…"): a short literal holding 为 would otherwise be
# harvested as a question by tests/golden/answers.py.
WORDS = TitleWords(titles=("丞相", "将军"), suffixes=("王", "侯", "公"), conferral_verbs=("封", "立"),
                   generic=frozenset({"主公"}), determiners=frozenset({"那"}))
PEOPLE = {"钱甲": ("钱甲", "子乙"), "孙丙": ("孙丙",), "周丁": ("周丁",), "吴戊": ("吴戊",)}
PAD = "。" * 400


def _holders(texts: dict[int, str],
             surname_forms: dict[str, list[str]] | None = None) -> set[tuple[str, str, int, int]]:
    found = title_holders(texts, PEOPLE, surname_forms or {}, WORDS)
    return {(h.title, h.person, h.first, h.last) for h in found}


def test_apposition_ties_a_fiefs_title_to_its_holder() -> None:
    texts = {1: "南王钱甲引兵至。钱甲曰：可。南王大喜。" + PAD, 2: "南王与钱甲同坐。南王曰：善。" + PAD}
    assert ("南王", "钱甲", 1, 2) in _holders(texts)


def test_a_title_passes_from_holder_to_holder() -> None:
    """立钱甲为北王 in chapter 1, 立孙丙为北王 in chapter 3 (and 北王 before each name): two stretches."""
    texts = {1: "\n众官立钱甲为北王。钱甲谢恩。北王曰：可。" + PAD,
             2: "北王钱甲在宫中。北王大喜。" + PAD,
             3: "\n钱甲死。众官立孙丙为北王。孙丙登位。北王曰：善。" + PAD,
             4: "北王孙丙出城。北王大怒。" + PAD}
    found = _holders(texts)
    assert ("北王", "钱甲", 1, 2) in found and ("北王", "孙丙", 3, 4) in found


def test_the_surname_form_says_who_holds_a_rank() -> None:
    texts = {c: "钱丞相引兵出。钱甲大喜。丞相曰：可也。" + PAD for c in range(1, 5)}
    assert ("丞相", "钱甲", 1, 4) in _holders(texts, {"钱甲": ["钱丞相"]})


def test_a_rank_many_hold_at_once_is_no_ones() -> None:
    texts = {1: "将军钱甲出。将军孙丙出。将军周丁出。将军吴戊出。将军钱甲回。将军曰：可。" + PAD}
    assert not any(t == "将军" for t, *_ in _holders(texts))


def test_one_conferral_of_a_rank_ties_nothing() -> None:
    texts = {1: "\n封钱甲为丞相。钱甲谢恩。丞相曰：可。丞相出。丞相回。" + PAD}
    assert not _holders(texts)


def test_the_given_name_alone_after_the_full_name() -> None:
    texts = {1: "孙丙降。众官议曰：宜赦之。乃封丙为安平公，赐住宅。安平公谢恩。孙丙大喜，安平公曰：善。"
                "\n" + PAD}
    assert ("安平公", "孙丙", 1, 1) in _holders(texts)


def test_a_noun_after_a_determiner_is_no_title() -> None:
    texts = {1: "那梢公钱甲摇船。梢公曰：可。梢公摇船。钱甲笑。" + PAD}
    assert not _holders(texts)


def test_a_sovereigns_title_is_held_to_its_last_use_though_the_name_is_never_near() -> None:
    """季主 (a sovereign's title of the genre's list, invented here) is written in place of 孙丙's
    name: twice 季主孙丙, then 季主 alone for many chapters, far from his name; 季主闻知 (a verb
    read as a name) is no statement."""
    words = TitleWords(titles=("丞相", "季主"), suffixes=("王", "侯", "公"), conferral_verbs=("封",),
                       generic=frozenset(), sovereign=frozenset({"季主"}))
    people = {**PEOPLE, "闻知": ("闻知",)}
    texts = {1: "\n季主孙丙即位。" + PAD + "季主闻知，大喜。",
             **{c: PAD + "季主曰：可。季主大喜。" + PAD for c in range(2, 20)},
             20: "\n季主孙丙出城。季主闻知，大惊。季主曰：善。"}
    found = {(h.title, h.person, h.first, h.last) for h in title_holders(texts, people, {}, words)}
    assert found == {("季主", "孙丙", 1, 20)}
