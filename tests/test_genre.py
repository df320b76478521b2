"""The extraction vocabulary is data: the genre's and the language's files, typed and validated,
and the extractor reads its cues from them (a bad file is a clear error naming the field)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from extract_support import fresh_inputs

from core.errors import ConfigError
from core.settings import DEFAULT_BUNDLE
from extract.corpus_tables import TABLES_FILE, read_tables
from extract.cues import Cues, default_cues
from extract.offline import OfflineExtractor
from kb.knowledge.genre import GENRE_FILE, LANGUAGE_FILE, genre, grammar, load_genre, load_grammar
from kb.knowledge.models import RELATION_TYPES


def _genre_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GENRE_FILE.read_text(encoding="utf-8"))
    return data


def _write(tmp_path: Path, data: object, name: str = "genre.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_bundled_files_load() -> None:
    words, grammar_words = genre(), grammar()
    assert words.relation_cues and all(c.type in RELATION_TYPES for c in words.relation_cues)
    assert words.huimu.separator.pattern
    assert "被" in grammar_words.passive and "、" in grammar_words.connectors


@pytest.mark.parametrize("change, field", [
    (lambda d: d["relation_cues"][3].update(pattern="结义("), "relation_cues.3.pattern"),
    (lambda d: d["relation_cues"][0].update(type="blood_brothers"), "relation_cues.0.type"),
    (lambda d: d["relation_cues"][1].update(direction="sideways"), "relation_cues.1.direction"),
    (lambda d: d["state_cues"][0].update(confidence=1.5), "state_cues.0.confidence"),
    (lambda d: d.pop("huimu"), "huimu"),
    (lambda d: d.update(actions=[["杀"]]), "actions.0"),
])
def test_a_bad_genre_file_names_the_field(tmp_path: Path, change: Any, field: str) -> None:
    data = _genre_data()
    change(data)
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError) as caught:
        load_genre(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}"), message


def test_a_file_that_is_not_json_or_absent_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "genre.json"
    broken.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a JSON file"):
        load_genre(broken)
    with pytest.raises(ConfigError, match="no such file"):
        load_genre(tmp_path / "missing.json")


def test_a_bad_language_file_names_the_field(tmp_path: Path) -> None:
    data = json.loads(LANGUAGE_FILE.read_text(encoding="utf-8"))
    with pytest.raises(ConfigError, match="extraction: missing section"):
        load_grammar(_write(tmp_path, {"questions": {}}, "zh.json"))
    data["extraction"]["negation"] = "[不"
    with pytest.raises(ConfigError, match=r"zh\.json: extraction\.negation"):
        load_grammar(_write(tmp_path, data, "zh.json"))


def test_a_bad_book_cue_names_the_field(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    tables = json.loads((DEFAULT_BUNDLE / TABLES_FILE).read_text(encoding="utf-8"))
    tables["state_cues"][0]["kind"] = "mood"
    (book / TABLES_FILE).write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"extraction\.json: state_cues\.0\.kind"):
        read_tables(book)


def test_the_extractor_reads_its_cues_from_the_data(tmp_path: Path) -> None:
    """The same chapter with the sworn-brother cues taken out of a copy of the genre file gives
    no sworn brothers: the words are the data's, not the code's."""
    inputs = fresh_inputs()
    chapter = inputs.by_chapter([7])
    usual = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(chapter)
    assert any(r.type == "sworn_brothers" for p in usual for r in p.relations)
    data = _genre_data()
    data["relation_cues"] = [c for c in data["relation_cues"] if c["type"] != "sworn_brothers"]
    data["spoken_oath"] = "(?!x)x"
    words = load_genre(_write(tmp_path, data))
    cues = Cues.of(words, grammar(), inputs.roster.tables)
    without = OfflineExtractor(inputs.roster, inputs.texts, cues).extract_chapters(chapter)
    assert not any(r.type == "sworn_brothers" for p in without for r in p.relations)


def test_a_books_own_cues_apply_to_that_book_alone(tmp_path: Path) -> None:
    """A book's state cues (joining its band) come from its tables; a book without tables
    (another novel) has the genre's cues only."""
    shuihu = default_cues(read_tables(DEFAULT_BUNDLE))
    other = default_cues(read_tables(tmp_path))
    book_values = {c.value for c in read_tables(DEFAULT_BUNDLE).cues.state_cues}
    assert book_values and book_values <= {c.value for c in shuihu.states}
    assert not book_values & {c.value for c in other.states}
    assert not book_values & {c.value for c in genre().fate_cues}


def test_the_genre_data_holds_no_book_words(tmp_path: Path) -> None:
    """The book's own cues, places and scene forms stay in its tables: none is in the genre's file
    or the language's extraction words (their names are checked by tests/test_generic_code.py)."""
    tables = read_tables(DEFAULT_BUNDLE)
    words = {c.value for c in tables.cues.state_cues} | {w for w, _ in tables.cues.actions}
    words |= set(tables.places) | {f for s in tables.scene_forms for f in s.forms if len(f) > 2}
    extraction = json.loads(LANGUAGE_FILE.read_text(encoding="utf-8"))["extraction"]
    text = GENRE_FILE.read_text(encoding="utf-8") + json.dumps(extraction, ensure_ascii=False)
    assert not sorted(w for w in words if w in text)
    copy = tmp_path / "zhanghui.json"
    shutil.copy(GENRE_FILE, copy)
    assert load_genre(copy) == genre()
