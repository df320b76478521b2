"""A kinship noun right between two names (甲母乙, 甲长子乙, 甲妻乙: genre cues, and
`Cues.kin_apposition` read from them): the pair is typed and directed by the noun, and the one
who only owns the relative is no actor of the block's scene."""

from __future__ import annotations

from extract.cues import default_cues
from extract.names import Mention
from extract.pairing import cue_pairs

CUES = default_cues()


def _pairs(text: str, mentions: list[Mention]) -> set[tuple[str, str, str]]:
    found = set()
    for cue in CUES.relations:
        for match in cue.pattern.finditer(text):
            for pair in cue_pairs(text, mentions, cue, match.start(), match.end(), 0, CUES):
                found.add((cue.type, pair.source, pair.target))
    return found


def test_the_noun_between_two_names_types_and_directs_the_pair() -> None:
    mother = _pairs("早有人报知策母吴夫人。", [Mention("ce", 5, 6, "策"), Mention("wu", 7, 10, "吴夫人")])
    assert ("parent_child", "wu", "ce") in mother  # 甲母乙: 乙 is the parent (source)
    son = _pairs("操长子曹昂，以马奉操。", [Mention("cao", 0, 1, "操"), Mention("ang", 3, 5, "曹昂")])
    assert ("parent_child", "cao", "ang") in son
    wife = _pairs("操大妻丁夫人无出。", [Mention("cao", 0, 1, "操"), Mention("ding", 3, 6, "丁夫人")])
    assert {t for t, _, _ in wife} == {"spouse"}


def test_a_word_between_the_names_is_no_kin_noun() -> None:
    assert _pairs("操与母丁夫人相见。", [Mention("cao", 0, 1, "操"), Mention("ding", 3, 6, "丁夫人")]) \
        .isdisjoint({("parent_child", "ding", "cao")})


def test_one_who_only_owns_a_relative_named_after_him_is_no_actor() -> None:
    from extract.names import LexiconEntry, Roster
    from extract.scene import BlockScan
    from ingest.chunking import Block

    roster = Roster.build([LexiconEntry(id="jia", name="甲大郎"), LexiconEntry(id="bing", name="丙夫人")])
    text = "众人送米与甲大郎妻丙夫人。又送钱与甲大郎妻丙夫人。"
    scan = BlockScan(Block(id="ch003_chunk_001", chapter=3, index=1, start=0, end=len(text), text=text),
                     roster, CUES)
    assert scan.narrative_counts()["jia"] == 2
    assert scan.actors() == ["bing"]


def test_father_and_son_is_no_kin_noun_between_two_names() -> None:
    text = "甲大郎教将乙二郎与丙三郎父子，一齐绑至。"
    mentions = [Mention("jia", 0, 3, "甲大郎"), Mention("yi", 5, 8, "乙二郎"),
                Mention("bing", 9, 12, "丙三郎")]
    assert {t for t, _, _ in _pairs(text, mentions)}.isdisjoint({"parent_child"})
