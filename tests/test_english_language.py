"""The English language file (kb/data/lang/en.json, kb.knowledge.english_words): the same
answer frames as zh.json (every key, every template with the same fields), an English label for
every relation type, the English words written once, and a bad file named with what is wrong."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from core.errors import ConfigError
from kb.knowledge.english_words import English, english
from kb.knowledge.frames import LANG_DIR, read_model
from kb.knowledge.language import frames, language
from kb.knowledge.models import RELATION_TYPES

CJK = re.compile(r"[\u3400-\u9fff]")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_frames_have_zh_keys_and_fields() -> None:
    """Every key of zh's, each English template formatted with the fields zh's is given (the
    same ones, or fewer where English needs less: a premise's act is English, not the Chinese
    word the question used)."""
    zh, en = language().say, english().say
    assert set(zh) == set(en)
    assert [k for k in zh if not _fields(en[k]) <= _fields(zh[k])] == []
    assert sum(_fields(en[k]) == _fields(zh[k]) for k in zh) >= len(zh) - 6
    for key, template in zh.items():
        frames("en").phrase(key, **{f: "x" for f in _fields(template)})
    zh_prompt, en_prompt = language().prompt, english().prompt
    assert set(zh_prompt.asks) == set(en_prompt.asks) and set(zh_prompt.moments) == set(en_prompt.moments)


def test_the_english_frames_hold_no_chinese() -> None:
    """The frame is English; only the book's own words (fields) are Chinese."""
    file = english()
    assert not [k for k, v in file.say.items() if CJK.search(v)]
    assert not [k for k, v in file.relation_labels.items() if CJK.search(v)]


def test_every_relation_type_has_an_english_label() -> None:
    assert set(english().relation_labels) == set(RELATION_TYPES)
    assert frames("en").relation_labels["sworn_brothers"] == "sworn brothers"


def test_frames_of_each_language() -> None:
    assert frames("zh").phrase("chapter.one", n=7) == "第7回"
    assert frames("en").phrase("chapter.one", n=7) == "chapter 7"
    with pytest.raises(ConfigError, match="'fr'"):
        frames("fr")


def _write(tmp_path: Path, data: dict[str, object]) -> Path:
    path = tmp_path / "en.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _data() -> dict[str, object]:
    return json.loads((LANG_DIR / "en.json").read_text(encoding="utf-8"))


def test_a_word_in_two_parts_is_named(tmp_path: Path) -> None:
    data = _data()
    data["words"]["noun"]["kill"] = "杀"  # type: ignore[index]
    with pytest.raises(ConfigError, match="'kill' stands in two parts"):
        read_model(_write(tmp_path, data), English)


def test_an_irregular_form_of_no_word_is_named(tmp_path: Path) -> None:
    data = _data()
    data["irregular"]["wove"] = "weave"  # type: ignore[index]
    with pytest.raises(ConfigError, match="'wove': its base 'weave' is no word"):
        read_model(_write(tmp_path, data), English)


def test_a_template_whose_chinese_drops_its_name_is_named(tmp_path: Path) -> None:
    data = _data()
    data["templates"]["who was * really"] = "是谁"  # type: ignore[index]
    with pytest.raises(ConfigError, match="who was \\* really"):
        read_model(_write(tmp_path, data), English)


def test_a_missing_part_and_a_missing_frame_are_named(tmp_path: Path) -> None:
    data = _data()
    del data["words"]["unit"]  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="unit"):
        read_model(_write(tmp_path, data), English)
    data = _data()
    del data["prompt"]
    with pytest.raises(ConfigError, match="prompt"):
        read_model(_write(tmp_path, data), English)


def test_a_frame_only_zh_has_yet_stands_in_for_english() -> None:
    """A template added to zh.json before en.json has it: the English answer still comes (the
    key test above fails until en.json has it)."""
    file = english().model_copy(update={"say": {k: v for k, v in english().say.items()
                                                if k != "chapter.one"}})
    assert file.phrase("chapter.one", n=7) == "第7回"
