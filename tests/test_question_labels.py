"""Label quotes of evaluation files are placed by the one folding rule of ingest.locate: either
script finds the same chapter offsets, and a quote that is missing or not unique stops the file
with its line named (never a silent wrong label)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from core.errors import QuestionFileError
from core.settings import DEFAULT_CORPUS
from ingest.corpus import read_corpus
from retrieval.questions import find_spans, load_questions

CHAPTERS = {c.number: c for c in read_corpus(DEFAULT_CORPUS, {7, 8})}
TRADITIONAL = "將那株綠楊樹帶"
SIMPLIFIED = "将那株绿杨树带"


def write(tmp_path: Path, *rows: dict[str, object]) -> Path:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")
    return path


def question(qid: str, core: list[str], chapters: list[int] | None = None) -> dict[str, object]:
    return {"id": qid, "question": "鲁智深做了什么？", "kind": "fact", "answerable": True,
            "core": core, "chapters": chapters}


def test_either_script_gives_the_same_offsets_in_the_original_text() -> None:
    [span] = find_spans(CHAPTERS, TRADITIONAL)
    assert find_spans(CHAPTERS, SIMPLIFIED) == [replace(span, quote=SIMPLIFIED)]
    assert span.chapter == 7
    assert CHAPTERS[7].text[span.start:span.end] == TRADITIONAL


def test_a_file_is_labelled_with_one_span_per_quote(tmp_path: Path) -> None:
    [labeled] = load_questions(write(tmp_path, question("q1", [SIMPLIFIED])), CHAPTERS)
    assert [(s.chapter, CHAPTERS[s.chapter].text[s.start:s.end]) for s in labeled.core] == [
        (7, TRADITIONAL)]


@pytest.mark.parametrize(("core", "chapters", "problem"), [
    (["这句话书里没有写过"], None, "not found"),
    (["林冲"], None, "times"),
    ([SIMPLIFIED], [8], "not found in chapters [8]"),
])
def test_a_missing_or_repeated_quote_names_the_line(tmp_path: Path, core: list[str],
                                                    chapters: list[int] | None,
                                                    problem: str) -> None:
    path = write(tmp_path, question("ok", [SIMPLIFIED]), question("bad", core, chapters))
    with pytest.raises(QuestionFileError) as caught:
        load_questions(path, CHAPTERS)
    assert "line 2 (question bad)" in str(caught.value)
    assert problem in str(caught.value)
