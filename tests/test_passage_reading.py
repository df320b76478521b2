"""The passage reader of a text-built book (kb.answering.passage_reading): its cue families are
data with each word once, the families a question calls, and the blocks around a death."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from core.errors import ConfigError
from kb.answering.passage_reading import called_families, cues_of, neighbour_ids
from kb.knowledge.frames import LANG_DIR
from kb.knowledge.language import Reading, language, read_language


def _ctx(question: str, asks: str = "what", weapon: bool = False) -> Any:
    plan = SimpleNamespace(question=question, asks=asks, detail=SimpleNamespace(weapon=weapon))
    return SimpleNamespace(plan=plan)


def test_the_families_hold_each_word_once() -> None:
    words = language().reading
    every = [w for family in words.families.values() for w in family]
    assert len(every) == len(set(every))
    assert set(words.asks.values()) <= set(words.families)


def test_a_word_in_two_families_is_an_error() -> None:
    with pytest.raises(ValueError, match="stands in"):
        Reading(families={"a": ("送",), "b": ("送",)}, asks={})


def test_the_file_is_checked_on_load(tmp_path: Any) -> None:
    data = json.loads((LANG_DIR / "zh.json").read_text(encoding="utf-8"))
    data["reading"] = {"families": {"a": ["x"]}, "asks": {"where": "nowhere"}}
    bad = tmp_path / "zh.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError, match="no family"):
        read_language(bad)


def test_the_question_words_call_their_family_before_the_asked_slot() -> None:
    assert called_families(_ctx("某人到底活了多大岁数", asks="how_many")) == ["age"]
    assert called_families(_ctx("某人一共去了几次", asks="how_many")) == ["times"]
    assert "gave" in called_families(_ctx("那匹马是谁送给他的", asks="who"))


def test_a_weapon_question_wants_an_arm_in_the_sentence() -> None:
    cues = [c for family in cues_of(_ctx("某人使的是什么兵器", weapon=True)) for c in family]
    assert "矛" in cues and "造" in cues


def test_the_blocks_around_one() -> None:
    assert neighbour_ids("ch085_chunk_005", 1) == ["ch085_chunk_004", "ch085_chunk_005",
                                                   "ch085_chunk_006"]
    assert neighbour_ids("ch001_chunk_000", 1) == ["ch001_chunk_000", "ch001_chunk_001"]
    assert neighbour_ids("odd", 2) == ["odd"]
