"""Every file a user hands us that is not UTF-8 is named with the real byte, line and column of
the first bad byte (it used to say "byte 0" of whatever failed, or Python's message with no
file), and a file in GB18030 or Big5 is named as such with the command that converts it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from core.errors import BundleError, CorpusError, EncodingError, QuestionFileError
from core.settings import DEFAULT_BUNDLE
from core.utf8 import read_utf8
from ingest.chunking import Block
from ingest.corpus import read_corpus
from kb.knowledge.bundle import load_bundle
from kb.knowledge.manifest import write_manifest
from retrieval.questions import load_questions

GOOD = "第一回　張天師祈禳瘟疫\n話說大宋仁宗天子在位".encode()
"""27 bytes of UTF-8 before the bad one: the title (line 1) and five characters of line 2."""


def _bad(path: Path, before: bytes = GOOD, bad: bytes = b"\xff", after: bytes = "嘉祐三年".encode()
         ) -> int:
    path.write_bytes(before + bad + after)
    return len(before)


def test_the_offset_line_and_column_are_those_of_the_bad_byte(tmp_path: Path) -> None:
    offset = _bad(tmp_path / "001.txt")
    with pytest.raises(EncodingError) as info:
        read_utf8(tmp_path / "001.txt")
    message = str(info.value)
    assert offset > 0 and f"at byte {offset} (line 2, column 11: 0xff)" in message, message
    assert str(tmp_path / "001.txt") in message and "iconv" not in message  # damaged, not GBK


def test_a_gbk_file_is_named_as_one_with_the_command_that_converts_it(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_bytes(b"001\n" + "第一回　張天師祈禳瘟疫".encode("gb18030"))
    with pytest.raises(CorpusError) as info:
        read_corpus(path)
    message = str(info.value)
    assert "at byte 4 (line 2, column 1" in message, message
    assert "GB18030" in message and "iconv -f GB18030 -t UTF-8" in message


def test_a_chapter_file_names_its_byte(tmp_path: Path) -> None:
    offset = _bad(tmp_path / "001.txt")
    with pytest.raises(CorpusError, match=f"001.txt: not UTF-8 text at byte {offset} "):
        read_corpus(tmp_path)


def test_kbx_ingest_prints_one_line_with_the_byte(tmp_path: Path) -> None:
    offset = _bad(tmp_path / "book.txt")
    result = CliRunner().invoke(app, ["ingest", "--corpus", str(tmp_path / "book.txt")],
                                env={"KBX_DATA_DIR": str(tmp_path / "data")})
    assert result.exit_code == 2, result.output
    assert f"byte {offset} (line 2" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "data").exists()


def test_a_question_file_names_its_byte(tmp_path: Path) -> None:
    line = b'{"id": "q1", "question": "\xe6\x9e\x97\xe5\x86\xb2"}\n'
    offset = _bad(tmp_path / "q.jsonl", before=line, after=b"\n")
    with pytest.raises(QuestionFileError) as info:
        load_questions(tmp_path / "q.jsonl", {})
    assert f"q.jsonl: not UTF-8 text at byte {offset} (line 2, column 1: 0xff)" in str(info.value)


def test_a_bundle_shard_names_its_file_and_byte(tmp_path: Path, kb_blocks: list[Block]) -> None:
    """A shard used to fail with Python's message alone ("can't decode byte 0xff in position
    973"), naming no file."""
    bundle = tmp_path / "bundle"
    shutil.copytree(DEFAULT_BUNDLE, bundle, ignore=lambda _, names: [  # chapters 7–11 only
        n for n in names if n.startswith("ch") and n.endswith(".jsonl") and n[2:5] not in
        {"007", "008", "009", "010", "011"}] + ["review"])
    shard = bundle / "shards" / "ch008.jsonl"
    data = shard.read_bytes()
    cut = data.index(b"\n", 200) + 1  # the start of line 2 or later
    line = data[:cut].count(b"\n") + 1
    shard.write_bytes(data[:cut] + b"\xc3" + data[cut:])  # a lead byte with no continuation
    write_manifest(bundle)  # (the edit made on purpose: the files are what the manifest says)
    with pytest.raises(BundleError) as info:
        load_bundle(bundle, kb_blocks)
    message = str(info.value)
    assert "shards/ch008.jsonl" in message and f"at byte {cut} (line {line}, column 1" in message
