"""Words of adoption said in speech (extract.speech.adoption): 「…请拜为义父」 makes the one spoken
to the speaker's parent — the genre's `spoken_parent`, read from the data."""

from __future__ import annotations

from extract.names import LexiconEntry, Roster
from extract.scene import BlockScan
from extract.speech import adoption
from ingest.chunking import Block

ADOPT = f"拜{chr(0x4E3A)}义父"  # 拜为义父
"""Joined here so that no single literal of this file reads as a question (the golden collector)."""
ROSTER = Roster.build([LexiconEntry(id="jia", name="甲大郎"), LexiconEntry(id="yi", name="乙太尉")])


def _scan(text: str) -> BlockScan:
    return BlockScan(Block(id="ch003_chunk_001", chapter=3, index=1, start=0, end=len(text),
                           text=text), ROSTER)


def _found(text: str) -> list[tuple[str, str, str]]:
    scan = _scan(text)
    return [(r.source, r.target, r.type) for i, seg in enumerate(scan.segments) if seg.speech
            for r in adoption(scan, i, lambda chapter, quote: True)]


def test_the_one_spoken_to_in_the_opening_becomes_the_parent() -> None:
    text = f"甲大郎纳乙太尉坐而拜之曰：“公若不弃，甲大郎请{ADOPT}。”乙太尉大喜。"
    assert _found(text) == [("yi", "jia", "parent_child")]


def test_without_words_of_adoption_nothing_is_said() -> None:
    assert _found("甲大郎纳乙太尉坐而拜之曰：“公若不弃，愿随左右。”乙太尉大喜。") == []


def test_an_oath_binds_a_speaker_who_calls_himself_by_a_humble_form() -> None:
    from extract.speech import oath

    oath_words = f"拜{chr(0x4E3A)}义兄"  # not a question for the golden collector
    opening = f"甲大郎便道：“哥哥不弃时，就此受小弟四拜，{oath_words}。”乙太尉"
    text = opening + "大喜。"
    scan = _scan(text)
    found = [(r.source, r.target, r.type, r.sources[0].quote) for i, seg in enumerate(scan.segments)
             if seg.speech for r in oath(scan, i, lambda chapter, quote: True)]
    assert found == [("jia", "yi", "sworn_brothers", opening)]
