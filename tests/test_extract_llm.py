"""The LLM extractor against a real loopback server that speaks the OpenAI protocol (scripted)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from extract_support import book_blocks, fresh_inputs
from openai_stub import OpenAIStub, Recorded, Reply
from typer.testing import CliRunner

from core.errors import LLMError
from core.llm import ChatClient
from core.settings import Settings
from core.text import normalize
from extract.cache import ReplyCache
from extract.gate import read_gate
from extract.llm_extractor import LLMExtractor
from extract.parts import ChapterPart
from extract.pipeline import Inputs
from extract.text import segments
from ingest.chunking import Block

pytestmark = pytest.mark.llm  # the LLM extraction path against the stub

CHAPTER = 23
BLOCK_ID = re.compile(r"段落 (ch\d{3}_chunk_\d{3})")
BAD_QUOTE = "這句話不在原文裏面"


def blocks() -> dict[str, Block]:
    return {b.id: b for b in book_blocks() if b.chapter == CHAPTER}


def first_sentence(block: Block) -> str:
    return next(block.text[s.start:s.end] for s in segments(block.text) if len(s) >= 8)


def good_answer(block: Block) -> dict[str, object]:
    """A valid answer: one event, a relation with a real quote, one with a quote not in the block."""
    quote = first_sentence(block)
    answer: dict[str, object] = {
        "people": [{"name": "武松", "aliases": ["武二郎"], "quote": quote}],
        "events": [{"title": f"事件 {block.index}", "participants": ["武松", "宋江"], "quote": quote}],
        "relations": [
            {"source": "宋江", "target": "武松", "type": "acquaintance", "quote": quote},
            {"source": "宋江", "target": "武松", "type": "friend", "quote": BAD_QUOTE},
        ],
        "states": [{"person": "武松", "kind": "place", "value": "景阳冈", "quote": quote}],
    }
    if "知縣" in block.text:
        answer["people"] = [{"name": "知縣", "quote": "知縣"}]
        answer["relations"] = [{"source": "知縣", "target": "武松", "type": "superior", "directed": True,
                                "quote": quote}]
    return answer


def block_of(request: Recorded) -> Block:
    match = BLOCK_ID.search(request.prompt)
    assert match, request.prompt[:200]
    return blocks()[match.group(1)]


def good(request: Recorded) -> Reply:
    return Reply.json(good_answer(block_of(request)), prompt_tokens=100, completion_tokens=20)


def make_extractor(stub: OpenAIStub, inputs: Inputs, cache_dir: Path, *, concurrency: int = 4,
                   timeout: float = 2.0, retries: int = 2) -> LLMExtractor:
    settings = Settings(OPENAI_BASE_URL=stub.url, OPENAI_API_KEY="test-key", llm_model="stub-model",
                        llm_timeout=timeout, llm_retries=retries)
    client = ChatClient(settings, backoff=0.01)
    return LLMExtractor(client, inputs.roster, inputs.texts, ReplyCache(cache_dir), concurrency=concurrency)


def extract(extractor: LLMExtractor, inputs: Inputs) -> ChapterPart:
    (part,) = extractor.extract_chapters(inputs.by_chapter([CHAPTER]))
    extractor.client.close()
    return part


@pytest.fixture
def inputs() -> Inputs:
    return fresh_inputs()


def test_records_are_verified_and_converted(openai_stub: OpenAIStub, inputs: Inputs, tmp_path: Path) -> None:
    openai_stub.respond_with(good)
    part = extract(make_extractor(openai_stub, inputs, tmp_path), inputs)
    n = len(blocks())
    assert len(openai_stub.requests) == n
    assert part.counters["blocks"] == n and "blocks_failed" not in part.counters
    assert part.counters["calls"] == n and part.counters["prompt_tokens"] == 100 * n
    assert len(part.events) == n
    relation_ids = {r.id for r in part.relations}
    assert "xrel_song_jiang_wu_song_acquaintance_u" in relation_ids
    assert not any(r.type == "friend" for r in part.relations)  # its quote is not in the block
    assert part.counters["dropped_quote_not_in_block"] >= n - 3
    for record in [*part.events, *part.relations, *part.states]:
        ref = record.sources[0]
        assert ref.chunk_id and ref.quote in blocks()[ref.chunk_id].text
    new = [p for p in part.new_people if p.name == "知县"]
    assert new and new[0].id.startswith("llm_")
    assert any(r.source == new[0].id and r.type == "superior" for r in part.relations)
    orders = [e.order for e in part.events]
    assert len(set(orders)) == n and all(CHAPTER * 1000 + 100 <= o < (CHAPTER + 1) * 1000 for o in orders)


def test_prompt_carries_schema_block_and_known_names(openai_stub: OpenAIStub, inputs: Inputs,
                                                     tmp_path: Path) -> None:
    openai_stub.respond_with(good)
    extract(make_extractor(openai_stub, inputs, tmp_path, concurrency=1), inputs)
    first = openai_stub.requests[0]
    assert first.body["response_format"] == {"type": "json_object"}
    system, user = first.messages
    assert "acquaintance" in system["content"] and "quote" in system["content"]
    assert "段落 ch023_chunk_001" in user["content"] and "宋江" in user["content"]
    assert blocks()["ch023_chunk_001"].text in user["content"]


def test_rerun_is_free_from_the_cache(openai_stub: OpenAIStub, inputs: Inputs, tmp_path: Path) -> None:
    openai_stub.respond_with(good)
    first = extract(make_extractor(openai_stub, inputs, tmp_path), inputs)
    asked = len(openai_stub.requests)
    again = extract(make_extractor(openai_stub, fresh_inputs(), tmp_path), fresh_inputs())
    assert len(openai_stub.requests) == asked
    assert again.counters["blocks_cached"] == len(blocks()) and "calls" not in again.counters
    assert [e.id for e in again.events] == [e.id for e in first.events]
    assert {r.id for r in again.relations} == {r.id for r in first.relations}


def test_partial_failures_are_counted_and_a_rerun_resumes(openai_stub: OpenAIStub, inputs: Inputs,
                                                          tmp_path: Path) -> None:
    def flaky(request: Recorded) -> Reply:
        block = block_of(request)
        if block.index == 3:
            return Reply.text('{"events": [ {"title": ')  # malformed, also after the repair turn
        if block.index == 5:
            return Reply.error(500, "upstream down")
        if block.index == 7:
            return Reply.json({"relations": [{"source": "武松", "target": "宋江", "type": "cousins",
                                              "quote": "x"}]})  # invalid type, twice
        return good(request)

    openai_stub.respond_with(flaky)
    part = extract(make_extractor(openai_stub, inputs, tmp_path, retries=1), inputs)
    assert part.counters["blocks_failed"] == 3
    assert len(part.events) == len(blocks()) - 3
    assert sum(1 for r in openai_stub.requests if "ch023_chunk_005" in r.prompt) == 2  # retried once
    openai_stub.reset()
    openai_stub.respond_with(good)
    resumed = extract(make_extractor(openai_stub, fresh_inputs(), tmp_path), fresh_inputs())
    asked = sorted(block_of(r).index for r in openai_stub.requests)
    assert asked == [3, 5, 7]
    assert "blocks_failed" not in resumed.counters and len(resumed.events) == len(blocks())


def test_timeout_and_rate_limit_are_retried(openai_stub: OpenAIStub, inputs: Inputs, tmp_path: Path) -> None:
    openai_stub.script(Reply.slow(4.0), Reply.rate_limited(0.05))
    openai_stub.respond_with(good)
    # a timeout well above a loopback reply on a loaded machine (0.3 s once made an extra retry)
    extractor = make_extractor(openai_stub, inputs, tmp_path, concurrency=1, timeout=1.0)
    part = extract(extractor, inputs)
    assert "blocks_failed" not in part.counters
    assert len(openai_stub.requests) == len(blocks()) + 2
    assert [block_of(r).index for r in openai_stub.requests[:3]] == [1, 1, 1]
    assert extractor.client.usage.calls == len(blocks())


def test_a_non_loopback_endpoint_is_refused_before_any_work(inputs: Inputs, tmp_path: Path) -> None:
    settings = Settings(OPENAI_BASE_URL="https://api.openai.com/v1", OPENAI_API_KEY="sk-x")
    extractor = LLMExtractor(ChatClient(settings), inputs.roster, inputs.texts, ReplyCache(tmp_path))
    with pytest.raises(LLMError):
        extractor.extract_chapters(inputs.by_chapter([CHAPTER]))


def test_cli_llm_extraction_writes_both_bundles_and_gates_the_merge(
        openai_stub: OpenAIStub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The LLM's records are measured like the offline ones; one chapter's 12 events are too few
    to measure, so the merged bundle stays the curated one and gate.json says why."""
    from cli.main import app

    openai_stub.respond_with(good)
    for key, value in {"OPENAI_BASE_URL": openai_stub.url, "OPENAI_API_KEY": "test-key",
                       "KBX_DATA_DIR": str(tmp_path), "KBX_LLM_RETRIES": "1"}.items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(app, ["extract", "--llm", "--chapters", str(CHAPTER), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["method"] == "llm" and summary["chapters"] == [CHAPTER]
    assert summary["extracted"]["events"] == len(blocks())
    curated = fresh_inputs().curated
    assert summary["merged"] == curated.counts()
    gate = read_gate(tmp_path / "shuihu" / "bundle")
    assert gate is not None and gate.method == "llm" and gate.chapters == [CHAPTER]
    events = next(k for k in gate.kinds if k.kind == "events")
    assert events.found == len(blocks()) and not events.admitted and "< 20" in events.reason
    assert gate.added == {"people": 0, "events": 0, "relations": 0, "relation_sources": 0, "states": 0,
                          "chapters": 0}
    extracted = tmp_path / "shuihu" / "extracted"
    assert (extracted / "parts" / "ch023.json").exists()
    lines = (extracted / "relations.jsonl").read_text(encoding="utf-8").splitlines()
    assert any(normalize("宋江") in normalize(line) for line in lines)
    assert Settings(data_dir=tmp_path).active_bundle_dir() == tmp_path / "shuihu" / "bundle"
